/**
 * Microsoft Teams and Discord (issue 36): one form for a chat channel's webhook URL, required only while
 * enabled. The URL is the credential (Teams' signed `sig=`, Discord's token in the path), so it is a
 * secret: typed in a password field, read back masked, and sent back masked it keeps the stored one. The
 * rule is the API's own (contracts/chat-integrations.ts): Teams any https URL, Discord a discord.com
 * webhook; on the local stack the vendor fake's http://127.0.0.1 address (its page shows the URL to paste).
 */
import { PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { discordDataSchema, teamsDataSchema } from '#contracts/chat-integrations';
import { Section } from '../components/Section';
import { saveIntegration } from './data';
import { ActiveSwitch, SaveRow, useIntegrationSave } from './FormParts';
import type { ViewOf } from './model';

type ChatName = 'teams' | 'discord';
type ChatValues = { active: boolean; url: string };

const schemas = { teams: teamsDataSchema, discord: discordDataSchema } as const;
const placeholders = {
  teams: 'https://….environment.api.powerplatform.com/…/invoke?…&sig=…',
  discord: 'https://discord.com/api/webhooks/…/…',
} as const;

const valuesOf = (view: ViewOf<ChatName>): ChatValues => ({ active: view.active === 1, url: view.data.url });

export function ChatWebhookSettings({ projectId, view }: { projectId: string; view: ViewOf<ChatName> }) {
  const { t } = useTranslation();
  const name = view.name;
  const form = useForm<ChatValues>({
    initialValues: valuesOf(view),
    validate: {
      url: (value, values) => {
        const v = value.trim();
        if (v === '') return values.active ? t('validation.required') : null;
        return schemas[name].shape.url.safeParse(v).success
          ? null
          : t(`integrationScreen.${name}.urlInvalid`);
      },
    },
    validateInputOnBlur: true,
  });
  const { save: run, saving, error } = useIntegrationSave(form, name);
  const save = (values: ChatValues) =>
    run(async () =>
      valuesOf(
        (await saveIntegration(projectId, {
          name,
          active: values.active ? 1 : 0,
          data: { url: values.url.trim() },
        })) as ViewOf<ChatName>,
      ),
    );

  return (
    <Section
      title={t(`integrations.${name}`)}
      description={t(`integrationScreen.${name}.description`)}
      labelId={`integration-${name}`}
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {error}
          <ActiveSwitch form={form} />
          <PasswordInput
            label={t(`integrationScreen.${name}.url`)}
            description={t(`integrationScreen.${name}.urlHint`)}
            placeholder={placeholders[name]}
            withAsterisk={form.getValues().active}
            maxLength={2000}
            autoComplete="off"
            key={form.key('url')}
            {...form.getInputProps('url')}
          />
          <Text size="sm" c="dimmed">
            {t(`integrationScreen.${name}.inert`)}
          </Text>
          <SaveRow saving={saving} dirty={form.isDirty()} />
        </Stack>
      </form>
    </Section>
  );
}

/**
 * Webhooks (SPEC.md sections 2 and 5; payload and signature in docs/webhooks.md): an https URL (or, on the
 * local stack, an http://localhost receiver), required only while enabled, and the token that signs each delivery. The token is shown masked once saved;
 * typing a new one replaces it. The events it subscribes to (issue 23, docs/webhooks.md "Events"): issue.created
 * is always sent (decision Tr-M6), so its box is checked and disabled; the others are chosen.
 */
import { Checkbox, Fieldset, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { webhookEventsOf, webhooksDataSchema } from '#contracts/integrations';
import { type WebhookEvent, webhookEvents } from '#contracts/triage';
import { Section } from '../components/Section';
import { saveIntegration } from './data';
import { ActiveSwitch, SaveRow, useIntegrationSave } from './FormParts';
import type { ViewOf } from './model';

type WebhookValues = {
  active: boolean;
  url: string;
  token: string;
  events: WebhookEvent[];
};

const valuesOf = (view: ViewOf<'webhooks'>): WebhookValues => ({
  active: view.active === 1,
  url: view.data.url,
  token: view.data.token,
  events: webhookEventsOf(view.data),
});

/** The translation key of each event's checkbox label. */
const eventLabel = {
  'issue.created': 'integrationScreen.webhooks.eventCreated',
  'issue.updated': 'integrationScreen.webhooks.eventUpdated',
  'comment.created': 'integrationScreen.webhooks.eventComment',
  'issue.merged': 'integrationScreen.webhooks.eventMerged',
  'issue.unmerged': 'integrationScreen.webhooks.eventUnmerged',
} as const satisfies Record<WebhookEvent, string>;

export function WebhookSettings({ projectId, view }: { projectId: string; view: ViewOf<'webhooks'> }) {
  const { t } = useTranslation();
  const form = useForm<WebhookValues>({
    initialValues: valuesOf(view),
    validate: {
      url: (value, values) => {
        const v = value.trim();
        if (v === '') return values.active ? t('validation.required') : null;
        // The API's own rule: https, or a loopback receiver that only the local stack accepts.
        return webhooksDataSchema.shape.url.safeParse(v).success ? null : t('integrationScreen.httpsOnly');
      },
    },
    validateInputOnBlur: true,
  });

  const { save: run, saving, error } = useIntegrationSave(form, 'webhooks');

  const save = (values: WebhookValues) =>
    run(async () =>
      valuesOf(
        await saveIntegration(projectId, {
          name: 'webhooks',
          active: values.active ? 1 : 0,
          data: { url: values.url.trim(), token: values.token, events: values.events },
        }),
      ),
    );

  return (
    <Section
      title={t('integrations.webhooks')}
      description={t('integrationScreen.webhooks.description')}
      labelId="integration-webhooks"
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {error}
          <ActiveSwitch form={form} />
          <TextInput
            type="url"
            label={t('integrationScreen.webhooks.url')}
            placeholder="https://example.com/snag-webhook"
            withAsterisk={form.getValues().active}
            maxLength={2000}
            key={form.key('url')}
            {...form.getInputProps('url')}
          />
          <PasswordInput
            label={t('integrationScreen.webhooks.token')}
            description={t('integrationScreen.webhooks.tokenHint')}
            maxLength={1000}
            autoComplete="off"
            key={form.key('token')}
            {...form.getInputProps('token')}
          />
          <Fieldset
            legend={t('integrationScreen.webhooks.events')}
            variant="unstyled"
            // The legend reads like the form's other field labels.
            styles={{ legend: { fontWeight: 'var(--mantine-font-weight-medium)' } }}
          >
            <Checkbox.Group key={form.key('events')} {...form.getInputProps('events')}>
              <Stack gap="xs">
                {webhookEvents.map((e) => (
                  <Checkbox
                    key={e}
                    value={e}
                    label={t(eventLabel[e])}
                    // issue.created carries the delivery status and Sync: always sent (Tr-M6).
                    {...(e === 'issue.created'
                      ? { disabled: true, description: t('integrationScreen.webhooks.alwaysSent') }
                      : {})}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
          </Fieldset>
          <Text size="sm" c="dimmed">
            {t('integrationScreen.webhooks.docs')}
          </Text>
          <SaveRow saving={saving} dirty={form.isDirty()} />
        </Stack>
      </form>
    </Section>
  );
}

/**
 * Email (SPEC.md sections 2 and 5): an active switch, the address (required while active), up to 3 copy
 * addresses (each required and email-typed; the add control hides at the limit) and contact name/value
 * pairs shown in every mail. Open on every plan.
 */
import { ActionIcon, Button, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { emailDataSchema } from '#contracts/integrations';
import { limits } from '#contracts/limits';
import { Section } from '../components/Section';
import { errorText } from '../i18n';
import { saveIntegration } from './data';
import { ActiveSwitch, SaveRow, useIntegrationSave } from './FormParts';
import { type KeyValue, KeyValueRows } from './KeyValueRows';
import type { ViewOf } from './model';

type EmailValues = {
  active: boolean;
  email: string;
  cc: string[];
  contactFields: KeyValue[];
};

const valuesOf = (view: ViewOf<'email'>): EmailValues => ({
  active: view.active === 1,
  email: view.data.email,
  cc: view.data.cc,
  contactFields: view.data.contactFields,
});

const validEmail = (value: string) =>
  emailDataSchema.shape.cc.unwrap().element.safeParse(value.trim()).success;

export function EmailSettings({ projectId, view }: { projectId: string; view: ViewOf<'email'> }) {
  const { t } = useTranslation();
  const form = useForm<EmailValues>({
    initialValues: valuesOf(view),
    validate: {
      email: (value, values) => {
        if (value.trim() === '') return values.active ? t('validation.required') : null;
        return validEmail(value) ? null : errorText('INVALID_EMAIL');
      },
      contactFields: { name: (value) => (value.trim() === '' ? t('validation.required') : null) },
    },
    validateInputOnBlur: true,
  });
  const cc = form.getValues().cc;
  const { save: run, saving, error } = useIntegrationSave(form, 'email');

  async function save(values: EmailValues) {
    // Copy addresses are required and email-typed one by one; Mantine's rules see the list only whole.
    const ccErrors = Object.fromEntries(
      values.cc.flatMap((v, i) =>
        v.trim() === ''
          ? [[`cc.${i}`, t('validation.required')]]
          : validEmail(v)
            ? []
            : [[`cc.${i}`, errorText('INVALID_EMAIL')]],
      ),
    );
    if (Object.keys(ccErrors).length > 0) {
      form.setErrors(ccErrors);
      return;
    }
    await run(async () =>
      valuesOf(
        await saveIntegration(projectId, {
          name: 'email',
          active: values.active ? 1 : 0,
          data: {
            email: values.email.trim(),
            cc: values.cc.map((v) => v.trim()),
            contactFields: values.contactFields.map((f) => ({ name: f.name.trim(), value: f.value })),
          },
        }),
      ),
    );
  }

  return (
    <Section
      title={t('integrations.email')}
      description={t('integrationScreen.email.description')}
      labelId="integration-email"
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {error}
          <ActiveSwitch form={form} hint={t('integrationScreen.email.activeHint')} />
          <Text size="sm" c="dimmed">
            {t('integrationScreen.email.membersHint')}
          </Text>
          <TextInput
            type="email"
            label={t('integrationScreen.email.address')}
            placeholder="team@example.com"
            maxLength={limits.loginInputMax}
            withAsterisk={form.getValues().active}
            autoComplete="email"
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <Stack gap="xs">
            {cc.map((_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: copy addresses have no identity beyond their place.
              <Group key={index} align="flex-start" gap="sm" wrap="nowrap">
                <TextInput
                  type="email"
                  required
                  label={t('integrationScreen.email.cc', { index: index + 1 })}
                  maxLength={limits.loginInputMax}
                  style={{ flex: 1, minWidth: 0 }}
                  key={form.key(`cc.${index}`)}
                  {...form.getInputProps(`cc.${index}`)}
                />
                <Tooltip label={t('integrationScreen.email.removeCc', { index: index + 1 })} withArrow>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size={36}
                    mt={25}
                    aria-label={t('integrationScreen.email.removeCc', { index: index + 1 })}
                    onClick={() => form.removeListItem('cc', index)}
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ))}
            {cc.length < limits.emailCcMax && (
              <Group>
                <Button
                  variant="subtle"
                  leftSection={<IconPlus size={16} />}
                  onClick={() => form.insertListItem('cc', '')}
                >
                  {t('integrationScreen.email.addCc')}
                </Button>
              </Group>
            )}
          </Stack>
          <Stack gap={4}>
            <Text fw={600} size="sm" mt="xs">
              {t('integrationScreen.email.contactTitle')}
            </Text>
            <KeyValueRows
              form={form}
              field="contactFields"
              max={10}
              labels={{
                name: t('integrationScreen.email.contactName'),
                value: t('integrationScreen.email.contactValue'),
                namePlaceholder: t('integrationScreen.email.contactNamePlaceholder'),
                add: t('integrationScreen.email.addContact'),
                empty: t('integrationScreen.email.contactEmpty'),
              }}
            />
          </Stack>
          <SaveRow saving={saving} dirty={form.isDirty()} />
        </Stack>
      </form>
    </Section>
  );
}

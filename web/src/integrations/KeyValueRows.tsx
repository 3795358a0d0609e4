/**
 * An editable list of name/value pairs (the email's contact fields, Jira's extra fields), with the add
 * control hidden at the limit (SPEC.md section 5).
 */
import { ActionIcon, Button, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export interface KeyValue {
  name: string;
  value: string;
}

export function KeyValueRows<T extends Record<string, unknown>>({
  form,
  field,
  max,
  labels,
}: {
  form: UseFormReturnType<T>;
  /** The form's list field, e.g. `contactFields`. */
  field: keyof T & string;
  max: number;
  labels: { name: string; value: string; namePlaceholder?: string; add: string; empty: string };
}) {
  const { t } = useTranslation();
  const rows = (form.getValues()[field] as KeyValue[] | undefined) ?? [];
  return (
    <Stack gap="sm">
      {rows.length === 0 && (
        <Text c="dimmed" size="sm">
          {labels.empty}
        </Text>
      )}
      {rows.map((_, index) => (
        <Group
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place.
          key={index}
          align="flex-start"
          gap="sm"
          wrap="nowrap"
          data-testid={`${field}-row`}
        >
          <TextInput
            label={labels.name}
            placeholder={labels.namePlaceholder}
            maxLength={100}
            style={{ flex: 1, minWidth: 0 }}
            key={form.key(`${field}.${index}.name`)}
            {...form.getInputProps(`${field}.${index}.name`)}
          />
          <TextInput
            label={labels.value}
            maxLength={500}
            style={{ flex: 1, minWidth: 0 }}
            key={form.key(`${field}.${index}.value`)}
            {...form.getInputProps(`${field}.${index}.value`)}
          />
          <Tooltip label={t('integrationScreen.removeRow', { index: index + 1 })} withArrow>
            <ActionIcon
              variant="subtle"
              color="red"
              size={36}
              mt={25}
              aria-label={t('integrationScreen.removeRow', { index: index + 1 })}
              onClick={() => form.removeListItem(field, index)}
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ))}
      {rows.length < max ? (
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => form.insertListItem(field, { name: '', value: '' } as never)}
          >
            {labels.add}
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          {t('integrationScreen.rowLimit', { count: max })}
        </Text>
      )}
    </Stack>
  );
}

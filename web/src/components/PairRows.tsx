/**
 * An editable list of two-field rows: the project's custom fields (name and CSS selector), the email's
 * contact details and Jira's extra fields (name and value). Each row has a remove control; the add
 * control gives way to a note at the limit (SPEC.md section 5). One layout for all of them, so that they
 * read and wrap the same at every width.
 */
import { ActionIcon, Button, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface PairColumn<K extends string> {
  key: K;
  label: string;
  placeholder?: string;
  maxLength: number;
  /** Code such as a CSS selector: monospace, no capitals or spelling marks. */
  code?: boolean;
}

export function PairRows<T extends Record<string, unknown>, K extends string>({
  form,
  field,
  max,
  columns,
  texts,
  testId,
  actions,
}: {
  form: UseFormReturnType<T>;
  /** The form's list field, e.g. `customFields`. */
  field: keyof T & string;
  max: number;
  columns: readonly [PairColumn<K>, PairColumn<K>];
  texts: { add: string; empty: string; remove: (index: number) => string; limit: string };
  /** `data-testid` of each row. */
  testId: string;
  /** Beside the add control, e.g. the form's Save button. */
  actions?: ReactNode;
}) {
  const rows = (form.getValues()[field] as Record<K, string>[] | undefined) ?? [];
  const blank = Object.fromEntries(columns.map((c) => [c.key, ''])) as Record<K, string>;
  return (
    <Stack gap="sm">
      {rows.length === 0 && (
        <Text c="dimmed" size="sm">
          {texts.empty}
        </Text>
      )}
      {rows.map((_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place.
        <Group key={index} align="flex-start" gap="sm" wrap="nowrap" data-testid={testId}>
          {columns.map((c) => (
            <TextInput
              key={form.key(`${field}.${index}.${c.key}`)}
              label={c.label}
              placeholder={c.placeholder}
              maxLength={c.maxLength}
              style={{ flex: 1, minWidth: 0 }}
              {...(c.code
                ? {
                    autoCapitalize: 'off',
                    spellCheck: false,
                    styles: { input: { fontFamily: 'var(--mantine-font-family-monospace)' } },
                  }
                : {})}
              {...form.getInputProps(`${field}.${index}.${c.key}`)}
            />
          ))}
          <Tooltip label={texts.remove(index + 1)} withArrow>
            <ActionIcon
              variant="subtle"
              color="red"
              size={36}
              mt={25}
              aria-label={texts.remove(index + 1)}
              onClick={() => form.removeListItem(field, index)}
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ))}
      <Group justify="space-between" mt={actions ? 'xs' : undefined}>
        {rows.length < max ? (
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => form.insertListItem(field, { ...blank } as never)}
          >
            {texts.add}
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            {texts.limit}
          </Text>
        )}
        {actions}
      </Group>
    </Stack>
  );
}

/** A titled card of a settings screen; `danger` marks irreversible actions (deletions). */
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function Section({
  title,
  description,
  danger = false,
  children,
  labelId,
  actions,
}: {
  title: string;
  description?: ReactNode;
  danger?: boolean;
  children: ReactNode;
  /** Id of the heading, which names the section for assistive technology. */
  labelId: string;
  /** Controls beside the title (e.g. a save button). */
  actions?: ReactNode;
}) {
  return (
    <Paper
      component="section"
      aria-labelledby={labelId}
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      style={danger ? { borderColor: 'var(--mantine-color-red-3)' } : undefined}
    >
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
          <Stack gap={4}>
            <Title order={2} size="h4" id={labelId} c={danger ? 'red.8' : undefined}>
              {title}
            </Title>
            {description && (
              <Text size="sm" c="dimmed">
                {description}
              </Text>
            )}
          </Stack>
          {actions}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * The list of a team settings section (members, invitations, API tokens): rows parted by a rule, each
 * with what it is on the left and its actions on the right, wrapping below it on a phone. One frame, so
 * that the lists of the team screens read and wrap alike.
 */
import { Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** The rows, or `empty` (the text that says there are none) when there are none. */
export function RowList({
  testId,
  empty,
  children,
}: {
  testId: string;
  empty?: string | false;
  children: ReactNode;
}) {
  return (
    <Stack gap={0} data-testid={testId}>
      {empty && (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      )}
      {children}
    </Stack>
  );
}

export function RowListItem({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Group
      justify="space-between"
      wrap="wrap"
      gap="sm"
      py="xs"
      data-testid={testId}
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
    >
      {children}
    </Group>
  );
}

/** One person of the team screen: name and address, and what the caller may change about them. */
import { Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RowListItem } from '../components/RowList';

export interface Person {
  userId: string;
  /** Absent for a GUEST caller, who sees names only. */
  username?: string | undefined;
  firstName: string;
  lastName: string;
}

export const personName = (p: Person) =>
  [p.firstName, p.lastName].filter(Boolean).join(' ') || (p.username ?? '');

export function MemberRow({
  person,
  self,
  children,
}: {
  person: Person;
  self: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <RowListItem testId={`member-${person.username ?? person.userId}`}>
      <Stack gap={0} style={{ minWidth: 0, flex: '1 1 220px' }}>
        <Text size="sm" fw={600} truncate>
          {personName(person)}
          {self && (
            <Text span size="sm" c="dimmed" fw={400}>
              {' '}
              ({t('teams.members.you')})
            </Text>
          )}
        </Text>
        {person.username && (
          <Text size="xs" c="dimmed" truncate>
            {person.username}
          </Text>
        )}
      </Stack>
      <Group gap="xs" wrap="nowrap">
        {children}
      </Group>
    </RowListItem>
  );
}

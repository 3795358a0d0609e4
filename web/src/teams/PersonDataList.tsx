/**
 * The issues found for a reporter's address on Team → Privacy: a table on wide screens, a list on phones
 * (nothing scrolls sideways).
 */
import { Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DataRequestIssue } from '#contracts/data-requests';
import { displayLocale } from '../i18n';

export function PersonDataList({
  issues,
  narrow,
}: {
  issues: DataRequestIssue[];
  narrow: boolean | undefined;
}) {
  const { t } = useTranslation();
  const date = (iso: string) => new Date(iso).toLocaleDateString(displayLocale());
  const rows = issues.map((i) => (
    <Table.Tr key={`${i.projectId}#${i.number}`}>
      <Table.Td>{i.projectName}</Table.Td>
      <Table.Td>#{i.number}</Table.Td>
      <Table.Td>{i.title}</Table.Td>
      <Table.Td>{date(i.createdAt)}</Table.Td>
      <Table.Td>{t('teams.privacy.counts', { comments: i.comments, replies: i.replies })}</Table.Td>
    </Table.Tr>
  ));

  return (
    <>
      {narrow && (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} data-testid="privacy-list">
          {issues.map((i) => (
            <li key={`${i.projectId}#${i.number}`}>
              <Text fw={500}>{i.title}</Text>
              <Text size="sm" c="dimmed">
                {i.projectName} #{i.number} · {date(i.createdAt)} ·{' '}
                {t('teams.privacy.counts', { comments: i.comments, replies: i.replies })}
              </Text>
            </li>
          ))}
        </Stack>
      )}
      {!narrow && (
        <Table.ScrollContainer minWidth={560}>
          <Table striped data-testid="privacy-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('teams.privacy.project')}</Table.Th>
                <Table.Th>{t('teams.privacy.number')}</Table.Th>
                <Table.Th>{t('teams.privacy.issueTitle')}</Table.Th>
                <Table.Th>{t('teams.privacy.date')}</Table.Th>
                <Table.Th>{t('teams.privacy.thread')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{rows}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}

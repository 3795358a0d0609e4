/**
 * Where the issue went: each integration's delivery state and reason, or the way to set one up. `setUp`:
 * the caller may change integrations (OWNER, ADMIN); others see the states without the links.
 */
import { Anchor, Badge, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { IssueAnswer } from '#contracts/review';
import { paths } from '../app/paths';
import { Section } from '../components/Section';
import { integrationRows } from './model';

const statusColor = { inProgress: 'blue', passed: 'teal', failed: 'red' } as const;

export function IssueIntegrations({
  issue,
  projectId,
  setUp,
}: {
  issue: IssueAnswer;
  projectId: string;
  setUp: boolean;
}) {
  const { t } = useTranslation();
  const rows = integrationRows(issue);
  return (
    <Section title={t('issue.integrations')} labelId="issue-integrations">
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('issue.noIntegrations')}{' '}
          {setUp && (
            <Anchor component={Link} to={paths.integrations(projectId)} size="sm">
              {t('issue.setUpIntegrations')}
            </Anchor>
          )}
        </Text>
      ) : (
        <Table layout="fixed" verticalSpacing={6} data-testid="integration-status">
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.name}>
                <Table.Td pl={0}>
                  {setUp ? (
                    <Anchor component={Link} to={paths.integrations(projectId, row.name)} size="sm" fw={600}>
                      {t(`integrations.${row.name}`)}
                    </Anchor>
                  ) : (
                    <Text size="sm" fw={600}>
                      {t(`integrations.${row.name}`)}
                    </Text>
                  )}
                  {row.reason && (
                    <Text size="xs" c="red.8" data-testid={`reason-${row.name}`}>
                      {row.reason}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right" pr={0}>
                  <Badge variant="light" color={statusColor[row.status]} tt="none">
                    {t(`issue.statuses.${row.status}`)}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}

/**
 * Where the issue went: each integration's delivery state and reason, or the way to set one up. A row
 * whose delivery created something (a tracker issue or task, a Slack message) links to it, in a new tab,
 * for everyone who sees the row; one posted where the vendor answers no id (a Teams Workflows webhook)
 * says "Posted" and why there is no link, rather than offer a dead one; the others (email, webhooks, deliveries made before the link was kept)
 * link to their settings when the caller may change integrations (`setUp`: OWNER, ADMIN), else to nothing.
 */
import { Anchor, Badge, Table, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { IssueAnswer } from '#contracts/review';
import { Section } from '../components/Section';
import { paths } from '../paths';
import { integrationRows } from './model';

const statusColor = { inProgress: 'blue', passed: 'teal', posted: 'teal', failed: 'red' } as const;

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
                  {row.url ? (
                    <Anchor
                      href={row.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      size="sm"
                      fw={600}
                      aria-label={t('issue.openIn', { integration: t(`integrations.${row.name}`) })}
                      data-testid={`delivered-link-${row.name}`}
                    >
                      {t(`integrations.${row.name}`)}{' '}
                      <IconExternalLink size={14} aria-hidden style={{ verticalAlign: 'text-bottom' }} />
                    </Anchor>
                  ) : setUp ? (
                    <Anchor component={Link} to={paths.integrations(projectId, row.name)} size="sm" fw={600}>
                      {t(`integrations.${row.name}`)}
                    </Anchor>
                  ) : (
                    <Text size="sm" fw={600}>
                      {t(`integrations.${row.name}`)}
                    </Text>
                  )}
                  {row.status === 'posted' && (
                    <Text size="xs" c="dimmed" data-testid={`posted-${row.name}`}>
                      {t('issue.postedNoLink', { integration: t(`integrations.${row.name}`) })}
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

/**
 * A primary's reports (issue 37): "3 reports", the duplicates merged into it with their reporter, device
 * and status, and the browsers and pages affected across all of them. Everything the visitors sent is
 * text; a page is plain text too (the issue's own page link is in its details).
 */
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { IssueAnswer } from '#contracts/review';
import { Section } from '../components/Section';
import { paths } from '../paths';
import { formatDate } from './model';

export function DuplicatesList({
  projectId,
  issue,
  locale,
}: {
  projectId: string;
  issue: IssueAnswer;
  locale: string;
}) {
  const { t } = useTranslation();
  const { affected } = issue;
  return (
    <Section
      title={t('merge.reports', { count: issue.reports })}
      description={t('merge.reportsHint')}
      labelId="merge-reports"
    >
      <Stack gap="md" data-testid="duplicates">
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {issue.duplicates.map((d) => (
            <li key={d.number} data-testid="duplicate-row">
              <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
                <Anchor
                  component={Link}
                  to={paths.ticket(projectId, String(d.number))}
                  size="sm"
                  fw={600}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {t('merge.duplicateRow', { n: d.number, title: d.title })}
                </Anchor>
                <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                  {t(`triage.status.${d.status}`)}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {d.reporterEmail ?? t('merge.anonymous')} ·{' '}
                {t('merge.device', { browser: d.browser ?? '?', os: d.os ?? '?', device: d.device ?? '?' })} ·{' '}
                {formatDate(d.createdAt, locale)}
              </Text>
            </li>
          ))}
        </Stack>
        <Facts label={t('merge.browsers')} values={affected.browsers} />
        <Facts label={t('merge.pages')} values={affected.pages} />
      </Stack>
    </Section>
  );
}

function Facts({ label, values }: { label: string; values: string[] }) {
  if (values.length === 0) return null;
  return (
    <div>
      <Text size="xs" fw={600} c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {values.join(', ')}
      </Text>
    </div>
  );
}

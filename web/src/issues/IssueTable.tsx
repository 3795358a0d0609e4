/**
 * One page of issues: number, title and the description's start, the triage chips (issue 23), the assignee,
 * the date, and the counts of files and screenshots. A row opens the issue and remembers this list (with its
 * page, search and filters) for "back". With a `selection` (a role that may triage) each row has a checkbox
 * and the header one for the whole page.
 */
import {
  Anchor,
  Badge,
  Checkbox,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPaperclip, IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { IssueRow } from '#contracts/review';
import type { Label } from '#contracts/triage';
import { displayLocale } from '../i18n';
import { paths } from '../paths';
import { IssueRowTriage } from './IssueRowTriage';
import { type FromList, formatDate, previewAfterTitle } from './model';
import { AssigneeAvatar } from './TriageChips';
import type { Selection } from './triage-hooks';
import { type Person, personName } from './triage-model';

export function IssueTable({
  projectId,
  rows,
  busy,
  people,
  labels,
  selection,
}: {
  projectId: string;
  rows: IssueRow[];
  busy: boolean;
  /** The team's members by user id (assignee avatars). */
  people: ReadonlyMap<string, Person>;
  labels: ReadonlyMap<string, Label>;
  selection?: Selection;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const state: FromList = { from: `${location.pathname}${location.search}` };
  const locale = displayLocale();
  const wide = useMediaQuery('(min-width: 48em)', true);
  return (
    <Paper withBorder radius="lg" aria-busy={busy} style={{ overflow: 'hidden', opacity: busy ? 0.75 : 1 }}>
      <Table highlightOnHover verticalSpacing="sm" horizontalSpacing={wide ? 'md' : 'xs'} layout="fixed">
        <Table.Thead bg="var(--mantine-color-gray-0)">
          <Table.Tr>
            {selection && (
              <Table.Th w={44}>
                <Checkbox
                  aria-label={t('triageList.selectPage')}
                  checked={selection.all}
                  indeterminate={selection.some}
                  onChange={(event) => selection.setAll(event.currentTarget.checked)}
                  data-testid="select-page"
                />
              </Table.Th>
            )}
            <Table.Th>{t('issueList.description')}</Table.Th>
            <Table.Th w={150} visibleFrom="sm">
              {t('triage.assigneeLabel')}
            </Table.Th>
            <Table.Th w={170} visibleFrom="sm">
              {t('issueList.created')}
            </Table.Th>
            <Table.Th w={{ base: 72, sm: 140 }}>
              {/* On phones the column is an icon wide; its name stays for screen readers. */}
              {wide ? (
                t('issueList.attachments')
              ) : (
                <Tooltip label={t('issueList.attachments')} withArrow>
                  <Group gap={0} wrap="nowrap">
                    <IconPaperclip size={16} aria-hidden />
                    <VisuallyHidden>{t('issueList.attachments')}</VisuallyHidden>
                  </Group>
                </Tooltip>
              )}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const to = paths.ticket(projectId, String(row.number));
            const created = formatDate(row.date_created.date, locale);
            const preview = previewAfterTitle(row.title, row.preview);
            const assignee = row.assignee ? (people.get(row.assignee) ?? null) : undefined;
            const selected = selection?.isSelected(row.number) ?? false;
            return (
              <Table.Tr
                key={row.number}
                onClick={() => navigate(to, { state })}
                style={{ cursor: 'pointer' }}
                bg={selected ? 'var(--mantine-color-brand-0)' : undefined}
                data-testid="issue-row"
              >
                {selection && (
                  // The cell, not only the box, takes the click: a near miss must not open the issue.
                  <Table.Td onClick={(event) => event.stopPropagation()}>
                    <Checkbox
                      aria-label={t('triageList.selectIssue', { number: row.number })}
                      checked={selected}
                      onChange={(event) => selection.toggle(row.number, event.currentTarget.checked)}
                      data-testid="select-issue"
                    />
                  </Table.Td>
                )}
                <Table.Td>
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
                      <Text size="sm" c="dimmed" style={{ flex: 'none' }}>
                        #{row.number}
                      </Text>
                      <Anchor
                        component={Link}
                        to={to}
                        state={state}
                        fw={600}
                        c="var(--mantine-color-text)"
                        onClick={(event) => event.stopPropagation()}
                        truncate
                      >
                        {row.title}
                      </Anchor>
                    </Group>
                    {preview && (
                      <Text size="sm" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                        {preview}
                      </Text>
                    )}
                    <IssueRowTriage row={row} labels={labels} assignee={assignee} />
                    <Text size="xs" c="dimmed" hiddenFrom="sm">
                      {created}
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  {assignee !== undefined && (
                    <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                      <AssigneeAvatar person={assignee} />
                      <Text size="sm" truncate aria-hidden>
                        {assignee ? personName(assignee) : '?'}
                      </Text>
                    </Group>
                  )}
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm">{created}</Text>
                </Table.Td>
                <Table.Td>
                  <Counts row={row} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function Counts({ row }: { row: IssueRow }) {
  const { t } = useTranslation();
  const counts = [
    { count: row.total_files, label: t('issueList.files', { count: row.total_files }), Icon: IconPaperclip },
    {
      count: row.total_screenshots,
      label: t('issueList.screenshots', { count: row.total_screenshots }),
      Icon: IconPhoto,
    },
  ];
  return (
    <Group gap={6} wrap="wrap">
      {counts.map(({ count, label, Icon }) => (
        <Tooltip key={label} label={label} withArrow>
          <Badge
            variant="light"
            color={count ? 'brand' : 'gray'}
            leftSection={<Icon size={12} />}
            aria-label={label}
          >
            {count}
          </Badge>
        </Tooltip>
      ))}
    </Group>
  );
}

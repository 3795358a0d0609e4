/**
 * One page of issues: number, title and the description's start, the date, and the counts of files and
 * screenshots. A row opens the issue and remembers this list (with its page and search) for "back".
 */
import { Anchor, Badge, Group, Paper, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPaperclip, IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { IssueRow } from '#contracts/review';
import { paths } from '../app/paths';
import { displayLocale } from '../i18n';
import { type FromList, formatDate, previewAfterTitle } from './model';

export function IssueTable({
  projectId,
  rows,
  busy,
}: {
  projectId: string;
  rows: IssueRow[];
  busy: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const state: FromList = { from: `${location.pathname}${location.search}` };
  const locale = displayLocale();
  const wide = useMediaQuery('(min-width: 48em)', true);
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden', opacity: busy ? 0.75 : 1 }}>
      <Table highlightOnHover verticalSpacing="sm" horizontalSpacing={wide ? 'md' : 'xs'} layout="fixed">
        <Table.Thead bg="var(--mantine-color-gray-0)">
          <Table.Tr>
            <Table.Th>{t('issueList.description')}</Table.Th>
            <Table.Th w={200} visibleFrom="sm">
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
            return (
              <Table.Tr
                key={row.number}
                onClick={() => navigate(to, { state })}
                style={{ cursor: 'pointer' }}
                data-testid="issue-row"
              >
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
                    <Text size="xs" c="dimmed" hiddenFrom="sm">
                      {created}
                    </Text>
                  </Stack>
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

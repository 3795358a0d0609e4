/**
 * /profile/site/{id}/ticket/{ticketId} (SPEC.md section 2, Issue detail): everything the widget captured
 * for one issue, with Resolve or Reopen (then on to the next issue of the list, with Undo), Previous and
 * Next in the list's order (newest first), and the shortcuts j (next), k (previous), e (resolve) and u
 * (undo). Everything the visitor sent is shown as
 * text: the description is never markup, links are plain anchors that leak no referrer, and the page
 * snapshot runs in a sandboxed frame (SnapshotFrame).
 */
import {
  Anchor,
  Badge,
  Box,
  Button,
  Collapse,
  Grid,
  Group,
  Kbd,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import {
  IconArchive,
  IconArrowLeft,
  IconChevronDown,
  IconChevronLeft,
  IconChevronRight,
  IconChevronUp,
  IconEye,
  IconFile,
  IconRestore,
  IconWorldWww,
} from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { IssueAnswer } from '#contracts/review';
import { ticketIdParam } from '#contracts/schemas';
import { errorCodeOf } from '../api';
import { paths } from '../app/paths';
import { PageLoader } from '../components/PageLoader';
import { Section } from '../components/Section';
import { toastError } from '../components/toast';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { displayLocale, errorText } from '../i18n';
import { setIssueState, useIssue } from '../issues/hooks';
import { DownloadButton, MediaViewer, type Viewed } from '../issues/MediaViewer';
import {
  afterLeaving,
  downloadUrl,
  type FromList,
  formatBytes,
  formatDate,
  integrationRows,
  isShortcutIgnored,
  listNeighbours,
  listPathOf,
  logTime,
  oneLineTitle,
  snapshotPath,
  viewerFor,
} from '../issues/model';
import { UndoNotice } from '../issues/UndoNotice';
import { useProject } from '../projects/hooks';
import { ProjectHeader } from '../projects/ProjectHeader';

const statusColor = { inProgress: 'blue', passed: 'teal', failed: 'red' } as const;

/** The list the user came from when it is one of this project's lists, else the issue's own list. */
function backTarget(state: unknown, projectId: string, deleted: 0 | 1): string {
  const from = (state as Partial<FromList> | null)?.from;
  const lists = [paths.site(projectId), paths.resolved(projectId)];
  if (typeof from === 'string' && lists.some((l) => from === l || from.startsWith(`${l}?`))) return from;
  return listPathOf(projectId, deleted);
}

export default function IssueScreen() {
  const { t } = useTranslation();
  const { id, ticketId } = useParams();
  // The API's own rule for an issue number in a path.
  const parsed = ticketIdParam.safeParse(ticketId);
  const n = parsed.success ? parsed.data : null;
  const navigate = useNavigate();
  useEffect(() => {
    // A malformed number is a failed load: back to the site's issue list.
    if (id && n === null) navigate(paths.site(id), { replace: true });
  }, [id, n, navigate]);
  const { data: project } = useProject(id);
  const { data: issue } = useIssue(id, n);
  useDocumentTitle(issue ? `#${issue.number} ${oneLineTitle(issue.data.title)}` : t('screens.issue'));
  if (!project || !issue || !id) return <PageLoader />;
  return <IssueView key={issue.number} projectId={id} project={project.website} issue={issue} />;
}

function IssueView({
  projectId,
  project,
  issue,
}: {
  projectId: string;
  project: Parameters<typeof ProjectHeader>[0]['project'];
  issue: IssueAnswer;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  const [viewed, setViewed] = useState<Viewed>(null);
  const back = backTarget(location.state, projectId, issue.deleted);
  const resolved = issue.deleted === 1;
  const locale = displayLocale();
  const neighbour = (n: number | null) => (n ? paths.ticket(projectId, String(n)) : null);
  const order = listNeighbours(issue);
  const prev = neighbour(order.previous);
  const next = neighbour(order.next);
  // Moving on keeps the list to go back to, without the Undo of an earlier move.
  const keep: FromList | null = (location.state as Partial<FromList> | null)?.from ? { from: back } : null;

  async function toggle() {
    setBusy(true);
    try {
      await setIssueState(projectId, issue.number, resolved, () => {
        // On to the next issue of this list (or the list when it was the last), which offers Undo.
        const target = neighbour(afterLeaving(issue));
        const state: FromList = { from: back, undo: { number: issue.number, resolved: !resolved } };
        navigate(target ?? back, { state });
      });
    } catch (error) {
      setBusy(false);
      toastError(errorText(errorCodeOf(error)));
    }
  }

  // Shortcuts: not while typing, not with modifiers, not under an open viewer.
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (viewed || busy || isShortcutIgnored(event)) return;
      const go = (to: string | null) => to && navigate(to, { state: keep });
      if (event.key === 'j') go(next);
      else if (event.key === 'k') go(prev);
      else if (event.key === 'e' && !resolved) void toggle();
      else return;
      event.preventDefault();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const shots = issue.screenshots.map((s, i) => ({ ...s, index: i + 1 }));
  const backLabel = back.startsWith(paths.resolved(projectId))
    ? t('issue.backResolved')
    : t('issue.backOpen');

  return (
    <Stack gap="lg" maw={1180} mx="auto">
      <Group justify="space-between" gap="sm">
        <Anchor component={Link} to={back} size="sm" fw={600}>
          <Group gap={4} wrap="nowrap">
            <IconArrowLeft size={16} />
            {backLabel}
          </Group>
        </Anchor>
        <Group gap="xs">
          <Button.Group>
            <NeighbourButton to={prev} state={keep} direction="previous" />
            <NeighbourButton to={next} state={keep} direction="next" />
          </Button.Group>
          <Button
            onClick={() => void toggle()}
            loading={busy}
            color={resolved ? 'brand' : 'teal'}
            leftSection={resolved ? <IconRestore size={16} /> : <IconArchive size={16} />}
          >
            {resolved ? t('issue.restore') : t('issue.close')}
          </Button>
        </Group>
      </Group>

      <UndoNotice projectId={projectId} />

      <ProjectHeader
        project={project}
        title={oneLineTitle(issue.data.title)}
        subtitle={
          <Group gap="xs" component="span">
            <Badge variant="light" color="gray" size="lg" radius="sm" tt="none" data-testid="issue-number">
              #{issue.number}
            </Badge>
            <Badge variant="light" color={resolved ? 'gray' : 'brand'} size="lg" radius="sm" tt="none">
              {resolved ? t('issue.stateResolved') : t('issue.stateOpen')}
            </Badge>
            <Text span size="sm" c="dimmed">
              {formatDate(issue.date_created.date, locale)}
            </Text>
          </Group>
        }
      />

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            <Section title={t('issue.description')} labelId="issue-description">
              <Text
                style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                data-testid="issue-description"
              >
                {issue.data.msg}
              </Text>
            </Section>

            <Section title={t('issue.media')} labelId="issue-media">
              {shots.length === 0 ? (
                <Text c="dimmed" size="sm">
                  {t('issue.noMedia')}
                </Text>
              ) : (
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                  {shots.map((shot) => {
                    const src = downloadUrl('screenshot', projectId, shot.name);
                    const downloadHref = downloadUrl('screenshot', projectId, shot.name, true);
                    const video = shot.type !== 'png';
                    const title = video
                      ? t('issue.video', { index: shot.index })
                      : t('issue.screenshot', { index: shot.index });
                    return (
                      <Paper key={shot.name} withBorder radius="md" p="xs">
                        <Stack gap="xs">
                          {video ? (
                            // biome-ignore lint/a11y/useMediaCaption: a visitor's screen recording has no captions.
                            <video
                              src={src}
                              controls
                              preload="metadata"
                              style={{ width: '100%', borderRadius: 6, background: '#000' }}
                              aria-label={title}
                            />
                          ) : (
                            <UnstyledButton
                              onClick={() => setViewed({ kind: 'image', title, src, downloadHref })}
                              aria-label={t('issue.viewNamed', { name: title })}
                            >
                              <img
                                src={src}
                                alt={title}
                                loading="lazy"
                                style={{
                                  display: 'block',
                                  width: '100%',
                                  maxHeight: 260,
                                  objectFit: 'contain',
                                  objectPosition: 'top',
                                  background: 'var(--mantine-color-gray-1)',
                                  borderRadius: 6,
                                }}
                              />
                            </UnstyledButton>
                          )}
                          <Group justify="space-between" gap={4}>
                            <Text size="sm" fw={600}>
                              {title}
                            </Text>
                            <Group gap={4}>
                              {!video && (
                                <Button
                                  variant="subtle"
                                  size="compact-sm"
                                  leftSection={<IconEye size={14} />}
                                  onClick={() => setViewed({ kind: 'image', title, src, downloadHref })}
                                >
                                  {t('issue.view')}
                                </Button>
                              )}
                              <DownloadButton href={downloadHref} name={title} compact />
                            </Group>
                          </Group>
                          {shot.html && (
                            <Button
                              variant="light"
                              size="xs"
                              leftSection={<IconWorldWww size={14} />}
                              onClick={() =>
                                setViewed({
                                  kind: 'snapshot',
                                  title: t('issue.snapshotOf', { name: title }),
                                  src: snapshotPath(projectId, shot.html),
                                  downloadHref: downloadUrl('screenshot', projectId, shot.html, true),
                                })
                              }
                            >
                              {t('issue.snapshot')}
                            </Button>
                          )}
                        </Stack>
                      </Paper>
                    );
                  })}
                </SimpleGrid>
              )}
            </Section>

            <Section title={t('issue.attachments')} labelId="issue-attachments">
              {issue.files.length === 0 ? (
                <Text c="dimmed" size="sm">
                  {t('issue.noAttachments')}
                </Text>
              ) : (
                <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                  {issue.files.map((file) => {
                    const viewer = viewerFor(file.type);
                    const src = downloadUrl('file', projectId, file.name);
                    const downloadHref = downloadUrl('file', projectId, file.name, true);
                    return (
                      <Group
                        key={file.name}
                        component="li"
                        justify="space-between"
                        wrap="wrap"
                        py="xs"
                        gap={4}
                        style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                        data-testid="attachment"
                      >
                        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 220px' }}>
                          <IconFile size={20} color="var(--mantine-color-dimmed)" style={{ flex: 'none' }} />
                          <Stack gap={0} style={{ minWidth: 0 }}>
                            <Text size="sm" fw={600} truncate>
                              {file.original_name}
                            </Text>
                            <Text size="xs" c="dimmed">
                              {formatBytes(file.size, locale)}
                            </Text>
                          </Stack>
                        </Group>
                        <Group gap={4} wrap="nowrap" ml="auto">
                          {viewer && (
                            <Button
                              variant="subtle"
                              size="compact-sm"
                              leftSection={<IconEye size={14} />}
                              onClick={() =>
                                setViewed({ kind: viewer, title: file.original_name, src, downloadHref })
                              }
                              aria-label={t('issue.viewNamed', { name: file.original_name })}
                            >
                              {t('issue.view')}
                            </Button>
                          )}
                          <DownloadButton href={downloadHref} name={file.original_name} compact />
                        </Group>
                      </Group>
                    );
                  })}
                </Stack>
              )}
            </Section>

            <ConsoleLog issue={issue} locale={locale} />
          </Stack>
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="lg">
            <Section title={t('issue.details')} labelId="issue-details">
              <Facts
                rows={[
                  [t('issue.created'), formatDate(issue.date_created.date, locale)],
                  [
                    t('issue.reporter'),
                    issue.data.username ? (
                      <Anchor
                        key="reporter"
                        href={`mailto:${issue.data.username}`}
                        style={{ overflowWrap: 'anywhere' }}
                      >
                        {issue.data.username}
                      </Anchor>
                    ) : (
                      <Text key="reporter" span c="dimmed" size="sm">
                        {t('issue.anonymous')}
                      </Text>
                    ),
                  ],
                  [t('issue.page'), <PageLink key="page" href={issue.data.href} />],
                ]}
              />
            </Section>
            <Section title={t('issue.device')} labelId="issue-device">
              <Facts
                rows={(
                  [
                    [t('issue.browser'), known([issue.data.browser, issue.data.browserVersion])],
                    [t('issue.os'), known([issue.data.os, issue.data.osVersion])],
                    [t('issue.deviceType'), t(`issue.deviceTypes.${issue.data.deviceType ?? 'Desktop'}`)],
                    [t('issue.screen'), known([issue.data.screenResolution?.replace('x', ' × ')])],
                  ] as [string, string][]
                ).map(([label, value]) => [label, value || t('issue.unknown')])}
              />
            </Section>
            <Section title={t('issue.customFields')} labelId="issue-custom-fields">
              {issue.data.customFields?.length ? (
                <Facts rows={issue.data.customFields.map((f) => [f.name, f.value || '—'])} />
              ) : (
                <Text c="dimmed" size="sm">
                  {t('issue.noCustomFields')}
                </Text>
              )}
            </Section>
            <Integrations issue={issue} projectId={projectId} />
          </Stack>
        </Grid.Col>
      </Grid>

      <Group gap="md" justify="center" visibleFrom="sm" c="dimmed" fz="xs">
        <span>
          <Kbd size="xs">j</Kbd> {t('issue.nextShort')}
        </span>
        <span>
          <Kbd size="xs">k</Kbd> {t('issue.previousShort')}
        </span>
        {!resolved && (
          <span>
            <Kbd size="xs">e</Kbd> {t('issue.close')}
          </span>
        )}
      </Group>

      <MediaViewer viewed={viewed} onClose={() => setViewed(null)} />
    </Stack>
  );
}

/** Previous (the issue above) or Next (below) in the list's order; disabled at either end of the list. */
function NeighbourButton({
  to,
  state,
  direction,
}: {
  to: string | null;
  state: unknown;
  direction: 'previous' | 'next';
}) {
  const { t } = useTranslation();
  const icon = direction === 'previous' ? <IconChevronLeft size={16} /> : <IconChevronRight size={16} />;
  const props = {
    variant: 'default',
    size: 'sm',
    'aria-label': t(`issue.${direction}`),
    ...(direction === 'previous' ? { leftSection: icon } : { rightSection: icon }),
    children: <Box visibleFrom="xs">{t(`issue.${direction}Short`)}</Box>,
  } as const;
  return to ? <Button component={Link} to={to} state={state} {...props} /> : <Button disabled {...props} />;
}

/** Non-empty parts joined by spaces ("Firefox 130"); empty when nothing is known. */
const known = (parts: (string | undefined)[]) => parts.filter(Boolean).join(' ');

/** Label-value pairs as a definition list, each label above its value: long addresses get the full width. */
function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <Stack component="dl" gap="sm" m={0}>
      {rows.map(([label, value], i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: custom field names may repeat; rows never reorder.
        <Box key={i}>
          <Text component="dt" size="xs" c="dimmed" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </Box>
      ))}
    </Stack>
  );
}

/** The reported page: a link only for http(s) addresses (the API accepts no other), never with a referrer. */
function PageLink({ href }: { href: string | undefined }) {
  const { t } = useTranslation();
  if (!href || !/^https?:\/\//i.test(href))
    return (
      <Text span c="dimmed" size="sm">
        {t('issue.unknown')}
      </Text>
    );
  return (
    <Anchor
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      size="sm"
      style={{ overflowWrap: 'anywhere' }}
    >
      {href}
    </Anchor>
  );
}

function ConsoleLog({ issue, locale }: { issue: IssueAnswer; locale: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const count = issue.logs.length;
  const errors = issue.logs.filter((l) => l.level === 'error').length;
  return (
    <Section
      title={t('issue.log')}
      labelId="issue-log"
      description={count ? t('issue.logSummary', { count, errors }) : t('issue.logEmpty')}
      actions={
        count > 0 && (
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            aria-controls="issue-log-entries"
            rightSection={open ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
          >
            {open ? t('issue.hide') : t('issue.show')}
          </Button>
        )
      }
    >
      {count > 0 && (
        <Collapse expanded={open} id="issue-log-entries">
          <Stack gap={6}>
            {issue.logs.map((entry, i) => (
              <Box
                // biome-ignore lint/suspicious/noArrayIndexKey: the log is a fixed record; entries never move.
                key={i}
                py={4}
                style={{ borderTop: i ? '1px solid var(--mantine-color-gray-2)' : undefined }}
              >
                <Group gap={6} mb={2}>
                  <Badge size="xs" variant="light" color={entry.level === 'error' ? 'red' : 'yellow'}>
                    {t(`issue.levels.${entry.level}`)}
                  </Badge>
                  <Badge size="xs" variant="outline" color="gray">
                    {t(`issue.logKinds.${entry.kind}`)}
                  </Badge>
                  <Text size="xs" c="dimmed">
                    {logTime(entry, locale)}
                  </Text>
                </Group>
                <Text
                  ff="monospace"
                  fz="xs"
                  style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                  data-testid="log-entry"
                >
                  {entry.msg}
                </Text>
              </Box>
            ))}
          </Stack>
        </Collapse>
      )}
    </Section>
  );
}

function Integrations({ issue, projectId }: { issue: IssueAnswer; projectId: string }) {
  const { t } = useTranslation();
  const rows = integrationRows(issue);
  return (
    <Section title={t('issue.integrations')} labelId="issue-integrations">
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('issue.noIntegrations')}{' '}
          <Anchor component={Link} to={paths.integrations(projectId)} size="sm">
            {t('issue.setUpIntegrations')}
          </Anchor>
        </Text>
      ) : (
        <Table layout="fixed" verticalSpacing={6} data-testid="integration-status">
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.name}>
                <Table.Td pl={0}>
                  <Anchor component={Link} to={paths.integrations(projectId, row.name)} size="sm" fw={600}>
                    {t(`integrations.${row.name}`)}
                  </Anchor>
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

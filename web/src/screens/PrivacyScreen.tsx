/**
 * /profile/team/privacy (issue 35, docs/privacy.md "Requests about a person's data"): an OWNER or ADMIN
 * enters a reporter's address, finds every issue they sent to the team's projects, exports it (progress,
 * then a short-lived download link) or erases it after typing the address again.
 */
import {
  Anchor,
  Button,
  Group,
  Modal,
  Paper,
  Progress,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { DataExportStatus, DataRequestIssue } from '#contracts/data-requests';
import type { ErrorCode } from '#contracts/errors';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';
import { displayLocale, errorText } from '../i18n';
import { paths } from '../paths';
import {
  erasePersonData,
  findPersonData,
  personExportStatus,
  startPersonExport,
  useCurrentTeam,
} from '../teams/data';

const POLL_MS = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export default function PrivacyScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.privacy'));
  const { team } = useCurrentTeam();
  const narrow = useMediaQuery('(max-width: 48em)');
  const [email, setEmail] = useState('');
  // The address the list belongs to: export and erase act on it, not on what is being typed.
  const [asked, setAsked] = useState('');
  const [issues, setIssues] = useState<DataRequestIssue[] | null>(null);
  const [job, setJob] = useState<DataExportStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [erasing, setErasing] = useState(false);
  const [typed, setTyped] = useState('');
  const [erased, setErased] = useState<number | null>(null);
  if (!team) return <PageLoader />;

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setErrorCode(null);
    try {
      await action();
    } catch (error) {
      setErrorCode(errorCodeOf(error));
    } finally {
      setBusy(false);
    }
  }

  const find = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const found = await findPersonData(team.id, email);
      setIssues(found.issues);
      setAsked(email.trim());
      setJob(null);
      setErased(null);
    });
  };

  const exportAll = () =>
    run(async () => {
      const { id } = await startPersonExport(team.id, asked);
      let status = await personExportStatus(team.id, id);
      setJob(status);
      while (status.state === 'running') {
        await sleep(POLL_MS);
        status = await personExportStatus(team.id, id);
        setJob(status);
      }
    });

  const erase = () =>
    run(async () => {
      const out = await erasePersonData(team.id, asked, typed);
      setErased(out.erased);
      setIssues([]);
      setJob(null);
      setErasing(false);
      setTyped('');
    });

  const date = (iso: string) => new Date(iso).toLocaleDateString(displayLocale());
  const rows = (issues ?? []).map((i) => (
    <Table.Tr key={`${i.projectId}#${i.number}`}>
      <Table.Td>{i.projectName}</Table.Td>
      <Table.Td>#{i.number}</Table.Td>
      <Table.Td>{i.title}</Table.Td>
      <Table.Td>{date(i.createdAt)}</Table.Td>
      <Table.Td>{t('teams.privacy.counts', { comments: i.comments, replies: i.replies })}</Table.Td>
    </Table.Tr>
  ));

  return (
    <Stack gap="lg" maw={1100} mx="auto" data-testid="privacy-screen">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('teams.privacy.title')}
        </Title>
        <Text c="dimmed">{t('teams.privacy.subtitle', { team: team.name })}</Text>
        <Text size="sm">
          <Anchor component={Link} to={paths.team}>
            {t('teams.audit.back')}
          </Anchor>
        </Text>
      </Stack>
      <form onSubmit={find}>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            type="email"
            required
            label={t('teams.privacy.email')}
            description={t('teams.privacy.emailHelp')}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            w={narrow ? '100%' : 360}
            data-testid="privacy-email"
          />
          <Button type="submit" loading={busy && !erasing} data-testid="privacy-find">
            {t('teams.privacy.find')}
          </Button>
        </Group>
      </form>
      {errorCode && !erasing && <ErrorAlert>{errorText(errorCode)}</ErrorAlert>}
      {erased !== null && (
        <Text role="status" data-testid="privacy-erased">
          {t('teams.privacy.erased', { count: erased, email: asked })}
        </Text>
      )}
      {issues && erased === null && (
        <Paper withBorder p="md">
          <Stack gap="md">
            <Text role="status" fw={500} data-testid="privacy-summary">
              {t('teams.privacy.found', { count: issues.length, email: asked })}
            </Text>
            {issues.length > 0 && narrow && (
              <Stack
                component="ul"
                gap="xs"
                p={0}
                m={0}
                style={{ listStyle: 'none' }}
                data-testid="privacy-list"
              >
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
            {issues.length > 0 && !narrow && (
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
            {issues.length > 0 && (
              <Group gap="sm" wrap="wrap">
                <Button variant="default" onClick={exportAll} disabled={busy} data-testid="privacy-export">
                  {t('teams.privacy.export')}
                </Button>
                <Button
                  color="red"
                  onClick={() => setErasing(true)}
                  disabled={busy}
                  data-testid="privacy-erase"
                >
                  {t('teams.privacy.erase')}
                </Button>
              </Group>
            )}
            {job && (
              <Stack gap={4} data-testid="privacy-job">
                <Progress
                  value={job.total ? (100 * job.done) / job.total : 100}
                  aria-label={t('teams.privacy.progress', { done: job.done, total: job.total })}
                />
                <Text size="sm" role="status">
                  {job.state === 'done'
                    ? t('teams.privacy.ready')
                    : job.state === 'failed'
                      ? t('teams.privacy.failed')
                      : t('teams.privacy.progress', { done: job.done, total: job.total })}
                </Text>
                {job.url && (
                  <Anchor href={job.url} data-testid="privacy-download">
                    {t('teams.privacy.download')}
                  </Anchor>
                )}
              </Stack>
            )}
          </Stack>
        </Paper>
      )}
      <Modal
        opened={erasing}
        onClose={() => !busy && setErasing(false)}
        title={t('teams.privacy.eraseTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('deleteModal.close') }}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (typed.trim().toLowerCase() === asked.toLowerCase()) void erase();
          }}
        >
          <Stack gap="md">
            <Text>{t('teams.privacy.eraseText', { count: issues?.length ?? 0, email: asked })}</Text>
            {errorCode && <ErrorAlert>{errorText(errorCode)}</ErrorAlert>}
            <TextInput
              label={t('teams.privacy.typeToConfirm', { email: asked })}
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
              autoComplete="off"
              data-autofocus
              data-testid="privacy-confirm"
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setErasing(false)} disabled={busy}>
                {t('teams.privacy.cancel')}
              </Button>
              <Button
                type="submit"
                color="red"
                loading={busy}
                disabled={typed.trim().toLowerCase() !== asked.toLowerCase()}
                data-testid="privacy-erase-confirm"
              >
                {t('teams.privacy.eraseConfirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}

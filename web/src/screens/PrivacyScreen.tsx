/**
 * /profile/team/privacy (issue 35, docs/privacy.md "Requests about a person's data"): an OWNER or ADMIN
 * enters a reporter's address, finds every issue they sent to the team's projects, exports it (progress,
 * then a short-lived download link) or erases it after typing the address again.
 */
import { Anchor, Stack, Text, Title } from '@mantine/core';
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
import { errorText } from '../i18n';
import { paths } from '../paths';
import {
  erasePersonData,
  findPersonData,
  personExportStatus,
  startPersonExport,
  useCurrentTeam,
} from '../teams/data';
import { EraseDialog } from '../teams/EraseDialog';
import { PersonDataResults } from '../teams/PersonDataResults';
import { PersonLookupForm } from '../teams/PersonLookupForm';
import '../teams/texts';

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
  const [member, setMember] = useState(false);
  const [job, setJob] = useState<DataExportStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [erasing, setErasing] = useState(false);
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
      setMember(found.member);
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

  const erase = (typed: string) =>
    run(async () => {
      const out = await erasePersonData(team.id, asked, typed);
      setErased(out.erased);
      setIssues([]);
      setJob(null);
      setErasing(false);
    });

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
      <PersonLookupForm
        email={email}
        onEmail={setEmail}
        busy={busy && !erasing}
        narrow={narrow}
        onSubmit={find}
      />
      {errorCode && !erasing && <ErrorAlert>{errorText(errorCode)}</ErrorAlert>}
      {erased !== null && (
        <Text role="status" data-testid="privacy-erased">
          {t('teams.privacy.erased', { count: erased, email: asked })}
        </Text>
      )}
      {issues && erased === null && (
        <PersonDataResults
          issues={issues}
          member={member}
          email={asked}
          narrow={narrow}
          busy={busy}
          job={job}
          onExport={exportAll}
          onErase={() => setErasing(true)}
        />
      )}
      <EraseDialog
        opened={erasing}
        busy={busy}
        email={asked}
        count={issues?.length ?? 0}
        error={errorCode && errorText(errorCode)}
        onClose={() => setErasing(false)}
        onErase={(typed) => void erase(typed)}
      />
    </Stack>
  );
}

/**
 * /profile/site/{id}/ticket/{ticketId} (SPEC.md section 2, Issue detail): everything the widget captured
 * for one issue, with Resolve or Reopen (then on to the next issue of the list, with Undo), Previous and
 * Next in the list's order (newest first), and the shortcuts j (next), k (previous), e (resolve) and u
 * (undo). Everything the visitor sent is shown as text: the description is never markup, links are plain anchors that leak no referrer, and the page
 * snapshot runs in a sandboxed frame (SnapshotFrame). The parts live in web/src/issues/. Issue 22: a GUEST
 * reviews without Resolve or Reopen, and only OWNER and ADMIN are led to the integrations' settings.
 * Issue 23: the triage side panel (status, priority, assignee, labels, due date; beside the description on
 * wide screens, right under it on phones) and the timeline of comments and activity with the composer.
 */
import { Grid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import type { IssueAnswer } from '#contracts/review';
import { ticketIdParam } from '#contracts/schemas';
import type { Label } from '#contracts/triage';
import { useProfile } from '../accounts/data';
import { PageLoader } from '../components/PageLoader';
import { Section } from '../components/Section';
import { useDocumentTitle } from '../hooks/title';
import { displayLocale } from '../i18n';
import { ConsoleLog } from '../issues/ConsoleLog';
import { useIssue, useProjectLabels, useTeamPeople } from '../issues/data';
import { selfIn, type TeamPerson } from '../issues/detail-model';
import { IssueAttachments } from '../issues/IssueAttachments';
import { IssueFacts } from '../issues/IssueFacts';
import { IssueHeading } from '../issues/IssueHeading';
import { IssueIntegrations } from '../issues/IssueIntegrations';
import { IssueMedia } from '../issues/IssueMedia';
import { IssueToolbar } from '../issues/IssueToolbar';
import { MediaViewer, type Viewed } from '../issues/MediaViewer';
import { MergePanel } from '../issues/MergePanel';
import { oneLineTitle } from '../issues/model';
import { ReplaySection } from '../issues/ReplaySection';
import { ShortcutHints } from '../issues/ShortcutHints';
import { Timeline } from '../issues/Timeline';
import { TriagePanel } from '../issues/TriagePanel';
import { UndoNotice } from '../issues/UndoNotice';
import { useIssueMoves } from '../issues/useIssueMoves';
import { paths } from '../paths';
import { useProject } from '../projects/data';
import type { ProjectHeader } from '../projects/ProjectHeader';
import { useProjectRole } from '../projects/role';
import { can, type Role } from '../teams/model';

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
  // The role decides Resolve and its shortcut: the screen waits for it rather than offer them late.
  const role = useProjectRole();
  const labels = useProjectLabels(id);
  const people = useTeamPeople(project?.website.teamId).members;
  const { data: me } = useProfile();
  useDocumentTitle(issue ? `#${issue.number} ${oneLineTitle(issue.data.title)}` : t('screens.issue'));
  if (!project || !issue || !id || !role || !labels || !people || !me) return <PageLoader />;
  return (
    <IssueView
      key={issue.number}
      projectId={id}
      project={project.website}
      issue={issue}
      role={role}
      team={{ labels, people, self: selfIn(people, me) }}
    />
  );
}

function IssueView({
  projectId,
  project,
  issue,
  role,
  team,
}: {
  projectId: string;
  project: Parameters<typeof ProjectHeader>[0]['project'];
  issue: IssueAnswer;
  role: Role;
  team: { labels: Label[]; people: TeamPerson[]; self: string | null };
}) {
  const { t } = useTranslation();
  const [viewed, setViewed] = useState<Viewed>(null);
  const triage = can(role, 'triage');
  const moves = useIssueMoves(projectId, issue, viewed !== null, triage);
  const resolved = issue.deleted === 1;
  const locale = displayLocale();
  // One panel, placed by width: beside everything on wide screens, under the description on phones.
  const wide = useMediaQuery('(min-width: 62em)', true);
  const panel = (
    <TriagePanel
      projectId={projectId}
      issue={issue}
      labels={team.labels}
      people={team.people}
      role={role}
      locale={locale}
    />
  );

  return (
    <Stack gap="lg" maw={1180} mx="auto">
      <IssueToolbar projectId={projectId} resolved={resolved} moves={moves} triage={triage} />
      <UndoNotice projectId={projectId} />
      <IssueHeading project={project} issue={issue} locale={locale} />
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
            {!wide && panel}
            <IssueMedia issue={issue} projectId={projectId} onView={setViewed} />
            <ReplaySection issue={issue} projectId={projectId} />
            <IssueAttachments issue={issue} projectId={projectId} locale={locale} onView={setViewed} />
            <ConsoleLog issue={issue} locale={locale} />
            <Timeline projectId={projectId} n={issue.number} role={role} locale={locale} {...team} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="lg">
            {wide && panel}
            <MergePanel projectId={projectId} issue={issue} triage={triage} locale={locale} />
            <IssueFacts issue={issue} locale={locale} />
            <IssueIntegrations issue={issue} projectId={projectId} setUp={can(role, 'integrations')} />
          </Stack>
        </Grid.Col>
      </Grid>
      <ShortcutHints resolved={resolved} triage={triage} />
      <MediaViewer viewed={viewed} onClose={() => setViewed(null)} />
    </Stack>
  );
}

/**
 * /profile/team (issue 22): the team in use. Its name (renamed by OWNER and ADMIN), the members with
 * their roles and what each role may do, the guests with their projects, pending invitations, the invite
 * form, seats used of the plan's, and the danger zone (transfer ownership, leave). What a role may not
 * change is shown without controls; the parts live in web/src/teams/.
 */
import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useProfile } from '../accounts/data';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';
import { paths } from '../paths';
import { toDashboardIfMissing, useProjects } from '../projects/data';
import { DangerZone } from '../teams/DangerZone';
import { useCurrentTeam, useTeam } from '../teams/data';
import { Invitations } from '../teams/Invitations';
import { InviteForm } from '../teams/InviteForm';
import { byRole, can } from '../teams/model';
import { Seats } from '../teams/Seats';
import { TeamGuests } from '../teams/TeamGuests';
import { TeamMembers } from '../teams/TeamMembers';
import { TeamName } from '../teams/TeamName';
import '../insights/texts';
import '../teams/texts';

export default function TeamScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.team'));
  const { team: current } = useCurrentTeam();
  const { data: detail } = useTeam(current?.id, { redirect: toDashboardIfMissing });
  const { data: profile } = useProfile();
  const { data: list } = useProjects();
  if (!current || !detail || !profile || !list) return <PageLoader />;

  const teamId = current.id;
  // The answer's own role: fresher than the list's after a change.
  const role = detail.role;
  const self = detail.members.find((m) => m.username === profile.username);
  const manage = can(role, 'members');
  const everyone = [...detail.members].sort(byRole);
  const people = everyone.filter((m) => m.role !== 'GUEST');
  const guests = everyone.filter((m) => m.role === 'GUEST');
  const projects = list.websites.map((p) => ({ value: p.uuid, label: p.name }));
  const { seats } = detail.team;

  return (
    <Stack gap="xl" maw={960} mx="auto" data-testid="team-screen">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('teams.title')}
        </Title>
        <Text c="dimmed">{t('teams.subtitle', { team: detail.team.name })}</Text>
        <Group gap="md" component="nav" aria-label={t('teams.title')}>
          <Anchor component={Link} to={paths.teamInsights} size="sm" data-testid="team-insights-link">
            {t('insights.teamLink')}
          </Anchor>
          {can(role, 'tokens') && (
            <Anchor component={Link} to={paths.tokens} size="sm" data-testid="team-tokens-link">
              {t('teams.tokens.link')}
            </Anchor>
          )}
          {can(role, 'audit') && (
            <Anchor component={Link} to={paths.audit} size="sm" data-testid="team-audit-link">
              {t('teams.audit.link')}
            </Anchor>
          )}
          {can(role, 'audit') && (
            <Anchor component={Link} to={paths.privacy} size="sm" data-testid="team-privacy-link">
              {t('teams.privacy.link')}
            </Anchor>
          )}
        </Group>
      </Stack>
      <TeamName
        key={`${teamId}:${detail.team.name}`}
        teamId={teamId}
        name={detail.team.name}
        editable={can(role, 'rename')}
      />
      <TeamMembers teamId={teamId} members={people} self={profile.username} manage={manage} />
      <TeamGuests teamId={teamId} guests={guests} projects={projects} manage={manage} />
      {manage && <Invitations teamId={teamId} invitations={detail.invitations} />}
      {manage && <InviteForm teamId={teamId} projects={projects} />}
      <Seats seats={seats} billing={can(role, 'billing')} />
      <DangerZone
        team={{ id: teamId, name: detail.team.name }}
        members={detail.members}
        self={self}
        role={role}
      />
    </Stack>
  );
}

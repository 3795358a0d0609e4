/**
 * /profile/team, danger zone (issue 22): the OWNER transfers ownership to an ADMIN or MEMBER (and stays
 * as ADMIN); everyone else may leave. Both behind the team's name typed. The OWNER cannot leave without
 * transferring first (the server says OWNER_CANNOT_LEAVE too). Leaving revokes the leaver's API tokens and
 * withdraws their pending invitations on the server, so the Leave dialog names them as the removal does.
 */
import { Divider, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { paths } from '../paths';
import { leaveTeam, type TeamDetail, transferOwnership, useTokens } from './data';
import { personName } from './MemberRow';
import { can, type Role } from './model';
import { RevokedTokens } from './RevokedTokens';
import { TypedConfirm } from './TypedConfirm';

type Member = TeamDetail['members'][number];

export function DangerZone({
  team,
  members,
  self,
  role,
}: {
  team: { id: string; name: string };
  members: Member[];
  self: Member | undefined;
  role: Role;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const candidates = members.filter((m) => m.role === 'ADMIN' || m.role === 'MEMBER');
  const [to, setTo] = useState<string | null>(null);
  const target = candidates.find((m) => m.userId === to);
  // Only a role that may list the team's tokens can have made any (an ADMIN; the OWNER cannot leave).
  const { data: tokenList } = useTokens(can(role, 'tokens') && self ? team.id : null);
  const ownTokens = (tokenList?.tokens ?? []).filter((token) => token.createdBy === self?.userId);

  return (
    <Section title={t('teams.danger.title')} labelId="team-danger" danger>
      {role === 'OWNER' && (
        <Stack gap="sm" data-testid="team-transfer">
          <Title order={3} size="h5">
            {t('teams.danger.transferTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('teams.danger.transferText')}
          </Text>
          {candidates.length === 0 ? (
            <Text size="sm">{t('teams.danger.transferNone')}</Text>
          ) : (
            <Select
              label={t('teams.danger.transferTo')}
              data={candidates.map((m) => ({ value: m.userId, label: `${personName(m)} (${m.username})` }))}
              value={to}
              onChange={setTo}
              maw={420}
            />
          )}
          <TypedConfirm
            teamName={team.name}
            button={t('teams.danger.transferButton')}
            modalTitle={t('teams.danger.transferModal', {
              name: target ? personName(target) : '',
              team: team.name,
            })}
            disabled={!target}
            onConfirm={async () => {
              if (!target) return;
              await transferOwnership(team.id, target.userId);
              toastSuccess(t('teams.danger.transferred', { name: personName(target) }));
            }}
          />
          <Divider my="xs" />
        </Stack>
      )}
      <Stack gap="sm" data-testid="team-leave">
        <Title order={3} size="h5">
          {t('teams.danger.leaveTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {role === 'OWNER' ? t('teams.danger.ownerCannotLeave') : t('teams.danger.leaveText')}
        </Text>
        <TypedConfirm
          teamName={team.name}
          button={t('teams.danger.leaveButton')}
          modalTitle={t('teams.danger.leaveModal', { team: team.name })}
          disabled={role === 'OWNER' || !self}
          onConfirm={async () => {
            if (!self) return;
            await leaveTeam(team.id, self.userId);
            navigate(paths.profile);
          }}
        >
          <Text size="sm">{t('teams.danger.leaveText')}</Text>
          <RevokedTokens
            name={self ? personName(self) : ''}
            tokens={ownTokens}
            admin={role === 'ADMIN'}
            self
          />
        </TypedConfirm>
      </Stack>
    </Section>
  );
}

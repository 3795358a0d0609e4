/**
 * /profile/team, members (issue 22): owners, admins and members with their roles. An OWNER or ADMIN
 * changes roles (ADMIN, MEMBER) and removes people; nobody changes the OWNER or themselves (leaving is
 * the way down, in the danger zone). The server refuses the same (403 FORBIDDEN).
 */
import { ActionIcon, Select, Tooltip } from '@mantine/core';
import { IconUserMinus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AssignableRole } from '#contracts/teams';
import { errorCodeOf } from '../api';
import { RowList } from '../components/RowList';
import { Section } from '../components/Section';
import { toastError, toastSuccess } from '../components/toast';
import { errorText } from '../i18n';
import { changeMember, reloadTokens, removeMember, type TeamDetail, useTokens } from './data';
import { type MemberChange, MemberChangeDialog } from './MemberChangeDialog';
import { MemberRow, personName } from './MemberRow';
import type { Role } from './model';
import { RoleBadge } from './RoleBadge';
import { RoleRights } from './RoleRights';

type Member = TeamDetail['members'][number];

/** The roles a member may be given here (OWNER only by transfer, GUEST only by invitation with projects). */
const memberRoles = ['ADMIN', 'MEMBER'] as const;

export function TeamMembers({
  teamId,
  members,
  self,
  manage,
}: {
  teamId: string;
  members: Member[];
  /** The caller's address, to tell their own row. */
  self: string;
  /** The caller may change others (team.members). */
  manage: boolean;
}) {
  const { t } = useTranslation();
  // Removing or demoting an ADMIN revokes their tokens: the dialog names them (team.members implies
  // team.tokens, so a caller who manages may list them).
  const { data: tokenList } = useTokens(manage ? teamId : null);
  const [pending, setPending] = useState<MemberChange | null>(null);

  async function run(action: () => Promise<void>, done: string) {
    try {
      await action();
      toastSuccess(done);
    } catch (error) {
      toastError(errorText(errorCodeOf(error)));
    }
  }

  async function apply({ member, role }: MemberChange) {
    const name = personName(member);
    await run(
      async () => {
        if (role) await changeMember(teamId, member.userId, { role: role as AssignableRole });
        else await removeMember(teamId, member.userId);
        await reloadTokens(teamId);
      },
      role
        ? t('teams.members.changed', { name, role: t(`teams.roles.${role}`) })
        : t('teams.members.removed', { name }),
    );
    setPending(null);
  }

  return (
    <Section
      title={t('teams.members.title')}
      description={t('teams.members.description')}
      labelId="team-members"
    >
      <RowList testId="team-members">
        {members.map((member) => {
          const name = personName(member);
          const changeable = manage && member.role !== 'OWNER' && member.username !== self;
          return (
            <MemberRow key={member.userId} person={member} self={member.username === self}>
              {changeable ? (
                <>
                  <Select
                    aria-label={t('teams.members.roleOf', { name })}
                    data={memberRoles.map((role) => ({ value: role, label: t(`teams.roles.${role}`) }))}
                    value={member.role}
                    allowDeselect={false}
                    w={130}
                    onChange={(role) => {
                      if (!role || role === member.role) return;
                      // Taking an ADMIN's rights revokes their tokens and invitations: confirmed first.
                      if (member.role === 'ADMIN') setPending({ member, role: role as Role });
                      else void apply({ member, role: role as Role });
                    }}
                  />
                  <Tooltip label={t('teams.members.removeLabel', { name })}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size={36}
                      aria-label={t('teams.members.removeLabel', { name })}
                      onClick={() => setPending({ member })}
                    >
                      <IconUserMinus size={18} />
                    </ActionIcon>
                  </Tooltip>
                </>
              ) : (
                member.role && <RoleBadge role={member.role} />
              )}
            </MemberRow>
          );
        })}
      </RowList>
      <MemberChangeDialog
        change={pending}
        tokens={tokenList?.tokens ?? []}
        onCancel={() => setPending(null)}
        onConfirm={apply}
      />
      <RoleRights />
    </Section>
  );
}

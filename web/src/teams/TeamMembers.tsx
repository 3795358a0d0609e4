/**
 * /profile/team, members (issue 22): owners, admins and members with their roles. An OWNER or ADMIN
 * changes roles (ADMIN, MEMBER) and removes people; nobody changes the OWNER or themselves (leaving is
 * the way down, in the danger zone). The server refuses the same (403 FORBIDDEN).
 */
import { ActionIcon, Select, Tooltip } from '@mantine/core';
import { IconUserMinus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AssignableRole } from '#contracts/teams';
import { errorCodeOf } from '../api';
import { RowList } from '../components/RowList';
import { Section } from '../components/Section';
import { toastError, toastSuccess } from '../components/toast';
import { errorText } from '../i18n';
import { changeMember, removeMember, type TeamDetail } from './hooks';
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

  async function run(action: () => Promise<void>, done: string) {
    try {
      await action();
      toastSuccess(done);
    } catch (error) {
      toastError(errorText(errorCodeOf(error)));
    }
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
                    onChange={(role) =>
                      role &&
                      role !== member.role &&
                      void run(
                        () => changeMember(teamId, member.userId, { role: role as AssignableRole }),
                        t('teams.members.changed', { name, role: t(`teams.roles.${role as Role}`) }),
                      )
                    }
                  />
                  <Tooltip label={t('teams.members.removeLabel', { name })}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size={36}
                      aria-label={t('teams.members.removeLabel', { name })}
                      onClick={() =>
                        void run(
                          () => removeMember(teamId, member.userId),
                          t('teams.members.removed', { name }),
                        )
                      }
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
      <RoleRights />
    </Section>
  );
}

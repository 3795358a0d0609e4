/**
 * Role-aware screens (issue 22): a screen the caller's role does not include (a MEMBER on a project's
 * configuration, a GUEST on billing) says so instead of offering controls the server refuses anyway
 * (403 FORBIDDEN). Links to such screens are hidden too; this covers typed and shared addresses.
 */
import { Button } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageLoader } from '../components/PageLoader';
import { StateCard } from '../components/StateCard';
import { paths } from '../paths';
import { useCurrentTeam } from './data';
import { can, type Right, type Role } from './model';

/** `role` null: not known yet (loading). */
export function RoleGate({
  role,
  right,
  children,
}: {
  role: Role | null;
  right: Right;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (!role) return <PageLoader />;
  if (can(role, right)) return children;
  return (
    <StateCard
      testId="role-refused"
      icon={<IconLock size={32} stroke={1.5} />}
      title={t('teams.refused.title')}
      text={t('teams.refused.text', { role: t(`teams.roles.${role}`) })}
      actions={
        <Button component={Link} to={paths.profile}>
          {t('teams.refused.back')}
        </Button>
      }
    />
  );
}

/** A team-scoped screen (billing, the team screen): the caller's role in the team in use decides. */
export function TeamGate({ right, children }: { right: Right; children: ReactNode }) {
  const { role } = useCurrentTeam();
  return (
    <RoleGate role={role} right={right}>
      {children}
    </RoleGate>
  );
}

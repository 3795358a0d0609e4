/** A project screen behind a right (configuration, widget, integrations): the role on that project decides. */
import type { ReactNode } from 'react';
import type { Right } from '../teams/model';
import { RoleGate } from '../teams/RoleGate';
import { useProjectRole } from './role';

export function ProjectGate({ right, children }: { right: Right; children: ReactNode }) {
  return (
    <RoleGate role={useProjectRole()} right={right}>
      {children}
    </RoleGate>
  );
}

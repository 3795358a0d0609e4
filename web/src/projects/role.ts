/**
 * The caller's role on a project (issue 22): the project's answers carry it (`role`, from the one access
 * policy); until one is loaded, the role in the team in use stands in, which is the project's team for
 * every project the dashboard lists.
 */
import { useParams } from 'react-router-dom';
import { useCurrentTeam } from '../teams/data';
import type { Role } from '../teams/model';
import { useProject } from './data';

/** The role an answer carries, if any (project answers gain it with the teams' access work). */
export function roleOf(answer: unknown): Role | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { role, website } = answer as { role?: Role; website?: { role?: Role } };
  return role ?? website?.role;
}

/** The role on the project of the address (`:id`), or the team's; null while neither is known. */
export function useProjectRole(): Role | null {
  const { id } = useParams();
  const { data: project } = useProject(id);
  const { role } = useCurrentTeam();
  return roleOf(project) ?? role;
}

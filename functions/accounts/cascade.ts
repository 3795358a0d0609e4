/**
 * What deleting an account removes besides the account's own items. Each entity a user owns lists its
 * cleanup here (payments join with billing), so DELETE /client/profile stays one call that leaves nothing
 * behind. Explicit rather than registered on import, so no step can be missed by a bundle.
 */
import { deleteAllProjectsOf } from '../projects/service';

export type UserCleanup = (userId: string) => Promise<void>;

export const userCleanups: UserCleanup[] = [deleteAllProjectsOf];

export async function runUserCleanups(userId: string): Promise<void> {
  for (const step of userCleanups) await step(userId);
}

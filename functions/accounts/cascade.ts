/**
 * What deleting an account removes. Each entity that belongs to a user registers a step here (projects,
 * issues, files, integrations and payments join as their issues land), so DELETE /client/profile stays
 * one call that leaves nothing behind.
 */
export type UserCleanup = (userId: string) => Promise<void>;

const steps: UserCleanup[] = [];

export function onUserDeleted(step: UserCleanup): void {
  steps.push(step);
}

export async function runUserCleanups(userId: string): Promise<void> {
  for (const step of steps) await step(userId);
}

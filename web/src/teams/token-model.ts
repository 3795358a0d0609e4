/**
 * A new API token's choices (issue 25), free of React. Apart from model.ts: only the token form needs
 * them, so they load with its screen, not with the top bar that reads the team model.
 */
import type { TokenScope } from '#contracts/tokens';

/** The choices of a new API token's lifetime in days; `never` keeps it until it is revoked. */
export const expiryChoices = ['30', '90', '365', 'never'] as const;
export type ExpiryChoice = (typeof expiryChoices)[number];
export const expiresInDays = (choice: ExpiryChoice) => (choice === 'never' ? undefined : Number(choice));

/** The scopes a new token starts with: reading, the safe default. */
export const defaultScopes: TokenScope[] = ['projects:read', 'issues:read'];

/** Paths relative to the repository root, so synth does not depend on the caller's working directory. */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const fromRoot = (path: string) => resolve(repoRoot, path);

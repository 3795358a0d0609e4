/**
 * Which function the local stack is running at this moment: `api:<resource>` or `consumer:<queue>`, as
 * functions/manifests.ts names them. In AWS each function is its own process; locally they share one,
 * so the suites use this to check every AWS command a handler sends against what its manifest declares
 * (test/support/aws-commands.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<string>();

/** Runs `work` as function `name`: everything it awaits, AWS calls included, sees that name. */
export const asFunction = <T>(name: string, work: () => Promise<T>): Promise<T> => current.run(name, work);

/** The function running now, or undefined outside any (test code, the stack itself). */
export const runningFunction = (): string | undefined => current.getStore();

/**
 * The one set-up of an integration or e2e file's local stack: `const stack = setUpTestStack(options)` at the
 * top level of the file starts the stack before the file's first test and stops it after its last one
 * (vitest runs each file in a process of its own, and a process holds one stack).
 *
 * The returned object stands for the stack started in `beforeAll`, so tests read `stack.url` as before;
 * reading it outside a hook or test (before the stack is up) fails with a message saying so. Hooks the
 * file registers after this call run after the stack is up (seeding), and its `afterAll`s before it stops.
 */
import { afterAll, beforeAll } from 'vitest';
import { startTestStack, type TestStack, type TestStackOptions } from './local-stack';
import { cheapCostsEnv } from './users';

type Env = Record<string, string | undefined>;

export interface StackFixtureOptions extends TestStackOptions {
  /** Settings the handlers read, set before the stack starts (they read their configuration once). */
  env?: Env;
  /**
   * Cheap proof of work and hashing (`cheapCostsEnv`, set before `env`): tests check rules, not costs.
   * Off for the files that test the stack as `npm start` runs it.
   */
  cheapCosts?: boolean;
}

/**
 * `options` may be a function, called in `beforeAll`, when they come from something the file prepares
 * first (a fake's URL, a temporary dist directory).
 */
export function setUpTestStack(
  options: StackFixtureOptions | (() => StackFixtureOptions | Promise<StackFixtureOptions>) = {},
): TestStack {
  let current: TestStack | undefined;
  beforeAll(async () => {
    const opts = typeof options === 'function' ? await options() : options;
    if (opts.cheapCosts ?? true) Object.assign(process.env, cheapCostsEnv);
    if (opts.env) Object.assign(process.env, opts.env);
    current = await startTestStack(opts);
  });
  afterAll(async () => {
    await current?.stop();
  });
  const started = (): TestStack => {
    if (!current) throw new Error('the test stack is not started yet: read it inside a hook or test');
    return current;
  };
  // Every read and write goes to the started stack itself (its `dynamodbPid` getter follows a restarted JVM).
  return new Proxy({} as TestStack, {
    get: (_, key) => Reflect.get(started(), key),
    set: (_, key, value) => Reflect.set(started(), key, value),
    has: (_, key) => Reflect.has(started(), key),
    ownKeys: () => Reflect.ownKeys(started()),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(started(), key);
      return found && { ...found, configurable: true };
    },
  });
}

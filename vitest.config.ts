import { defineConfig } from 'vitest/config';

/**
 * Four layers (README "Tests"): unit (no network), cdk (synth + assertions + cdk-nag), integration (the
 * real handlers through the local gateway against the local stand-ins) and e2e (Chromium against the
 * local stack). Integration and e2e files run two at a time (`npm test` runs both projects in one run,
 * test/suite.ts): each starts its own stack on free ports (test/support/stack-fixture.ts), sharing one
 * DynamoDB Local per run (test/support/shared-dynamodb.ts) with a table each, and e2e files one Chromium
 * per run (test/support/shared-browser.ts) with browser contexts of their own. Two, not more: a file keeps
 * about one of the machine's two CPUs busy (its stack, and Chromium for e2e), and waits for the rest.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['test/support/unit-env.ts'],
        },
      },
      {
        test: { name: 'cdk', include: ['test/cdk/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 300_000 },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/shared-dynamodb.ts'],
          setupFiles: ['test/support/command-check.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/shared-dynamodb.ts', 'test/support/shared-browser.ts'],
          setupFiles: ['test/support/command-check.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          maxWorkers: 2,
        },
      },
    ],
  },
});

/**
 * Setup of the integration and e2e suites: record every AWS command the handlers send while the file's
 * tests run, and fail the file if one is not covered by its function's manifest (test/support/aws-commands.ts).
 */
import { afterAll, expect } from 'vitest';
import { recordCommands, uncovered } from './aws-commands';

recordCommands();

afterAll(() => {
  if (process.env.SNAG_SHOW_COMMANDS) console.log(JSON.stringify(uncovered()));
  expect(uncovered().problems, 'AWS commands outside the manifests (functions/<domain>/manifest.ts)').toEqual(
    [],
  );
});

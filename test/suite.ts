/**
 * `npm test` (README "Tests"): every layer, arranged for a 2-CPU machine (DESIGN.md section 7, at most 20
 * minutes). The checks (typecheck, then lint) run beside unit, cdk and the build, since each of those
 * keeps about one CPU busy; their output is printed whole when each ends, so it does not interleave. Then,
 * only when all of them passed, the integration and e2e files run in one vitest run, two files at a time
 * (vitest.config.ts), streaming as they go. A failure fails the command, as `&&` between them did.
 */
import { spawn } from 'node:child_process';

interface Step {
  name: string;
  args: string[];
}

/** Runs `npm <args>` with its output kept until it ends; true when it passed. */
function quiet({ name, args }: Step): Promise<boolean> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn('npm', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(`\n── ${name}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(chunks));
      done(code === 0);
    });
  });
}

/** Runs the steps one after another, stopping at the first that fails. */
async function lane(steps: Step[]): Promise<boolean> {
  for (const step of steps) if (!(await quiet(step))) return false;
  return true;
}

const [checks, tests] = await Promise.all([
  lane([
    { name: 'typecheck', args: ['run', 'typecheck'] },
    { name: 'lint', args: ['run', 'lint'] },
  ]),
  lane([
    { name: 'unit', args: ['run', 'test:unit'] },
    { name: 'cdk', args: ['run', 'test:cdk'] },
    { name: 'build (for e2e)', args: ['run', 'build'] },
  ]),
]);
if (!checks || !tests) process.exit(1);

process.stdout.write('\n── integration and e2e\n');
const stackTests = spawn(
  'npm',
  ['exec', '--', 'vitest', 'run', '--project', 'integration', '--project', 'e2e'],
  {
    stdio: 'inherit',
  },
);
stackTests.on('close', (code) => process.exit(code ?? 1));

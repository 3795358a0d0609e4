/**
 * `npm run demo -- <projectId>`: a customer's page with the project's widget on http://localhost:8080
 * (DEMO_PORT), next to `npm start` on http://localhost:${PORT:-3000}. The project's domain must be
 * `localhost`. Ctrl-C stops it.
 */
import { startDemo } from '../lib/local/demo';

const projectId = process.argv[2]?.trim();
if (!projectId) {
  console.error(
    'Usage: npm run demo -- <projectId>\n' +
      '  The project id is in the dashboard address (/profile/site/<projectId>) and in its snippet\n' +
      '  (Configuration → Installation). Give the project the domain localhost.',
  );
  process.exit(2);
}
const port = Number(process.env.DEMO_PORT ?? 8080);
const appUrl = `http://localhost:${Number(process.env.PORT ?? 3000)}`;
try {
  const demo = await startDemo({ port, appUrl, projectId });
  console.log(`\n  Demo page with the widget of ${projectId}: ${demo.url}/   (Ctrl-C stops it)\n`);
} catch (err) {
  console.error(
    `[snag] could not serve the demo page on port ${port}: ${err instanceof Error ? err.message : err}`,
  );
  console.error('  Choose another with DEMO_PORT=8081 npm run demo -- <projectId>');
  process.exit(1);
}

/** Issues for tests and the bench, written through the issues entity (the widget's create transaction). */
import { allocateNumber, createIssue } from '../../functions/issues/issues';
import { getProject } from '../../functions/projects/projects';

/** `count` issues written through the entity module, numbered from the project's next number on. */
export async function seedIssues(projectId: string, count: number, title = (n: number) => `Issue ${n}`) {
  const meta = await getProject(projectId);
  if (!meta) throw new Error(`no project ${projectId}`);
  for (let i = 0; i < count; i++) {
    const n = await allocateNumber(projectId);
    await createIssue(
      {
        projectId,
        ownerId: meta.ownerId,
        number: n,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
        title: title(n),
        msg: `Description of issue ${n}`,
        data: {
          username: 'visitor@example.org',
          href: 'https://shop.example/',
          browser: 'Firefox',
          browserVersion: '130',
          os: 'Linux',
          osVersion: '6',
          deviceType: 'Desktop',
          screenResolution: '1920x1080',
          customFields: [],
        },
        files: [],
        screenshots: [],
        logs: [],
        st: { email: 1, gitlab: 0, jira: 0, slack: 0, asana: 0, webhooks: 0 },
        bytes: 0,
        uploadIds: [],
      },
      null,
    );
  }
}

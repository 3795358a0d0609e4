/** The issue export (issue 23): GET client/website/{id}/requests.csv, a 302 to the written file. */
import { projectActionOf } from '#contracts/access';
import { type InputOf, type RawReply, resourceHandler } from '#runtime/http';
import { exportIssues } from '../issues/export-csv';
import { exportsApi } from '../issues/manifest';

export const operations = {
  async exportCsv({ session, params, query, lang, access }: InputOf<typeof exportsApi, 'exportCsv'>) {
    const url = await exportIssues(session.userId, params.id, query, lang, projectActionOf(access));
    const reply: RawReply = {
      raw: { statusCode: 302, headers: { location: url, 'cache-control': 'no-store' }, body: '' },
    };
    return reply;
  },
};

export const handler = resourceHandler(exportsApi, operations);

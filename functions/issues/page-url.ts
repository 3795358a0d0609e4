/** The dashboard's page of an issue: the CSV export's link column, the notification mails, and the integrations' mails and messages. */
import { getConfig } from '#runtime/config';

export const issuePageUrl = (projectId: string, n: number) =>
  `${getConfig().APP_ORIGIN}/profile/site/${projectId}/ticket/${n}`;

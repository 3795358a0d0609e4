/**
 * Azure DevOps Boards (issue 36): authorised by the organisation URL (`https://dev.azure.com/{org}` or a
 * self-hosted Azure DevOps Server collection URL) and a personal access token. Authorize lists the
 * organisation's projects and the first one's work item types and saves the authorisation (as Jira's
 * does); the client then picks the project and the type (Bug by default), the two-way sync's options, and
 * switches it on; the service hook panel sits below. Reset forgets the token and the project.
 */
import { azureDataSchema } from '#contracts/integrations';
import { type Choice, fetchAzureChoices } from './data';
import type { ViewOf } from './model';
import {
  keyRule,
  type TokenTracker,
  TokenTrackerSettings,
  type TrackerValues,
  trackerValues,
  withCurrent,
} from './TokenTrackerSettings';

type AzureValues = TrackerValues & { host: string; id: string; name: string; issueId: string };

const azure: TokenTracker<
  'azure',
  AzureValues,
  { host: string; key: string },
  { projects: Choice[]; issueTypes: Choice[] }
> = {
  vendor: 'azure',
  valuesOf: (view) => ({
    ...trackerValues(view),
    host: view.data.host ?? '',
    id: view.data.id ?? '',
    name: view.data.name ?? '',
    issueId: view.data.issueId || 'Bug',
  }),
  validate: (t) => ({
    host: (value) =>
      value.trim() === ''
        ? t('validation.required')
        : azureDataSchema.shape.host.safeParse(value).success
          ? null
          : t('integrationScreen.hostInvalid'),
    key: keyRule(t),
  }),
  authorizeChecks: ['host', 'key'],
  credentialsOf: (values) => ({ host: values.host.trim(), key: values.key.trim() }),
  list: fetchAzureChoices,
  // A project's work item types are its own: the kept type if the project has it, else Bug, else the first.
  reload: {
    adjust: ({ issueTypes }, values) => {
      const names = issueTypes.map((c) => c.id);
      const keep = values.issueId;
      return { issueId: names.includes(keep) ? keep : names.includes('Bug') ? 'Bug' : (names[0] ?? '') };
    },
  },
  credentials: [
    {
      kind: 'text',
      field: 'host',
      label: 'integrationScreen.azure.host',
      hint: 'integrationScreen.azure.hostHint',
      placeholder: 'https://dev.azure.com/your-organisation',
      maxLength: 500,
    },
    { kind: 'token', label: 'integrationScreen.azure.token', hint: 'integrationScreen.azure.tokenHint' },
  ],
  pickers: [
    {
      field: 'id',
      label: 'integrationScreen.azure.project',
      choices: (options, values) => options?.projects ?? withCurrent(values.id, values.name),
      loading: true,
      searchable: true,
      reloads: true,
    },
    {
      field: 'issueId',
      label: 'integrationScreen.azure.type',
      hint: 'integrationScreen.azure.typeHint',
      choices: (options, values) => options?.issueTypes ?? withCurrent(values.issueId),
    },
  ],
  dataOf: (values, options) => ({
    host: values.host.trim(),
    key: values.key,
    id: values.id,
    name: options?.projects.find((p) => p.id === values.id)?.name ?? values.name,
    issueId: values.issueId,
  }),
};

export function AzureSettings(props: { projectId: string; view: ViewOf<'azure'> }) {
  return <TokenTrackerSettings {...props} tracker={azure} />;
}

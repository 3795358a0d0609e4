/**
 * GitLab, Jira and Linear (SPEC.md sections 2, 4 and 5; issue 24): authorised by a token (Linear: a
 * personal API key on Linear's fixed endpoint, so no host, and teams in place of projects). Fetching the
 * projects with the host and token authorises the integration; the server then saves it at once with the
 * first project chosen. Authorised, the client picks the project (and for Jira the issue type and up to 10
 * extra fields) and switches it on. Authorize stores the authorisation only (docs/decisions.md "Authorize
 * stores the authorisation only"): the form then shows what is stored, Active included, so nothing shown
 * is lost by leaving; the banner says to switch Active on and Save. Reset returns to unauthorised with
 * active 0, which clears the project options and the token. The screen is TokenTrackerSettings'.
 */
import { Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { gitlabDataSchema } from '#contracts/integrations';
import { limits } from '#contracts/limits';
import { type Choice, fetchVendorProjects } from './data';
import { type KeyValue, KeyValueRows } from './KeyValueRows';
import type { ViewOf } from './model';
import {
  keepOrFirst,
  keyRule,
  type TokenTracker,
  TokenTrackerSettings,
  type TrackerValues,
  trackerValues,
  withCurrent,
} from './TokenTrackerSettings';

type Vendor = 'gitlab' | 'jira' | 'linear';
type Credentials = { host: string; username: string; key: string };
type Options = { projects: Choice[]; issueTypes: Choice[] };

type GitlabValues = TrackerValues & { host: string; id: string };
type JiraValues = GitlabValues & { username: string; issueId: string; customFields: KeyValue[] };
/** Linear: the chosen team's name, kept for display. */
type LinearValues = TrackerValues & { id: string; name: string };

const hostRule = (t: TFunction, required: boolean) => (value: string) =>
  required && value.trim() === ''
    ? t('validation.required')
    : gitlabDataSchema.shape.host.safeParse(value).success
      ? null
      : t('integrationScreen.hostInvalid');
const credentialsOf = (v: { host?: string; username?: string; key: string }): Credentials => ({
  host: (v.host ?? '').trim(),
  username: (v.username ?? '').trim(),
  key: v.key.trim(),
});
const projectPicker = (vendor: Vendor, reloads = false) => ({
  field: 'id' as const,
  label: `integrationScreen.${vendor}.project` as const,
  choices: (options: Options | null, values: { id: string; name?: string }) =>
    options?.projects ?? withCurrent(values.id, values.name),
  loading: true,
  searchable: true,
  reloads,
});

const gitlab: TokenTracker<'gitlab', GitlabValues, Credentials, Options> = {
  vendor: 'gitlab',
  valuesOf: (view) => ({
    ...trackerValues(view),
    host: view.data.host ?? '',
    id: view.data.id ?? '',
  }),
  validate: (t) => ({ host: hostRule(t, false), key: keyRule(t) }),
  authorizeChecks: ['host', 'key'],
  credentialsOf,
  list: (projectId, credentials) => fetchVendorProjects('gitlab', projectId, credentials),
  firstChoice: (values, { projects }) => ({ ...values, id: keepOrFirst(projects, values.id) }),
  credentials: [
    {
      kind: 'text',
      field: 'host',
      label: 'integrationScreen.gitlab.host',
      hint: 'integrationScreen.gitlab.hostHint',
      placeholder: 'https://gitlab.com',
      maxLength: 500,
      optional: true,
    },
    { kind: 'token', label: 'integrationScreen.gitlab.token', hint: 'integrationScreen.gitlab.tokenHint' },
  ],
  pickers: [projectPicker('gitlab')],
  dataOf: (values) => ({ host: values.host.trim(), key: values.key, id: values.id }),
};

const jira: TokenTracker<'jira', JiraValues, Credentials, Options> = {
  vendor: 'jira',
  valuesOf: (view) => ({
    ...trackerValues(view),
    host: view.data.host ?? '',
    username: view.data.username ?? '',
    id: view.data.id ?? '',
    issueId: view.data.issueId ?? '',
    customFields: view.data.customFields ?? [],
  }),
  validate: (t) => ({
    host: hostRule(t, true),
    username: (value) => (value.trim() === '' ? t('validation.required') : null),
    key: keyRule(t),
    customFields: { name: (value) => (value.trim() === '' ? t('validation.required') : null) },
  }),
  authorizeChecks: ['host', 'username', 'key'],
  credentialsOf,
  list: (projectId, credentials, project) => fetchVendorProjects('jira', projectId, credentials, project),
  firstChoice: (values, { projects, issueTypes }) => ({
    ...values,
    id: keepOrFirst(projects, values.id),
    issueId: keepOrFirst(issueTypes, values.issueId),
  }),
  // Jira's issue types belong to a project: choosing another one loads its types (once per change).
  reload: { adjust: ({ issueTypes }) => ({ issueId: issueTypes[0]?.id ?? '' }) },
  credentials: [
    {
      kind: 'text',
      field: 'host',
      label: 'integrationScreen.jira.host',
      hint: 'integrationScreen.jira.hostHint',
      placeholder: 'https://your-team.atlassian.net',
      maxLength: 500,
    },
    {
      kind: 'text',
      field: 'username',
      label: 'integrationScreen.jira.username',
      placeholder: 'you@example.com',
      maxLength: limits.loginInputMax,
    },
    { kind: 'token', label: 'integrationScreen.jira.token', hint: 'integrationScreen.jira.tokenHint' },
  ],
  pickers: [
    projectPicker('jira', true),
    {
      field: 'issueId',
      label: 'integrationScreen.jira.issueType',
      choices: (options, values) => options?.issueTypes ?? withCurrent(values.issueId),
    },
  ],
  extra: (form) => <JiraFields form={form} />,
  dataOf: (values) => ({
    host: values.host.trim(),
    key: values.key,
    id: values.id,
    username: values.username.trim(),
    issueId: values.issueId,
    customFields: values.customFields.map((f) => ({ name: f.name.trim(), value: f.value })),
  }),
};

/** Up to 10 extra fields set on each created Jira issue. */
function JiraFields({ form }: { form: Parameters<NonNullable<typeof jira.extra>>[0] }) {
  const { t } = useTranslation();
  return (
    <>
      <Text fw={600} size="sm" mt="xs">
        {t('integrationScreen.jira.fieldsTitle')}
      </Text>
      <KeyValueRows
        form={form}
        field="customFields"
        max={limits.jiraCustomFields}
        labels={{
          name: t('integrationScreen.jira.fieldName'),
          value: t('integrationScreen.jira.fieldValue'),
          namePlaceholder: 'labels',
          add: t('integrationScreen.jira.addField'),
          empty: t('integrationScreen.jira.fieldsEmpty'),
        }}
      />
    </>
  );
}

const linear: TokenTracker<'linear', LinearValues, Credentials, Options> = {
  vendor: 'linear',
  valuesOf: (view) => ({
    ...trackerValues(view),
    id: view.data.id ?? '',
    name: view.data.name ?? '',
  }),
  validate: (t) => ({ key: keyRule(t) }),
  authorizeChecks: ['key'],
  credentialsOf,
  list: (projectId, credentials) => fetchVendorProjects('linear', projectId, credentials),
  firstChoice: (values, { projects }) => ({ ...values, id: keepOrFirst(projects, values.id) }),
  credentials: [
    { kind: 'token', label: 'integrationScreen.linear.token', hint: 'integrationScreen.linear.tokenHint' },
  ],
  pickers: [projectPicker('linear')],
  dataOf: (values, options) => ({
    key: values.key,
    id: values.id,
    name: options?.projects.find((p) => p.id === values.id)?.name ?? values.name,
  }),
};

export function TokenSettings({ projectId, view }: { projectId: string; view: ViewOf<Vendor> }) {
  // Keyed by vendor: each is its own form (the tab switches remount it anyway).
  if (view.name === 'gitlab')
    return <TokenTrackerSettings projectId={projectId} view={view} tracker={gitlab} />;
  if (view.name === 'jira') return <TokenTrackerSettings projectId={projectId} view={view} tracker={jira} />;
  return <TokenTrackerSettings projectId={projectId} view={view} tracker={linear} />;
}

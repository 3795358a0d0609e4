/**
 * GitHub (issue 24): authorised by a fine-grained personal access token, as GitLab by its token, but
 * with no host (the API address is Snag's setting). Authorize lists the token's repositories and saves
 * the authorisation with the first chosen; the client then picks the repository, the labels set on each
 * created issue, the two-way sync's options, and switches it on; the inbound hook's panel (issue 24) sits
 * below. Reset forgets the token and the repository (the labels stay).
 */
import { TagsInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { GITHUB_LABELS_MAX, GITHUB_LINK_DAYS, githubDataSchema } from '#contracts/integrations';
import { type Choice, fetchGithubRepos } from './data';
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

type GithubValues = TrackerValues & { id: string; labels: string[] };

const github: TokenTracker<'github', GithubValues, string, { repos: Choice[] }> = {
  vendor: 'github',
  valuesOf: (view) => ({
    ...trackerValues(view),
    id: view.data.id ?? '',
    labels: view.data.labels ?? [],
  }),
  validate: (t) => ({
    key: keyRule(t),
    labels: (value) =>
      githubDataSchema.shape.labels.safeParse(value).success
        ? null
        : t('integrationScreen.github.labelInvalid'),
  }),
  authorizeChecks: ['key'],
  credentialsOf: (values) => values.key.trim(),
  list: fetchGithubRepos,
  firstChoice: (values, { repos }) => ({ ...values, id: keepOrFirst(repos, values.id) }),
  credentials: [
    {
      kind: 'token',
      label: 'integrationScreen.github.token',
      hint: 'integrationScreen.github.tokenHint',
      placeholder: 'github_pat_…',
    },
  ],
  pickers: [
    {
      field: 'id',
      label: 'integrationScreen.github.repo',
      choices: (options, values) => options?.repos ?? withCurrent(values.id),
      loading: true,
      searchable: true,
    },
  ],
  extra: (form) => <Labels form={form} />,
  note: (t) => t('integrationScreen.github.quoting', { days: GITHUB_LINK_DAYS }),
  dataOf: (values) => ({ key: values.key, id: values.id, labels: values.labels.map((l) => l.trim()) }),
};

/** The labels set on each created issue. */
function Labels({ form }: { form: Parameters<NonNullable<typeof github.extra>>[0] }) {
  const { t } = useTranslation();
  const { labels } = form.getValues();
  return (
    <TagsInput
      label={t('integrationScreen.github.labels')}
      description={t('integrationScreen.github.labelsHint', { count: GITHUB_LABELS_MAX })}
      placeholder={labels.length ? undefined : t('integrationScreen.github.labelsPlaceholder')}
      maxTags={GITHUB_LABELS_MAX}
      splitChars={[',']}
      clearable
      key={form.key('labels')}
      {...form.getInputProps('labels')}
    />
  );
}

export function GithubSettings(props: { projectId: string; view: ViewOf<'github'> }) {
  return <TokenTrackerSettings {...props} tracker={github} />;
}

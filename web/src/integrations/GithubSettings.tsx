/**
 * GitHub (issue 24): authorised by a fine-grained personal access token, as GitLab by its token, but
 * with no host (the API address is Snag's setting). Authorize lists the token's repositories and saves
 * the authorisation with the first chosen; the client then picks the repository, the labels set on each
 * created issue, the two-way sync's options, and switches it on; the inbound hook's panel (issue 24) sits
 * below. Reset forgets the token and the repository (the labels stay).
 */
import { Alert, Button, Divider, Group, Select, Stack, TagsInput, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GITHUB_LABELS_MAX, GITHUB_LINK_DAYS, githubDataSchema } from '#contracts/integrations';
import { type SyncOptions, syncOptionsOf } from '#contracts/sync';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { type Choice, fetchGithubRepos, saveIntegration } from './data';
import {
  ActiveSwitch,
  AuthorizedNotice,
  SaveRow,
  SyncOptionFields,
  TokenInput,
  useIntegrationSave,
} from './FormParts';
import { type ViewOf, vendorKeyProblem } from './model';
import { TrackerHookPanel } from './TrackerHookPanel';
import { failureText, useTokenAuthorization } from './useTokenAuthorization';

type GithubValues = { active: boolean; key: string; id: string; labels: string[] } & SyncOptions;

const valuesOf = (view: ViewOf<'github'>): GithubValues => ({
  active: view.active === 1,
  key: view.data.key ?? '',
  id: view.data.id ?? '',
  labels: view.data.labels ?? [],
  ...syncOptionsOf(view.data),
});

/** Until GitHub's list arrives, the stored choice is the only option. */
const withCurrent = (id: string): Choice[] => (id ? [{ id, name: id }] : []);

export function GithubSettings({ projectId, view }: { projectId: string; view: ViewOf<'github'> }) {
  const { t } = useTranslation();
  const authorized = view.authorized === 1;
  const [repos, setRepos] = useState<Choice[] | null>(null);
  const form = useForm<GithubValues>({
    initialValues: valuesOf(view),
    validate: {
      key: (value) => {
        const problem = vendorKeyProblem(value);
        return problem && t(problem);
      },
      labels: (value) =>
        githubDataSchema.shape.labels.safeParse(value).success
          ? null
          : t('integrationScreen.github.labelInvalid'),
    },
    validateInputOnBlur: true,
  });
  const { save: run, saving, error, setErrorCode } = useIntegrationSave(form, 'github');
  const { busy, authError, setAuthError, track, settled, authorizing, resetLink } = useTokenAuthorization({
    vendor: 'github',
    projectId,
    form,
    valuesOf,
    setErrorCode,
    forgetOptions: () => setRepos(null),
  });
  const list = useCallback((key: string) => track(fetchGithubRepos(projectId, key)), [projectId, track]);

  // Authorised before this visit: the repositories once per visit, with the stored (masked) token.
  const arrival = useRef<string | null>(authorized ? view.data.key : null);
  useEffect(() => {
    const key = arrival.current;
    if (!key) return;
    arrival.current = null;
    list(key).then(
      (found) => setRepos(found.repos),
      (e) => setAuthError(failureText(e)),
    );
  }, [list, setAuthError]);

  async function authorize() {
    if (form.validateField('key').hasError) return;
    await authorizing(async () => {
      const values = form.getValues();
      const found = await list(values.key.trim());
      setRepos(found.repos);
      const stored = found.view
        ? valuesOf(found.view)
        : {
            ...values,
            id: found.repos.some((r) => r.id === values.id) ? values.id : (found.repos[0]?.id ?? ''),
          };
      // As stored, Active included (TokenSettings: Authorize stores the authorisation only).
      form.setInitialValues(stored);
      form.setValues(stored);
    });
  }

  const save = (values: GithubValues) =>
    run(async () => {
      await settled();
      const saved = await saveIntegration(projectId, {
        name: 'github',
        active: values.active ? 1 : 0,
        authorized: 1,
        data: {
          key: values.key,
          id: values.id,
          labels: values.labels.map((l) => l.trim()),
          syncState: values.syncState,
          syncComments: values.syncComments,
          publicTrackerComments: values.publicTrackerComments,
        },
      });
      return valuesOf(saved);
    });

  const values = form.getValues();

  return (
    <Section
      title={t('integrations.github')}
      description={t('integrationScreen.github.description')}
      labelId="integration-github"
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {authError && (
            <ErrorAlert>
              {authError} {resetLink}
            </ErrorAlert>
          )}
          {error}
          <TokenInput
            form={form}
            masked={authorized ? view.data.key : null}
            label={t('integrationScreen.github.token')}
            hint={t('integrationScreen.github.tokenHint')}
            placeholder="github_pat_…"
          />
          {!authorized ? (
            <Group>
              <Button onClick={authorize} loading={busy === 'authorize'}>
                {t('integrationScreen.authorize')}
              </Button>
            </Group>
          ) : (
            <>
              <AuthorizedNotice reset={resetLink} active={view.active} />
              <Select
                label={t('integrationScreen.github.repo')}
                data={(repos ?? withCurrent(values.id)).map((r) => ({ value: r.id, label: r.name }))}
                placeholder={repos ? undefined : t('integrationScreen.loadingOptions')}
                searchable
                allowDeselect={false}
                key={form.key('id')}
                {...form.getInputProps('id')}
              />
              <TagsInput
                label={t('integrationScreen.github.labels')}
                description={t('integrationScreen.github.labelsHint', { count: GITHUB_LABELS_MAX })}
                placeholder={
                  values.labels.length ? undefined : t('integrationScreen.github.labelsPlaceholder')
                }
                maxTags={GITHUB_LABELS_MAX}
                splitChars={[',']}
                clearable
                key={form.key('labels')}
                {...form.getInputProps('labels')}
              />
              <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} role="note">
                <Text size="sm">{t('integrationScreen.github.quoting', { days: GITHUB_LINK_DAYS })}</Text>
              </Alert>
              <SyncOptionFields form={form} tracker={t('integrations.github')} />
              <ActiveSwitch form={form} />
              <SaveRow saving={saving} dirty={form.isDirty()} />
            </>
          )}
        </Stack>
      </form>
      {authorized && (
        <>
          <Divider my="lg" />
          <TrackerHookPanel projectId={projectId} vendor="github" />
        </>
      )}
    </Section>
  );
}

/**
 * GitLab, Jira and Linear (SPEC.md sections 2, 4 and 5; issue 24): authorised by a token (Linear: a
 * personal API key on Linear's fixed endpoint, so no host, and teams in place of projects). Fetching the projects with the
 * host and token authorises the integration; the server then saves it at once with the first project
 * chosen. Authorised, the client picks the project (and for Jira the issue type and up to 10 extra
 * fields) and switches it on. Authorize stores the authorisation only (docs/decisions.md "Authorize
 * stores the authorisation only"): the form then shows what is stored, Active included, so nothing shown
 * is lost by leaving; the banner says to switch Active on and Save. Reset returns to unauthorised with active 0, which clears the project options and the token.
 */
import { Button, Divider, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { gitlabDataSchema } from '#contracts/integrations';
import { limits } from '#contracts/limits';
import { isTrackerVendor, type SyncOptions, syncOptionsOf } from '#contracts/sync';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { type Choice, fetchVendorProjects, saveIntegration } from './data';
import {
  ActiveSwitch,
  AuthorizedNotice,
  SaveRow,
  SyncOptionFields,
  TokenInput,
  useIntegrationSave,
} from './FormParts';
import { type KeyValue, KeyValueRows } from './KeyValueRows';
import { type ViewOf, vendorKeyProblem } from './model';
import { TrackerHookPanel } from './TrackerHookPanel';
import { failureText, useTokenAuthorization } from './useTokenAuthorization';

type Vendor = 'gitlab' | 'jira' | 'linear';

type TokenValues = {
  active: boolean;
  host: string;
  username: string;
  key: string;
  id: string;
  issueId: string;
  customFields: KeyValue[];
  /** Linear: the chosen team's name, kept for display. */
  name: string;
} & SyncOptions;

type Credentials = { host: string; username: string; key: string };

function valuesOf(view: ViewOf<Vendor>): TokenValues {
  const data = view.data as Partial<ViewOf<'jira'>['data'] & ViewOf<'gitlab'>['data']> &
    Partial<ViewOf<'linear'>['data']>;
  return {
    active: view.active === 1,
    host: data.host ?? '',
    username: data.username ?? '',
    key: data.key ?? '',
    id: data.id ?? '',
    issueId: data.issueId ?? '',
    customFields: data.customFields ?? [],
    name: data.name ?? '',
    ...syncOptionsOf(data),
  };
}

const credentialsOf = (v: TokenValues): Credentials => ({
  host: v.host.trim(),
  username: v.username.trim(),
  key: v.key.trim(),
});

export function TokenSettings({ projectId, view }: { projectId: string; view: ViewOf<Vendor> }) {
  const { t } = useTranslation();
  const vendor = view.name;
  const jira = vendor === 'jira';
  const hosted = vendor !== 'linear';
  const authorized = view.authorized === 1;
  const [options, setOptions] = useState<{ projects: Choice[]; issueTypes: Choice[] } | null>(null);
  const form = useForm<TokenValues>({
    initialValues: valuesOf(view),
    validate: {
      host: (value) =>
        jira && value.trim() === ''
          ? t('validation.required')
          : gitlabDataSchema.shape.host.safeParse(value).success
            ? null
            : t('integrationScreen.hostInvalid'),
      username: (value) => (jira && value.trim() === '' ? t('validation.required') : null),
      key: (value) => {
        const problem = vendorKeyProblem(value);
        return problem && t(problem);
      },
      customFields: { name: (value) => (value.trim() === '' ? t('validation.required') : null) },
    },
    validateInputOnBlur: true,
  });
  const { save: run, saving, error, setErrorCode } = useIntegrationSave(form, vendor);
  const { busy, authError, setAuthError, track, settled, authorizing, resetLink } = useTokenAuthorization({
    vendor,
    projectId,
    form,
    valuesOf,
    setErrorCode,
    forgetOptions: () => setOptions(null),
  });
  const list = useCallback(
    (credentials: Credentials, jiraProject?: string) =>
      track(fetchVendorProjects(vendor, projectId, credentials, jiraProject)),
    [vendor, projectId, track],
  );

  // Authorised before this visit: the choices come from the vendor again, with the stored token, ONCE
  // per visit (the ref is emptied, so a re-render or React's second effect run calls nobody). The
  // vendor rate-limits the customer's token; an authorisation or a Jira project change brings its own.
  const arrival = useRef<Credentials | null>(authorized ? credentialsOf(valuesOf(view)) : null);
  useEffect(() => {
    const credentials = arrival.current;
    if (!credentials) return;
    arrival.current = null;
    list(credentials).then(setOptions, (e) => setAuthError(failureText(e)));
  }, [list, setAuthError]);

  async function authorize() {
    if (form.validate().hasErrors) return;
    await authorizing(async () => {
      const found = await list(credentialsOf(form.getValues()));
      setOptions(found);
      // The server saved the authorisation (project kept or the first, token masked): that is the saved
      // state, and the form shows it as stored. Switching Active on here would show a state the server
      // does not have, which a reload or another visit turns off again.
      const values = form.getValues();
      const keep = (list: Choice[], id: string) => (list.some((c) => c.id === id) ? id : (list[0]?.id ?? ''));
      const stored = found.view
        ? valuesOf(found.view)
        : { ...values, id: keep(found.projects, values.id), issueId: keep(found.issueTypes, values.issueId) };
      form.setInitialValues(stored);
      form.setValues(stored);
    });
  }

  /** Jira's issue types belong to a project: choosing another one loads its types (once per change). */
  function chooseProject(id: string) {
    if (id === form.getValues().id) return;
    form.setFieldValue('id', id);
    if (!jira) return;
    list(credentialsOf(form.getValues()), id).then(
      (found) => {
        setOptions(found);
        form.setFieldValue('issueId', found.issueTypes[0]?.id ?? '');
      },
      (e) => setAuthError(failureText(e)),
    );
  }

  const save = (values: TokenValues) =>
    run(async () => {
      await settled();
      const common = {
        host: values.host.trim(),
        key: values.key,
        id: values.id,
        syncState: values.syncState,
        syncComments: values.syncComments,
        publicTrackerComments: values.publicTrackerComments,
      };
      const saved = await saveIntegration(
        projectId,
        jira
          ? {
              name: 'jira',
              active: values.active ? 1 : 0,
              authorized: 1,
              data: {
                ...common,
                username: values.username.trim(),
                issueId: values.issueId,
                customFields: values.customFields.map((f) => ({ name: f.name.trim(), value: f.value })),
              },
            }
          : vendor === 'linear'
            ? {
                name: 'linear',
                active: values.active ? 1 : 0,
                authorized: 1,
                data: {
                  key: values.key,
                  id: values.id,
                  name: options?.projects.find((p) => p.id === values.id)?.name ?? values.name,
                  syncState: values.syncState,
                  syncComments: values.syncComments,
                  publicTrackerComments: values.publicTrackerComments,
                },
              }
            : { name: 'gitlab', active: values.active ? 1 : 0, authorized: 1, data: common },
      );
      return valuesOf(saved as ViewOf<Vendor>);
    });

  const values = form.getValues();

  return (
    <Section
      title={t(`integrations.${vendor}`)}
      description={t(`integrationScreen.${vendor}.description`)}
      labelId={`integration-${vendor}`}
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {authError && (
            <ErrorAlert>
              {authError} {resetLink}
            </ErrorAlert>
          )}
          {error}
          {hosted && (
            <TextInput
              label={t(`integrationScreen.${vendor as 'gitlab' | 'jira'}.host`)}
              description={t(`integrationScreen.${vendor as 'gitlab' | 'jira'}.hostHint`)}
              placeholder={jira ? 'https://your-team.atlassian.net' : 'https://gitlab.com'}
              withAsterisk={jira}
              maxLength={500}
              readOnly={authorized}
              key={form.key('host')}
              {...form.getInputProps('host')}
            />
          )}
          {jira && (
            <TextInput
              label={t('integrationScreen.jira.username')}
              placeholder="you@example.com"
              withAsterisk
              maxLength={limits.loginInputMax}
              readOnly={authorized}
              key={form.key('username')}
              {...form.getInputProps('username')}
            />
          )}
          <TokenInput
            form={form}
            masked={authorized ? view.data.key : null}
            label={t(`integrationScreen.${vendor}.token`)}
            hint={t(`integrationScreen.${vendor}.tokenHint`)}
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
                label={t(`integrationScreen.${vendor}.project`)}
                data={(options?.projects ?? withCurrent(values.id, values.name)).map((p) => ({
                  value: p.id,
                  label: p.name,
                }))}
                placeholder={options ? undefined : t('integrationScreen.loadingOptions')}
                searchable
                allowDeselect={false}
                key={form.key('id')}
                {...form.getInputProps('id')}
                onChange={(value) => value && chooseProject(value)}
              />
              {jira && (
                <>
                  <Select
                    label={t('integrationScreen.jira.issueType')}
                    data={(options?.issueTypes ?? withCurrent(values.issueId)).map((p) => ({
                      value: p.id,
                      label: p.name,
                    }))}
                    allowDeselect={false}
                    key={form.key('issueId')}
                    {...form.getInputProps('issueId')}
                  />
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
              )}
              {isTrackerVendor(vendor) && (
                <SyncOptionFields form={form} tracker={t(`integrations.${vendor}`)} />
              )}
              <ActiveSwitch form={form} />
              <SaveRow saving={saving} dirty={form.isDirty()} />
            </>
          )}
        </Stack>
      </form>
      {authorized && isTrackerVendor(vendor) && (
        <>
          <Divider my="lg" />
          <TrackerHookPanel projectId={projectId} vendor={vendor} />
        </>
      )}
    </Section>
  );
}

/** Until the vendor's list arrives, the stored choice is the only option (shown by its stored name, else its id). */
const withCurrent = (id: string, name = ''): Choice[] => (id ? [{ id, name: name || id }] : []);

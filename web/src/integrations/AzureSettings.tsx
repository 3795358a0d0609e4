/**
 * Azure DevOps Boards (issue 36): authorised by the organisation URL (`https://dev.azure.com/{org}` or a
 * self-hosted Azure DevOps Server collection URL) and a personal access token. Authorize lists the
 * organisation's projects and the first one's work item types and saves the authorisation (as Jira's
 * does); the client then picks the project and the type (Bug by default), the two-way sync's options, and
 * switches it on; the service hook panel sits below. Reset forgets the token and the project.
 */
import { Button, Divider, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { azureDataSchema } from '#contracts/integrations';
import { type SyncOptions, syncOptionsOf } from '#contracts/sync';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { type Choice, fetchAzureChoices, saveIntegration } from './data';
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

type AzureValues = {
  active: boolean;
  host: string;
  key: string;
  id: string;
  name: string;
  issueId: string;
} & SyncOptions;

const valuesOf = (view: ViewOf<'azure'>): AzureValues => ({
  active: view.active === 1,
  host: view.data.host ?? '',
  key: view.data.key ?? '',
  id: view.data.id ?? '',
  name: view.data.name ?? '',
  issueId: view.data.issueId || 'Bug',
  ...syncOptionsOf(view.data),
});

type Credentials = { host: string; key: string };
const credentialsOf = (v: AzureValues): Credentials => ({ host: v.host.trim(), key: v.key.trim() });

/** Until the list arrives, the stored choice is the only option (by its stored name, else its id). */
const withCurrent = (id: string, name = ''): Choice[] => (id ? [{ id, name: name || id }] : []);

export function AzureSettings({ projectId, view }: { projectId: string; view: ViewOf<'azure'> }) {
  const { t } = useTranslation();
  const authorized = view.authorized === 1;
  const [options, setOptions] = useState<{ projects: Choice[]; issueTypes: Choice[] } | null>(null);
  const form = useForm<AzureValues>({
    initialValues: valuesOf(view),
    validate: {
      host: (value) =>
        value.trim() === ''
          ? t('validation.required')
          : azureDataSchema.shape.host.safeParse(value).success
            ? null
            : t('integrationScreen.hostInvalid'),
      key: (value) => {
        const problem = vendorKeyProblem(value);
        return problem && t(problem);
      },
    },
    validateInputOnBlur: true,
  });
  const { save: run, saving, error, setErrorCode } = useIntegrationSave(form, 'azure');
  const { busy, authError, setAuthError, track, settled, authorizing, resetLink } = useTokenAuthorization({
    vendor: 'azure',
    projectId,
    form,
    valuesOf,
    setErrorCode,
    forgetOptions: () => setOptions(null),
  });
  const list = useCallback(
    (credentials: Credentials, project?: string) => track(fetchAzureChoices(projectId, credentials, project)),
    [projectId, track],
  );

  // Authorised before this visit: the choices once per visit, with the stored (masked) token.
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
      // As stored, Active included (TokenSettings: Authorize stores the authorisation only).
      const stored = found.view ? valuesOf(found.view) : form.getValues();
      form.setInitialValues(stored);
      form.setValues(stored);
    });
  }

  /** A project's work item types are its own: choosing another project loads them (once per change). */
  function chooseProject(id: string) {
    if (id === form.getValues().id) return;
    form.setFieldValue('id', id);
    list(credentialsOf(form.getValues()), id).then(
      (found) => {
        setOptions(found);
        const names = found.issueTypes.map((c) => c.id);
        const keep = form.getValues().issueId;
        form.setFieldValue(
          'issueId',
          names.includes(keep) ? keep : names.includes('Bug') ? 'Bug' : (names[0] ?? ''),
        );
      },
      (e) => setAuthError(failureText(e)),
    );
  }

  const save = (values: AzureValues) =>
    run(async () => {
      await settled();
      const saved = await saveIntegration(projectId, {
        name: 'azure',
        active: values.active ? 1 : 0,
        authorized: 1,
        data: {
          host: values.host.trim(),
          key: values.key,
          id: values.id,
          name: options?.projects.find((p) => p.id === values.id)?.name ?? values.name,
          issueId: values.issueId,
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
      title={t('integrations.azure')}
      description={t('integrationScreen.azure.description')}
      labelId="integration-azure"
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {authError && (
            <ErrorAlert>
              {authError} {resetLink}
            </ErrorAlert>
          )}
          {error}
          <TextInput
            label={t('integrationScreen.azure.host')}
            description={t('integrationScreen.azure.hostHint')}
            placeholder="https://dev.azure.com/your-organisation"
            withAsterisk
            maxLength={500}
            readOnly={authorized}
            key={form.key('host')}
            {...form.getInputProps('host')}
          />
          <TokenInput
            form={form}
            masked={authorized ? view.data.key : null}
            label={t('integrationScreen.azure.token')}
            hint={t('integrationScreen.azure.tokenHint')}
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
                label={t('integrationScreen.azure.project')}
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
              <Select
                label={t('integrationScreen.azure.type')}
                description={t('integrationScreen.azure.typeHint')}
                data={(options?.issueTypes ?? withCurrent(values.issueId)).map((p) => ({
                  value: p.id,
                  label: p.name,
                }))}
                allowDeselect={false}
                key={form.key('issueId')}
                {...form.getInputProps('issueId')}
              />
              <SyncOptionFields form={form} tracker={t('integrations.azure')} />
              <ActiveSwitch form={form} />
              <SaveRow saving={saving} dirty={form.isDirty()} />
            </>
          )}
        </Stack>
      </form>
      {authorized && (
        <>
          <Divider my="lg" />
          <TrackerHookPanel projectId={projectId} vendor="azure" />
        </>
      )}
    </Section>
  );
}

/**
 * GitLab and Jira (SPEC.md sections 2, 4 and 5): authorised by a token. Fetching the projects with the
 * host and token authorises the integration; the server then saves it at once with the first project
 * chosen. Authorised, the client picks the project (and for Jira the issue type and up to 10 extra
 * fields) and switches it on. Reset returns to unauthorised with active 0, which clears the project
 * options and the token.
 */
import { Alert, Anchor, Button, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { gitlabDataSchema } from '../../../functions/shared/integrations';
import { limits } from '../../../functions/shared/limits';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { errorText } from '../i18n';
import { ActiveSwitch, SaveRow, useIntegrationSave } from './FormParts';
import { type Choice, fetchVendorProjects, resetAuthorization, saveIntegration } from './hooks';
import { type KeyValue, KeyValueRows } from './KeyValueRows';
import type { ViewOf } from './model';

type Vendor = 'gitlab' | 'jira';

type TokenValues = {
  active: boolean;
  host: string;
  username: string;
  key: string;
  id: string;
  issueId: string;
  customFields: KeyValue[];
};

function valuesOf(view: ViewOf<Vendor>): TokenValues {
  const data = view.data as Partial<ViewOf<'jira'>['data']> & ViewOf<'gitlab'>['data'];
  return {
    active: view.active === 1,
    host: data.host ?? '',
    username: data.username ?? '',
    key: data.key ?? '',
    id: data.id ?? '',
    issueId: data.issueId ?? '',
    customFields: data.customFields ?? [],
  };
}

export function TokenSettings({ projectId, view }: { projectId: string; view: ViewOf<Vendor> }) {
  const { t } = useTranslation();
  const vendor = view.name;
  const jira = vendor === 'jira';
  const authorized = view.authorized === 1;
  const [busy, setBusy] = useState<'authorize' | 'reset' | null>(null);
  const [authFailed, setAuthFailed] = useState(false);
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
      key: (value) => (value.trim() === '' ? t('validation.required') : null),
      customFields: { name: (value) => (value.trim() === '' ? t('validation.required') : null) },
    },
    validateInputOnBlur: true,
  });
  const { save: run, saving, error, setErrorCode } = useIntegrationSave(form);

  // Authorised before this visit: the choices come from the vendor again, with the stored token. Only
  // on arrival: an authorisation made here brings its own lists, and a second call racing a Reset would
  // authorise again with the stored token.
  const authorizedOnArrival = useRef(authorized);
  useEffect(() => {
    if (!authorizedOnArrival.current) return;
    const { host, username, key } = form.getValues();
    fetchVendorProjects(vendor, projectId, { host, username, key }).then(setOptions, () =>
      setAuthFailed(true),
    );
  }, [vendor, projectId, form]);

  async function authorize() {
    if (form.validate().hasErrors) return;
    const { host, username, key } = form.getValues();
    setBusy('authorize');
    setAuthFailed(false);
    setErrorCode(null);
    try {
      const found = await fetchVendorProjects(vendor, projectId, {
        host: host.trim(),
        username: username.trim(),
        key: key.trim(),
      });
      setOptions(found);
      // The server saved the authorisation with the chosen project kept, or else the first one: show that.
      const values = form.getValues();
      const keep = (list: Choice[], id: string) => (list.some((c) => c.id === id) ? id : (list[0]?.id ?? ''));
      const chosen = {
        ...values,
        id: keep(found.projects, values.id),
        issueId: keep(found.issueTypes, values.issueId),
      };
      form.setInitialValues(chosen);
      form.setValues(chosen);
    } catch {
      setAuthFailed(true);
    } finally {
      setBusy(null);
    }
  }

  /** Jira's issue types belong to a project: choosing another one loads its types. */
  function chooseProject(id: string) {
    form.setFieldValue('id', id);
    if (!jira) return;
    const { host, username, key } = form.getValues();
    fetchVendorProjects(vendor, projectId, { host, username, key }, id).then(
      (found) => {
        setOptions(found);
        form.setFieldValue('issueId', found.issueTypes[0]?.id ?? '');
      },
      () => setAuthFailed(true),
    );
  }

  const save = (values: TokenValues) =>
    run(async () => {
      const common = { host: values.host.trim(), key: values.key, id: values.id };
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
          : { name: 'gitlab', active: values.active ? 1 : 0, authorized: 1, data: common },
      );
      return valuesOf(saved as ViewOf<Vendor>);
    });

  async function reset() {
    setBusy('reset');
    setErrorCode(null);
    try {
      const fresh = valuesOf(await resetAuthorization(vendor, projectId));
      form.setInitialValues(fresh);
      form.setValues(fresh);
      setOptions(null);
      setAuthFailed(false);
    } catch (error) {
      setErrorCode(errorCodeOf(error));
    } finally {
      setBusy(null);
    }
  }

  const resetLink = (
    <Anchor component="button" type="button" onClick={reset} fw={600} inherit>
      {t('integrationScreen.resetAuthorization')}
    </Anchor>
  );
  const values = form.getValues();

  return (
    <Section
      title={t(`integrations.${vendor}`)}
      description={t(`integrationScreen.${vendor}.description`)}
      labelId={`integration-${vendor}`}
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {authFailed && (
            <ErrorAlert>
              {errorText('AUTHORIZATION_FAILED')} {resetLink}
            </ErrorAlert>
          )}
          {error}
          <TextInput
            label={t(`integrationScreen.${vendor}.host`)}
            description={t(`integrationScreen.${vendor}.hostHint`)}
            placeholder={jira ? 'https://your-team.atlassian.net' : 'https://gitlab.com'}
            withAsterisk={jira}
            maxLength={500}
            readOnly={authorized}
            key={form.key('host')}
            {...form.getInputProps('host')}
          />
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
          {authorized ? (
            <TextInput label={t(`integrationScreen.${vendor}.token`)} value={values.key} readOnly />
          ) : (
            <PasswordInput
              label={t(`integrationScreen.${vendor}.token`)}
              description={t(`integrationScreen.${vendor}.tokenHint`)}
              withAsterisk
              maxLength={1000}
              autoComplete="off"
              key={form.key('key')}
              {...form.getInputProps('key')}
            />
          )}
          {!authorized ? (
            <Group>
              <Button onClick={authorize} loading={busy === 'authorize'}>
                {t('integrationScreen.authorize')}
              </Button>
            </Group>
          ) : (
            <>
              <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />}>
                <Group gap="xs" justify="space-between">
                  <Text size="sm">{t('integrationScreen.authorized')}</Text>
                  {resetLink}
                </Group>
              </Alert>
              <Select
                label={t(`integrationScreen.${vendor}.project`)}
                data={(options?.projects ?? withCurrent(values.id)).map((p) => ({
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
              <ActiveSwitch form={form} />
              <SaveRow saving={saving} dirty={form.isDirty()} />
            </>
          )}
        </Stack>
      </form>
    </Section>
  );
}

/** Until the vendor's list arrives, the stored choice is the only option (shown by its id). */
const withCurrent = (id: string): Choice[] => (id ? [{ id, name: id }] : []);

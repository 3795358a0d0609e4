/**
 * ClickUp (issue 36): authorised by a personal API token (`pk_…`), as GitHub by its token, with no host
 * (ClickUp's API address is Snag's setting). Authorize lists every list the token reaches (named by its
 * workspace, space and folder) and saves the authorisation with the first chosen; the client then picks
 * the list, the two-way sync's options, and switches it on; the inbound hook's panel sits below, where
 * Snag registers ClickUp's webhook (ClickUp has no screen for it). Reset forgets the token and the list.
 */
import { Alert, Button, Divider, Group, Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type SyncOptions, syncOptionsOf } from '#contracts/sync';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { type Choice, fetchClickupLists, saveIntegration } from './data';
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

type ClickupValues = { active: boolean; key: string; id: string; name: string } & SyncOptions;

const valuesOf = (view: ViewOf<'clickup'>): ClickupValues => ({
  active: view.active === 1,
  key: view.data.key ?? '',
  id: view.data.id ?? '',
  name: view.data.name ?? '',
  ...syncOptionsOf(view.data),
});

/** Until ClickUp's lists arrive, the stored choice is the only option (by its stored path, else its id). */
const withCurrent = (id: string, name: string): Choice[] => (id ? [{ id, name: name || id }] : []);

export function ClickupSettings({ projectId, view }: { projectId: string; view: ViewOf<'clickup'> }) {
  const { t } = useTranslation();
  const authorized = view.authorized === 1;
  const [lists, setLists] = useState<Choice[] | null>(null);
  const form = useForm<ClickupValues>({
    initialValues: valuesOf(view),
    validate: {
      key: (value) => {
        const problem = vendorKeyProblem(value);
        return problem && t(problem);
      },
    },
    validateInputOnBlur: true,
  });
  const { save: run, saving, error, setErrorCode } = useIntegrationSave(form, 'clickup');
  const { busy, authError, setAuthError, track, settled, authorizing, resetLink } = useTokenAuthorization({
    vendor: 'clickup',
    projectId,
    form,
    valuesOf,
    setErrorCode,
    forgetOptions: () => setLists(null),
  });
  const list = useCallback((key: string) => track(fetchClickupLists(projectId, key)), [projectId, track]);

  // Authorised before this visit: the lists once per visit, with the stored (masked) token.
  const arrival = useRef<string | null>(authorized ? view.data.key : null);
  useEffect(() => {
    const key = arrival.current;
    if (!key) return;
    arrival.current = null;
    list(key).then(
      (found) => setLists(found.lists),
      (e) => setAuthError(failureText(e)),
    );
  }, [list, setAuthError]);

  async function authorize() {
    if (form.validateField('key').hasError) return;
    await authorizing(async () => {
      const values = form.getValues();
      const found = await list(values.key.trim());
      setLists(found.lists);
      const stored = found.view
        ? valuesOf(found.view)
        : {
            ...values,
            id: found.lists.some((r) => r.id === values.id) ? values.id : (found.lists[0]?.id ?? ''),
          };
      // As stored, Active included (TokenSettings: Authorize stores the authorisation only).
      form.setInitialValues(stored);
      form.setValues(stored);
    });
  }

  const save = (values: ClickupValues) =>
    run(async () => {
      await settled();
      const saved = await saveIntegration(projectId, {
        name: 'clickup',
        active: values.active ? 1 : 0,
        authorized: 1,
        data: {
          key: values.key,
          id: values.id,
          name: lists?.find((l) => l.id === values.id)?.name ?? values.name,
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
      title={t('integrations.clickup')}
      description={t('integrationScreen.clickup.description')}
      labelId="integration-clickup"
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
            label={t('integrationScreen.clickup.token')}
            hint={t('integrationScreen.clickup.tokenHint')}
            placeholder="pk_…"
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
                label={t('integrationScreen.clickup.project')}
                data={(lists ?? withCurrent(values.id, values.name)).map((l) => ({
                  value: l.id,
                  label: l.name,
                }))}
                placeholder={lists ? undefined : t('integrationScreen.loadingOptions')}
                searchable
                allowDeselect={false}
                key={form.key('id')}
                {...form.getInputProps('id')}
              />
              <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} role="note">
                <Text size="sm">{t('integrationScreen.clickup.quoting')}</Text>
              </Alert>
              <SyncOptionFields form={form} tracker={t('integrations.clickup')} />
              <ActiveSwitch form={form} />
              <SaveRow saving={saving} dirty={form.isDirty()} />
            </>
          )}
        </Stack>
      </form>
      {authorized && (
        <>
          <Divider my="lg" />
          <TrackerHookPanel projectId={projectId} vendor="clickup" />
        </>
      )}
    </Section>
  );
}

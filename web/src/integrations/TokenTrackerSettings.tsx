/**
 * The settings screen of a tracker authorised by a token typed on it (GitLab, Jira, Linear, GitHub,
 * ClickUp, Azure DevOps, Trello; issues 24 and 36), drawn from a small description per vendor (`TokenTracker`): the credential
 * inputs, the pickers and the save's data. Authorize lists the vendor's choices with the typed
 * credentials, which also saves the authorisation on the server (with the first choice); the client then
 * picks, sets the two-way sync's options, and switches it on; the inbound hook's panel sits below. The
 * stored authorisation lists again once per visit with the stored (masked) credentials. Reset forgets what
 * the catalogue row's `reset` names. GitLab, Jira and Linear are described in TokenSettings.tsx.
 */
import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { type FormValidateInput, type UseFormReturnType, useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ParseKeys, TFunction } from 'i18next';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type SyncOptions, syncOptionsOf } from '#contracts/sync';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { type Choice, saveIntegration } from './data';
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

export type TokenTrackerVendor = 'gitlab' | 'jira' | 'linear' | 'github' | 'clickup' | 'azure' | 'trello';

/** What every such form holds: Active, the token (`key`) and the sync's options, then the vendor's own. */
export type TrackerValues = { active: boolean; key: string } & SyncOptions;

type Field<V> = Extract<keyof V, string>;
type TextKey = ParseKeys;

/** A credential input, in screen order. */
export type CredentialInput<V> =
  /** The token (FormParts' TokenInput: typed, then the server's masked value). */
  | { kind: 'token'; label: TextKey; hint: TextKey; placeholder?: string }
  /** A plain value kept visible, read-only once authorised (a host, Jira's user, Trello's key). */
  | {
      kind: 'text';
      field: Field<V>;
      label: TextKey;
      hint?: TextKey;
      placeholder?: string;
      maxLength: number;
      autoComplete?: 'off';
      /** Not marked required (GitLab's host: gitlab.com when empty). */
      optional?: boolean;
    }
  /** A secret typed once; authorised, the server's masked value (Trello's token and app secret). */
  | { kind: 'secret'; field: Field<V>; label: TextKey; hint: TextKey };

/** A choice from the vendor's lists, shown once authorised. */
export interface Picker<V, O> {
  field: Field<V>;
  label: TextKey;
  hint?: TextKey;
  /** The vendor's choices; until they arrive, the stored choice only (`withCurrent`). */
  choices: (options: O | null, values: V) => Choice[];
  /** Says "loading" while the vendor's list is on its way. */
  loading?: boolean;
  searchable?: boolean;
  /** A choice meaning none, stored as '' (Trello's done list). */
  none?: TextKey;
  /** Choosing loads this choice's own options (a project's work item types, a board's lists). */
  reloads?: boolean;
}

export interface TokenTracker<N extends TokenTrackerVendor, V extends TrackerValues, C, O> {
  vendor: N;
  valuesOf: (view: ViewOf<N>) => V;
  validate: (t: TFunction) => FormValidateInput<V>;
  /** The inputs Authorize checks first. */
  authorizeChecks: Field<V>[];
  credentialsOf: (values: V) => C;
  /** The vendor's lists (authorising with the credentials); `choice` is the reloading picker's value. */
  list: (projectId: string, credentials: C, choice?: string) => Promise<O & { view?: ViewOf<N> }>;
  /** After Authorize, when no stored view came back: the values with a first choice made. */
  firstChoice?: (values: V, options: O) => V;
  /**
   * A reloading picker's new options: `stored` when the list call saved the choice with them (the view
   * it answers is what the form shows, Trello); else `adjust` fits the other choices to them (Azure).
   */
  reload?: { stored: true } | { stored?: false; adjust: (options: O, values: V) => Partial<V> };
  credentials: CredentialInput<V>[];
  pickers: Picker<V, O>[];
  /** Vendor-only inputs after the pickers (GitHub's labels). */
  extra?: (form: UseFormReturnType<V>) => ReactNode;
  /** The note on how the visitor's text reaches the tracker. */
  note?: (t: TFunction) => string;
  /** The local fake's app page, linked before authorisation (Trello's fixed app). */
  fakeApp?: { text: TextKey; link: TextKey };
  /** The integration's `data` as saved, but for the sync's options (added here). */
  dataOf: (values: V, options: O | null, view: ViewOf<N>) => Record<string, unknown>;
}

/** What every such form reads from the stored view: Active, the (masked) token, the sync's options. */
export const trackerValues = (view: {
  active: 0 | 1;
  data: { key?: string } & Partial<SyncOptions>;
}): TrackerValues => ({ active: view.active === 1, key: view.data.key ?? '', ...syncOptionsOf(view.data) });

/** The token's check (filled in, no spaces or control characters), in the screen's language. */
export const keyRule = (t: TFunction) => (value: string) => {
  const problem = vendorKeyProblem(value);
  return problem && t(problem);
};

/** The stored choice if the vendor still lists it, else the first (Authorize's first choice). */
export const keepOrFirst = (list: Choice[], id: string) =>
  list.some((c) => c.id === id) ? id : (list[0]?.id ?? '');

/** Until the vendor's list arrives, the stored choice is the only option (by its stored name, else its id). */
export const withCurrent = (id: string, name = ''): Choice[] => (id ? [{ id, name: name || id }] : []);

const NONE = '-';

export function TokenTrackerSettings<N extends TokenTrackerVendor, V extends TrackerValues, C, O>({
  projectId,
  view,
  tracker,
}: {
  projectId: string;
  view: ViewOf<N>;
  tracker: TokenTracker<N, V, C, O>;
}) {
  const { t } = useTranslation();
  const { vendor, valuesOf, credentialsOf } = tracker;
  // What every view has, whatever the vendor (ViewOf<N> of a generic N does not show it).
  const shown = view as unknown as {
    active: 0 | 1;
    authorized: 0 | 1;
    fake?: string;
    data: Record<string, string | undefined>;
  };
  const authorized = shown.authorized === 1;
  const [options, setOptions] = useState<O | null>(null);
  const form = useForm<V>({
    initialValues: valuesOf(view),
    validate: tracker.validate(t),
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
  const fetchList = tracker.list;
  const list = useCallback(
    (credentials: C, choice?: string) => track(fetchList(projectId, credentials, choice)),
    [fetchList, projectId, track],
  );

  // Authorised before this visit: the choices once per visit, with the stored (masked) credentials.
  const arrival = useRef<C | null>(authorized ? credentialsOf(valuesOf(view)) : null);
  useEffect(() => {
    const credentials = arrival.current;
    if (!credentials) return;
    arrival.current = null;
    list(credentials).then(setOptions, (e) => setAuthError(failureText(e)));
  }, [list, setAuthError]);

  /** As stored, Active included (TokenSettings: Authorize stores the authorisation only). */
  function show(stored: V) {
    form.setInitialValues(stored);
    form.setValues(stored);
  }

  async function authorize(choice?: string) {
    if (!choice && tracker.authorizeChecks.map((f) => form.validateField(f).hasError).some(Boolean)) return;
    await authorizing(async () => {
      const values = form.getValues();
      const found = await list(credentialsOf(values), choice);
      setOptions(found);
      show(found.view ? valuesOf(found.view) : (tracker.firstChoice?.(values, found) ?? values));
    });
  }

  /** A reloading picker's choice: its own options, stored with it or fitted to it. */
  function choose(field: Field<V>, value: string) {
    const { reload } = tracker;
    const values = form.getValues();
    if (value === values[field] || !reload) return;
    form.setFieldValue(field, value as never);
    if (reload.stored) {
      void authorize(value);
      return;
    }
    list(credentialsOf(form.getValues()), value).then(
      (found) => {
        setOptions(found);
        form.setValues(reload.adjust(found, form.getValues()));
      },
      (e) => setAuthError(failureText(e)),
    );
  }

  const save = (values: V) =>
    run(async () => {
      await settled();
      const saved = await saveIntegration<TokenTrackerVendor>(projectId, {
        name: vendor,
        active: values.active ? 1 : 0,
        authorized: 1,
        data: {
          ...tracker.dataOf(values, options, view),
          syncState: values.syncState,
          syncComments: values.syncComments,
          publicTrackerComments: values.publicTrackerComments,
        },
      });
      return valuesOf(saved as ViewOf<N>);
    });

  const values = form.getValues();
  const stored = shown.data;

  const credential = (input: CredentialInput<V>) => {
    if (input.kind === 'token')
      return (
        <TokenInput
          key="key"
          form={form}
          masked={authorized ? (stored.key ?? '') : null}
          label={t(input.label)}
          hint={t(input.hint)}
          placeholder={input.placeholder}
        />
      );
    if (input.kind === 'text')
      return (
        <TextInput
          key={form.key(input.field)}
          label={t(input.label)}
          description={input.hint && t(input.hint)}
          placeholder={input.placeholder}
          withAsterisk={!input.optional}
          readOnly={authorized}
          maxLength={input.maxLength}
          autoComplete={input.autoComplete}
          {...form.getInputProps(input.field)}
        />
      );
    return authorized ? (
      <TextInput key={input.field} label={t(input.label)} value={stored[input.field]} readOnly />
    ) : (
      <PasswordInput
        key={form.key(input.field)}
        label={t(input.label)}
        description={t(input.hint)}
        withAsterisk
        maxLength={1000}
        autoComplete="off"
        {...form.getInputProps(input.field)}
      />
    );
  };

  const picker = (p: Picker<V, O>) => {
    const data = p.choices(options, values).map((c) => ({ value: c.id, label: c.name }));
    const common = {
      label: t(p.label),
      description: p.hint && t(p.hint),
      placeholder: p.loading && !options ? t('integrationScreen.loadingOptions') : undefined,
      searchable: p.searchable,
      allowDeselect: false,
    };
    if (p.none)
      return (
        <Select
          key={p.field}
          {...common}
          data={[{ value: NONE, label: t(p.none) }, ...data]}
          value={String(values[p.field] ?? '') || NONE}
          onChange={(v) => form.setFieldValue(p.field, (!v || v === NONE ? '' : v) as never)}
        />
      );
    return (
      <Select
        key={form.key(p.field)}
        {...common}
        data={data}
        {...form.getInputProps(p.field)}
        {...(p.reloads ? { onChange: (v: string | null) => v && choose(p.field, v) } : {})}
      />
    );
  };

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
          {tracker.fakeApp && shown.fake && !authorized && (
            // The local fake's app is fixed (lib/local/vendors): its page shows what to type.
            <Text size="sm">
              {t(tracker.fakeApp.text)}{' '}
              <Anchor href={new URL('/', shown.fake).href} target="_blank" rel="noreferrer">
                {t(tracker.fakeApp.link)}
              </Anchor>
            </Text>
          )}
          {tracker.credentials.map(credential)}
          {!authorized ? (
            <Group>
              <Button onClick={() => authorize()} loading={busy === 'authorize'}>
                {t('integrationScreen.authorize')}
              </Button>
            </Group>
          ) : (
            <>
              <AuthorizedNotice reset={resetLink} active={shown.active} />
              {tracker.pickers.map(picker)}
              {tracker.extra?.(form)}
              {tracker.note && (
                <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} role="note">
                  <Text size="sm">{tracker.note(t)}</Text>
                </Alert>
              )}
              <SyncOptionFields form={form} tracker={t(`integrations.${vendor}`)} />
              <ActiveSwitch form={form} />
              <SaveRow saving={saving} dirty={form.isDirty()} />
            </>
          )}
        </Stack>
      </form>
      {authorized && (
        <>
          <Divider my="lg" />
          <TrackerHookPanel projectId={projectId} vendor={vendor} />
        </>
      )}
    </Section>
  );
}

/**
 * Trello (issue 36): authorised by the app's API key, a token made for it and the app's secret (which
 * signs Trello's webhook deliveries). Authorize lists the member's boards and the first board's lists and
 * saves the authorisation; the client then picks the board, the list new cards go to and the list that
 * means done, the two-way sync's options, and switches it on; the inbound hook's panel sits below.
 * Reset forgets the token, the secret and the choices.
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
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type SyncOptions, syncOptionsOf } from '#contracts/sync';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { type Choice, fetchTrelloBoards, saveIntegration } from './data';
import { ActiveSwitch, AuthorizedNotice, SaveRow, SyncOptionFields, useIntegrationSave } from './FormParts';
import { type ViewOf, vendorKeyProblem } from './model';
import { TrackerHookPanel } from './TrackerHookPanel';
import { failureText, useTokenAuthorization } from './useTokenAuthorization';

type TrelloValues = {
  active: boolean;
  key: string;
  token: string;
  secret: string;
  board: string;
  list: string;
  doneList: string;
} & SyncOptions;

const valuesOf = (view: ViewOf<'trello'>): TrelloValues => ({
  active: view.active === 1,
  key: view.data.key ?? '',
  token: view.data.token ?? '',
  secret: view.data.secret ?? '',
  board: view.data.board ?? '',
  list: view.data.list ?? '',
  doneList: view.data.doneList ?? '',
  ...syncOptionsOf(view.data),
});

/** Until Trello's lists arrive, the stored choice is the only option. */
const withCurrent = (id: string, name: string): Choice[] => (id ? [{ id, name: name || id }] : []);
const NONE = '-';

export function TrelloSettings({ projectId, view }: { projectId: string; view: ViewOf<'trello'> }) {
  const { t } = useTranslation();
  const authorized = view.authorized === 1;
  const [options, setOptions] = useState<{ boards: Choice[]; lists: Choice[] } | null>(null);
  const secretProblem = (value: string) => {
    const problem = vendorKeyProblem(value);
    return problem && t(problem);
  };
  const form = useForm<TrelloValues>({
    initialValues: valuesOf(view),
    validate: {
      key: (value) => (/^[0-9a-z]+$/i.test(value.trim()) ? null : t('integrationScreen.trello.keyInvalid')),
      token: secretProblem,
      secret: secretProblem,
    },
    validateInputOnBlur: true,
  });
  const { save: run, saving, error, setErrorCode } = useIntegrationSave(form, 'trello');
  const { busy, authError, setAuthError, track, settled, authorizing, resetLink } = useTokenAuthorization({
    vendor: 'trello',
    projectId,
    form,
    valuesOf,
    setErrorCode,
    forgetOptions: () => setOptions(null),
  });
  const list = useCallback(
    (values: TrelloValues, boardId?: string) =>
      track(
        fetchTrelloBoards(
          projectId,
          { key: values.key.trim(), token: values.token.trim(), secret: values.secret.trim() },
          boardId,
        ),
      ),
    [projectId, track],
  );

  // Authorised before this visit: the boards once per visit, with the stored (masked) token and secret.
  const arrival = useRef<TrelloValues | null>(authorized ? valuesOf(view) : null);
  useEffect(() => {
    const values = arrival.current;
    if (!values) return;
    arrival.current = null;
    list(values).then(
      (found) => setOptions({ boards: found.boards, lists: found.lists }),
      (e) => setAuthError(failureText(e)),
    );
  }, [list, setAuthError]);

  async function authorize(boardId?: string) {
    if (!boardId && ['key', 'token', 'secret'].some((f) => form.validateField(f).hasError)) return;
    await authorizing(async () => {
      const values = form.getValues();
      const found = await list(values, boardId);
      setOptions({ boards: found.boards, lists: found.lists });
      const stored = found.view ? valuesOf(found.view) : values;
      // As stored, Active included (TokenSettings: Authorize stores the authorisation only).
      form.setInitialValues(stored);
      form.setValues(stored);
    });
  }

  const save = (values: TrelloValues) =>
    run(async () => {
      await settled();
      const saved = await saveIntegration(projectId, {
        name: 'trello',
        active: values.active ? 1 : 0,
        authorized: 1,
        data: {
          key: values.key.trim(),
          token: values.token,
          secret: values.secret,
          board: values.board,
          boardName: options?.boards.find((b) => b.id === values.board)?.name ?? view.data.boardName ?? '',
          list: values.list,
          doneList: values.doneList,
          syncState: values.syncState,
          syncComments: values.syncComments,
          publicTrackerComments: values.publicTrackerComments,
        },
      });
      return valuesOf(saved);
    });

  const values = form.getValues();
  const lists = options?.lists ?? withCurrent(values.list, '');
  const listData = lists.map((l) => ({ value: l.id, label: l.name }));

  return (
    <Section
      title={t('integrations.trello')}
      description={t('integrationScreen.trello.description')}
      labelId="integration-trello"
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {authError && (
            <ErrorAlert>
              {authError} {resetLink}
            </ErrorAlert>
          )}
          {error}
          {view.fake && !authorized && (
            // The local fake's app is fixed (lib/local/vendors/trello.ts): its page shows what to type.
            <Text size="sm">
              {t('integrationScreen.trello.fakeApp')}{' '}
              <Anchor href={new URL('/', view.fake).href} target="_blank" rel="noreferrer">
                {t('integrationScreen.trello.fakeAppLink')}
              </Anchor>
            </Text>
          )}
          <TextInput
            label={t('integrationScreen.trello.key')}
            description={t('integrationScreen.trello.keyHint')}
            withAsterisk
            readOnly={authorized}
            maxLength={100}
            autoComplete="off"
            key={form.key('key')}
            {...form.getInputProps('key')}
          />
          {authorized ? (
            <>
              <TextInput label={t('integrationScreen.trello.token')} value={view.data.token} readOnly />
              <TextInput label={t('integrationScreen.trello.secret')} value={view.data.secret} readOnly />
            </>
          ) : (
            <>
              <PasswordInput
                label={t('integrationScreen.trello.token')}
                description={t('integrationScreen.trello.tokenHint')}
                withAsterisk
                maxLength={1000}
                autoComplete="off"
                key={form.key('token')}
                {...form.getInputProps('token')}
              />
              <PasswordInput
                label={t('integrationScreen.trello.secret')}
                description={t('integrationScreen.trello.secretHint')}
                withAsterisk
                maxLength={1000}
                autoComplete="off"
                key={form.key('secret')}
                {...form.getInputProps('secret')}
              />
            </>
          )}
          {!authorized ? (
            <Group>
              <Button onClick={() => authorize()} loading={busy === 'authorize'}>
                {t('integrationScreen.authorize')}
              </Button>
            </Group>
          ) : (
            <>
              <AuthorizedNotice reset={resetLink} active={view.active} />
              <Select
                label={t('integrationScreen.trello.board')}
                data={(options?.boards ?? withCurrent(values.board, view.data.boardName)).map((b) => ({
                  value: b.id,
                  label: b.name,
                }))}
                placeholder={options ? undefined : t('integrationScreen.loadingOptions')}
                searchable
                allowDeselect={false}
                key={form.key('board')}
                {...form.getInputProps('board')}
                onChange={(board) => {
                  if (!board || board === form.getValues().board) return;
                  form.setFieldValue('board', board);
                  // Another board's lists, stored with it (the list call authorises with the board).
                  void authorize(board);
                }}
              />
              <Select
                label={t('integrationScreen.trello.list')}
                data={listData}
                placeholder={options ? undefined : t('integrationScreen.loadingOptions')}
                allowDeselect={false}
                key={form.key('list')}
                {...form.getInputProps('list')}
              />
              <Select
                label={t('integrationScreen.trello.doneList')}
                description={t('integrationScreen.trello.doneListHint')}
                data={[{ value: NONE, label: t('integrationScreen.trello.doneNone') }, ...listData]}
                allowDeselect={false}
                value={values.doneList || NONE}
                onChange={(v) => form.setFieldValue('doneList', !v || v === NONE ? '' : v)}
              />
              <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} role="note">
                <Text size="sm">{t('integrationScreen.trello.quoting')}</Text>
              </Alert>
              <SyncOptionFields form={form} tracker={t('integrations.trello')} />
              <ActiveSwitch form={form} />
              <SaveRow saving={saving} dirty={form.isDirty()} />
            </>
          )}
        </Stack>
      </form>
      {authorized && (
        <>
          <Divider my="lg" />
          <TrackerHookPanel projectId={projectId} vendor="trello" />
        </>
      )}
    </Section>
  );
}

/**
 * Trello (issue 36): authorised by the app's API key, a token made for it and the app's secret (which
 * signs Trello's webhook deliveries). Authorize lists the member's boards and the first board's lists and
 * saves the authorisation; the client then picks the board, the list new cards go to and the list that
 * means done, the two-way sync's options, and switches it on; the inbound hook's panel sits below.
 * Reset forgets the token, the secret and the choices.
 */
import { type Choice, fetchTrelloBoards } from './data';
import type { ViewOf } from './model';
import {
  keyRule,
  type TokenTracker,
  TokenTrackerSettings,
  type TrackerValues,
  trackerValues,
  withCurrent,
} from './TokenTrackerSettings';

type TrelloValues = TrackerValues & {
  token: string;
  secret: string;
  board: string;
  /** The stored board's name, shown until Trello's boards arrive. */
  boardName: string;
  list: string;
  doneList: string;
};
type Options = { boards: Choice[]; lists: Choice[] };

const lists = (options: Options | null, values: TrelloValues) => options?.lists ?? withCurrent(values.list);

const trello: TokenTracker<'trello', TrelloValues, { key: string; token: string; secret: string }, Options> =
  {
    vendor: 'trello',
    valuesOf: (view) => ({
      ...trackerValues(view),
      token: view.data.token ?? '',
      secret: view.data.secret ?? '',
      board: view.data.board ?? '',
      boardName: view.data.boardName ?? '',
      list: view.data.list ?? '',
      doneList: view.data.doneList ?? '',
    }),
    validate: (t) => ({
      key: (value) => (/^[0-9a-z]+$/i.test(value.trim()) ? null : t('integrationScreen.trello.keyInvalid')),
      token: keyRule(t),
      secret: keyRule(t),
    }),
    authorizeChecks: ['key', 'token', 'secret'],
    credentialsOf: (values) => ({
      key: values.key.trim(),
      token: values.token.trim(),
      secret: values.secret.trim(),
    }),
    list: fetchTrelloBoards,
    // Another board's lists, stored with it (the list call authorises with the board).
    reload: { stored: true },
    fakeApp: { text: 'integrationScreen.trello.fakeApp', link: 'integrationScreen.trello.fakeAppLink' },
    credentials: [
      {
        kind: 'text',
        field: 'key',
        label: 'integrationScreen.trello.key',
        hint: 'integrationScreen.trello.keyHint',
        maxLength: 100,
        autoComplete: 'off',
      },
      {
        kind: 'secret',
        field: 'token',
        label: 'integrationScreen.trello.token',
        hint: 'integrationScreen.trello.tokenHint',
      },
      {
        kind: 'secret',
        field: 'secret',
        label: 'integrationScreen.trello.secret',
        hint: 'integrationScreen.trello.secretHint',
      },
    ],
    pickers: [
      {
        field: 'board',
        label: 'integrationScreen.trello.board',
        choices: (options, values) => options?.boards ?? withCurrent(values.board, values.boardName),
        loading: true,
        searchable: true,
        reloads: true,
      },
      { field: 'list', label: 'integrationScreen.trello.list', choices: lists, loading: true },
      {
        field: 'doneList',
        label: 'integrationScreen.trello.doneList',
        hint: 'integrationScreen.trello.doneListHint',
        choices: lists,
        none: 'integrationScreen.trello.doneNone',
      },
    ],
    note: (t) => t('integrationScreen.trello.quoting'),
    dataOf: (values, options) => ({
      key: values.key.trim(),
      token: values.token,
      secret: values.secret,
      board: values.board,
      boardName: options?.boards.find((b) => b.id === values.board)?.name ?? values.boardName,
      list: values.list,
      doneList: values.doneList,
    }),
  };

export function TrelloSettings(props: { projectId: string; view: ViewOf<'trello'> }) {
  return <TokenTrackerSettings {...props} tracker={trello} />;
}

/**
 * ClickUp (issue 36): authorised by a personal API token (`pk_…`), as GitHub by its token, with no host
 * (ClickUp's API address is Snag's setting). Authorize lists every list the token reaches (named by its
 * workspace, space and folder) and saves the authorisation with the first chosen; the client then picks
 * the list, the two-way sync's options, and switches it on; the inbound hook's panel sits below, where
 * Snag registers ClickUp's webhook (ClickUp has no screen for it). Reset forgets the token and the list.
 */
import { type Choice, fetchClickupLists } from './data';
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

type ClickupValues = TrackerValues & { id: string; name: string };

const clickup: TokenTracker<'clickup', ClickupValues, string, { lists: Choice[] }> = {
  vendor: 'clickup',
  valuesOf: (view) => ({
    ...trackerValues(view),
    id: view.data.id ?? '',
    name: view.data.name ?? '',
  }),
  validate: (t) => ({
    key: keyRule(t),
  }),
  authorizeChecks: ['key'],
  credentialsOf: (values) => values.key.trim(),
  list: fetchClickupLists,
  firstChoice: (values, { lists }) => ({ ...values, id: keepOrFirst(lists, values.id) }),
  credentials: [
    {
      kind: 'token',
      label: 'integrationScreen.clickup.token',
      hint: 'integrationScreen.clickup.tokenHint',
      placeholder: 'pk_…',
    },
  ],
  pickers: [
    {
      field: 'id',
      label: 'integrationScreen.clickup.project',
      // By its stored path (workspace, space, folder, list), else its id.
      choices: (options, values) => options?.lists ?? withCurrent(values.id, values.name),
      loading: true,
      searchable: true,
    },
  ],
  note: (t) => t('integrationScreen.clickup.quoting'),
  dataOf: (values, options) => ({
    key: values.key,
    id: values.id,
    name: options?.lists.find((l) => l.id === values.id)?.name ?? values.name,
  }),
};

export function ClickupSettings(props: { projectId: string; view: ViewOf<'clickup'> }) {
  return <TokenTrackerSettings {...props} tracker={clickup} />;
}

/**
 * The sync summary (SPEC.md sections 2 and 4): two checkbox lists, the new tickets (never sent to this
 * integration) and the failed ones, each with a select-all box, and a Sync button disabled while nothing
 * is selected or while the integration is off (the server would refuse). A successful sync reloads the
 * page, as SPEC says, so the lists show what is still waiting.
 */
import { Alert, Anchor, Box, Button, Checkbox, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import type { IntegrationName, SyncTicket } from '#contracts/integrations';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { displayLocale, errorText } from '../i18n';
import { formatDate } from '../issues/model';
import { paths } from '../paths';
import { syncTickets, useSyncList } from './data';
import { selectionOf, toggleAll, toggleTicket } from './model';

export function SyncSummary({
  projectId,
  name,
  state,
}: {
  projectId: string;
  name: IntegrationName;
  /** The integration as saved: only an active one syncs; a vendor not yet authorised needs that first. */
  state: 'active' | 'off' | 'unauthorized';
}) {
  const { t } = useTranslation();
  const { data } = useSyncList(projectId, name);
  const [selected, setSelected] = useState<number[]>([]);
  const [syncing, setSyncing] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const idPrefix = useId();

  async function sync() {
    setSyncing(true);
    setErrorCode(null);
    try {
      await syncTickets(projectId, name, selected);
      window.location.reload();
    } catch (error) {
      setErrorCode(errorCodeOf(error));
      setSyncing(false);
    }
  }

  // The integration off is the one thing the client can fix here: say how, not just "not available".
  const off = state !== 'active' || errorCode === 'INTEGRATION_NOT_AVAILABLE';
  const waiting = (data?.requests.new.length ?? 0) + (data?.requests.failed.length ?? 0);

  const list = (kind: 'new' | 'failed', tickets: SyncTicket[] | undefined) => {
    const headingId = `${idPrefix}-${kind}`;
    const numbers = tickets?.map((ticket) => ticket.number) ?? [];
    const all = selectionOf(selected, numbers);
    return (
      <Stack gap="xs" data-testid={`sync-${kind}`} role="group" aria-labelledby={headingId} miw={0}>
        <Title order={3} size="h5" id={headingId}>
          {t(`integrationScreen.sync.${kind}`, { count: tickets?.length ?? 0 })}
        </Title>
        {!tickets ? (
          <Text size="sm" c="dimmed">
            {t('integrationScreen.loadingOptions')}
          </Text>
        ) : tickets.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t(`integrationScreen.sync.${kind}Empty`)}
          </Text>
        ) : (
          <>
            <Checkbox
              label={t('integrationScreen.sync.selectAll')}
              checked={all === 'all'}
              indeterminate={all === 'some'}
              onChange={(event) => {
                // Read now: React empties the event's currentTarget before a state updater runs.
                const on = event.currentTarget.checked;
                setSelected((s) => toggleAll(s, numbers, on));
              }}
            />
            {tickets.map((ticket) => (
              <TicketRow
                key={ticket.number}
                id={`${headingId}-${ticket.number}`}
                projectId={projectId}
                ticket={ticket}
                checked={selected.includes(ticket.number)}
                onToggle={(on) => setSelected((s) => toggleTicket(s, ticket.number, on))}
              />
            ))}
          </>
        )}
      </Stack>
    );
  };

  return (
    <Section
      title={t('integrationScreen.sync.title')}
      description={t('integrationScreen.sync.description')}
      labelId="integration-sync"
    >
      {off
        ? waiting > 0 && (
            // A hint, not an error: Mantine's Alert would otherwise be role="alert" and interrupt.
            <Alert
              variant="light"
              color="blue"
              icon={<IconInfoCircle size={18} />}
              role="status"
              data-testid="sync-off"
            >
              <Text size="sm">
                {t(`integrationScreen.sync.${state === 'unauthorized' ? 'unauthorized' : 'inactive'}`, {
                  name: t(`integrations.${name}`),
                })}
              </Text>
            </Alert>
          )
        : errorCode && <ErrorAlert>{errorText(errorCode, 'integrationSave')}</ErrorAlert>}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
        {list('new', data?.requests.new)}
        {list('failed', data?.requests.failed)}
      </SimpleGrid>
      <Group justify="flex-end">
        <Button onClick={sync} loading={syncing} disabled={selected.length === 0 || off}>
          {selected.length === 0
            ? t('integrationScreen.sync.buttonNone')
            : t('integrationScreen.sync.button', { count: selected.length })}
        </Button>
      </Group>
    </Section>
  );
}

/**
 * One ticket: its box, named by the label beside it (number and title, which also toggles it), the date
 * and failure reason below, and a link to the ticket. Long titles wrap inside the column (3 lines at
 * most, the full title still the box's name) instead of running over the next column or the screen.
 */
function TicketRow({
  id,
  projectId,
  ticket,
  checked,
  onToggle,
}: {
  id: string;
  projectId: string;
  ticket: SyncTicket;
  checked: boolean;
  onToggle: (on: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" data-testid="sync-ticket">
      <Checkbox
        id={id}
        mt={2}
        checked={checked}
        onChange={(event) => onToggle(event.currentTarget.checked)}
      />
      <Box style={{ flex: 1, minWidth: 0 }}>
        <Text
          component="label"
          htmlFor={id}
          size="sm"
          lineClamp={3}
          style={{ cursor: 'pointer', overflowWrap: 'anywhere' }}
        >
          <Text span fw={600} inherit>
            #{ticket.number}
          </Text>{' '}
          {ticket.title}
        </Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {formatDate(ticket.createdAt, displayLocale())}
          {ticket.reason ? ` · ${ticket.reason}` : ''}
        </Text>
      </Box>
      <Anchor
        component={Link}
        to={paths.ticket(projectId, String(ticket.number))}
        size="sm"
        style={{ flexShrink: 0 }}
        aria-label={t('integrationScreen.sync.open', { number: ticket.number })}
      >
        {t('integrationScreen.sync.openShort')}
      </Anchor>
    </Group>
  );
}

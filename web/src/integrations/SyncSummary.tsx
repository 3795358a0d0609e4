/**
 * The sync summary (SPEC.md sections 2 and 4): two checkbox lists, the new tickets (never sent to this
 * integration) and the failed ones, and a Sync button disabled while nothing is selected. A successful
 * sync reloads the page, as SPEC says, so the lists show what is still waiting.
 */
import { Anchor, Button, Checkbox, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ErrorCode } from '../../../functions/shared/errors';
import type { IntegrationName, SyncTicket } from '../../../functions/shared/integrations';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { displayLocale, errorText } from '../i18n';
import { formatDate } from '../issues/model';
import { paths } from '../routes/paths';
import { syncTickets, useSyncList } from './hooks';
import { toggleTicket } from './model';

export function SyncSummary({ projectId, name }: { projectId: string; name: IntegrationName }) {
  const { t } = useTranslation();
  const { data } = useSyncList(projectId, name);
  const [selected, setSelected] = useState<number[]>([]);
  const [syncing, setSyncing] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);

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

  const list = (kind: 'new' | 'failed', tickets: SyncTicket[] | undefined) => (
    <Stack gap="xs" data-testid={`sync-${kind}`}>
      <Title order={3} size="h5">
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
        tickets.map((ticket) => (
          <Checkbox
            key={ticket.number}
            checked={selected.includes(ticket.number)}
            onChange={(event) =>
              setSelected((s) => toggleTicket(s, ticket.number, event.currentTarget.checked))
            }
            label={
              <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                <Anchor
                  component={Link}
                  to={paths.ticket(projectId, String(ticket.number))}
                  size="sm"
                  fw={600}
                >
                  #{ticket.number}
                </Anchor>
                <Text size="sm" truncate>
                  {ticket.title}
                </Text>
              </Group>
            }
            description={
              <>
                {formatDate(ticket.createdAt, displayLocale())}
                {ticket.reason ? ` · ${ticket.reason}` : ''}
              </>
            }
          />
        ))
      )}
    </Stack>
  );

  return (
    <Section
      title={t('integrationScreen.sync.title')}
      description={t('integrationScreen.sync.description')}
      labelId="integration-sync"
    >
      {errorCode && <ErrorAlert>{errorText(errorCode, 'integrationSave')}</ErrorAlert>}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
        {list('new', data?.requests.new)}
        {list('failed', data?.requests.failed)}
      </SimpleGrid>
      <Group justify="flex-end">
        <Button onClick={sync} loading={syncing} disabled={selected.length === 0}>
          {selected.length === 0
            ? t('integrationScreen.sync.buttonNone')
            : t('integrationScreen.sync.button', { count: selected.length })}
        </Button>
      </Group>
    </Section>
  );
}

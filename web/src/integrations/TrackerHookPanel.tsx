/**
 * Two-way sync's inbound hook (issue 24) on every tracker's screen: the inbound URL, the secret, the
 * tracker's exact setup steps, and where the catalogue row says the hook is registrable a button that
 * registers it through the vendor's API with the stored token (Linear allows it to a workspace admin's key
 * only: otherwise its steps remain; Jira's admin webhooks cannot be made with an API token). The secret
 * follows the row's `hook.secret`: Snag's is shown only on demand, copyable, regenerable; a secret the
 * vendor chose (ClickUp) or the client's app secret (Trello) is only explained, never shown or regenerated.
 */
import { Alert, Button, CopyButton, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hookOf } from '#contracts/integration-catalogue';
import type { HookAnswer, TrackerVendor } from '#contracts/sync';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { errorText } from '../i18n';
import { hookCall, useHook } from './data';

/** Each tracker's setup steps, in order (texts in i18n under `integrationScreen.trackerSync`). */
const stepKeys = {
  gitlab: ['gitlab1', 'gitlab2', 'gitlab3'],
  jira: ['jira1', 'jira2', 'jira3', 'jira4'],
  github: ['github1', 'github2', 'github3'],
  linear: ['linear1', 'linear2', 'linear3'],
  clickup: ['clickup1', 'clickup2', 'clickup3'],
  azure: ['azure1', 'azure2', 'azure3'],
  trello: ['trello1', 'trello2', 'trello3'],
} as const satisfies Record<TrackerVendor, readonly string[]>;

export function TrackerHookPanel({ projectId, vendor }: { projectId: string; vendor: TrackerVendor }) {
  const { t } = useTranslation();
  const shown = useHook(vendor, projectId);
  const [revealed, setRevealed] = useState<HookAnswer | null>(null);
  const [busy, setBusy] = useState<'reveal' | 'regenerate' | 'register' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ text: string; done: boolean } | null>(null);
  const hook = revealed ?? shown.data ?? null;
  const tracker = t(`integrations.${vendor}`);
  const { secret: secretBy, registrable } = hookOf(vendor);

  async function run(action: 'reveal' | 'regenerate' | 'register') {
    setBusy(action);
    setError(null);
    setNotice(null);
    try {
      const answer = await hookCall(action, vendor, projectId);
      // The cached hook follows the answer (integrations/data.ts); the secret stays on this screen only.
      if (action === 'register') {
        setRevealed((r) => (r ? { ...r, registered: answer.registered } : null));
      } else {
        setRevealed(answer);
        // A registered hook is registered again with the new secret (sync/settings.ts): nothing to enter.
        if (action === 'regenerate')
          setNotice({
            text: t(`integrationScreen.trackerSync.${answer.registered ? 'reregistered' : 'regenerated'}`, {
              tracker,
            }),
            // Registered again: nothing left to do (teal); otherwise the secret must be entered (yellow).
            done: !!answer.registered,
          });
      }
    } catch (e) {
      const code = errorCodeOf(e);
      // Linear refuses webhookCreate to a key that is not a workspace admin's: say so, and point at the steps.
      setError(
        action === 'register' && vendor === 'linear' && code === 'AUTHORIZATION_FAILED'
          ? t('integrationScreen.trackerSync.linearAdminOnly')
          : errorText(code),
      );
    } finally {
      setBusy(null);
    }
  }

  const steps = stepKeys[vendor].map((key) => t(`integrationScreen.trackerSync.${key}`));
  return (
    <Stack gap="sm" data-testid="tracker-hook">
      <Title order={3} size="h5">
        {t('integrationScreen.trackerSync.hookTitle', { tracker })}
      </Title>
      <Text size="sm">{t('integrationScreen.trackerSync.intro', { tracker })}</Text>
      {error && <ErrorAlert>{error}</ErrorAlert>}
      {notice && (
        <Alert color={notice.done ? 'teal' : 'yellow'} variant="light" role="status">
          {notice.text}
        </Alert>
      )}
      {hook?.url && (
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <TextInput
            label={t('integrationScreen.trackerSync.url')}
            value={hook.url}
            readOnly
            style={{ flex: 1, minWidth: 0 }}
          />
          <CopyButton value={hook.url}>
            {({ copied, copy }) => (
              <Button
                variant="default"
                onClick={copy}
                aria-label={t('integrationScreen.trackerSync.copyUrl')}
              >
                {copied ? t('integrationScreen.trackerSync.copied') : t('integrationScreen.trackerSync.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      )}
      {secretBy !== 'snag' ? (
        <Text size="sm" data-testid="hook-secret-note">
          {t(`integrationScreen.trackerSync.${secretBy === 'vendor' ? 'vendorSecret' : 'appSecret'}`, {
            tracker,
          })}
        </Text>
      ) : revealed?.secret ? (
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <TextInput
            label={t('integrationScreen.trackerSync.secret')}
            value={revealed.secret}
            readOnly
            style={{ flex: 1, minWidth: 0 }}
            data-testid="hook-secret"
          />
          <CopyButton value={revealed.secret}>
            {({ copied, copy }) => (
              <Button
                variant="default"
                onClick={copy}
                aria-label={t('integrationScreen.trackerSync.copySecret')}
              >
                {copied ? t('integrationScreen.trackerSync.copied') : t('integrationScreen.trackerSync.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      ) : (
        <Group>
          <Button variant="default" onClick={() => run('reveal')} loading={busy === 'reveal'}>
            {hook?.url
              ? t('integrationScreen.trackerSync.revealSecret')
              : t('integrationScreen.trackerSync.create')}
          </Button>
        </Group>
      )}
      {secretBy === 'snag' && revealed?.secret && (
        <Group>
          <Button
            variant="subtle"
            color="red"
            onClick={() => run('regenerate')}
            loading={busy === 'regenerate'}
          >
            {t('integrationScreen.trackerSync.regenerate')}
          </Button>
        </Group>
      )}
      <Text fw={600} size="sm">
        {t('integrationScreen.trackerSync.stepsTitle', { tracker })}
      </Text>
      <List type="ordered" size="sm" spacing={4}>
        {steps.map((step) => (
          <List.Item key={step}>{step}</List.Item>
        ))}
      </List>
      {registrable &&
        (hook?.registered ? (
          <>
            <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} role="status">
              {t('integrationScreen.trackerSync.registered', { tracker, id: hook.registered.id })}
            </Alert>
            {/* The only way to a new secret the vendor chooses: a new webhook (the old one is deleted). */}
            {secretBy === 'vendor' && (
              <Group>
                <Button variant="default" onClick={() => run('register')} loading={busy === 'register'}>
                  {t('integrationScreen.trackerSync.registerAgain')}
                </Button>
              </Group>
            )}
          </>
        ) : (
          <Group>
            {/* A long tracker name in German ("Webhook bei Azure DevOps registrieren") wraps on a phone. */}
            <Button
              onClick={() => run('register')}
              loading={busy === 'register'}
              h="auto"
              mih={36}
              styles={{ label: { whiteSpace: 'normal', paddingBlock: 6 } }}
            >
              {t('integrationScreen.trackerSync.register', { tracker })}
            </Button>
          </Group>
        ))}
    </Stack>
  );
}

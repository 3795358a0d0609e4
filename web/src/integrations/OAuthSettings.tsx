/**
 * Slack and Asana (SPEC.md sections 2 and 4): authorised through the vendor's OAuth page. The vendor
 * returns to the dashboard with `code` and `state` (Asana through /profile/asana_redirect); this screen
 * then exchanges the code (a loading view meanwhile), removes them from the address, and lists the
 * channels or projects to choose from. Slack posts only into channels the app was invited to.
 */

import { Alert, Anchor, Button, Code, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import type { OAuthVendor } from '#contracts/integration-catalogue';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { errorText } from '../i18n';
import {
  exchangeOAuthCode,
  resetAuthorization,
  saveIntegration,
  startOAuth,
  useVendorChannels,
} from './data';
import { ActiveSwitch, AuthorizedNotice, SaveRow, useIntegrationSave } from './FormParts';
import { oauthReturnOf, type ViewOf } from './model';

type Vendor = OAuthVendor;

type ChannelValues = {
  active: boolean;
  id: string;
};

export function OAuthSettings({ projectId, view }: { projectId: string; view: ViewOf<Vendor> }) {
  const { t } = useTranslation();
  const vendor = view.name;
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [exchange, setExchange] = useState<'idle' | 'running' | 'failed'>(() =>
    oauthReturnOf(search) ? 'running' : 'idle',
  );
  const [redirecting, setRedirecting] = useState(false);
  const started = useRef(false);

  // The vendor's return: exchange the code once (React may run effects twice), then clean the address.
  useEffect(() => {
    const back = oauthReturnOf(search);
    if (!back || started.current) return;
    started.current = true;
    const done = (ok: boolean) => {
      setExchange(ok ? 'idle' : 'failed');
      navigate(pathname, { replace: true });
    };
    if (back.kind === 'declined') {
      done(false);
      return;
    }
    exchangeOAuthCode(vendor, projectId, { code: back.code, state: back.state }).then(
      () => done(true),
      () => done(false),
    );
  }, [search, pathname, navigate, vendor, projectId]);

  async function connect() {
    setRedirecting(true);
    try {
      window.location.assign(await startOAuth(vendor, projectId));
    } catch {
      setRedirecting(false);
      setExchange('failed');
    }
  }

  async function reset() {
    try {
      await resetAuthorization(vendor, projectId);
    } catch {
      setExchange('failed');
    }
  }

  if (exchange === 'running') {
    return (
      <Section title={t(`integrations.${vendor}`)} labelId={`integration-${vendor}`}>
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>{t('integrationScreen.oauth.exchanging')}</Text>
        </Group>
      </Section>
    );
  }

  const connectButton = (
    <Button onClick={connect} loading={redirecting} variant={view.authorized ? 'default' : 'filled'}>
      {view.authorized ? t('integrationScreen.oauth.reconnect') : t(`integrationScreen.${vendor}.connect`)}
    </Button>
  );

  return (
    <Section
      title={t(`integrations.${vendor}`)}
      description={t(`integrationScreen.${vendor}.description`)}
      labelId={`integration-${vendor}`}
    >
      <Stack gap="md">
        {exchange === 'failed' && (
          <ErrorAlert>
            {errorText('AUTHORIZATION_FAILED')}{' '}
            <Anchor component="button" type="button" onClick={connect} fw={600} inherit>
              {t('integrationScreen.oauth.tryAgain')}
            </Anchor>
          </ErrorAlert>
        )}
        {view.authorized ? (
          <>
            <AuthorizedNotice
              reset={
                <Anchor component="button" type="button" onClick={reset} fw={600} size="sm">
                  {t('integrationScreen.resetAuthorization')}
                </Anchor>
              }
              active={view.active}
            />
            <ChannelForm key={`${view.data.id}:${view.active}`} projectId={projectId} view={view} />
            <Group>{connectButton}</Group>
          </>
        ) : (
          <Group>{connectButton}</Group>
        )}
      </Stack>
    </Section>
  );
}

function ChannelForm({ projectId, view }: { projectId: string; view: ViewOf<Vendor> }) {
  const { t } = useTranslation();
  const vendor = view.name;
  const channels = useVendorChannels(vendor, projectId);
  const form = useForm<ChannelValues>({
    initialValues: { active: view.active === 1, id: view.data.id },
    validate: { id: (value, v) => (v.active && !value ? t('validation.required') : null) },
  });
  const options =
    channels.data ?? (view.data.id ? [{ id: view.data.id, name: view.data.name || view.data.id }] : []);

  const { save: run, saving, error } = useIntegrationSave(form, vendor);

  // The form is keyed by what was saved (OAuthSettings), so a save starts it afresh from the answer.
  const save = (values: ChannelValues) =>
    run(async () => {
      const name = options.find((c) => c.id === values.id)?.name ?? '';
      await saveIntegration(projectId, {
        name: vendor,
        active: values.active ? 1 : 0,
        data: { id: values.id, name },
      });
      return undefined;
    });

  return (
    <form onSubmit={form.onSubmit(save)} noValidate>
      <Stack gap="md">
        {channels.error && <ErrorAlert>{errorText('AUTHORIZATION_FAILED')}</ErrorAlert>}
        {error}
        <Select
          label={t(`integrationScreen.${vendor}.channel`)}
          data={options.map((c) => ({ value: c.id, label: vendor === 'slack' ? `#${c.name}` : c.name }))}
          placeholder={channels.isLoading ? t('integrationScreen.loadingOptions') : undefined}
          searchable
          allowDeselect={false}
          key={form.key('id')}
          {...form.getInputProps('id')}
        />
        {vendor === 'slack' && (
          <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} role="note">
            {t('integrationScreen.slack.invite')} <Code>/invite @Snag</Code>
          </Alert>
        )}
        <ActiveSwitch form={form} />
        <SaveRow saving={saving} dirty={form.isDirty()} />
      </Stack>
    </form>
  );
}

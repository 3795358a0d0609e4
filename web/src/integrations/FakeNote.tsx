/**
 * On the local stack with its vendor fakes (README "Vendor fakes"), an integration's screen says plainly
 * that it talks to a stand-in on this machine, not the vendor, and links to what the fake received.
 */
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type IntegrationName, integrationCatalogue } from '#contracts/integration-catalogue';

/**
 * Where the client must type the target (a required target field: Jira's host, the webhook URL), the
 * fake is an address to enter, not the default.
 */
const enteredTarget = (name: IntegrationName) => {
  const row: { targets: readonly string[]; required: readonly string[] } = integrationCatalogue[name];
  return row.targets.some((f) => row.required.includes(f));
};

export function FakeNote({ name, fake }: { name: IntegrationName; fake: string }) {
  const { t } = useTranslation();
  const vendor = t(`integrations.${name}`);
  const text = enteredTarget(name) ? 'integrationScreen.fakeEnterText' : 'integrationScreen.fakeText';
  return (
    <Alert
      variant="light"
      color="yellow"
      icon={<IconFlask size={18} />}
      role="note"
      title={t('integrationScreen.fakeTitle', { name: vendor })}
      data-testid="integration-fake"
    >
      <Stack gap={4}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t(text, { name: vendor, url: fake })}
          {/* A token vendor's fake takes any token (README "Vendor fakes"). */}
          {integrationCatalogue[name].auth === 'token' && ` ${t('integrationScreen.fakeAnyToken')}`}
        </Text>
        <Anchor href={new URL('/_fake', fake).href} target="_blank" rel="noreferrer" size="sm">
          {t('integrationScreen.fakeInbox')}
        </Anchor>
      </Stack>
    </Alert>
  );
}

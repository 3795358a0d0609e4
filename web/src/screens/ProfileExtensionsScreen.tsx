/**
 * /profile/edit/extension (issue 34): Profile → Browser extension, the browsers where the Snag extension
 * works for the member (GET|DELETE /client/profile/extensions). The parts live in web/src/accounts/.
 */
import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useExtensionConnections } from '../accounts/data';
import { ExtensionConnections } from '../accounts/ExtensionConnections';
import { ProfileTabs } from '../accounts/ProfileTabs';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';

export default function ProfileExtensionsScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.extensions'));
  const { data } = useExtensionConnections();
  return (
    <Stack gap="xl" maw={960} mx="auto">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('profileEdit.title')}
        </Title>
        <Text c="dimmed">{t('extension.list.subtitle')}</Text>
      </Stack>
      <ProfileTabs value="extension" />
      {data ? <ExtensionConnections connections={data} /> : <PageLoader />}
    </Stack>
  );
}

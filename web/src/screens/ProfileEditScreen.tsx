/**
 * /profile/edit (SPEC.md sections 2, 4, 5 and 8): personal data (PATCH /client/profile), change password
 * (PATCH /client/password) and delete profile (DELETE /client/profile behind a modal where typing the
 * word "confirm" enables Delete; afterwards the marketing site). Issue 23: the member's email notifications
 * (GET|PUT /client/notifications). The parts live in web/src/accounts/.
 */
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ChangePassword } from '../accounts/ChangePassword';
import { DeleteProfile } from '../accounts/DeleteProfile';
import { useProfile } from '../accounts/data';
import { NotificationSettings } from '../accounts/NotificationSettings';
import { PersonalData } from '../accounts/PersonalData';
import { ProfileTabs } from '../accounts/ProfileTabs';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';

export default function ProfileEditScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.profileEdit'));
  const { data: profile } = useProfile();
  if (!profile) return <PageLoader />;
  return (
    <Stack gap="xl" maw={960} mx="auto">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('profileEdit.title')}
        </Title>
        <Text c="dimmed">{t('profileEdit.subtitle')}</Text>
      </Stack>
      <ProfileTabs value="account" />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <PersonalData profile={profile} />
        <ChangePassword profile={profile} />
      </SimpleGrid>
      <NotificationSettings />
      <DeleteProfile />
    </Stack>
  );
}

/**
 * /replay/{token} (issue 33, docs/replay.md): the one recording a tracker's signed link opens, without
 * signing in and outside the app's layouts, like the reporter's status page. The player reads
 * `GET /api/replay/{token}`; a link that is malformed, forged or expired answers 404, and the page says
 * so. English or German by the browser's language (or the reader's stored choice), as every public page.
 */
import { Anchor, Box, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { Logo } from '../components/Logo';
import { config } from '../config';
import { useDocumentTitle } from '../hooks/title';
import ReplayPlayer from '../replay/ReplayPlayer';

export default function ReplayScreen() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  useDocumentTitle(t('replay.pageTitle'));
  return (
    <Box mih="100vh" bg="gray.0">
      <Container size="lg" py="lg">
        <Stack gap="lg">
          <Group component="header" justify="space-between">
            <Anchor href={config.marketingUrl} aria-label={t('app.homeLink')} underline="never">
              <Logo size={32} />
            </Anchor>
            <LanguageSwitch />
          </Group>
          <Stack component="main" gap="md">
            <Title order={1} size="h2">
              {t('replay.pageTitle')}
            </Title>
            <Text size="sm" c="gray.7">
              {t('replay.publicNote')}
            </Text>
            <ReplayPlayer source={{ token }} goneText={t('replay.gone')} />
          </Stack>
        </Stack>
      </Container>
    </Box>
  );
}

/**
 * /docs/api (issue 25): the public REST API's reference, open without a session. The intro (base URL, token,
 * rate limit, document, MCP server) in the dashboard's language, then the operations rendered by Swagger UI,
 * which only this screen loads (web/src/docs/ApiReference.tsx).
 */
import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiIntro } from '../docs/ApiIntro';
import { ApiReference } from '../docs/ApiReference';
import { useDocumentTitle } from '../hooks/title';
import '../docs/texts';

export default function ApiReferenceScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('apiReference.title'));
  return (
    <Stack gap="xl" data-testid="api-reference-screen">
      <ApiIntro />
      <ApiReference />
    </Stack>
  );
}

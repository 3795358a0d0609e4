/**
 * What a developer needs before the operations (issue 25, docs/api.md): the base URL, the bearer header and
 * where tokens are made, the rate limit, the raw document and the MCP server, in the dashboard's language.
 */
import { Anchor, Code, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../paths';
import { apiBaseUrl, openApiPath } from './model';

function Fact({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap={6}>
        <Title order={2} size="h5">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** `<code>` in a translation becomes an inline code span. */
const code = { code: <Code /> };

export function ApiIntro() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1}>{t('apiReference.title')}</Title>
        <Text maw={760}>{t('apiReference.intro')}</Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="api-intro">
        <Fact title={t('apiReference.baseUrl')}>
          <Code block>{apiBaseUrl(window.location.origin)}</Code>
        </Fact>
        <Fact title={t('apiReference.auth')}>
          <Code block>Authorization: Bearer snag_pat_…</Code>
          <Text size="sm">
            <Trans
              i18nKey="apiReference.authText"
              components={{
                tokens: <Anchor component={Link} to={paths.tokens} inherit underline="always" />,
              }}
            />
          </Text>
        </Fact>
        <Fact title={t('apiReference.rateLimit')}>
          <Text size="sm">
            <Trans i18nKey="apiReference.rateText" components={code} />
          </Text>
        </Fact>
        <Fact title={t('apiReference.document')}>
          <Text size="sm">
            {t('apiReference.documentText')}{' '}
            <Anchor href={openApiPath} inherit underline="always">
              {openApiPath}
            </Anchor>
          </Text>
        </Fact>
        <Fact title={t('apiReference.mcp')}>
          <Text size="sm">
            <Trans i18nKey="apiReference.mcpText" components={code} />
          </Text>
        </Fact>
      </SimpleGrid>
    </Stack>
  );
}

/**
 * The operations of the OpenAPI document, rendered by Swagger UI (issue 25; docs/decisions.md: why
 * swagger-ui-dist). The renderer and its styles are fetched by a dynamic import when this part mounts, so
 * they load on /docs/api only and never count towards the dashboard's initial JS (DESIGN.md section 7).
 */
import { Anchor, Box, Group, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageLoader } from '../components/PageLoader';
import { openApiPath } from './model';

export function ApiReference() {
  const { t } = useTranslation();
  const target = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'shown' | 'failed'>('loading');

  useEffect(() => {
    let stopped = false;
    let stop: (() => void) | undefined;
    import('./reference')
      .then(async ({ mountReference }) => {
        if (stopped || !target.current) return;
        const unmount = await mountReference(target.current, openApiPath);
        if (stopped) return unmount();
        stop = unmount;
        // From here Swagger UI shows its own progress and errors for the document it fetches.
        setState('shown');
      })
      // A chunk or the bundle that failed to load (offline, a deploy replaced it): say so, and offer the document itself.
      .catch(() => {
        if (!stopped) setState('failed');
      });
    return () => {
      stopped = true;
      stop?.();
    };
  }, []);

  return (
    <Box component="section" aria-labelledby="api-operations">
      <Group justify="space-between" align="baseline" gap="xs">
        <Title order={2} id="api-operations">
          {t('apiReference.operations')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('apiReference.rendererNote')}
        </Text>
      </Group>
      {state === 'loading' && <PageLoader />}
      {state === 'failed' && (
        <ErrorAlert>
          {t('apiReference.failed')}{' '}
          <Anchor href={openApiPath} inherit underline="always">
            {openApiPath}
          </Anchor>
        </ErrorAlert>
      )}
      {/*
        Swagger UI owns this element's children: React renders nothing into it. Its texts are English
        whatever the page's language, so they are marked as such (WCAG 3.1.2) for screen readers.
      */}
      <div ref={target} lang="en" data-testid="api-reference" />
    </Box>
  );
}

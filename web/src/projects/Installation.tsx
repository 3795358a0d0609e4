/**
 * Configuration, Installation (SPEC.md sections 4 and 5): three steps, the install snippet to copy, the
 * domain rule the widget answers on, and how to verify it on the site (test mode adds the parameter).
 */
import { Alert, Anchor, Button, Code, CopyButton, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconExternalLink, IconFlask } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ProjectSettings } from '../api/types';
import { paths } from '../paths';
import { domainRule, installSnippet, verifyUrl } from './model';

type Website = ProjectSettings;

export function Installation({ website }: { website: Website }) {
  const { t } = useTranslation();
  const snippet = installSnippet(window.location.origin, website.uuid);
  const rule = domainRule(website.domain, website.data.widgetDomainWildcard);
  const testMode = website.activeParam === 1;
  const url = verifyUrl(website.domain, testMode);
  const strong = { strong: <strong /> };

  return (
    <Stack gap="md">
      {website.active !== 1 && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
          {t('installation.inactive')}{' '}
          <Anchor component={Link} to={paths.configuration(website.uuid, 'general')} fw={600} inherit>
            {t('installation.toGeneral')}
          </Anchor>
        </Alert>
      )}
      <Step n={1} title={t('installation.snippetTitle')}>
        <Text size="sm" c="dimmed">
          {t('installation.snippetHint')}
        </Text>
        <Stack gap={6}>
          <Group justify="space-between" gap="sm">
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" style={{ letterSpacing: '.04em' }}>
              HTML
            </Text>
            <CopyButton value={snippet} timeout={2000}>
              {({ copied, copy }) => (
                <Button
                  size="xs"
                  variant={copied ? 'filled' : 'default'}
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                  onClick={copy}
                >
                  {copied ? t('installation.copied') : t('installation.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Code
            block
            aria-label={t('installation.snippetLabel')}
            data-testid="install-snippet"
            fz="sm"
            p="md"
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', borderRadius: 10 }}
          >
            {snippet}
          </Code>
        </Stack>
      </Step>
      <Step n={2} title={t('installation.domainTitle')}>
        <Text data-testid="domain-rule">
          {rule.kind === 'any' ? (
            t('installation.domainAny')
          ) : rule.kind === 'exact' ? (
            <Trans i18nKey="installation.domainExact" values={{ host: rule.host }} components={strong} />
          ) : (
            <Trans
              i18nKey="installation.domainSubdomains"
              values={{ host: rule.host, example: rule.example }}
              components={strong}
            />
          )}
        </Text>
        {rule.kind !== 'any' && (
          <Text size="sm" c="dimmed">
            {t('installation.domainMismatch')}
          </Text>
        )}
      </Step>
      <Step n={3} title={t('installation.verifyTitle')}>
        <Text>
          {t('installation.verify', {
            text: website.data.widgetText,
            position: t(`widget.where.${website.data.widgetPosition}`),
          })}
        </Text>
        {testMode && (
          <Alert color="yellow" variant="light" icon={<IconFlask size={18} />}>
            {t('installation.verifyTestMode', { url })}
          </Alert>
        )}
        <Group gap="sm">
          <Button
            component="a"
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            variant="light"
            rightSection={<IconExternalLink size={16} />}
          >
            {t('installation.openSite')}
          </Button>
          <Text size="sm" c="dimmed">
            {t('installation.delay')}
          </Text>
        </Group>
      </Step>
    </Stack>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <Paper component="section" withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} aria-label={title}>
      <Group align="flex-start" gap="md" wrap="nowrap">
        <ThemeIcon size={32} radius="xl" variant="light" fw={700} style={{ flex: 'none' }}>
          {n}
        </ThemeIcon>
        <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
          <Text fw={650} size="lg" mt={2}>
            {title}
          </Text>
          {children}
        </Stack>
      </Group>
    </Paper>
  );
}

/** The files the visitor attached: name and size, View for the kinds the viewer shows, and Download. */
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconEye, IconFile } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { IssueAnswer } from '#contracts/review';
import { Section } from '../components/Section';
import { DownloadButton, type Viewed } from './MediaViewer';
import { downloadUrl, formatBytes, viewerFor } from './model';

export function IssueAttachments({
  issue,
  projectId,
  locale,
  onView,
}: {
  issue: IssueAnswer;
  projectId: string;
  locale: string;
  onView: (viewed: Viewed) => void;
}) {
  const { t } = useTranslation();
  return (
    <Section title={t('issue.attachments')} labelId="issue-attachments">
      {issue.files.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('issue.noAttachments')}
        </Text>
      ) : (
        <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {issue.files.map((file) => {
            const viewer = viewerFor(file.type);
            const src = downloadUrl('file', projectId, file.name);
            const downloadHref = downloadUrl('file', projectId, file.name, true);
            return (
              <Group
                key={file.name}
                component="li"
                justify="space-between"
                wrap="wrap"
                py="xs"
                gap={4}
                style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                data-testid="attachment"
              >
                <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 220px' }}>
                  <IconFile size={20} color="var(--mantine-color-dimmed)" style={{ flex: 'none' }} />
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600} truncate>
                      {file.original_name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatBytes(file.size, locale)}
                    </Text>
                  </Stack>
                </Group>
                <Group gap={4} wrap="nowrap" ml="auto">
                  {viewer && (
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      leftSection={<IconEye size={14} />}
                      onClick={() => onView({ kind: viewer, title: file.original_name, src, downloadHref })}
                      aria-label={t('issue.viewNamed', { name: file.original_name })}
                    >
                      {t('issue.view')}
                    </Button>
                  )}
                  <DownloadButton href={downloadHref} name={file.original_name} compact />
                </Group>
              </Group>
            );
          })}
        </Stack>
      )}
    </Section>
  );
}

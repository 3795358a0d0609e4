/**
 * The issue's screenshots and screen recordings. Screenshots open in the viewer, recordings play in place,
 * and each page snapshot opens in the viewer's sandboxed frame.
 */
import { Button, Group, Paper, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconEye, IconWorldWww } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { IssueAnswer } from '#contracts/review';
import { Section } from '../components/Section';
import { DownloadButton, type Viewed } from './MediaViewer';
import { downloadUrl, snapshotPath } from './model';

export function IssueMedia({
  issue,
  projectId,
  onView,
}: {
  issue: IssueAnswer;
  projectId: string;
  onView: (viewed: Viewed) => void;
}) {
  const { t } = useTranslation();
  const shots = issue.screenshots.map((s, i) => ({ ...s, index: i + 1 }));
  return (
    <Section title={t('issue.media')} labelId="issue-media">
      {shots.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('issue.noMedia')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {shots.map((shot) => {
            const src = downloadUrl('screenshot', projectId, shot.name);
            const downloadHref = downloadUrl('screenshot', projectId, shot.name, true);
            const video = shot.type !== 'png';
            const title = video
              ? t('issue.video', { index: shot.index })
              : t('issue.screenshot', { index: shot.index });
            return (
              <Paper key={shot.name} withBorder radius="md" p="xs">
                <Stack gap="xs">
                  {video ? (
                    // biome-ignore lint/a11y/useMediaCaption: a visitor's screen recording has no captions.
                    <video
                      src={src}
                      controls
                      preload="metadata"
                      style={{ width: '100%', borderRadius: 6, background: '#000' }}
                      aria-label={title}
                    />
                  ) : (
                    <UnstyledButton
                      onClick={() => onView({ kind: 'image', title, src, downloadHref })}
                      aria-label={t('issue.viewNamed', { name: title })}
                    >
                      <img
                        src={src}
                        alt={title}
                        loading="lazy"
                        style={{
                          display: 'block',
                          width: '100%',
                          maxHeight: 260,
                          objectFit: 'contain',
                          objectPosition: 'top',
                          background: 'var(--mantine-color-gray-1)',
                          borderRadius: 6,
                        }}
                      />
                    </UnstyledButton>
                  )}
                  <Group justify="space-between" gap={4}>
                    <Text size="sm" fw={600}>
                      {title}
                    </Text>
                    <Group gap={4}>
                      {!video && (
                        <Button
                          variant="subtle"
                          size="compact-sm"
                          leftSection={<IconEye size={14} />}
                          onClick={() => onView({ kind: 'image', title, src, downloadHref })}
                        >
                          {t('issue.view')}
                        </Button>
                      )}
                      <DownloadButton href={downloadHref} name={title} compact />
                    </Group>
                  </Group>
                  {shot.html && (
                    <Button
                      variant="light"
                      size="xs"
                      leftSection={<IconWorldWww size={14} />}
                      onClick={() =>
                        onView({
                          kind: 'snapshot',
                          title: t('issue.snapshotOf', { name: title }),
                          src: snapshotPath(projectId, shot.html),
                          downloadHref: downloadUrl('screenshot', projectId, shot.html, true),
                        })
                      }
                    >
                      {t('issue.snapshot')}
                    </Button>
                  )}
                </Stack>
              </Paper>
            );
          })}
        </SimpleGrid>
      )}
    </Section>
  );
}

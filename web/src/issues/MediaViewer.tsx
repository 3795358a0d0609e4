/**
 * The viewers of the issue screen, each in a modal with a download: images with zoom (fit, then 25 % to
 * 400 %), text files as plain text (an HTML file shows its source, never renders), and page snapshots in
 * their sandboxed frame. Phones get the modal full screen.
 */
import { ActionIcon, Box, Button, Center, Group, Loader, Modal, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload, IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SnapshotFrame } from './SnapshotFrame';

export type Viewed = {
  kind: 'image' | 'text' | 'snapshot';
  title: string;
  /** The image or text address; for a snapshot, its API call (model.ts snapshotPath). */
  src: string;
  downloadHref: string;
} | null;

const zoomSteps = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4];
/** Text files are shown up to this many characters; the rest is a download away. */
const textShown = 200_000;

export function MediaViewer({ viewed, onClose }: { viewed: Viewed; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  const snapshot = viewed?.kind === 'snapshot';
  return (
    <Modal
      opened={viewed !== null}
      onClose={onClose}
      title={viewed?.title}
      size={snapshot ? '100%' : 'auto'}
      fullScreen={phone}
      centered
      closeButtonProps={{ 'aria-label': t('deleteModal.close') }}
      styles={{
        body: snapshot ? { height: phone ? 'calc(100dvh - 120px)' : '78vh' } : undefined,
        content: { maxWidth: snapshot ? undefined : 'min(1200px, 100vw)' },
      }}
    >
      {viewed && (
        <Box h={snapshot ? '100%' : undefined}>
          {viewed.kind === 'image' && <ImageView viewed={viewed} />}
          {viewed.kind === 'text' && <TextView viewed={viewed} />}
          {viewed.kind === 'snapshot' && (
            <Box h="calc(100% - 48px)" style={{ border: '1px solid var(--mantine-color-gray-3)' }}>
              <SnapshotFrame path={viewed.src} title={viewed.title} />
            </Box>
          )}
          {viewed.kind !== 'image' && (
            <Group justify="space-between" mt="sm" gap="xs">
              <Text size="xs" c="dimmed">
                {viewed.kind === 'snapshot' ? t('issue.snapshotHint') : ''}
              </Text>
              <DownloadButton href={viewed.downloadHref} />
            </Group>
          )}
        </Box>
      )}
    </Modal>
  );
}

/** A download link styled as a button; `name` makes its accessible name say what is downloaded. */
export function DownloadButton({
  href,
  name,
  compact = false,
}: {
  href: string;
  name?: string;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Button
      component="a"
      href={href}
      variant={compact ? 'subtle' : 'light'}
      size={compact ? 'compact-sm' : 'xs'}
      leftSection={<IconDownload size={14} />}
      {...(name ? { 'aria-label': t('issue.downloadNamed', { name }) } : {})}
    >
      {t('issue.download')}
    </Button>
  );
}

function ImageView({ viewed }: { viewed: NonNullable<Viewed> }) {
  const { t } = useTranslation();
  // null: fit the window; otherwise a step of zoomSteps.
  const [zoom, setZoom] = useState<number | null>(null);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const step = (direction: 1 | -1) => {
    const current = zoom ?? 1;
    const next =
      direction > 0 ? zoomSteps.find((z) => z > current) : [...zoomSteps].reverse().find((z) => z < current);
    if (next !== undefined) setZoom(next);
  };
  return (
    <Box>
      <Group justify="space-between" mb="sm" gap="xs">
        <Group gap={4}>
          <Tooltip label={t('issue.zoomOut')}>
            <ActionIcon
              variant="default"
              aria-label={t('issue.zoomOut')}
              onClick={() => step(-1)}
              disabled={zoom === zoomSteps[0]}
            >
              <IconZoomOut size={16} />
            </ActionIcon>
          </Tooltip>
          <Button variant="subtle" size="xs" onClick={() => setZoom(zoom === null ? 1 : null)} miw={96}>
            {zoom === null ? t('issue.fit') : `${Math.round(zoom * 100)} %`}
          </Button>
          <Tooltip label={t('issue.zoomIn')}>
            <ActionIcon
              variant="default"
              aria-label={t('issue.zoomIn')}
              onClick={() => step(1)}
              disabled={zoom === zoomSteps.at(-1)}
            >
              <IconZoomIn size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
        <DownloadButton href={viewed.downloadHref} />
      </Group>
      <Box
        style={{
          overflow: 'auto',
          maxHeight: '75vh',
          background: 'var(--mantine-color-gray-1)',
          borderRadius: 8,
        }}
      >
        <img
          src={viewed.src}
          alt={viewed.title}
          data-testid="viewer-image"
          onLoad={(event) =>
            setNatural({ w: event.currentTarget.naturalWidth, h: event.currentTarget.naturalHeight })
          }
          style={
            zoom === null || !natural
              ? { display: 'block', maxWidth: '100%', maxHeight: '75vh', margin: '0 auto' }
              : { display: 'block', width: natural.w * zoom, maxWidth: 'none', margin: '0 auto' }
          }
        />
      </Box>
    </Box>
  );
}

function TextView({ viewed }: { viewed: NonNullable<Viewed> }) {
  const { t } = useTranslation();
  const [text, setText] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    fetch(viewed.src, { credentials: 'same-origin' })
      .then((res) => (res.ok ? res.text() : Promise.reject(new Error(String(res.status)))))
      .then((body) => live && setText(body))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [viewed.src]);
  if (failed) return <Text c="red.7">{t('issue.loadFailed')}</Text>;
  if (text === null)
    return (
      <Center p="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  return (
    <Box>
      <Box
        component="pre"
        data-testid="viewer-text"
        m={0}
        p="sm"
        fz="xs"
        style={{
          maxHeight: '70vh',
          overflow: 'auto',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          background: 'var(--mantine-color-gray-0)',
          borderRadius: 8,
          minWidth: 'min(720px, 80vw)',
        }}
      >
        {text.slice(0, textShown)}
      </Box>
      {text.length > textShown && (
        <Text size="xs" c="dimmed" mt={4}>
          {t('issue.textTruncated')}
        </Text>
      )}
    </Box>
  );
}

/**
 * The page snapshot a visitor's report carries, shown as the visitor saw it (issue 19). The snapshot is
 * the visitor's (hostile) HTML, so it never reaches the dashboard's origin: the API answers a short-lived
 * address of a copy on the uploads bucket's origin (functions/issues/snapshot-view.ts), shown in a frame
 * with an empty sandbox (no scripts, a unique opaque origin, no forms, popups or top navigation) whose
 * own policy forbids scripts once more. Being another origin's document, it does not inherit the
 * dashboard's policy, so the customer's images, style sheets and fonts load. The frame has the visitor's
 * window size (scaled down to fit) and its address names the anchor at the visitor's scroll position,
 * so the browser opens it there without any script.
 */
import { Box, Center, Loader, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SnapshotViewAnswer } from '#contracts/review';
import { api } from '../api';
import { snapshotFrameBox } from './model';

export function SnapshotFrame({ path, title }: { path: string; title: string }) {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState<SnapshotViewAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  const { ref, width, height } = useElementSize();
  useEffect(() => {
    let live = true;
    setAnswer(null);
    setFailed(false);
    api
      .load<SnapshotViewAnswer>(path)
      .then((a) => live && setAnswer(a))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [path]);
  const box = snapshotFrameBox(answer?.view ?? null, { width, height });
  return (
    <Box ref={ref} h="100%" w="100%" style={{ overflow: 'hidden' }}>
      {failed ? (
        <Center h="100%">
          <Text c="red.7">{t('issue.snapshotFailed')}</Text>
        </Center>
      ) : answer === null || width === 0 ? (
        <Center h="100%">
          <Loader aria-label={t('app.loading')} />
        </Center>
      ) : (
        <Box w={box.width * box.scale} h={box.height * box.scale} mx="auto" style={{ overflow: 'hidden' }}>
          <iframe
            title={title}
            sandbox=""
            src={answer.view ? `${answer.url}#${answer.anchor}` : answer.url}
            referrerPolicy="no-referrer"
            data-testid="snapshot-frame"
            width={box.width}
            height={box.height}
            style={{
              border: 0,
              background: '#fff',
              display: 'block',
              transform: box.scale === 1 ? undefined : `scale(${box.scale})`,
              transformOrigin: '0 0',
            }}
          />
        </Box>
      )}
    </Box>
  );
}

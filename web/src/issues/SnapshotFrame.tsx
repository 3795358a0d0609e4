/**
 * The page snapshot a visitor's report carries, shown as it was captured and nothing more. The snapshot
 * is the visitor's (hostile) HTML: it is fetched as text and shown through srcdoc in a frame with an
 * empty sandbox (no scripts, a unique opaque origin, no forms, no popups, no top navigation) under a
 * policy that forbids scripts once more (snapshotDocument). It never reaches the dashboard's origin.
 */
import { Center, Loader, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { snapshotDocument } from './model';

export function SnapshotFrame({ url, title }: { url: string; title: string }) {
  const { t } = useTranslation();
  const [doc, setDoc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setDoc(null);
    setFailed(false);
    fetch(url, { credentials: 'same-origin' })
      .then((res) => (res.ok ? res.text() : Promise.reject(new Error(String(res.status)))))
      .then((html) => live && setDoc(snapshotDocument(html)))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [url]);
  if (failed)
    return (
      <Center h="100%">
        <Text c="red.7">{t('issue.snapshotFailed')}</Text>
      </Center>
    );
  if (doc === null)
    return (
      <Center h="100%">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  return (
    <iframe
      title={title}
      sandbox=""
      srcDoc={doc}
      referrerPolicy="no-referrer"
      data-testid="snapshot-frame"
      style={{ width: '100%', height: '100%', border: 0, background: '#fff', display: 'block' }}
    />
  );
}

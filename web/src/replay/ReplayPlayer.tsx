/**
 * The session replay's player (docs/replay.md, "The issue page"), a lazy chunk of its own with rrweb's
 * replayer (`@rrweb/replay`; docs/decisions-web.md): only the Replay section and the public replay page
 * load it, never the dashboard's first load.
 *
 * The recording is the visitor's page, so it is cleaned first (sanitize.ts) and replayed in rrweb's frame,
 * sandboxed with `allow-same-origin` only: no script, no form, popup or navigation of the dashboard, and
 * under the dashboard's own policy (the frame is about:blank and inherits it). The player refuses to
 * start when the frame's sandbox is anything else. Its controls are the dashboard's own (labelled, keyboard,
 * en and de): play/pause, speed, position; on the frame Space plays or pauses and the arrows skip 5 s.
 */
import '@rrweb/replay/dist/style.css';
import './replay.css';
import { Box, Button, Center, Group, Loader, SegmentedControl, Slider, Stack, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { Replayer } from '@rrweb/replay';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';
import { loadReplay, type ReplaySource } from './data';
import './texts';
import { clock, frameFit, offsetOf, skipMs, speeds, viewportOf } from './model';

export interface ReplayPlayerProps {
  source: ReplaySource;
  /** A moment to show (epoch ms), from the timeline; `n` tells two choices of the same moment apart. */
  seek?: { at: number; n: number } | null;
  /** Shown instead of the general failure when the API answers 404 (the public page's expired link). */
  goneText?: string;
}

type Status = 'loading' | 'failed' | 'gone' | 'unplayable' | 'ready';

/** The one sandbox rrweb's frame may have: same origin for the replayer's own access, nothing else. */
const onlySameOrigin = (frame: HTMLIFrameElement) =>
  frame.sandbox.length === 1 && frame.sandbox.contains('allow-same-origin');

export default function ReplayPlayer({ source, seek, goneText }: ReplayPlayerProps) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>('loading');
  const [events, setEvents] = useState<Record<string, unknown>[] | null>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [total, setTotal] = useState(0);
  const [speed, setSpeed] = useState<number>(1);
  const root = useRef<HTMLDivElement>(null);
  const replayer = useRef<Replayer | null>(null);
  const start = useRef(0);
  const { ref: space, width } = useElementSize();
  const sourceKey = JSON.stringify(source);

  useEffect(() => {
    let live = true;
    setStatus('loading');
    loadReplay(JSON.parse(sourceKey) as ReplaySource)
      .then((loaded) => {
        if (!live) return;
        setEvents(loaded);
        setStatus('ready');
      })
      .catch((error: unknown) => {
        if (!live) return;
        if (error instanceof ApiError) setStatus(error.status === 404 && goneText ? 'gone' : 'failed');
        else setStatus('unplayable');
      });
    return () => {
      live = false;
    };
  }, [sourceKey, goneText]);

  useEffect(() => {
    const target = root.current;
    if (!events || !target) return;
    let player: Replayer;
    try {
      player = new Replayer(events as never, {
        root: target,
        mouseTail: false,
        showWarning: false,
        triggerFocus: false,
        UNSAFE_replayCanvas: false,
        skipInactive: true,
      });
    } catch {
      setStatus('unplayable');
      return;
    }
    if (!onlySameOrigin(player.iframe)) {
      player.destroy();
      setStatus('unplayable');
      return;
    }
    player.iframe.title = t('replay.frame');
    player.iframe.setAttribute('data-testid', 'replay-frame');
    player.iframe.tabIndex = -1;
    player.iframe.style.border = '0';
    const meta = player.getMetaData();
    start.current = meta.startTime;
    setTotal(meta.totalTime);
    player.on('finish', () => {
      setPlaying(false);
      setTime(meta.totalTime);
    });
    player.pause(0);
    replayer.current = player;
    return () => {
      replayer.current = null;
      player.destroy();
    };
  }, [events, t]);

  useEffect(() => {
    if (!playing) return;
    const timer = window.setInterval(() => setTime(replayer.current?.getCurrentTime() ?? 0), 250);
    return () => window.clearInterval(timer);
  }, [playing]);

  const goTo = useCallback(
    (ms: number, play = playing) => {
      const player = replayer.current;
      if (!player) return;
      const at = Math.min(Math.max(0, ms), total);
      if (play && at < total) player.play(at);
      // rrweb applies the events strictly before the moment it pauses at: at the end, one ms past it, so the
      // last event (the page as it was at the report) is shown too.
      else player.pause(at >= total ? total + 1 : at);
      setPlaying(play && at < total);
      setTime(at);
    },
    [playing, total],
  );

  // A choice on the timeline: that moment, paused, so the reader sees what the visitor saw then.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each new choice (n), not on every tick.
  useEffect(() => {
    if (seek && status === 'ready') goTo(offsetOf(seek.at, start.current, total), false);
  }, [seek?.n, status, total]);

  const toggle = () => goTo(time >= total ? 0 : time, !playing);

  function onKeyDown(event: React.KeyboardEvent) {
    const moves: Record<string, () => void> = {
      ' ': toggle,
      ArrowLeft: () => goTo(time - skipMs),
      ArrowRight: () => goTo(time + skipMs),
      Home: () => goTo(0),
      End: () => goTo(total, false),
    };
    const move = moves[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    event.stopPropagation();
    move();
  }

  if (status === 'loading')
    return (
      <Center py="xl">
        <Loader aria-label={t('replay.loading')} />
      </Center>
    );
  if (status !== 'ready')
    return (
      <Text c="red.8" role="alert" data-testid="replay-error">
        {status === 'gone' ? goneText : status === 'failed' ? t('replay.failed') : t('replay.unplayable')}
      </Text>
    );

  const viewport = viewportOf(events ?? []);
  const fit = frameFit(viewport, width);
  return (
    <Stack gap="sm" role="group" aria-label={t('replay.player')} data-testid="replay-player">
      <Box ref={space} w="100%">
        <Box
          // The frame itself takes no focus (scripts are off in it); this box is the player's key target.
          tabIndex={0}
          aria-label={`${t('replay.frame')}. ${t('replay.keys')}`}
          role="application"
          onKeyDown={onKeyDown}
          data-testid="replay-screen"
          className="snag-replay-screen"
          h={fit.height * fit.scale}
          w={fit.width * fit.scale}
          mx="auto"
          style={{ overflow: 'hidden', border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4 }}
        >
          <div
            ref={root}
            style={{
              width: fit.width,
              height: fit.height,
              transform: fit.scale === 1 ? undefined : `scale(${fit.scale})`,
              transformOrigin: '0 0',
              pointerEvents: 'none',
            }}
          />
        </Box>
      </Box>
      <Group gap="sm" wrap="wrap">
        <Button
          size="compact-md"
          onClick={toggle}
          leftSection={playing ? <IconPlayerPauseFilled size={14} /> : <IconPlayerPlayFilled size={14} />}
          data-testid="replay-toggle"
        >
          {playing ? t('replay.pause') : t('replay.play')}
        </Button>
        <Text size="sm" ff="monospace" aria-live="off" data-testid="replay-clock">
          {clock(time)} / {clock(total)}
        </Text>
        <Slider
          style={{ flex: 1, minWidth: 160 }}
          min={0}
          max={Math.max(total, 1)}
          step={100}
          value={time}
          onChange={(ms) => goTo(ms)}
          label={clock}
          thumbLabel={t('replay.position')}
          thumbProps={{ 'aria-valuetext': `${clock(time)} / ${clock(total)}` } as never}
          data-testid="replay-position"
        />
        <SegmentedControl
          size="xs"
          aria-label={t('replay.speed')}
          value={String(speed)}
          onChange={(value) => {
            setSpeed(Number(value));
            replayer.current?.setConfig({ speed: Number(value) });
          }}
          data={speeds.map((s) => ({ value: String(s), label: `${s}×` }))}
        />
      </Group>
      <Text size="xs" c="dimmed">
        {t('replay.keys')}
      </Text>
    </Stack>
  );
}

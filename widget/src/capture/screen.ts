/**
 * Real-screen capture and tab recording through `getDisplayMedia` (the browser asks the visitor what to
 * share). Tracks are always stopped, whatever happens, so the browser's "sharing" indicator goes away.
 * A refused or cancelled prompt (NotAllowedError, AbortError) is null, not an error.
 */

import { isPhone } from '../rules';
import type { Recording } from './types';

type DisplayMediaOptions = DisplayMediaStreamOptions & {
  preferCurrentTab?: boolean;
  selfBrowserSurface?: 'include' | 'exclude';
};

const CANCELLED = new Set(['NotAllowedError', 'AbortError']);

async function share(options: DisplayMediaOptions): Promise<MediaStream | null> {
  try {
    return await navigator.mediaDevices.getDisplayMedia(options);
  } catch (error) {
    if (error instanceof DOMException && CANCELLED.has(error.name)) return null;
    throw error;
  }
}

const stopAll = (stream: MediaStream) => {
  for (const track of stream.getTracks()) track.stop();
};

type Browser = { navigator: Navigator & { userAgentData?: { mobile?: boolean } } } & Pick<
  Window,
  'matchMedia'
>;

function hasDisplayMedia(win: Pick<Browser, 'navigator'>): boolean {
  return typeof win.navigator?.mediaDevices?.getDisplayMedia === 'function';
}

/**
 * Where "screenshot via screen sharing" is offered: getDisplayMedia exists and the device is not
 * touch-first. Phones and tablets either lack the API or share the whole screen from a system sheet the
 * widget's page cannot steer, and the viewport screenshot is the one that works there
 * (docs/decisions-widget.md).
 */
export function canCaptureScreen(win: Browser = window): boolean {
  const touchFirst =
    !!win.matchMedia?.('(pointer: coarse)').matches || win.navigator.userAgentData?.mobile === true;
  return hasDisplayMedia(win) && !touchFirst;
}

/** Waits until the video element has a frame to draw. */
function firstFrame(video: HTMLVideoElement): Promise<void> {
  return new Promise((resolve, reject) => {
    video.onloadeddata = () => resolve();
    video.onerror = () => reject(new Error('screen capture: the shared video did not start'));
  });
}

/** One frame of what the visitor shares, at the resolution the browser delivers (pixel-exact). */
export async function captureScreen(): Promise<HTMLCanvasElement | null> {
  const stream = await share({
    video: true,
    audio: false,
    preferCurrentTab: true,
    selfBrowserSurface: 'include',
  });
  if (!stream) return null;
  try {
    const video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    video.srcObject = stream;
    const ready = firstFrame(video);
    await video.play();
    await ready;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d')?.drawImage(video, 0, 0);
    video.srcObject = null;
    return canvas;
  } finally {
    stopAll(stream);
  }
}

/** The containers we upload (uploadRules.video.types), in order of preference. */
const CONTAINERS = [
  'video/webm;codecs=vp9',
  'video/webm;codecs=vp8',
  'video/webm',
  'video/mp4;codecs=avc1',
  'video/mp4',
];

/** The first container this browser's MediaRecorder supports, or null. */
export function recorderType(): string | null {
  if (typeof MediaRecorder === 'undefined' || typeof MediaRecorder.isTypeSupported !== 'function')
    return null;
  return CONTAINERS.find((t) => MediaRecorder.isTypeSupported(t)) ?? null;
}

export function canRecord(): boolean {
  return hasDisplayMedia(window) && recorderType() !== null && !isPhone(window);
}

/** Records the current tab (the visitor picks it in the prompt) for at most `maxMs`. */
export async function startRecording({ maxMs }: { maxMs: number }): Promise<Recording | null> {
  const type = recorderType();
  if (!type) throw new Error('recording: MediaRecorder supports neither webm nor mp4 here');
  const stream = await share({
    video: { frameRate: { ideal: 30 } },
    audio: false,
    preferCurrentTab: true,
    selfBrowserSurface: 'include',
  });
  if (!stream) return null;
  const mimeType = type.split(';')[0]!;
  let recorder: MediaRecorder;
  try {
    recorder = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: 2_500_000 });
  } catch (error) {
    stopAll(stream);
    throw error;
  }
  const chunks: Blob[] = [];
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearTimeout(timer);
    if (recorder.state !== 'inactive') recorder.stop();
    stopAll(stream);
  };
  const result = new Promise<Blob>((resolve, reject) => {
    recorder.ondataavailable = (event) => {
      if (event.data.size) chunks.push(event.data);
    };
    recorder.onstop = () => {
      stopAll(stream);
      if (cancelled) reject(new DOMException('recording cancelled', 'AbortError'));
      // A tab that never painted a frame (or a share ended at once) records nothing: that is a failure,
      // not an empty video for the visitor to send.
      else if (chunks.length === 0) reject(new Error('recording produced no video'));
      else resolve(new Blob(chunks, { type: mimeType }));
    };
    recorder.onerror = () => {
      stop();
      reject(new Error('recording failed'));
    };
  });
  result.catch(() => {}); // A cancelled recording nobody awaits must not be an unhandled rejection.
  // The visitor pressed "Stop sharing" in the browser's own bar.
  for (const track of stream.getVideoTracks()) track.addEventListener('ended', stop, { once: true });
  recorder.start(1000); // A chunk a second, so a stop loses at most the last second's buffering.
  const startedAt = performance.now();
  timer = setTimeout(stop, maxMs);
  return {
    mimeType,
    startedAt,
    stop,
    cancel() {
      cancelled = true;
      stop();
    },
    result,
  };
}

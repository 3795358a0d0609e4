/**
 * The registration proof of work (SPEC.md section 5): the `altcha` web component (v3), solving the
 * PBKDF2/SHA-256 challenge of GET /api/altcha in Web Workers as soon as it mounts.
 *
 * Our API wraps the challenge in the envelope ({status, msg}), which the widget cannot read, so the widget
 * gets a `fetch` of its own that asks our API client and hands back `msg` alone. The widget's solved
 * payload (base64) is reported through `onPayload`; null whenever there is none (solving, failed, expired).
 * This module is its own lazy chunk: only /registration pays for the widget (~35 KB gzip).
 */
import 'altcha';
import 'altcha/i18n/de';
import type {} from 'altcha/types/react';
import { type Ref, useEffect, useImperativeHandle, useRef } from 'react';
import { ApiError, errorCodeOf } from '../api';
import { loadChallenge } from './data';

/** The widget's challenge source: our envelope unwrapped, errors turned into the status the widget expects. */
async function challengeFetch(): Promise<Response> {
  try {
    return Response.json(await loadChallenge());
  } catch (error) {
    const status = error instanceof ApiError && error.status >= 400 ? error.status : 503;
    return Response.json({ error: errorCodeOf(error) }, { status });
  }
}

globalThis.$altcha.defaults.set({ fetch: challengeFetch as typeof fetch });

export interface AltchaHandle {
  /** Solve a fresh challenge: a payload is accepted once, so every failed submit needs a new one. */
  renew(): void;
}

type WidgetState = 'unverified' | 'verifying' | 'verified' | 'expired' | 'error' | 'code';

export default function AltchaField({
  language,
  onPayload,
  ref,
}: {
  language: string;
  onPayload: (payload: string | null) => void;
  ref?: Ref<AltchaHandle>;
}) {
  const widget = useRef<HTMLElementTagNameMap['altcha-widget']>(null);
  const report = useRef(onPayload);
  report.current = onPayload;

  useImperativeHandle(ref, () => ({
    renew() {
      const el = widget.current;
      report.current(null);
      el?.reset();
      void el?.verify();
    },
  }));

  useEffect(() => {
    const el = widget.current;
    if (!el) return;
    const onState = (event: Event) => {
      const { state, payload } = (event as CustomEvent<{ state: WidgetState; payload?: string | null }>)
        .detail;
      report.current(state === 'verified' && payload ? payload : null);
    };
    // A challenge lives 10 minutes; someone who takes longer gets a new one without having to click.
    const onExpired = () => {
      report.current(null);
      void el.verify();
    };
    el.addEventListener('statechange', onState);
    el.addEventListener('expired', onExpired);
    return () => {
      el.removeEventListener('statechange', onState);
      el.removeEventListener('expired', onExpired);
    };
  }, []);

  return (
    <altcha-widget
      ref={widget}
      challenge="/api/altcha"
      auto="onload"
      name="altcha"
      language={language}
      data-testid="altcha"
      style={{
        display: 'block',
        '--altcha-max-width': '100%',
        '--altcha-border-radius': 'var(--mantine-radius-md)',
        '--altcha-border-color': 'var(--mantine-color-gray-4)',
        '--altcha-color-primary': 'var(--mantine-color-brand-6)',
        '--altcha-color-success': 'var(--mantine-color-teal-6)',
        '--altcha-color-error': 'var(--mantine-color-red-7)',
      }}
    />
  );
}

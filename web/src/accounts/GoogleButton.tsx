/**
 * The social sign-in button (SPEC.md section 2: rendered after a 250 ms delay). Google's own button
 * (Google Identity Services) hands over an ID token, which goes to POST /registration/client/google; the
 * answer signs in or registers and the user lands on /profile. USER_EXISTS (the address belongs to a
 * password account) also signs out of the Google session (SPEC.md section 8).
 * Until Google's script is ready a look-alike placeholder holds the space, so nothing shifts.
 */
import { Button } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import { errorCodeOf } from '../api';
import { googleSignOut, loadGoogleIdentity } from '../api/google';
import { clearApiCache } from '../api/session';
import { config } from '../config';
import { afterLogin } from '../paths';
import { signInWithGoogle } from './data';

const buttonHeight = 42;

export function GoogleButton({
  label,
  mode = 'signin',
  onError,
}: {
  label: string;
  /** Google's wording: "Sign in with" on login, "Sign up with" on registration. */
  mode?: 'signin' | 'signup';
  /** A failed sign-in (catalogue code), or null when a new attempt starts. */
  onError: (code: ErrorCode | null) => void;
}) {
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const [visible, setVisible] = useState(false);
  const [ready, setReady] = useState(false);
  const [pending, setPending] = useState(false);
  const slot = useRef<HTMLDivElement>(null);
  // The latest callbacks, so Google's one-time initialisation never calls a stale closure.
  const handlers = useRef({ onError, navigate, signIn });
  handlers.current = { onError, navigate, signIn };

  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), limits.socialButtonDelayMs);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    if (!visible || !config.googleClientId) return;
    let cancelled = false;
    loadGoogleIdentity()
      .then((id) => {
        const target = slot.current;
        if (cancelled || !target) return;
        id.initialize({
          client_id: config.googleClientId,
          cancel_on_tap_outside: true,
          ux_mode: 'popup',
          callback: ({ credential }) => {
            if (credential) void handlers.current.signIn(credential);
          },
        });
        target.replaceChildren();
        id.renderButton(target, {
          type: 'standard',
          theme: 'outline',
          size: 'large',
          shape: 'rectangular',
          logo_alignment: 'center',
          text: mode === 'signup' ? 'signup_with' : 'continue_with',
          width: Math.max(200, Math.min(400, Math.round(target.getBoundingClientRect().width))),
          locale: i18n.language,
        });
        setReady(true);
      })
      .catch(() => {
        // No Google today (blocked or offline): the placeholder stays, disabled.
      });
    return () => {
      cancelled = true;
    };
  }, [visible, mode, i18n.language]);

  async function signIn(token: string) {
    setPending(true);
    handlers.current.onError(null);
    try {
      await signInWithGoogle(token);
      await clearApiCache();
      // Back where sign-in was asked for (the extension's connect page), else the projects.
      handlers.current.navigate(afterLogin(window.location.search), { replace: true });
    } catch (error) {
      const code = errorCodeOf(error);
      if (code === 'USER_EXISTS') await googleSignOut();
      handlers.current.onError(code);
      setPending(false);
    }
  }

  // Reserve the height so the delayed button causes no layout shift.
  if (!visible) return <div style={{ height: buttonHeight }} />;
  return (
    <div style={{ position: 'relative', minHeight: buttonHeight }} data-testid="google-signin">
      <div
        ref={slot}
        style={{
          display: ready && !pending ? 'flex' : 'none',
          justifyContent: 'center',
          colorScheme: 'light',
        }}
      />
      {(!ready || pending) && (
        <Button
          variant="default"
          size="md"
          fullWidth
          leftSection={<GoogleMark />}
          loading={pending}
          disabled={!pending}
          aria-busy={!ready || pending}
        >
          {label}
        </Button>
      )}
    </div>
  );
}

function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
      />
    </svg>
  );
}

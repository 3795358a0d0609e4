/**
 * Google Identity Services (GIS), loaded on demand: only pages that show the social button, or a sign-out
 * after a Google session, fetch Google's script. Nothing loads without `VITE_GOOGLE_CLIENT_ID`.
 */
import { config } from '../config';

/** The part of `google.accounts.id` the dashboard uses. */
export interface GoogleIdentity {
  initialize(options: {
    client_id: string;
    callback: (response: { credential?: string }) => void;
    auto_select?: boolean;
    cancel_on_tap_outside?: boolean;
    ux_mode?: 'popup' | 'redirect';
  }): void;
  renderButton(
    parent: HTMLElement,
    options: {
      type?: 'standard' | 'icon';
      theme?: 'outline' | 'filled_blue' | 'filled_black';
      size?: 'large' | 'medium' | 'small';
      text?: 'signin_with' | 'signup_with' | 'continue_with' | 'signin';
      shape?: 'rectangular' | 'pill' | 'circle' | 'square';
      logo_alignment?: 'left' | 'center';
      width?: number;
      locale?: string;
    },
  ): void;
  disableAutoSelect(): void;
}

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleIdentity } };
  }
}

const scriptUrl = 'https://accounts.google.com/gsi/client';
let loading: Promise<GoogleIdentity> | undefined;

/** Loads GIS once; rejects when no client id is configured or the script cannot load. */
export function loadGoogleIdentity(): Promise<GoogleIdentity> {
  if (!config.googleClientId) return Promise.reject(new Error('Google sign-in is not configured'));
  loading ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const ready = () => {
      const id = window.google?.accounts?.id;
      if (id) resolve(id);
      else reject(new Error('Google Identity Services did not initialise'));
    };
    if (window.google?.accounts?.id) return ready();
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.onload = ready;
    script.onerror = () => reject(new Error('Google Identity Services could not be loaded'));
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    loading = undefined; // a later attempt may succeed (flaky network)
    throw error;
  });
  return loading;
}

/**
 * Ends the Google side of a session (SPEC.md sections 7 and 8: after logout or profile deletion with
 * msg.google, and after a social sign-in refused with USER_EXISTS): GIS stops auto-selecting the
 * account, so the next visitor on this browser is asked again. Best effort, never longer than `timeoutMs`.
 */
export async function googleSignOut(timeoutMs = 1500): Promise<void> {
  if (!config.googleClientId) return;
  const timeout = new Promise<void>((done) => setTimeout(done, timeoutMs));
  const signOut = loadGoogleIdentity().then(
    (id) => id.disableAutoSelect(),
    () => {},
  );
  await Promise.race([signOut, timeout]);
}

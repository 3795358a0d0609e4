/**
 * Build-time configuration of the dashboard. Vite inlines `import.meta.env.VITE_*` at build time, so a
 * deployment sets these in the environment of `npm run build:web`; nothing here is secret.
 */
const env = import.meta.env;

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export const config = {
  /** The public marketing site: target of the logo on auth pages and of the redirect after logout. */
  marketingUrl: trimSlash(env.VITE_MARKETING_URL || 'https://snag.example.com'),
  /** Privacy policy linked from the cookie notice; defaults to the marketing site's page. */
  privacyUrl:
    env.VITE_PRIVACY_URL || `${trimSlash(env.VITE_MARKETING_URL || 'https://snag.example.com')}/privacy`,
  /** Google sign-in is offered only when a client id is configured. */
  googleClientId: env.VITE_GOOGLE_CLIENT_ID || '',
} as const;

import { isValidElement, type ReactElement } from 'react';
import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { NotFoundRedirect } from '../../../web/src/app/NotFound';
import { routes } from '../../../web/src/app/routes';

/**
 * The `to` of the <Navigate> the deepest matching route renders, 'not found' for the redirect that says the
 * page does not exist (to /profile, with a notice), or null for a screen.
 */
function redirectOf(pathname: string): string | null {
  const matches = matchRoutes(routes, pathname);
  const element = matches?.at(-1)?.route.element;
  if (!isValidElement(element)) return null;
  if (element.type === NotFoundRedirect) return 'not found';
  const props = (element as ReactElement<{ to?: unknown }>).props;
  return typeof props.to === 'string' ? props.to : null;
}

describe('route map redirects (SPEC.md section 2)', () => {
  it('sends / to /profile, and unknown top-level paths there saying the page does not exist', () => {
    expect(redirectOf('/')).toBe('/profile');
    expect(redirectOf('/whatever')).toBe('not found');
    expect(redirectOf('/login/extra')).toBe('not found');
  });

  it('sends unknown profile paths to /profile saying the page does not exist', () => {
    expect(redirectOf('/profile/nope')).toBe('not found');
    expect(redirectOf('/profile/integrations/1/bitbucket')).toBe('not found');
    expect(redirectOf('/profile/configuration/1/unknown')).toBe('not found');
  });

  it('opens the default sub-screens', () => {
    expect(redirectOf('/profile/integrations/1')).toBe('email');
    expect(redirectOf('/profile/configuration/1')).toBe('installation');
  });

  it('matches every screen of the route map', () => {
    for (const path of [
      '/login',
      '/registration',
      '/confirm_registration',
      '/confirm_email',
      '/reset',
      '/reset_verification',
      '/invitation',
      '/docs/api',
      '/profile',
      '/profile/edit',
      '/profile/billing',
      '/profile/team',
      '/profile/create/project',
      '/profile/site/1',
      '/profile/site/1/board',
      '/profile/site/1/ticket/2',
      '/profile/resolved/1',
      '/profile/asana_redirect',
      '/profile/integrations/1/email',
      '/profile/integrations/1/gitlab',
      '/profile/integrations/1/jira',
      '/profile/integrations/1/slack',
      '/profile/integrations/1/asana',
      '/profile/integrations/1/webhooks',
      '/profile/widget/1',
      '/profile/configuration/1/installation',
      '/profile/configuration/1/custom_fields',
      '/profile/configuration/1/general',
      '/replay/2a1e0a52-8c5e-4a4f-9d55-0c6fd3c4a6b1.9b3f.1893456000.sig',
    ]) {
      expect(redirectOf(path), path).toBeNull();
    }
  });

  it('opens a signed replay link outside every layout (public, no sign-in), with its own error page', () => {
    const matches = matchRoutes(routes, '/replay/a.b.1.c') ?? [];
    expect(matches.map((m) => m.params.token)).toEqual(['a.b.1.c', 'a.b.1.c']);
    expect(matches).toHaveLength(2);
    expect(matches[1]?.route.errorElement).toBeTruthy();
  });
});

describe('the app error page (issue 19)', () => {
  it('catches a failing screen below its layout, so the navigation stays, and a failing layout on its own', () => {
    for (const path of [
      '/login',
      '/reset',
      '/docs/api',
      '/profile',
      '/profile/site/1',
      '/profile/integrations/1/jira',
    ]) {
      const [root, layout, ...below] = matchRoutes(routes, path) ?? [];
      expect(root?.route.errorElement, path).toBeTruthy();
      expect(layout?.route.errorElement, path).toBeUndefined();
      expect(
        below.some((m) => m.route.errorElement),
        path,
      ).toBe(true);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { launcherCss, schemeForeground } from '../../../widget/src/launcher';

const look = { text: 'Feedback', color: '#0CA678', scheme: 'white', position: 'rightMiddle' } as const;

/** The declarations of the first rule whose selector is exactly `selector`. */
function rule(css: string, selector: string): string {
  const start = css.indexOf(`${selector}{`);
  if (start < 0) throw new Error(`no ${selector} rule`);
  return css.slice(start + selector.length + 1, css.indexOf('}', start));
}

describe('launcherCss (the launcher look, shared by the loader and the dashboard preview)', () => {
  it('pins every declaration of the host as important, starting from all: initial', () => {
    const host = rule(launcherCss(look), ':host');
    expect(host.startsWith('all:initial!important;')).toBe(true);
    for (const decl of host.split(';').filter(Boolean)) expect(decl, decl).toMatch(/!important$/);
    expect(host).toContain('position:fixed!important');
    expect(host).toContain('z-index:2147483000!important');
  });

  it('uses the colour as background and the scheme for the text', () => {
    expect(rule(launcherCss(look), 'button')).toContain('background:#0CA678;color:#FFFFFF');
    expect(rule(launcherCss({ ...look, scheme: 'black' }), 'button')).toContain(
      `color:${schemeForeground.black}`,
    );
  });

  it('never puts anything but a hex colour into the style sheet', () => {
    const css = launcherCss({ ...look, color: 'red;}body{display:none' });
    expect(css).not.toContain('body{');
    expect(rule(css, 'button')).toContain('background:#4F4EAE');
  });

  it('places an edge tab vertically centred, and a corner button 20 px from the corner', () => {
    expect(rule(launcherCss(look), ':host')).toContain('top:50%!important;right:0!important');
    expect(rule(launcherCss({ ...look, position: 'leftMiddle' }), ':host')).toContain('left:0!important');
    expect(rule(launcherCss({ ...look, position: 'rightMiddle' }), 'button')).toContain(
      'writing-mode:vertical-rl',
    );
    const corner = rule(launcherCss({ ...look, position: 'leftBottom' }), ':host');
    expect(corner).toContain('left:20px!important');
    expect(corner).toContain('bottom:calc(20px + env(safe-area-inset-bottom,0px))!important');
    expect(rule(launcherCss({ ...look, position: 'leftBottom' }), 'button')).toContain('border-radius:999px');
  });
});

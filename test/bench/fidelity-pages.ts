/**
 * The screenshot fidelity suite (issue 20, DESIGN.md section 7): real pages nobody here wrote, as their
 * npm packages ship them (installed apart from the project, see `pagesDir`), each with a reason to be in it. docs/decisions-widget.md
 * "Screenshot fidelity" lists them with their versions.
 *
 * A page is served from its package's folder under `/pkg/<package>/` (fidelity-server.ts) with the install
 * snippet added before `</body>`. Nothing leaves the machine: requests to other hosts are answered from
 * the package when the package ships the same file (`external`), and refused otherwise, so a page that
 * loads web fonts or icons from a CDN shows its fallback, in Chromium's screenshot and in the capture alike.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The page packages have their own install (test/bench/pages/package.json and its lock), made by the
 * bench on first use with install scripts off: about 260 MB that `npm ci` of the project, and so every test
 * run, never pays for, and one of them (rapidoc) pulls in native tree-sitter builds it does not need.
 */
export const pagesDir = join(root, 'test', 'bench', 'pages');

/** Installs the page packages from their lock unless the installed set is that lock's. */
export function ensurePages(): void {
  const lock = join(pagesDir, 'package-lock.json');
  const installed = join(pagesDir, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('fidelity: installing the page packages (test/bench/pages, once)');
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: pagesDir,
    stdio: 'inherit',
  });
}

/** The folder of an installed page package (not through `exports`, which some of them do not open). */
export const packageDir = (name: string): string => join(pagesDir, 'node_modules', name);

export const packageVersion = (name: string): string =>
  (JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { version: string }).version;

export interface FidelityView {
  name: string;
  /** Query string added to the page's path for this view (e.g. reveal.js's scroll view). */
  query?: string;
  /** How far the window is scrolled, in CSS pixels (capped at the page's scroll range). */
  scrollY?: number;
  /** Instead of scrolling the window: a script run in the page that scrolls the page's own scroller. */
  scrollScript?: string;
}

export interface FidelityPage {
  /** Short name in the table. */
  name: string;
  /** The npm package that ships the page. */
  pkg: string;
  /** The page's path inside the package. */
  path: string;
  /** Why it is in the suite: what it exercises. */
  why: string;
  views: FidelityView[];
  /** Files the server answers in place of the package's (path inside the package → body). */
  overrides?: Record<string, { type: string; body: () => string }>;
  /** Absolute URLs on other hosts → a file of an installed package ("<package>/<path>") or a body. */
  external?: Record<string, { file?: string; type?: string; body?: () => string }>;
}

const topAndScrolled = (scrollY = 1000): FidelityView[] => [
  { name: 'top', scrollY: 0 },
  { name: 'scrolled', scrollY },
];

/** The OpenAPI document rapidoc's demo page embeds, as JSON: the spec Swagger UI shows too. */
function rapidocSpec(): string {
  const html = readFileSync(join(packageDir('rapidoc'), 'dist', 'index.html'), 'utf8');
  const literal = /const spec = (\{[\s\S]*?\n\});?\s*function loadSpec/.exec(html)?.[1];
  if (!literal) throw new Error('rapidoc/dist/index.html: no embedded spec found');
  return JSON.stringify(JSON.parse(literal));
}

export const fidelityPages: FidelityPage[] = [
  {
    name: 'swagger-ui',
    pkg: 'swagger-ui-dist',
    path: 'index.html',
    why: 'documentation single-page app (React); its index.css sets `html { overflow-y: scroll }` and `body { margin: 0 }`',
    views: topAndScrolled(),
    external: {
      // The initializer the package ships asks for the public Petstore; the document comes from rapidoc's demo.
      'https://petstore.swagger.io/v2/swagger.json': { type: 'application/json', body: rapidocSpec },
    },
  },
  {
    name: 'rapidoc',
    pkg: 'rapidoc',
    path: 'dist/index.html',
    why: 'documentation app as one web component (Lit): everything is in an open shadow root, scrolled inside it',
    views: [
      { name: 'top', scrollY: 0 },
      {
        name: 'scrolled',
        // Its navigation and its content scroll inside the shadow root; the window does not.
        scrollScript:
          "for (const [s, y] of [['.nav-scroll', 300], ['.main-content', 150]]) document.querySelector('rapi-doc').shadowRoot.querySelector(s).scrollTop = y",
      },
    ],
    external: { 'https://unpkg.com/rapidoc/dist/rapidoc-min.js': { file: 'rapidoc/dist/rapidoc-min.js' } },
  },
  {
    name: 'sb-admin-2',
    pkg: 'startbootstrap-sb-admin-2',
    path: 'index.html',
    why: 'admin dashboard (Bootstrap 4): Chart.js canvases, Font Awesome web font icons, sidebar layout, `html { position: relative; min-height: 100% }`',
    views: topAndScrolled(700),
  },
  {
    name: 'creative',
    pkg: 'startbootstrap-creative',
    path: 'dist/index.html',
    why: 'landing page (Bootstrap 5): fixed navbar that changes when scrolled, full-height background image',
    views: topAndScrolled(1000),
  },
  {
    name: 'bulma-start',
    pkg: 'bulma-start',
    path: 'index.html',
    why: "CSS framework's starter page (Bulma): `html { overflow-x: hidden; overflow-y: scroll }`",
    views: topAndScrolled(400),
  },
  {
    name: 'reveal.js',
    pkg: 'reveal.js',
    path: 'demo.html',
    why: 'slide deck: scaled and transformed slides, web fonts shipped in the package (Source Sans Pro, League Gothic); scrolled in its scroll view, whose slides are sticky',
    views: [
      { name: 'top', scrollY: 0 },
      // The scroll view scrolls `.reveal-viewport` (the body), not the window.
      {
        name: 'scrolled',
        query: 'view=scroll',
        scrollScript: "document.querySelector('.reveal-viewport').scrollTop = 2000",
      },
    ],
  },
  {
    name: 'uikit sticky',
    pkg: 'uikit',
    path: 'tests/sticky-navbar.html',
    why: "CSS framework's test page: a navbar made sticky by script (position: fixed plus a placeholder), dropdowns",
    views: topAndScrolled(600),
    overrides: uikitTestLoader(),
  },
  {
    name: 'uikit svg',
    pkg: 'uikit',
    path: 'tests/svg.html',
    why: "CSS framework's test page: inline SVG, SVG images and sprites",
    views: topAndScrolled(600),
    overrides: uikitTestLoader(),
  },
];

/**
 * UIkit's test pages load `js/test.js`, which the package ships only as source (index.js, built by their
 * dev server). What it writes into the page is the theme's style sheet and the two scripts; this is that.
 */
function uikitTestLoader(): FidelityPage['overrides'] {
  return {
    'tests/js/test.js': {
      type: 'text/javascript',
      body: () =>
        `document.writeln('<link rel="stylesheet" href="../dist/css/uikit.css">');
document.writeln('<script src="../dist/js/uikit.js"></scr'+'ipt>');
document.writeln('<script src="../dist/js/uikit-icons.js"></scr'+'ipt>');`,
    },
  };
}

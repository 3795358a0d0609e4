/**
 * The catalogue of the integrations (functions/contracts/integration-catalogue.ts) walked row by row: every
 * integration has its settings form, its texts in both languages and its data fields; every vendor its
 * deliverer and its local fake; every tracker its sync adapter and setup steps. The behaviour tables are
 * typed exhaustive against the catalogue too; this catches what the types cannot (a table cast or built
 * at run time, a missing text), and names the vendor and what it lacks.
 */
import { describe, expect, it } from 'vitest';
import {
  integrationCatalogue,
  integrationNames,
  oauthVendors,
  tokenVendors,
  trackerVendors,
  vendorNames,
} from '#contracts/integration-catalogue';
import { integrationDataSchemas } from '#contracts/integrations';
import { vendorDeliverersBuiltIn } from '../../../functions/integrations/deliverers';
import { trackerAdapters } from '../../../functions/integrations/sync/adapters';
import { fakeTable } from '../../../lib/local/vendors';
import { de } from '../../../web/src/i18n/de';
import { en } from '../../../web/src/i18n/en';
import { integrationTexts } from '../../../web/src/i18n/integrations';
import { settingsForms } from '../../../web/src/integrations/IntegrationSettings';

/** The keys of a nested text catalogue, as dotted paths. */
const keysOf = (node: unknown, at = ''): string[] =>
  node && typeof node === 'object'
    ? Object.entries(node).flatMap(([k, v]) => keysOf(v, at ? `${at}.${k}` : k))
    : [at];

const has = (table: object, name: string) => typeof (table as Record<string, unknown>)[name] === 'function';

describe.each(integrationNames)('the catalogue row of %s', (name) => {
  const row = integrationCatalogue[name];

  it('has its settings form', () => {
    expect(has(settingsForms, name), `settings form of ${name}`).toBe(true);
  });

  it('has its name and its screen texts in English and German, with the same keys', () => {
    for (const catalogue of [en, de]) {
      const title = (catalogue.integrations as Record<string, string>)[name];
      expect(typeof title === 'string' && title.trim() !== '', `integrations.${name}`).toBe(true);
    }
    // The screen's texts load with the Integration screen (web/src/i18n/integrations.ts).
    const screen = (c: object) => (c as Record<string, unknown>)[name];
    expect(screen(integrationTexts.en), `integrationScreen.${name} (en)`).toBeDefined();
    expect(keysOf(screen(integrationTexts.de)).sort()).toEqual(keysOf(screen(integrationTexts.en)).sort());
  });

  it('names only fields its data has', () => {
    expect(integrationDataSchemas[name], `data schema of ${name}`).toBeDefined();
    const fields = Object.keys(integrationDataSchemas[name].shape);
    const named = [
      ...row.secrets,
      ...row.bindings,
      ...row.targets,
      ...row.required,
      ...Object.keys(row.reset ?? {}),
    ];
    expect(named.filter((f) => !fields.includes(f))).toEqual([]);
  });

  it('has a local fake unless it is email (the local mail catcher)', () => {
    if (name === 'email') return;
    expect(typeof fakeTable[name]?.start, `fake of ${name}`).toBe('function');
  });
});

describe.each(vendorNames)('the vendor %s', (vendor) => {
  it('has its deliverer and a reset', () => {
    expect(has(vendorDeliverersBuiltIn, vendor), `deliverer of ${vendor}`).toBe(true);
    expect(integrationCatalogue[vendor].reset).not.toBeNull();
  });
});

describe('authorisation kinds', () => {
  it('gives each token vendor its list call and each OAuth vendor none', () => {
    for (const v of tokenVendors) expect(integrationCatalogue[v], v).toHaveProperty('list');
    for (const v of oauthVendors) expect(integrationCatalogue[v], v).not.toHaveProperty('list');
  });
});

describe.each(trackerVendors)('the tracker %s', (vendor) => {
  it('has its sync adapter', () => {
    expect(trackerAdapters[vendor], `adapter of ${vendor}`).toBeDefined();
    expect(typeof trackerAdapters[vendor].verify, `adapter of ${vendor}`).toBe('function');
  });

  it('has its hook setup steps in English and German', () => {
    for (const texts of Object.values(integrationTexts)) {
      const steps = texts.trackerSync as Record<string, unknown>;
      expect(typeof steps[`${vendor}1`], `integrationScreen.trackerSync.${vendor}1`).toBe('string');
    }
  });
});

describe.each(integrationNames.filter((n) => n !== 'email' && n !== 'webhooks'))(
  'the destination %s',
  (name) => {
    it('has its deliverer (a post-only one too, without a reset)', () => {
      expect(has(vendorDeliverersBuiltIn, name), `deliverer of ${name}`).toBe(true);
    });
  },
);

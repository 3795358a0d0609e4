/**
 * What the vendor fakes keep across restarts of `npm start` with the same data dir, in
 * `$SNAG_DATA_DIR/vendor-fakes.json`: their ports, and the Slack and Asana tokens they issued. A client's
 * saved Jira host, Slack bot token or Asana refresh token names the fake of the earlier run; with a new
 * port or a forgotten token every saved integration would fail after a restart (docs/decisions.md
 * "Vendor fakes keep their addresses").
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { type IntegrationName, integrationNames } from '#contracts/integration-catalogue';

/** Every integration of the catalogue that sends somewhere has a fake (email goes to the local mail catcher). */
export type FakeName = Exclude<IntegrationName, 'email'>;
export const fakeNames = integrationNames.filter((n): n is FakeName => n !== 'email') as [
  FakeName,
  ...FakeName[],
];

const port = z.number().int().min(1).max(65535);
const savedSchema = z.object({
  ports: z.partialRecord(z.enum(fakeNames), port).default({}),
  slackTokens: z.array(z.string()).default([]),
  /** Access token -> expiry (epoch ms), as the Asana fake checks it. */
  asanaAccessTokens: z.record(z.string(), z.number()).default({}),
  asanaRefreshTokens: z.array(z.string()).default([]),
});
type SavedState = z.infer<typeof savedSchema>;

/** A Set that writes the state file whenever a fake adds or removes a value. */
class SavedSet extends Set<string> {
  private changed?: () => void;
  constructor(values: Iterable<string>, changed: () => void) {
    super(values);
    this.changed = changed;
  }
  override add(value: string) {
    const had = this.has(value);
    super.add(value);
    if (!had) this.changed?.();
    return this;
  }
  override delete(value: string) {
    const had = super.delete(value);
    if (had) this.changed?.();
    return had;
  }
}

/** A Map that writes the state file whenever a fake sets or removes an entry. */
class SavedMap extends Map<string, number> {
  private changed?: () => void;
  constructor(entries: Iterable<[string, number]>, changed: () => void) {
    super(entries);
    this.changed = changed;
  }
  override set(key: string, value: number) {
    super.set(key, value);
    this.changed?.();
    return this;
  }
  override delete(key: string) {
    const had = super.delete(key);
    if (had) this.changed?.();
    return had;
  }
}

export interface SavedFakes {
  /** The port each fake had last time, if any. */
  ports: Partial<Record<FakeName, number>>;
  slackTokens: Set<string>;
  asanaAccessTokens: Map<string, number>;
  asanaRefreshTokens: Set<string>;
  /** Records the ports the fakes listen on now. */
  savePorts(ports: Record<FakeName, number>): void;
}

export const savedFakesFile = (dataDir: string) => join(dataDir, 'vendor-fakes.json');

/**
 * Reads the state of an earlier run (a missing or unreadable file is a first run: `warn` says so for the
 * latter) and returns the collections the fakes fill, each saving the file when it changes.
 */
export function loadSavedFakes(dataDir: string, warn: (line: string) => void = () => {}): SavedFakes {
  const file = savedFakesFile(dataDir);
  let state: SavedState = savedSchema.parse({});
  if (existsSync(file)) {
    try {
      state = savedSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch (err) {
      warn(
        `${file} is not readable (${err instanceof Error ? err.message.split('\n')[0] : err}); starting afresh`,
      );
    }
  }
  let ports = { ...state.ports };
  const save = () => {
    const out: SavedState = {
      ports,
      slackTokens: [...slackTokens],
      asanaAccessTokens: Object.fromEntries(asanaAccessTokens),
      asanaRefreshTokens: [...asanaRefreshTokens],
    };
    // Written aside and renamed, so a crash mid-write never leaves half a file. Tokens: owner only.
    writeFileSync(`${file}.tmp`, `${JSON.stringify(out, null, 2)}\n`, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  };
  const slackTokens = new SavedSet(state.slackTokens, save);
  const asanaAccessTokens = new SavedMap(Object.entries(state.asanaAccessTokens), save);
  const asanaRefreshTokens = new SavedSet(state.asanaRefreshTokens, save);
  return {
    ports: state.ports,
    slackTokens,
    asanaAccessTokens,
    asanaRefreshTokens,
    savePorts: (now) => {
      ports = { ...now };
      save();
    },
  };
}

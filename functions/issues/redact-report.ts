/**
 * The intake's own redaction (docs/privacy.md), so that an old or modified widget cannot store a secret:
 * the report's gathered text goes through the one rule set again (contracts/redaction.ts), and a session
 * replay is checked for input values the recorder would have masked. Pure functions; the intake calls them
 * after the schema and before anything is stored.
 *
 * What the visitor wrote (description, title, email) is stored as written: they chose to send it.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { reportLimits } from '#contracts/intake';
import type { ReportBody } from '#contracts/intake-schemas';
import { redactText, redactUrl, replayUnmaskedInputTypes } from '#contracts/redaction';

/** The parts of a report (or of a v1 create) that a client gathered on its own. */
type Gathered = Pick<ReportBody, 'href' | 'logs' | 'steps' | 'customFields'>;

/**
 * A report with its log lines (console messages, errors, failed requests with their addresses), its steps'
 * labels, its custom fields' values and its page address redacted; each still within its schema limit.
 * Custom fields keep email addresses (a customer sends an account's address on purpose); log lines and
 * steps do not.
 */
export function redactReport<T extends Gathered>(body: T): T {
  return {
    ...body,
    href: body.href && redactUrl(body.href).slice(0, reportLimits.hrefMax),
    logs: body.logs.map((l) => ({
      ...l,
      msg: redactText(l.msg, { emails: true }).slice(0, reportLimits.logMessageMax),
    })),
    steps: body.steps.map((s) => ({
      ...s,
      label: redactText(s.label, { emails: true }).slice(0, reportLimits.stepLabelMax),
    })),
    customFields: body.customFields.map((f) => ({
      ...f,
      value: redactText(f.value, { emails: false }).slice(0, reportLimits.customFieldValueMax),
    })),
  };
}

// rrweb's numbers (@rrweb/types `EventType`, `IncrementalSource`, `NodeType`), written out: the intake
// does not load rrweb for three enums.
const FULL_SNAPSHOT = 2;
const INCREMENTAL = 3;
const MUTATION = 0;
const INPUT = 5;
const ELEMENT = 2;
const TEXT = 3;
const COMMENT = 5;
/** What rrweb records for a script's text (never the script itself). */
const SCRIPT_TEXT = 'SCRIPT_PLACEHOLDER';
/** Masked text: rrweb's mask replaces every character but white space with an asterisk. */
const maskedText = /^[\s*]*$/;

/** Input types whose value the recorder keeps (contracts/redaction.ts `replayMaskedInputs`). */
const unmaskedTypes = new Set(replayUnmaskedInputTypes);

/** The masking placeholder: nothing but asterisks (or nothing). */
const maskedValue = /^\**$/;

interface FieldNode {
  tag: string;
  type: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a form field of this tag and type has its value masked by our recorder. */
function isMaskedField(field: FieldNode): boolean {
  if (field.tag === 'textarea' || field.tag === 'select') return true;
  return field.tag === 'input' && !unmaskedTypes.has(field.type);
}

/**
 * Why the rrweb events carry an input value our recorder would have masked, or null when none does: a
 * full snapshot's (or an added node's) input, textarea or select whose `value` attribute is not the
 * placeholder, a `value` attribute changed to one, or an Input event whose text is not. The answer names
 * the node and the place, never the value.
 *
 * With `maskedText` (a strict project, docs/privacy.md "Strict privacy mode": "masks all text in replays"),
 * a text node (or comment) whose text is not masked is a leak too, in a snapshot, an added node or a text
 * change; style sheets' text (rrweb's `isStyle`, the page's CSS, not its words) and the script placeholder
 * are not text a visitor reads. One pass over the events, as for inputs: bounded by the unpacked size.
 */
export function replayLeaks(events: unknown[], options: { maskedText?: boolean } = {}): string | null {
  /** Form fields by rrweb node id, as full snapshots and mutations declared them. */
  const fields = new Map<number, FieldNode>();
  /** Text nodes of style sheets by rrweb node id: their text changes are CSS, not words. */
  const styleTexts = new Set<number>();
  const strict = options.maskedText === true;

  /** Walks a serialized node tree (iteratively: a hostile recording may nest deeper than the stack). */
  const walk = (root: unknown, where: string): string | null => {
    const stack: unknown[] = [root];
    while (stack.length) {
      const node = stack.pop();
      if (!isObject(node)) continue;
      if (strict && (node.type === TEXT || node.type === COMMENT)) {
        const text = typeof node.textContent === 'string' ? node.textContent : '';
        if (node.isStyle === true) {
          if (typeof node.id === 'number') styleTexts.add(node.id);
        } else if (text !== SCRIPT_TEXT && !maskedText.test(text)) {
          return `${where} holds unmasked text (node ${String(node.id)})`;
        }
      }
      if (node.type === ELEMENT && typeof node.tagName === 'string') {
        const attributes = isObject(node.attributes) ? node.attributes : {};
        const tag = node.tagName.toLowerCase();
        if (tag === 'input' || tag === 'textarea' || tag === 'select') {
          const type = typeof attributes.type === 'string' ? attributes.type.trim().toLowerCase() : 'text';
          const field = { tag, type: attributes['data-rr-is-password'] === undefined ? type : 'password' };
          if (typeof node.id === 'number') fields.set(node.id, field);
          const value = attributes.value;
          if (isMaskedField(field) && value !== undefined && !maskedValue.test(String(value)))
            return `${where} holds the unmasked value of a ${tag}${tag === 'input' ? ` of type ${field.type}` : ''} (node ${String(node.id)})`;
        }
      }
      if (Array.isArray(node.childNodes)) stack.push(...node.childNodes);
    }
    return null;
  };

  for (const [i, event] of events.entries()) {
    if (!isObject(event) || !isObject(event.data)) continue;
    const data = event.data;
    if (event.type === FULL_SNAPSHOT) {
      const found = walk(data.node, `full snapshot (event ${i})`);
      if (found) return found;
    }
    if (event.type !== INCREMENTAL) continue;
    if (data.source === MUTATION) {
      for (const add of Array.isArray(data.adds) ? data.adds : []) {
        const found = isObject(add) ? walk(add.node, `an added node (event ${i})`) : null;
        if (found) return found;
      }
      for (const change of strict && Array.isArray(data.texts) ? data.texts : []) {
        if (!isObject(change) || (typeof change.id === 'number' && styleTexts.has(change.id))) continue;
        if (typeof change.value === 'string' && !maskedText.test(change.value))
          return `a changed text (event ${i}) is unmasked (node ${String(change.id)})`;
      }
      for (const change of Array.isArray(data.attributes) ? data.attributes : []) {
        if (!isObject(change) || !isObject(change.attributes) || typeof change.id !== 'number') continue;
        const field = fields.get(change.id);
        if (!field) continue; // Not a form field: `value` of a list item, a meter, a button.
        const { type, value } = change.attributes;
        if (typeof type === 'string') field.type = type.trim().toLowerCase();
        if (isMaskedField(field) && value != null && !maskedValue.test(String(value)))
          return `a changed value attribute (event ${i}) is unmasked (node ${change.id})`;
      }
    }
    if (data.source === INPUT) {
      const field = typeof data.id === 'number' ? fields.get(data.id) : undefined;
      // A checkbox or radio (declared so) reports its state and its fixed value. A field never declared
      // is held to the rule whatever `isChecked` says: rrweb sends it on every Input event, and our
      // recordings declare each field in the full snapshot the ring buffer keeps before its inputs.
      if (field && !isMaskedField(field)) continue;
      if (typeof data.text === 'string' && !maskedValue.test(data.text))
        return `an input event (event ${i}) carries typed text (node ${String(data.id)})`;
    }
  }
  return null;
}

/**
 * The most a recording may unpack to: rrweb's JSON compresses about tenfold, and the upload is at most
 * 1 MB (contracts/intake.ts `replayLimits.maxGzipBytes`), so 32 MB leaves room for a very repetitive page
 * while a zip bomb stops at it instead of filling the function's memory.
 */
export const REPLAY_UNPACKED_MAX_BYTES = 32 * 1024 * 1024;

const gunzipAsync = promisify(gunzip);

/**
 * `replayLeaks` for a stored recording's bytes (a gzip of the events' JSON array), unpacked to at most
 * `maxBytes`. A recording that is not gzip, unpacks to more, is not JSON or not an array is refused too,
 * with the reason.
 */
export async function replayLeaksInGzip(
  gzip: Uint8Array,
  maxBytes: number = REPLAY_UNPACKED_MAX_BYTES,
  options: { maskedText?: boolean } = {},
): Promise<string | null> {
  let json: Buffer;
  try {
    json = await gunzipAsync(gzip, { maxOutputLength: maxBytes });
  } catch (e) {
    return (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      ? `the recording unpacks to more than ${maxBytes} bytes`
      : 'the recording is not gzip';
  }
  let events: unknown;
  try {
    events = JSON.parse(json.toString('utf8'));
  } catch {
    return 'the recording is not JSON';
  }
  return Array.isArray(events) ? replayLeaks(events, options) : 'the recording is not an array of events';
}

/**
 * Failures the visitor may see. The server answers `{status:'error', code, msg}`; the widget shows its own
 * translated text per code (the server's `msg` is English or German only), and keeps the draft so the
 * visitor can retry.
 */
import type { MessageKey, Messages } from '../i18n';

/** An error with the server's catalogue code, or `NETWORK` when no answer came. `Snag.report` rejects with it. */
export class SnagError extends Error {
  readonly code: string;
  /** The answer's `fields`, when it had some (PROOF_REQUIRED carries its challenge there). */
  readonly fields?: Record<string, string>;
  constructor(code: string, message = code, fields?: Record<string, string>) {
    super(message);
    this.name = 'SnagError';
    this.code = code;
    if (fields) this.fields = fields;
  }
}

/** The code of any thrown value: a SnagError's own, else GENERIC. */
export const codeOf = (error: unknown): string => (error instanceof SnagError ? error.code : 'GENERIC');

/** The message key for a code: its own text when the language files have one, else the generic text. */
export function errorKey(code: string, messages: Messages): MessageKey {
  const key = `err${code}` as MessageKey;
  return key in messages ? key : 'errGENERIC';
}

/**
 * How alike two reports are (docs/similar.md "Score"): a weighted sum of what they share, capped at 1, and
 * the reasons in the contract's words (contracts/similar.ts `similarReasons`). The weights and thresholds
 * were fitted on the labelled corpus (test/fixtures/similar/, `npm run bench`): a page alone is weak (many
 * different bugs share a checkout page), an error or a failed request is strong, the description counts
 * from a Jaccard estimate of about 0.1 and fully from 0.5, a screenshot only when it is near-identical.
 */
import { type SimilarReason, similarReasons } from '#contracts/similar';
import { hamming, jaccard, type Signals } from './similar-signals';

export const weights = {
  page: 0.15,
  error: 0.35,
  request: 0.2,
  description: 0.45,
  screenshot: 0.15,
} as const;

/** Jaccard estimates below `from` count nothing, above `full` everything; between, linearly. */
const DESCRIPTION = { from: 0.1, full: 0.5, reason: 0.25 } as const;
/** dHash bits that may differ for "similar screenshot" (of 64; unrelated pages differ in about 32). */
export const SCREENSHOT_BITS = 10;
/** Below this score nothing is suggested: a shared page and a vague word are no evidence. */
export const MIN_SCORE = 0.3;

export interface Match {
  score: number;
  reasons: SimilarReason[];
}

/** The score of `b` as a suggestion for `a` (symmetric) and its reasons, strongest first; null below MIN_SCORE. */
export function scorePair(a: Signals, b: Signals): Match | null {
  const samePage = a.page !== '' && a.page === b.page;
  const sameError = a.error !== '' && a.error === b.error;
  const sameRequest = a.request !== '' && a.request === b.request;
  const j = jaccard(a.minhash, b.minhash);
  const bits = hamming(a.dhash, b.dhash);
  const description = Math.min(
    1,
    Math.max(0, (j - DESCRIPTION.from) / (DESCRIPTION.full - DESCRIPTION.from)),
  );
  const screenshot = bits <= SCREENSHOT_BITS ? 1 - bits / (SCREENSHOT_BITS + 1) : 0;
  const raw =
    (samePage ? weights.page : 0) +
    (sameError ? weights.error : 0) +
    (sameRequest ? weights.request : 0) +
    weights.description * description +
    weights.screenshot * screenshot;
  const score = Math.round(Math.min(1, raw) * 100) / 100;
  if (score < MIN_SCORE) return null;
  const found = new Set<SimilarReason>();
  if (samePage && sameError) found.add('same_page_and_error');
  else if (sameError) found.add('same_error');
  if (sameRequest) found.add('same_failed_request');
  if (samePage && !sameError) found.add('same_page');
  if (j >= DESCRIPTION.reason) found.add('similar_description');
  if (screenshot > 0) found.add('similar_screenshot');
  if (found.size === 0) return null;
  return { score, reasons: similarReasons.filter((r) => found.has(r)) };
}

/** Exactly the same normalised page and first error: what the project rule `linkExactMatches` links. */
export const exactMatch = (a: Signals, b: Signals) =>
  a.page !== '' && a.error !== '' && a.page === b.page && a.error === b.error;

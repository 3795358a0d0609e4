/**
 * The recorder's privacy and cost settings for rrweb (docs/replay.md "Recorder"), built from the
 * screenshot's masking rules (capture/mask.ts) so both follow one rule set:
 * - every input's value is masked (contracts/redaction.ts `replayMaskedInputs`: rrweb's `maskAllInputs`
 *   list plus hidden inputs; the replay shows placeholder characters), and so is the text typed into
 *   editable regions, which are not inputs;
 * - the screenshot's masked elements (passwords, card and one-time-code fields, `data-snag-mask` and all
 *   inside) have their text masked; `maskText` (the project's option) masks all text;
 * - `data-snag-block`, the widget's own hosts, canvas, video, audio and plugins are blocked: rrweb keeps
 *   a box of their size and records nothing inside;
 * - cross-origin iframes are not recorded, fonts and images are not copied into the recording.
 */
import { replayLimits } from '#contracts/intake';
import { replayMaskedInputs } from '#contracts/redaction';
import { BLOCK_ATTRIBUTE, MASK_SELECTOR } from '../capture/mask';

/** Elements the replay shows as an empty box of their size. */
export const REPLAY_BLOCK_SELECTOR = `[${BLOCK_ATTRIBUTE}],snag-launcher,snag-panel,canvas,video,audio,object,embed`;

/** Elements whose text the replay masks (unless all text is). */
export const REPLAY_MASK_TEXT_SELECTOR = `${MASK_SELECTOR},[contenteditable]:not([contenteditable=false])`;

export function replayOptions(maskText: boolean) {
  return {
    checkoutEveryNms: replayLimits.checkoutMs,
    // Not `maskAllInputs: true`, which would replace this list with rrweb's own (no hidden inputs).
    maskAllInputs: false,
    maskInputOptions: replayMaskedInputs,
    maskTextSelector: maskText ? '*' : REPLAY_MASK_TEXT_SELECTOR,
    blockSelector: REPLAY_BLOCK_SELECTOR,
    recordCanvas: false,
    recordCrossOriginIframes: false,
    collectFonts: false,
    inlineImages: false,
    inlineStylesheet: true,
    slimDOMOptions: 'all' as const,
    // Fewer events for the same picture: scroll and media positions at most every 150 ms and 800 ms, and
    // only an input's last state per burst (its value is masked anyway).
    sampling: { scroll: 150, media: 800, input: 'last' as const },
  };
}

/**
 * The widget texts a client may replace, per widget language (`widgetTexts` in schemas.ts,
 * docs/decisions-widget.md): the keys are the widget's own message keys (widget/src/i18n/en.ts), which
 * the widget overlays with the client's texts. A module of plain constants, so the widget bundles
 * neither zod nor the other limits.
 */
export const widgetTextKeys = [
  'title',
  'welcomeTitle',
  'welcomeText',
  'descriptionPlaceholder',
  'thanksText',
] as const;
export type WidgetTextKey = (typeof widgetTextKeys)[number];

/** Each replaceable text is at most this many characters. */
export const widgetTextsMax: Record<WidgetTextKey, number> = {
  title: 50,
  welcomeTitle: 100,
  welcomeText: 500,
  descriptionPlaceholder: 150,
  thanksText: 300,
};

/** Texts that may hold line breaks (shown as written); the others are one line. */
export const multiLineTexts: readonly WidgetTextKey[] = ['welcomeText', 'thanksText'];

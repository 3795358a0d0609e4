import { describe, expect, it } from 'vitest';
import { textError, withText } from '../../../web/src/projects/WidgetTexts';

describe("the Widget screen's own texts", () => {
  it('sets a text for the chosen language and leaves the other languages alone', () => {
    const before = { en: { title: 'Report a bug' } };
    expect(withText(before, 'de', 'title', 'Fehler melden')).toEqual({
      en: { title: 'Report a bug' },
      de: { title: 'Fehler melden' },
    });
    expect(before).toEqual({ en: { title: 'Report a bug' } }); // not mutated: the form compares with it
  });

  it('drops an emptied text, and an emptied language, so the form is as loaded again', () => {
    const loaded = { en: { title: 'Report a bug' } };
    const typed = withText(loaded, 'en', 'thanksText', 'Thanks!');
    expect(withText(typed, 'en', 'thanksText', '')).toEqual(loaded);
    expect(withText(loaded, 'en', 'title', '')).toEqual({});
  });

  it('checks each text with the rule the API applies', () => {
    expect(textError('title', 'Report a bug', 'bad')).toBeNull();
    expect(textError('title', '', 'bad')).toBeNull(); // empty: the built-in text
    expect(textError('title', undefined, 'bad')).toBeNull();
    expect(textError('title', 'x'.repeat(51), 'bad')).toBe('bad');
    expect(textError('title', 'two\nlines', 'bad')).toBe('bad');
    expect(textError('welcomeText', 'two\nlines', 'bad')).toBeNull();
  });
});

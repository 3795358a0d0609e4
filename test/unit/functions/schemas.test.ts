import { describe, expect, it } from 'vitest';
import { errorCatalogue, errorMessage } from '#contracts/errors';
import {
  activeRequirement,
  emailDataSchema,
  jiraDataSchema,
  webhooksDataSchema,
} from '#contracts/integrations';
import {
  customFieldSchema,
  firstErrorCode,
  profileSchema,
  projectSchema,
  projectUpdateSchema,
  registrationSchema,
  widgetSettingsSchema,
} from '#contracts/schemas';
import { widgetTextKeys, widgetTextsMax } from '#contracts/widget-texts';

describe('shared schemas', () => {
  const valid = {
    _username: ' Ann@Example.COM ',
    _password: 'secret1',
    firstName: 'Ann',
    lastName: 'Lee',
    altcha: 'x',
  };

  it('normalises the email to lower case and trims names', () => {
    expect(registrationSchema.parse(valid)._username).toBe('ann@example.com');
  });

  it.each([
    [{ _password: '12345' }, 'USER_PASSWORD_LENGTH'],
    [{ _username: 'not-an-email' }, 'INVALID_EMAIL'],
    [{ firstName: 'x'.repeat(51) }, 'INVALID_PARAMETERS'],
    [{ altcha: '' }, 'INVALID_PARAMETERS'],
  ])('maps %o to %s', (patch, code) => {
    const r = registrationSchema.safeParse({ ...valid, ...patch });
    expect(r.success).toBe(false);
    if (!r.success) expect(firstErrorCode(r.error)).toBe(code);
  });

  describe('names', () => {
    const hostile = {
      'a null byte': 'Ann\u0000',
      BEL: 'Ann\u0007',
      'a C1 control': 'Ann\u0085x',
      'a right-to-left override': 'Ann\u202Egpj.exe',
      'only zero-width characters': '\u200B\u200C\u200D\uFEFF',
      'a zero-width space inside': 'An\u200Bn',
      'a lone high surrogate': 'Ann\uD800',
      'a lone low surrogate': '\uDC00Ann',
      'only a Hangul filler': '\u3164',
      'only braille blanks': '\u2800\u2800',
      'only combining marks': '\u0301\u0308',
      'only spaces': ' \u00A0\u3000 ',
    };
    // Every name-like field of the dashboard and the API runs the one rule.
    const fields = {
      'first name': (v: string) => registrationSchema.safeParse({ ...valid, firstName: v }),
      'last name': (v: string) => profileSchema.safeParse({ firstName: 'Ann', lastName: v }),
      'project name': (v: string) => projectSchema.safeParse({ name: v, url: 'example.com' }),
      'project rename': (v: string) => projectUpdateSchema.safeParse({ name: v }),
      'widget text': (v: string) => widgetSettingsSchema.safeParse({ widgetText: v }),
      'custom field name': (v: string) => customFieldSchema.safeParse({ name: v, selector: '#id' }),
    };

    for (const [field, parse] of Object.entries(fields)) {
      it.each(Object.entries(hostile))(`${field}: refuses %s`, (_, value) => {
        const r = parse(value);
        expect(r.success).toBe(false);
        if (!r.success) expect(firstErrorCode(r.error)).toBe('INVALID_PARAMETERS');
      });
    }

    it('normalises to NFC and keeps real names, joiners between letters included', () => {
      const decomposed = 'Zoe\u0308 Mu\u0308ller';
      expect(profileSchema.parse({ firstName: decomposed, lastName: 'x' }).firstName).toBe('Zoë Müller');
      for (const name of [
        'José',
        'Łukasz',
        '李小龙',
        'محمد',
        'می\u200Cخواهم',
        'O’Brien',
        'Team 👩\u200D💻',
        'R2-D2',
      ]) {
        expect(profileSchema.safeParse({ firstName: name, lastName: name }).success, name).toBe(true);
      }
    });

    it("applies to Jira field names and the mail's contact field names too", () => {
      expect(jiraDataSchema.safeParse({ customFields: [{ name: 'a\u0000', value: 'x' }] }).success).toBe(
        false,
      );
      expect(jiraDataSchema.safeParse({ customFields: [{ name: 'Team', value: 'x' }] }).success).toBe(true);
      expect(emailDataSchema.safeParse({ contactFields: [{ name: '\u202Eeman', value: 'x' }] }).success).toBe(
        false,
      );
    });
  });

  it('fills widget defaults exactly as SPEC.md section 3 and upper-cases the colour', () => {
    expect(widgetSettingsSchema.parse({})).toEqual({
      widgetLanguage: 'en',
      widgetColor: '#4F4EAE',
      widgetColorScheme: 'white',
      widgetText: 'Feedback',
      widgetPosition: 'rightMiddle',
      widgetDisableScreenshot: false,
      widgetDisableUpload: false,
      widgetDisableVideo: true,
      widgetDisableWelcomeScreen: true,
      widgetDisableMobile: false,
      widgetDisableBranding: false,
      widgetDomainWildcard: false,
      customFields: [],
      widgetTexts: {},
      // Issue 24: the reporter hears back unless the client turns it off; the mails' From name is the project's.
      reporterUpdates: true,
      reporterSenderName: '',
      // A fixed language unless the client chooses to follow the visitor's browser (widgetLanguage the fallback).
      widgetLanguageAuto: false,
      // Session replay: off for every stored project until its client turns it on (new paid ones start on).
      widgetReplay: false,
      widgetReplayMaskText: false,
      // Issue 35: resolved issues are kept forever unless the client chooses a retention period.
      retentionDays: null,
      // Strict privacy mode: off unless the client turns it on (docs/privacy.md).
      strictPrivacy: false,
      // Similar reports: exact matches of page and error are linked only when the client asks (docs/similar.md).
      linkExactMatches: false,
    });
    expect(widgetSettingsSchema.parse({ widgetColor: '#a1b2c3' }).widgetColor).toBe('#A1B2C3');
    expect(widgetSettingsSchema.safeParse({ widgetColor: '#a1b2c3ff' }).success).toBe(false);
    expect(
      widgetSettingsSchema.safeParse({ customFields: Array(4).fill({ name: 'a', selector: '.a' }) }).success,
    ).toBe(false);
  });

  describe('own widget texts (widgetTexts, one set per widget language)', () => {
    const texts = (widgetTexts: unknown) => widgetSettingsSchema.safeParse({ widgetTexts });

    it('trims, normalises and keeps only the texts given; an empty text or set means the built-in one', () => {
      const r = texts({
        de: { title: '  Fehler melden ', welcomeText: 'Hallo!\r\n\r\nSchreiben Sie uns.', thanksText: '   ' },
        fr: { title: '' },
      });
      expect(r.success && r.data.widgetTexts).toEqual({
        de: { title: 'Fehler melden', welcomeText: 'Hallo!\n\nSchreiben Sie uns.' },
      });
      // Parsing stored data again changes nothing (every read parses it).
      const again = widgetSettingsSchema.parse(
        widgetSettingsSchema.parse({ widgetTexts: { es: { title: 'x' } } }),
      );
      expect(again.widgetTexts).toEqual({ es: { title: 'x' } });
    });

    it('limits each text to its length', () => {
      for (const key of widgetTextKeys) {
        const max = widgetTextsMax[key];
        expect(texts({ en: { [key]: 'x'.repeat(max) } }).success, key).toBe(true);
        const r = texts({ en: { [key]: 'x'.repeat(max + 1) } });
        expect(r.success, key).toBe(false);
        if (!r.success) expect(firstErrorCode(r.error)).toBe('INVALID_PARAMETERS');
      }
    });

    it.each([
      ['an unknown language', { xx: { title: 'Hi' } }],
      ['an unknown text', { en: { footer: 'Hi' } }],
      ['a text that is not a string', { en: { title: 7 } }],
      ['a set that is not an object', { en: 'Hi' }],
      ['a right-to-left override', { en: { title: 'Report\u202Egpj.exe' } }],
      ['a null byte', { en: { welcomeText: 'Hi\u0000' } }],
      ['a line break in a one-line text', { en: { title: 'Report\na bug' } }],
      ['only invisible characters', { en: { thanksText: '\u200B\u3164' } }],
    ])('refuses %s', (_, value) => {
      expect(texts(value).success).toBe(false);
    });

    it('stores markup as the text it is (the widget shows it as text, never as markup)', () => {
      const hostile = '<img src=x onerror="alert(1)">';
      const r = texts({ en: { welcomeTitle: hostile } });
      expect(r.success && r.data.widgetTexts.en?.welcomeTitle).toBe(hostile);
    });
  });

  it('requires an https webhook URL only while enabled', () => {
    // The live rule (contracts/integrations.ts): the data schema checks the URL, activeRequirement its presence.
    const valid = (active: 0 | 1, url: string) => {
      const parsed = webhooksDataSchema.safeParse({ url });
      return parsed.success && (active === 0 || activeRequirement('webhooks', parsed.data) === null);
    };
    expect(valid(0, '')).toBe(true);
    expect(valid(1, '')).toBe(false);
    expect(valid(1, 'http://example.com/hook')).toBe(false);
    expect(valid(1, 'https://example.com/hook')).toBe(true);
  });
});

describe('error catalogue', () => {
  it('has an English and a German message for every code', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      expect(entry.msg.en, code).not.toBe('');
      expect(entry.msg.de, code).not.toBe('');
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
    }
  });

  it('uses the screen wording of SPEC.md section 8', () => {
    expect(errorMessage('SYSTEM_ERROR', 'en', 'registration')).toBe('Registration failed');
    expect(errorMessage('SYSTEM_ERROR', 'en', 'profileDelete')).toBe('Delete failed');
    expect(errorMessage('RESTORE_NOT_POSSIBLE', 'en', 'resendConfirmation')).toBe(
      'It is not possible to resend confirmation email',
    );
    expect(errorMessage('RESTORE_NOT_POSSIBLE', 'en')).toBe('Link is invalid or expired');
  });
});

import { describe, expect, it } from 'vitest';
import { reportSchema } from '#contracts/intake-schemas';
import { codeOf, errorKey, SnagError } from '../../../widget/src/app/errors';
import { fileType, refuseUpload } from '../../../widget/src/app/uploads';
import { isValid, validateForm } from '../../../widget/src/app/validate';
import { languages } from '../../../widget/src/i18n';
import en from '../../../widget/src/i18n/en';

const MB = 1024 * 1024;

describe('form validation (the same rules as the server)', () => {
  it('requires a description, counted after trimming, up to 2,000 characters', () => {
    expect(validateForm({ description: '', email: '' }).description).toBe('descriptionRequired');
    expect(validateForm({ description: '   \n ', email: '' }).description).toBe('descriptionRequired');
    expect(validateForm({ description: 'x'.repeat(2000), email: '' })).toEqual({});
    expect(validateForm({ description: ` ${'x'.repeat(2000)}  `, email: '' })).toEqual({});
    expect(validateForm({ description: 'x'.repeat(2001), email: '' }).description).toBe('descriptionTooLong');
  });

  it('takes an empty email, or a valid one', () => {
    expect(isValid(validateForm({ description: 'Broken', email: '' }))).toBe(true);
    expect(isValid(validateForm({ description: 'Broken', email: ' jane@example.com ' }))).toBe(true);
    expect(validateForm({ description: 'Broken', email: 'jane@' }).email).toBe('emailInvalid');
  });

  it('agrees with the server schema on every email it judges', () => {
    const emails = [
      'jane@example.com',
      'jane.doe+tag@sub.example.co.uk',
      "o'brien@example.ie",
      'jane@example',
      'jane@@example.com',
      'jane doe@example.com',
      '.jane@example.com',
      'jane..doe@example.com',
      'jane@-example.com',
      'jane@example.c',
      `${'a'.repeat(95)}@example.com`,
    ];
    for (const email of emails) {
      const server = reportSchema.safeParse({ msg: 'Broken', username: email }).success;
      expect(isValid(validateForm({ description: 'Broken', email })), email).toBe(server);
    }
  });
});

describe('upload checks before anything leaves the page', () => {
  it('refuses a 30 MB attachment and says what the limit is', () => {
    expect(refuseUpload('file', { name: 'export.mov', size: 30 * MB, type: 'video/quicktime' })).toEqual({
      key: 'fileTooLarge',
      vars: { name: 'export.mov', max: 25 },
    });
    expect(refuseUpload('file', { name: 'export.mov', size: 25 * MB, type: 'video/quicktime' })).toBeNull();
  });

  it('refuses types outside the allow-list, and empty files', () => {
    expect(refuseUpload('file', { name: 'page.html', size: 10, type: 'text/html' })?.key).toBe(
      'fileTypeNotAllowed',
    );
    expect(refuseUpload('file', { name: 'logo.svg', size: 10, type: 'image/svg+xml' })?.key).toBe(
      'fileTypeNotAllowed',
    );
    expect(refuseUpload('file', { name: 'mystery', size: 10, type: '' })?.key).toBe('fileTypeNotAllowed');
    expect(refuseUpload('file', { name: 'empty.txt', size: 0, type: 'text/plain' })?.key).toBe('fileEmpty');
  });

  it('applies each kind its own limit', () => {
    expect(refuseUpload('screenshot', { name: 's.png', size: 11 * MB, type: 'image/png' })?.vars.max).toBe(
      10,
    );
    expect(refuseUpload('video', { name: 'v', size: 99 * MB, type: 'video/webm' })).toBeNull();
    expect(refuseUpload('video', { name: 'v', size: 101 * MB, type: 'video/webm' })?.key).toBe(
      'fileTooLarge',
    );
    expect(refuseUpload('snapshot', { name: 'h', size: 6 * MB, type: 'text/html' })?.key).toBe(
      'fileTooLarge',
    );
  });

  it('names a type from the extension when the browser gives none', () => {
    expect(fileType({ name: 'data.CSV', type: '' })).toBe('text/csv');
    expect(fileType({ name: 'photo.jpeg', type: '' })).toBe('image/jpeg');
    expect(fileType({ name: 'photo.jpg', type: '' })).toBe('image/jpeg');
    expect(fileType({ name: 'report.pdf', type: 'Application/PDF' })).toBe('application/pdf');
    expect(fileType({ name: 'noext', type: '' })).toBe('');
  });
});

describe('server error codes to visitor messages', () => {
  const codes = [
    'NOT_FOUND',
    'FORBIDDEN_ORIGIN',
    'RATE_LIMITED',
    'PLAN_LIMIT',
    'FEATURE_DISABLED',
    'FILE_TOO_LARGE',
    'FILE_TYPE_NOT_ALLOWED',
    'INVALID_UPLOAD',
    'QUOTA_EXCEEDED',
    'INVALID_PARAMETERS',
    'NETWORK',
  ];

  it('has a message of its own for each code the intake API answers, in every language', () => {
    for (const code of codes) {
      expect(errorKey(code, en)).toBe(`err${code}`);
      for (const messages of Object.values(languages))
        expect(messages[errorKey(code, messages)]).toBeTruthy();
    }
  });

  it('falls back to the generic message for any other code', () => {
    expect(errorKey('SYSTEM_ERROR', en)).toBe('errGENERIC');
    expect(errorKey('constructor', en)).toBe('errGENERIC');
  });

  it('reads the code of a thrown value', () => {
    expect(codeOf(new SnagError('RATE_LIMITED'))).toBe('RATE_LIMITED');
    expect(codeOf(new TypeError('x'))).toBe('GENERIC');
  });
});

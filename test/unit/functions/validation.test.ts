/**
 * The one place a failed zod parse becomes words (contracts/validation.ts `expectedOf`): each refused field
 * names what it takes, in English and German, so "Invalid parameters" is never all a caller learns.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { dueDateRange, dueDateYears, isPlausibleDueDate, issuePatchSchema } from '#contracts/triage';
import { describeExpected, expectedOf } from '#contracts/validation';

const refusal = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a refusal');
  return parsed.error;
};

describe('expectedOf', () => {
  const schema = z.strictObject({
    priority: z.enum(['low', 'medium', 'high']).optional(),
    dueDate: z.iso.date().optional(),
    title: z.string().trim().min(1).max(200).optional(),
    count: z.number().int().min(1).max(100).optional(),
    tags: z.array(z.string()).max(3).optional(),
    email: z.email().optional(),
    id: z.uuid().optional(),
    code: z
      .string()
      .regex(/^[A-Z]{8}$/)
      .optional(),
    name: z.string(),
  });

  it('names each field and what it expects, in English', () => {
    const error = refusal(schema, {
      priority: 'urgent',
      dueDate: '31.12.2026',
      title: 'x'.repeat(201),
      count: 0,
      tags: ['a', 'b', 'c', 'd'],
      email: 'nope',
      id: 'nope',
      code: 'abc',
      extra: 1,
    });
    expect(expectedOf(error, 'en')).toEqual({
      priority: 'expected one of: low, medium, high',
      dueDate: 'expected a date (YYYY-MM-DD)',
      title: 'expected at most 200 characters',
      count: 'expected a number of at least 1',
      tags: 'expected at most 3 entries',
      email: 'expected an email address',
      id: 'expected an id (UUID)',
      code: 'expected text in the required format',
      name: 'required',
      _: 'no such field: extra',
    });
  });

  it('says the same in German', () => {
    const error = refusal(schema, { priority: 'urgent', count: 'many', name: '' });
    expect(expectedOf(error, 'de')).toEqual({
      priority: 'erwartet einen von: low, medium, high',
      count: 'erwartet: eine Zahl',
    });
  });

  it('uses a rule’s own catalogue message, and a refinement’s own words', () => {
    const rules = z.object({
      password: z.string().min(6, { error: 'USER_PASSWORD_LENGTH' }),
      due: z.string().refine((v) => v >= '2000-01-01', { error: 'a date between 2000-01-01 and 2100-12-31' }),
      other: z.string().refine(() => false),
      title: z.string().trim().min(1),
    });
    const error = refusal(rules, { password: 'abc', due: '1999-01-01', other: 'x', title: ' ' });
    expect(expectedOf(error, 'en')).toEqual({
      password: 'Password must be at least 6 characters',
      due: 'a date between 2000-01-01 and 2100-12-31',
      other: 'expected a valid value',
      title: 'required',
    });
    expect(expectedOf(error, 'de').password).toBe('Das Passwort muss mindestens 6 Zeichen lang sein');
  });

  it('falls back to "a valid value" for an issue it cannot put in words, never throwing', () => {
    const odd = new z.ZodError([
      { code: 'too_big', origin: 'date', maximum: Number.NaN, path: ['due'], message: 'Too big' },
    ]);
    expect(expectedOf(odd, 'en')).toEqual({ due: 'expected a valid value' });
  });

  it('reads as "field: expectation" pairs for the message, at most five, and echoes little of unknown keys', () => {
    expect(describeExpected({ priority: 'expected one of: low, high', _: 'no such field: x' })).toBe(
      'priority: expected one of: low, high; no such field: x',
    );
    const many = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, 'required']));
    expect(describeExpected(many).split('; ')).toHaveLength(5);
    const error = refusal(z.strictObject({}), { ['k'.repeat(500)]: 1 });
    expect(expectedOf(error, 'en')._).toBe(`no such field: ${'k'.repeat(40)}`);
  });

  it('names the due date range, from the constant the date field uses, in English and German', () => {
    const error = refusal(issuePatchSchema, { dueDate: '0202-12-15' });
    expect(describeExpected(expectedOf(error, 'en'))).toBe(
      'dueDate: expected a date from 2000-01-01 to 2100-12-31 (YYYY-MM-DD)',
    );
    expect(describeExpected(expectedOf(error, 'de'))).toBe(
      'dueDate: erwartet: ein Datum von 2000-01-01 bis 2100-12-31 (JJJJ-MM-TT)',
    );
    expect(dueDateRange).toEqual({ min: `${dueDateYears.min}-01-01`, max: `${dueDateYears.max}-12-31` });
    expect([dueDateRange.min, dueDateRange.max].map(isPlausibleDueDate)).toEqual([true, true]);
    expect(['1999-12-31', '2101-01-01'].map(isPlausibleDueDate)).toEqual([false, false]);
  });
});

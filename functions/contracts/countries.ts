/**
 * The country list with English and German labels (i18n-iso-countries) and each country's VAT rule
 * (SPEC.md sections 3 and 5), the VAT number check (jsvat), and the schema of
 * `POST client/profile/business_plan`, shared by the dashboard's form and the API.
 */
// The library without its node entry, which would register all ~80 languages: English and German only.
import countries from 'i18n-iso-countries/index';
import de from 'i18n-iso-countries/langs/de.json';
import en from 'i18n-iso-countries/langs/en.json';
import {
  austria,
  belgium,
  bulgaria,
  checkVAT,
  croatia,
  cyprus,
  czechRepublic,
  denmark,
  estonia,
  finland,
  france,
  germany,
  greece,
  hungary,
  ireland,
  italy,
  latvia,
  lithuania,
  luxembourg,
  malta,
  netherlands,
  poland,
  portugal,
  romania,
  slovakiaRepublic,
  slovenia,
  spain,
  sweden,
  unitedKingdom,
  type Country as VatCountry,
} from 'jsvat';
import * as z from 'zod';
import { paymentMethods } from './billing';
import type { ErrorCode } from './errors';
import { businessPeriodsMonths } from './plans';
import { teamIdParam } from './teams';

countries.registerLocale(en);
countries.registerLocale(de);

/** The VAT format per country code: the EU member states (required), the United Kingdom (optional). */
const vatCountries: Record<string, VatCountry> = {
  AT: austria,
  BE: belgium,
  BG: bulgaria,
  HR: croatia,
  CY: cyprus,
  CZ: czechRepublic,
  DK: denmark,
  EE: estonia,
  FI: finland,
  FR: france,
  DE: germany,
  GR: greece,
  HU: hungary,
  IE: ireland,
  IT: italy,
  LV: latvia,
  LT: lithuania,
  LU: luxembourg,
  MT: malta,
  NL: netherlands,
  PL: poland,
  PT: portugal,
  RO: romania,
  SK: slovakiaRepublic,
  SI: slovenia,
  ES: spain,
  SE: sweden,
  GB: unitedKingdom,
};
const vatOptional = new Set(['GB']);

export interface CountryItem {
  /** Two-letter ISO code. */
  value: string;
  label_en: string;
  label_de: string;
  isVatRequired?: true;
  isVatOptional?: true;
}

/** Every ISO country with its English and German names, sorted by the English one. */
export const countryList: CountryItem[] = Object.entries(countries.getNames('en', { select: 'official' }))
  .map(([code, name]) => {
    const item: CountryItem = {
      value: code,
      label_en: name,
      label_de: countries.getName(code, 'de') ?? name,
    };
    if (vatOptional.has(code)) item.isVatOptional = true;
    else if (vatCountries[code]) item.isVatRequired = true;
    return item;
  })
  .sort((a, b) => a.label_en.localeCompare(b.label_en, 'en'));

const byCode = new Map(countryList.map((c) => [c.value, c]));
export const findCountry = (code: string) => byCode.get(code.toUpperCase());

/** A VAT number without spaces, dots and dashes, upper case. */
export const normaliseVat = (vat: string) => vat.replace(/[\s.\-/]/g, '').toUpperCase();

/** Whether `vat` has the format (and check digits) of the country's numbers; the prefix may be left out. */
export function isValidVat(countryCode: string, vat: string): boolean {
  const code = countryCode.toUpperCase();
  const rules = vatCountries[code];
  if (!rules) return false;
  let value = normaliseVat(vat);
  if (!/^[A-Z]{2}/.test(value)) value = `${code === 'GR' ? 'EL' : code}${value}`;
  return checkVAT(value, [rules]).isValid;
}

/**
 * SPEC.md section 5: a country that requires VAT needs a valid number; where it is optional (the United
 * Kingdom) empty is accepted and anything else must be valid; elsewhere the number is not checked.
 * Returns the catalogue code of the failure, or undefined.
 */
export function vatProblem(countryCode: string, vat: string): ErrorCode | undefined {
  const country = findCountry(countryCode);
  if (!country) return 'INVALID_PARAMETERS';
  const empty = normaliseVat(vat) === '';
  if (country.isVatRequired) return !empty && isValidVat(country.value, vat) ? undefined : 'INVALID_VAT';
  if (country.isVatOptional) return empty || isValidVat(country.value, vat) ? undefined : 'INVALID_VAT';
  return undefined;
}

const required = (max: number) => z.string().trim().min(1).max(max);

/** The Business request form (multipart fields, so the period arrives as text). */
export const businessRequestSchema = z
  .object({
    company: required(100),
    period: z.coerce
      .number()
      .int()
      .refine((p) => (businessPeriodsMonths as readonly number[]).includes(p)),
    payment_method: z.enum(paymentMethods),
    country: required(100),
    country_code: z
      .string()
      .trim()
      .transform((c) => c.toUpperCase())
      .refine((c) => byCode.has(c)),
    vat: z.string().trim().max(30).default(''),
    comment: z.string().trim().max(1000).default(''),
    /** The team asking (issue 22, a form field); default the team in use. */
    teamId: teamIdParam.optional(),
  })
  .superRefine((v, ctx) => {
    const problem = vatProblem(v.country_code, v.vat);
    if (problem) ctx.addIssue({ code: 'custom', path: ['vat'], message: problem });
  });
export type BusinessRequestInput = z.infer<typeof businessRequestSchema>;

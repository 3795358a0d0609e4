/**
 * The one redaction rule set (docs/privacy.md): what the widget masks before a report leaves the page and
 * what the intake masks again before it stores one (issues/redact-report.ts), so that an old or modified
 * widget cannot bypass it. It covers the text the widget gathers on its own (console and network log lines,
 * the steps' labels, custom fields, the page address's query), never what the visitor writes (description,
 * title, email: they chose to send those).
 *
 * Each rule is named, finds a candidate with a regular expression and, where a shape alone says too little,
 * confirms it with a check (a card number's Luhn digit, an IBAN's mod-97, a JWT's JSON header): an order
 * number or a timestamp that merely looks like a card is kept. What replaces a match is `[redacted:<name>]`,
 * short and readable in a log line. docs/privacy.md lists the rules with their examples, and a unit test
 * keeps the two equal.
 *
 * Plain TypeScript for the widget's bundle: no zod, no Node APIs, ES2019 output (Safari before 16.4 has no
 * lookbehind, so a character before a match is captured and put back), and no regular expression whose
 * running time grows faster than the text (every repetition is bounded or cannot overlap its neighbour).
 */

export interface RedactionRule {
  /** Short, stable name. */
  name: string;
  /** What replaces a match: `[redacted:<name>]` (a quoted value keeps its quotes, so JSON stays JSON). */
  replacement: string;
  /**
   * Global pattern with exactly two groups: 1 what is kept before the secret (possibly empty), 2 the secret.
   */
  pattern: RegExp;
  /** Confirms a candidate (group 2); absent: the pattern is enough. */
  check?: (secret: string) => boolean;
  /** A personal value (an email address) rather than a credential: `redactText`'s `emails` decides. */
  email?: boolean;
  /**
   * A candidate that fails the check is tried again without its last group of digits (a card number
   * followed by its expiry `12/27`, a phone number by a time), the dropped part kept.
   */
  trim?: boolean;
  /** Not applied to a URL's path (numbers in paths are ids far more often than phone numbers). */
  notInPaths?: boolean;
}

export const placeholder = (name: string) => `[redacted:${name}]`;

/** Digits only. */
const digitsOf = (s: string) => s.replace(/\D/g, '');

/** The Luhn check digit holds (ISO/IEC 7812). */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** IBAN lengths by country (ISO 13616 registry); an unknown country is no IBAN. */
const ibanLengths: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

/** The IBAN's length fits its country and its check digits hold (ISO 13616 mod 97-10). */
export function ibanValid(text: string): boolean {
  const iban = text.replace(/[ -]/g, '').toUpperCase();
  if (ibanLengths[iban.slice(0, 2)] !== iban.length) return false;
  let rest = 0;
  for (const c of iban.slice(4) + iban.slice(0, 4)) {
    const v = c >= 'A' ? String(c.charCodeAt(0) - 55) : c;
    for (const d of v) rest = (rest * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return rest === 1;
}

/** base64url (or base64) to text; null when it is not. */
function fromBase64Url(part: string): string | null {
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    return atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  } catch {
    return null;
  }
}

/** A JWT's (or JWE's) first part is a JSON object naming its algorithm or type. */
function jwtHeader(token: string): boolean {
  const text = fromBase64Url(token.slice(0, token.indexOf('.')));
  if (text?.charAt(0) !== '{') return false;
  try {
    const header = JSON.parse(text) as Record<string, unknown>;
    return typeof header === 'object' && !!header && ('alg' in header || 'typ' in header || 'enc' in header);
  } catch {
    return false;
  }
}

/** File extensions that follow `@2x` in asset names (`logo@2x.png`): no top-level domain of an address. */
const fileExtension =
  /^(?:png|jpe?g|gif|svg|webp|avif|ico|bmp|js|mjs|cjs|css|map|json|html?|xml|txt|woff2?|ttf|otf|eot|mp[34]|webm|pdf|zip|gz|ts|tsx|jsx|vue|scss)$/i;

/**
 * A phone number's digits: international `+…` 8 to 15 (E.164), `00…` the same after the 00, national `0…`
 * 9 to 12 (a date such as `01-12-2026` has 8), North American 10 (11 with the leading 1); not one digit
 * repeated.
 */
function phoneDigits(s: string): boolean {
  const d = digitsOf(s);
  if (/^(\d)\1+$/.test(d)) return false;
  if (s.charAt(0) === '+') return d.length >= 8 && d.length <= 15;
  if (s.slice(0, 2) === '00') return d.length >= 10 && d.length <= 17;
  if (/^\(?0/.test(s)) return d.length >= 9 && d.length <= 12;
  return d.length === 10 || (d.length === 11 && d.charAt(0) === '1');
}

/** Characters that may not stand right before a number (a word, a decimal, a version, a sign, an id). */
const NUM_BEFORE = '(^|[^\\w.,+@-])';
/** …nor right after it (a word, a decimal, a time's minutes). */
const NUM_AFTER = '(?![\\w@]|[.,:]\\d)';

/**
 * Query parameter and key names whose value is a secret (`?token=…`, `password: …`, `"apiKey":"…"`):
 * the short names of the list below exactly, and any name ending in password, secret, token, signature,
 * credential or a separated `key` (`db_password`, `csrfToken`, `STRIPE_SECRET_KEY`, `X-Amz-Signature`;
 * not `monkey`).
 */
const SECRET_NAME =
  '(?:[\\w.-]{0,40}?(?:password|passwd|passphrase|secret|token|api[_-]?key|[_.-]key|session[_-]?id|credentials?|signature)|pwd|pass|key|auth|authorization|session|sig|sid|otp|pin|cvc|cvv)';
const secretNameExact = new RegExp(`^${SECRET_NAME}$`, 'i');

/** Whether a query parameter's (or key's) name says its value is a secret. */
export const isSecretName = (name: string) => secretNameExact.test(name.replace(/\[\]$/, ''));

type RuleSpec = Omit<RedactionRule, 'replacement'>;

/**
 * The rules, in the order they run: credentials first (a token inside an address or a key-value pair is
 * masked whole, with its own name), then the personal values.
 */
const specs: RuleSpec[] = [
  {
    name: 'private-key',
    pattern:
      /()(-----BEGIN [A-Z ]{0,20}PRIVATE KEY-----[\s\S]{0,8000}?(?:-----END [A-Z ]{0,20}PRIVATE KEY-----|$))/g,
  },
  {
    name: 'bearer',
    pattern: /(\bbearer\s{1,5})([\w~+/.-]{8,4096}=*)/gi,
    check: (s) => /[\d~+/._=-]/.test(s),
  },
  {
    name: 'jwt',
    pattern: /(^|[^\w-])([\w-]{10,2048}\.[\w-]{2,8192}\.[\w-]{0,2048}(?:\.[\w-]{0,8192}){0,2})(?![\w-])/g,
    check: jwtHeader,
  },
  {
    name: 'stripe-key',
    pattern: /(^|[^\w])((?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,247}|whsec_[A-Za-z0-9]{24,247})(?!\w)/g,
  },
  {
    name: 'github-token',
    pattern: /(^|[^\w])((?:gh[pousr]_[A-Za-z0-9]{20,251}|github_pat_\w{22,244}))(?!\w)/g,
  },
  { name: 'gitlab-token', pattern: /(^|[^\w-])(glpat-[\w-]{20,64})(?![\w-])/g },
  { name: 'slack-token', pattern: /(^|[^\w-])(xox[abprs]-[A-Za-z0-9-]{10,250})(?![\w-])/g },
  { name: 'aws-key-id', pattern: /(^|[^\w])((?:AKIA|ASIA)[A-Z0-9]{16})(?!\w)/g },
  { name: 'google-key', pattern: /(^|[^\w-])(AIza[\w-]{35})(?![\w-])/g },
  { name: 'npm-token', pattern: /(^|[^\w])(npm_[A-Za-z0-9]{36})(?!\w)/g },
  {
    name: 'url-password',
    pattern: /(\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s/:@]{1,200}:)([^\s/@]{1,200})(?=@)/gi,
  },
  {
    name: 'secret',
    pattern: new RegExp(
      `((?:^|[^\\w-])["']?${SECRET_NAME}["']?\\s{0,3}[:=]\\s{0,3})((?!\\[redacted|(?:Basic|Bearer|Digest|Token|Bot)\\s{1,3}\\[redacted)(?:"[^"\\n]{1,500}"|'[^'\\n]{1,500}'|(?:(?:Basic|Bearer|Digest|Token|Bot)\\s{1,3})?[^\\s"'&,;<>)}\\]]{1,2000}))`,
      'gi',
    ),
    notInPaths: true,
  },
  {
    name: 'email',
    pattern: /()([\w.+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24})(?![\w-])/g,
    check: (s) => !fileExtension.test(s.slice(s.lastIndexOf('.') + 1)),
    email: true,
  },
  {
    name: 'iban',
    pattern: /(^|[^\w])([A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?)(?!\w)/g,
    check: ibanValid,
  },
  {
    name: 'card',
    pattern: new RegExp(`${NUM_BEFORE}([2-6]\\d{3}(?:[ -]?\\d){9,15})${NUM_AFTER}`, 'g'),
    check: (s) => {
      const d = digitsOf(s);
      return d.length >= 13 && luhn(d);
    },
    trim: true,
  },
  {
    name: 'phone',
    pattern: new RegExp(
      `${NUM_BEFORE}(\\+[1-9](?:[ .()-]{0,2}\\d){6,14}|00[1-9](?:[ .()-]{0,2}\\d){7,14}|\\(?0[1-9]\\d{0,4}\\)?(?:[ /-]?\\d){4,12}|(?:1[ .-])?\\(?[2-9]\\d{2}\\)?[ .-]\\d{3}[ .-]\\d{4})${NUM_AFTER}`,
      'g',
    ),
    check: phoneDigits,
    trim: true,
    notInPaths: true,
  },
];

export const redactionRules: readonly RedactionRule[] = specs.map((r) => ({
  ...r,
  replacement: placeholder(r.name),
}));

/**
 * What each rule matches and one line holding such a secret, for docs/privacy.md, whose table a unit test
 * builds from these and the rules themselves. Kept apart from the rules so that the widget's bundle,
 * which never reads them, leaves them out.
 */
export const redactionDocs: Record<string, { matches: string; example: string }> = {
  'private-key': {
    matches: 'A PEM private key block, `-----BEGIN … PRIVATE KEY-----` to its end line',
    example:
      'key -----BEGIN PRIVATE KEY-----MIIEvQIBADANBgkqhkiG9w0BAQEFAASC-----END PRIVATE KEY----- loaded',
  },
  bearer: {
    matches: 'The credential after `Bearer` (8 characters or more, with a digit or punctuation)',
    example: 'Authorization: Bearer 2YotnFZFEjr1zCsicMWpAA failed',
  },
  jwt: {
    matches: 'A JSON Web Token: three to five base64url parts, the first decoding to a JSON header',
    example:
      'GET /api/me failed, token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiJ9.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk4',
  },
  'stripe-key': {
    matches:
      'Stripe secret, publishable and restricted keys (`sk_`, `pk_`, `rk_`, live or test) and webhook secrets (`whsec_`)',
    example: 'Stripe init with sk_live_51HxYz2eZvKYlo2C0abcdEFGH',
  },
  'github-token': {
    matches: 'GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`)',
    example: 'clone with ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 denied',
  },
  'gitlab-token': {
    matches: 'GitLab personal, project and group access tokens (`glpat-`)',
    example: 'PRIVATE-TOKEN glpat-xK3mN8pQ2rS5tV7wY9zA expired',
  },
  'slack-token': {
    matches: 'Slack tokens (`xoxa-`, `xoxb-`, `xoxp-`, `xoxr-`, `xoxs-`)',
    example: 'post as xoxb-2048-1024-Fh7kQ9wZ2LmN4pR6 failed',
  },
  'aws-key-id': {
    matches: 'AWS access key ids (`AKIA` long-term, `ASIA` temporary; 20 characters)',
    example: 'signing with AKIAIOSFODNN7EXAMPLE',
  },
  'google-key': {
    matches: 'Google API keys (`AIza` and 35 characters)',
    example: 'maps key AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW refused',
  },
  'npm-token': {
    matches: 'npm access tokens (`npm_` and 36 characters)',
    example: 'registry auth npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 rejected',
  },
  'url-password': {
    matches: 'The password in an address’s user part (`https://user:password@host`)',
    example: 'connect https://admin:hunter22@db.example.com/ failed',
  },
  secret: {
    matches:
      'The value after a secret’s name and `=` or `:` (password, token, secret, key, auth, session, sig, pin, cvc, … and names ending in them), quoted or not',
    example: 'login failed: {"user":"jane","password":"Tr0ub4dor&3"}',
  },
  email: {
    matches: 'Email addresses (not asset names such as `logo@2x.png`)',
    example: 'mail to jane.doe+shop@example.co.uk bounced',
  },
  iban: {
    matches: 'IBANs whose country, length and mod-97 check digits hold, grouped or not',
    example: 'refund to DE89 3704 0044 0532 0130 00 pending',
  },
  card: {
    matches:
      'Card numbers: 13 to 19 digits (spaces or dashes between), first digit 2–6, passing the Luhn check',
    example: 'payment declined for 4242 4242 4242 4242',
  },
  phone: {
    matches:
      'Phone numbers: international (`+49 …`, `0049 …`), national with a leading 0 (`030 1234567`, `0170-1234567`), North American with separators (`(555) 123-4567`)',
    example: 'SMS to +49 170 1234567 not delivered',
  },
};

/** The placeholder for `secret`; a quoted value keeps its quotes (`"[redacted:secret]"`), so JSON stays JSON. */
const masked = (replacement: string, secret: string) =>
  /^["']/.test(secret) ? `${secret[0]}${replacement}${secret[0]}` : replacement;

/** The last group of digits (and what separates it) of a number. */
const lastGroup = /[ ./()-]*\d+\)?$/;

function apply(text: string, rules: readonly RedactionRule[]): string {
  let out = text;
  for (const rule of rules) {
    out = out.replace(rule.pattern, (match, kept: string, secret: string) => {
      let s = secret;
      for (;;) {
        if (!rule.check || rule.check(s)) return kept + masked(rule.replacement, s) + secret.slice(s.length);
        const shorter = rule.trim ? s.replace(lastGroup, '') : s;
        if (shorter === s || !shorter) return match;
        s = shorter;
      }
    });
  }
  return out;
}

/** Splits a text around its http(s) addresses: the odd items are the addresses. */
const urlsInText = /(\bhttps?:\/\/[^\s"'<>`]{1,4000})/i;

export interface RedactOptions {
  /** Mask email addresses too (log lines and steps: yes; custom fields: the customer chose to send them). */
  emails: boolean;
}

/**
 * `text` with every rule's matches replaced by `[redacted:<name>]` (emails only with `emails`); addresses
 * in it are redacted as addresses (`redactUrl`): their secret query parameters masked whatever the value.
 */
export function redactText(text: string, { emails }: RedactOptions): string {
  const rules = emails ? redactionRules : textRulesWithoutEmails;
  return text
    .split(urlsInText)
    .map((part, i) => (i % 2 ? redactUrl(part, { emails }) : apply(part, rules)))
    .join('');
}

const textRulesWithoutEmails = redactionRules.filter((r) => !r.email);
const pathRules = redactionRules.filter((r) => !r.notInPaths);
const pathRulesWithoutEmails = pathRules.filter((r) => !r.email);

function decode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** A redacted value back into a query: encoded where it must be, placeholders left readable. */
const encode = (value: string) =>
  encodeURIComponent(value)
    .replace(/%5B/g, '[')
    .replace(/%5D/g, ']')
    .replace(/%3A/g, ':')
    .replace(/%40/g, '@');

/** One `name=value&…` list (a query or a fragment's parameters). */
function redactParams(params: string, emails: boolean): string {
  return params.replace(
    /(^|[&;])([^=&;#]*)=([^&;#]*)/g,
    (match, sep: string, name: string, value: string) => {
      if (!value) return match;
      if (isSecretName(decode(name))) return `${sep}${name}=${placeholder('param')}`;
      const plain = decode(value);
      const redacted = redactText(plain, { emails });
      return redacted === plain ? match : `${sep}${name}=${encode(redacted)}`;
    },
  );
}

/**
 * An address with the values of secret query (and fragment) parameters masked as `[redacted:param]`
 * (password, token, secret, key, auth, session, sig, … as `isSecretName`), the other values redacted as
 * text (an email address in `?email=`), and tokens, keys, cards and addresses in the path masked. Anything
 * not matched is kept byte for byte.
 */
export function redactUrl(url: string, { emails = true }: Partial<RedactOptions> = {}): string {
  const q = url.search(/[?#]/);
  const path = q < 0 ? url : url.slice(0, q);
  const rest = q < 0 ? '' : url.slice(q);
  const rules = emails ? pathRules : pathRulesWithoutEmails;
  const cleanPath = apply(path, rules);
  if (!rest) return cleanPath;
  // `?query#fragment`: both may carry parameters (OAuth's implicit flow puts access_token in the fragment).
  const hash = rest.indexOf('#');
  const query = hash < 0 ? rest : rest.slice(0, hash);
  const fragment = hash < 0 ? '' : rest.slice(hash);
  const cleanQuery = query ? `?${redactParams(query.slice(1), emails)}` : '';
  let cleanFragment = fragment;
  if (fragment) {
    // A route (`#/orders/1?tab=2`) keeps its path; its parameters, or the fragment's own, are redacted.
    const inner = fragment.indexOf('?');
    cleanFragment =
      inner >= 0
        ? `${apply(fragment.slice(0, inner), rules)}?${redactParams(fragment.slice(inner + 1), emails)}`
        : fragment.includes('=')
          ? `#${redactParams(fragment.slice(1), emails)}`
          : apply(fragment, rules);
  }
  return cleanPath + cleanQuery + cleanFragment;
}

/**
 * The form fields whose value a session replay records as `*` of its length (rrweb's `maskInputOptions`,
 * widget/src/activity/replay-options.ts), and which the intake holds a recording to
 * (issues/redact-report.ts `replayLeaks`): rrweb's own `maskAllInputs` list plus `hidden`, whose value is
 * what the page keeps for itself (a CSRF token, an internal id). rrweb looks a field's type up by name, so
 * `hidden` works though rrweb's type does not declare it (test/unit/privacy/replay-leaks.test.ts records
 * one). An input of another type (a button's label, a checkbox's state, a file's fake path) is recorded
 * as it is; an input of an unknown type is a text input to the browser, and masked.
 */
export const replayMaskedInputs = {
  color: true,
  date: true,
  'datetime-local': true,
  email: true,
  month: true,
  number: true,
  range: true,
  search: true,
  tel: true,
  text: true,
  time: true,
  url: true,
  week: true,
  textarea: true,
  select: true,
  password: true,
  hidden: true,
} as const;

/** Input types a replay records unmasked (replayMaskedInputs). */
export const replayUnmaskedInputTypes: readonly string[] = [
  'radio',
  'checkbox',
  'submit',
  'button',
  'reset',
  'image',
  'file',
];

/**
 * The redaction corpus (docs/privacy.md "Corpus"): secrets and personal values as they turn up in console
 * messages, failed requests, step labels and page addresses, each with the part that must not survive,
 * and look-alikes that must (order numbers, timestamps, UUIDs, versions, asset hashes, prices, product
 * codes, dates). Card numbers, IBANs, JWTs, keys and ids are generated from a fixed seed, so the corpus is
 * the same on every run; the rest is written by hand.
 */

export interface CorpusSecret {
  /** Which rule should catch it (for the failure message; any rule may). */
  kind: string;
  /** The text as a page would log it. */
  text: string;
  /** The sensitive part: absent after redaction (for numbers also without their spaces and dashes). */
  secret: string;
  /** A page address (redactUrl) rather than a log line (redactText). */
  url?: boolean;
}

/** mulberry32: a small seeded generator, enough for test data. */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(35);
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
const chars = (alphabet: string, n: number) => Array.from({ length: n }, () => pick([...alphabet])).join('');
const DIGITS = '0123456789';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';

/** `prefix` completed with random digits and a Luhn check digit to `length`. */
function luhnNumber(prefix: string, length: number): string {
  let body = prefix + chars(DIGITS, length - prefix.length - 1);
  for (let check = 0; check < 10; check++) {
    const candidate = body + check;
    let sum = 0;
    for (let i = 0; i < candidate.length; i++) {
      let d = Number(candidate[candidate.length - 1 - i]);
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    if (sum % 10 === 0) return candidate;
  }
  body = '';
  return body;
}

/** Groups of four (Amex 4-6-5) joined by `sep`. */
function grouped(digits: string, sep: string): string {
  if (!sep) return digits;
  const groups = digits.length === 15 ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const out: string[] = [];
  let at = 0;
  for (const g of groups) {
    if (at >= digits.length) break;
    out.push(digits.slice(at, at + g));
    at += g;
  }
  if (at < digits.length) out.push(digits.slice(at));
  return out.join(sep);
}

/** An IBAN of `country` with its BBAN built from `shape` (n digit, a letter, c alphanumeric). */
function iban(country: string, shape: string): string {
  const bban = [...shape]
    .map((c) =>
      c === 'n'
        ? chars(DIGITS, 1)
        : c === 'a'
          ? chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 1)
          : chars(UPPER_ALNUM, 1),
    )
    .join('');
  const numeric = [...`${bban}${country}00`]
    .map((c) => (c >= 'A' ? String(c.charCodeAt(0) - 55) : c))
    .join('');
  let rest = 0;
  for (const d of numeric) rest = (rest * 10 + Number(d)) % 97;
  return `${country}${String(98 - rest).padStart(2, '0')}${bban}`;
}

const b64url = (text: string) => Buffer.from(text).toString('base64url');

function jwt(): string {
  const header = pick([
    { alg: 'HS256', typ: 'JWT' },
    { alg: 'RS256', kid: chars(HEX, 8) },
    { typ: 'JWT', alg: 'ES256' },
    { alg: 'HS512' },
  ]);
  const payload = {
    sub: `user-${int(100000)}`,
    exp: 1_764_000_000 + int(1_000_000),
    ...(random() < 0.5 ? { email: `u${int(999)}@example.com`, role: pick(['admin', 'member']) } : {}),
  };
  return `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}.${chars(`${ALNUM}-_`, 43)}`;
}

const logLine = (value: string) =>
  pick([
    `Error: request failed for ${value}`,
    `[checkout] ${value} rejected by the gateway`,
    `Uncaught TypeError: cannot read "x" of undefined (${value})`,
    `{"level":"error","value":"${value}","at":"2026-11-29T07:23:09Z"}`,
    `warn: retrying with ${value}, attempt 2/3`,
    `POST /api/pay failed: ${value} (status 402)`,
  ]);

const secrets: CorpusSecret[] = [];
const add = (kind: string, secret: string, text = logLine(secret), url = false) =>
  secrets.push({ kind, text, secret, ...(url ? { url } : {}) });

// Card numbers: the networks' prefixes and lengths, plain, spaced and dashed.
const cardShapes: [string, number][] = [
  ['4', 16],
  ['4', 16],
  ['4', 13],
  ['51', 16],
  ['55', 16],
  ['2221', 16],
  ['2720', 16],
  ['34', 15],
  ['37', 15],
  ['6011', 16],
  ['65', 16],
  ['3528', 16],
  ['36', 14],
  ['62', 19],
  ['4', 19],
];
for (let i = 0; i < 45; i++) {
  const [prefix, length] = cardShapes[i % cardShapes.length]!;
  const number = grouped(luhnNumber(prefix, length), pick(['', ' ', '-']));
  add('card', number, i % 5 === 4 ? `card ${number} exp 12/27 declined` : undefined);
}

// IBANs of several countries, plain and in print groups.
const ibanShapes: [string, string][] = [
  ['DE', 'nnnnnnnnnnnnnnnnnn'],
  ['GB', 'aaaannnnnnnnnnnnnn'],
  ['FR', 'nnnnnnnnnnccccccccccc' + 'nn'],
  ['NL', 'aaaannnnnnnnnn'],
  ['ES', 'nnnnnnnnnnnnnnnnnnnn'],
  ['IT', 'annnnnnnnnncccccccccccc'],
  ['AT', 'nnnnnnnnnnnnnnnn'],
  ['CH', 'nnnnncccccccccccc'],
  ['BE', 'nnnnnnnnnnnn'],
  ['PL', 'nnnnnnnnnnnnnnnnnnnnnnnn'],
];
for (let i = 0; i < 30; i++) {
  const [country, shape] = ibanShapes[i % ibanShapes.length]!;
  const plain = iban(country, shape);
  const printed = i % 2 ? plain.replace(/(.{4})(?!$)/g, '$1 ') : plain;
  add('iban', printed, i % 3 === 0 ? `Refund to ${printed} queued` : undefined);
}

// JWTs: bare, as a bearer credential, in a query, in JSON and in a path.
for (let i = 0; i < 25; i++) {
  const token = jwt();
  const text = [
    `Authorization: Bearer ${token}`,
    `GET https://api.example.com/v1/me?id_token=${token} 401`,
    `{"accessToken":"${token}","expiresIn":3600}`,
    `session expired: ${token}`,
    `GET /auth/callback/${token} 500`,
  ][i % 5]!;
  add('jwt', token, text);
}

// Keys of well-known shapes.
for (let i = 0; i < 10; i++)
  add('stripe-key', `${pick(['sk', 'pk', 'rk'])}_${pick(['live', 'test'])}_${chars(ALNUM, 24 + int(75))}`);
for (let i = 0; i < 10; i++)
  add(
    'github-token',
    i % 4 === 3
      ? `github_pat_${chars(ALNUM, 22)}_${chars(ALNUM, 59)}`
      : `gh${pick([...'pousr'])}_${chars(ALNUM, 36)}`,
  );
for (let i = 0; i < 6; i++) add('gitlab-token', `glpat-${chars(`${ALNUM}_-`, 20)}`);
for (let i = 0; i < 6; i++)
  add(
    'slack-token',
    `xox${pick([...'abprs'])}-${chars(DIGITS, 11)}-${chars(DIGITS, 12)}-${chars(ALNUM, 24)}`,
  );
for (let i = 0; i < 8; i++) add('aws-key-id', `${pick(['AKIA', 'ASIA'])}${chars(UPPER_ALNUM, 16)}`);
for (let i = 0; i < 6; i++) add('google-key', `AIza${chars(`${ALNUM}_-`, 35)}`);
for (let i = 0; i < 6; i++) add('npm-token', `npm_${chars(ALNUM, 36)}`);

// Email addresses (hand-written names, generated hosts).
const people = [
  'jane.doe',
  'j.smith',
  'max.mustermann',
  'anna-lena',
  'o.brien',
  'chloé.martin',
  'li.wei',
  'tom+shop',
  'k_nakamura',
  'sales',
  'ahmed.ali',
  'ines.garcia',
  'p.novak',
];
const hosts = [
  'example.com',
  'mail.example.co.uk',
  'firma.de',
  'example.org',
  'shop.example.fr',
  'uni-example.ac.at',
];
for (let i = 0; i < 26; i++) {
  const address = `${people[i % people.length]!.replace('é', 'e')}${i > 12 ? i : ''}@${pick(hosts)}`;
  add(
    'email',
    address,
    [
      `No account for ${address}`,
      `{"email":"${address}","plan":"pro"}`,
      `Newsletter signup failed: ${address} already subscribed`,
      logLine(address),
    ][i % 4],
  );
}

// Phone numbers: international, national and North American formats.
const phones = [
  '+49 170 1234567',
  '+49 (0)30 12345678',
  '+491701234567',
  '0049 89 123456789',
  '0170 1234567',
  '0170-1234567',
  '030 12345678',
  '(030) 1234567',
  '089/12345678',
  '+44 20 7946 0958',
  '+44 7700 900123',
  '07700 900123',
  '020 7946 0958',
  '+33 6 12 34 56 78',
  '06 12 34 56 78',
  '+33612345678',
  '(555) 123-4567',
  '555-123-4567',
  '555.123.4567',
  '1-800-555-0199',
  '+1 415 555 2671',
  '+1-212-555-0147',
  '+41 44 668 18 00',
  '+43 1 234 5678',
  '+31 6 12345678',
  '+34 612 34 56 78',
  '+39 06 6982 1234',
  '+48 22 123 45 67',
  '+81 3-1234-5678',
  '+61 2 9876 5432',
];
for (const [i, phone] of phones.entries())
  add(
    'phone',
    phone,
    [
      `SMS to ${phone} not delivered`,
      `{"phone":"${phone}","verified":false}`,
      `Callback requested: ${phone}.`,
    ][i % 3],
  );

// Secrets named by their key, in JSON, query strings, headers and config dumps (written by hand).
const named: [string, string][] = [
  ['login failed: {"user":"jane","password":"Tr0ub4dor&3"}', 'Tr0ub4dor&3'],
  ['POST /login?username=jane&password=hunter22 401', 'hunter22'],
  ['config: {db_password: "s3cr3t-pa55", host: "db"}', 's3cr3t-pa55'],
  ['Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA=='],
  ['x-api-key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0', '9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
  ['{"client_secret":"Qw8-zX2_vB7nM4kL1pO9"}', 'Qw8-zX2_vB7nM4kL1pO9'],
  ['refresh_token=def50200a1b2c3d4e5f6 rejected', 'def50200a1b2c3d4e5f6'],
  ['csrfToken: "k9Jm2Xq7Lp4R"', 'k9Jm2Xq7Lp4R'],
  ["apiKey='live-8fj3k2l1m0n9'", 'live-8fj3k2l1m0n9'],
  ['GET /download?file=report.pdf&sig=ab12cd34ef56 403', 'ab12cd34ef56'],
  ['set-cookie failed: session=8b1f0c2e9d7a; Path=/', '8b1f0c2e9d7a'],
  ['{"otp":"482913","status":"invalid"}', '482913'],
  ['pin=7391 rejected', '7391'],
  ['{"cvc":"737","brand":"visa"}', '737'],
  ['STRIPE_SECRET_KEY=whsec_5f8a1b2c3d4e', 'whsec_5f8a1b2c3d4e'],
  [
    'private_key: "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"',
    'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
  ],
  ['auth=Zm9vOmJhcg rejected by proxy', 'Zm9vOmJhcg'],
  ['sessionId: 3f1c9a7e-2b4d-4e8f-9a6b-1c2d3e4f5a6b expired', '3f1c9a7e-2b4d-4e8f-9a6b-1c2d3e4f5a6b'],
  ['passphrase = correct horse', 'correct'],
  ['"access_token": "ya29.a0AfH6SMBx3kQ"', 'ya29.a0AfH6SMBx3kQ'],
  ['connect https://admin:hunter22@db.example.com/app failed', 'hunter22'],
  ['amqp://worker:Xk9pL2mQ@queue.internal:5672 refused', 'Xk9pL2mQ'],
  [
    'key -----BEGIN RSA PRIVATE KEY-----MIIEpAIBAAKCAQEA7bq98-----END RSA PRIVATE KEY----- loaded',
    'MIIEpAIBAAKCAQEA7bq98',
  ],
  ['Authorization: Bearer 2YotnFZFEjr1zCsicMWpAA', '2YotnFZFEjr1zCsicMWpAA'],
  ['curl -H "Authorization: bearer mF_9.B5f-4.1JqM" failed', 'mF_9.B5f-4.1JqM'],
];
for (const [text, secret] of named) add('secret', secret, text);

// Page addresses with secrets in the query, fragment or path.
const addresses: [string, string][] = [
  ['https://shop.example.com/reset?token=9f8e7d6c5b4a&step=2', '9f8e7d6c5b4a'],
  ['https://app.example.com/callback#access_token=ya29.A0ARrdaM&token_type=Bearer', 'ya29.A0ARrdaM'],
  ['https://example.com/login?redirect=%2Fhome&password=Summer2026!', 'Summer2026!'],
  [
    'https://files.example.com/a.pdf?X-Amz-Signature=5d41402abc4b2a76b9719d911017c592&X-Amz-Expires=300',
    '5d41402abc4b2a76b9719d911017c592',
  ],
  ['https://api.example.com/v1/data?api_key=AbC123xYz789&format=json', 'AbC123xYz789'],
  ['https://example.com/verify?email=jane.doe%40example.com&code=1234', 'jane.doe%40example.com'],
  ['https://example.com/unsubscribe?e=jane@example.com', 'jane@example.com'],
  [
    'https://maps.example.com/embed?key=AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY',
    'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY',
  ],
  ['https://example.com/s?q=shoes&session=0c1d2e3f4a5b&page=2', '0c1d2e3f4a5b'],
  ['https://example.com/pay?auth=tok_1MqX2b&amount=4200', 'tok_1MqX2b'],
  ['https://example.com/oauth?client_id=app&client_secret=Gx7-kQ2_mP9&grant_type=code', 'Gx7-kQ2_mP9'],
  [
    'https://example.com/invite/ghp_0123456789abcdefghijABCDEFGHIJ012345',
    'ghp_0123456789abcdefghijABCDEFGHIJ012345',
  ],
  ['https://example.com/users/jane.doe@example.com/orders', 'jane.doe@example.com'],
  ['https://example.com/p?Token=ABCDEF123456&lang=de', 'ABCDEF123456'],
  [
    'https://example.com/dl?sig=3a7bd3e2360a3d29eea436fcfb7e44c735d117c4&exp=1764412345',
    '3a7bd3e2360a3d29eea436fcfb7e44c735d117c4',
  ],
];
for (const [url, secret] of addresses) add('url', secret, url, true);

/** Values that look like numbers, keys or addresses and must be kept as they are. */
const lookAlikes: string[] = [];
const keep = (value: string) => lookAlikes.push(value);

const uuid = () =>
  `${chars(HEX, 8)}-${chars(HEX, 4)}-4${chars(HEX, 3)}-${pick([...'89ab'])}${chars(HEX, 3)}-${chars(HEX, 12)}`;
for (let i = 0; i < 20; i++)
  keep(
    pick([`GET /api/orders/${uuid()} 404`, `request-id ${uuid()}`, `{"id":"${uuid()}","status":"failed"}`]),
  );

// Order, invoice and ticket numbers.
for (let i = 0; i < 25; i++) {
  const n = pick([
    `${1 + int(9)}${chars(DIGITS, 7)}`,
    `ORD-2026-${chars(DIGITS, 6)}`,
    `#${chars(DIGITS, 6)}`,
    `INV/${2020 + int(7)}/${chars(DIGITS, 5)}`,
    `${1 + int(9)}${chars(DIGITS, 9)}`,
    `A${chars(DIGITS, 10)}`,
  ]);
  keep(pick([`Order ${n} failed to sync`, `invoice ${n} not found`, `{"orderId":"${n}","total":129.9}`]));
}

// Timestamps and dates.
for (let i = 0; i < 25; i++) {
  const y = 2020 + int(7);
  const mo = String(1 + int(12)).padStart(2, '0');
  const d = String(1 + int(28)).padStart(2, '0');
  const t = `${String(int(24)).padStart(2, '0')}:${String(int(60)).padStart(2, '0')}:${String(int(60)).padStart(2, '0')}`;
  keep(
    pick([
      `at ${y}-${mo}-${d}T${t}.${chars(DIGITS, 3)}Z`,
      `${y}-${mo}-${d} ${t} timeout`,
      `due ${d}.${mo}.${y}`,
      `${mo}/${d}/${y} ${t.slice(0, 5)}`,
      `${d}-${mo}-${y} ${t.slice(0, 5)}`,
      `ts=${1_600_000_000_000 + int(200_000_000_000)}`,
      `expires ${1_600_000_000 + int(200_000_000)}`,
      `Date.now() = ${1_700_000_000_000 + int(99_999_999_999)}`,
    ]),
  );
}

// Versions.
for (let i = 0; i < 20; i++)
  keep(
    pick([
      `v${int(20)}.${int(40)}.${int(300)}`,
      `react@${int(20)}.${int(10)}.${int(10)}`,
      `Chrome/${100 + int(40)}.0.${int(9999)}.${int(200)}`,
      `@scope/pkg@${int(5)}.${int(20)}.${int(9)}-beta.${int(20)}`,
      `build 2026.11.${int(30)}-${int(999)}`,
      `iOS ${10 + int(8)}.${int(7)}.${int(3)}`,
    ]),
  );

// Asset addresses with content hashes.
for (let i = 0; i < 20; i++)
  keep(
    pick([
      `GET https://cdn.example.com/assets/index-${chars(`${ALNUM}_-`, 8)}.js 404`,
      `Failed to load https://example.com/static/js/main.${chars(HEX, 8)}.chunk.js`,
      `https://cdn.example.com/_next/static/chunks/${int(999)}-${chars(HEX, 16)}.js`,
      `GET /build/app.${chars(HEX, 20)}.css 404`,
      `https://example.com/img/logo@2x.png?v=${chars(HEX, 7)}`,
      `https://cdn.example.com/gh/${chars(HEX, 40)}/dist/lib.min.js`,
    ]),
  );

// Prices and amounts.
for (let i = 0; i < 15; i++)
  keep(
    pick([
      `total €${int(9999)},${chars(DIGITS, 2)}`,
      `price $${int(9)},${chars(DIGITS, 3)}.${chars(DIGITS, 2)}`,
      `amount 1.${chars(DIGITS, 3)}.${chars(DIGITS, 3)},00 EUR`,
      `{"amount":${int(999999)},"currency":"usd"}`,
      `CHF ${int(99999)}.${chars(DIGITS, 2)}`,
    ]),
  );

// Hand-written: product codes and other numbers that look like phones or cards, hashes, addresses.
for (const text of [
  'SKU 4711-0815-42 out of stock',
  'part 12-345-6789 discontinued',
  'Art.-Nr. 100-2003-44',
  'model KX-TG2511 not supported',
  'ref 2026/11/0042',
  'ISBN 978-3-16-148410-0',
  'EAN 4006381333931',
  'GTIN 00012345600012',
  'ticket SUP-104233',
  'tracking 1Z999AA10123456784',
  'postcode 10115 Berlin',
  'zip 94103-1234',
  'IP 192.168.178.21 refused',
  'host 10.0.12.254:8080 unreachable',
  'IPv6 2001:db8:85a3::8a2e:370:7334',
  'commit 3f9a2b1c4d5e6f708192a3b4c5d6e7f8091a2b3c',
  'etag "5d41402abc4b2a76b9719d911017c592"',
  'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
  'color #1e90ff, rgba(30, 144, 255, 0.5)',
  'at app.js:120:14',
  'at https://example.com/app.js:1:28391',
  'chunk 4242 of 9999 uploaded',
  'coordinates 52.520008, 13.404954',
  'size 1048576 bytes',
  'took 1234.5678 ms',
  'memory 2147483648',
  'port 5432',
  'Order 12345678 failed',
  'GET /api/items/1234 500',
  'id=123456789012',
  'user 4815162342 not found',
  'retry 3 of 5 after 2000ms',
  'viewport 1280x720 @2x',
  'icon@2x.png failed to load',
  'npm ERR! peer react@"^18.2.0" from react-dom@18.2.0',
  'Missing Bearer token',
  'max_tokens=500 reached',
  'tokens: 1200, limit 4096',
  'password reset email sent',
  'Enter your password:',
  'sessionStorage quota exceeded',
  'The key "items" is not valid JSON',
  'monkey=banana',
  'secretary@ 9am',
  'user@localhost refused',
  'git@github.com:org/repo.git',
  'from 1.000 to 2.000.000 rows',
  'phone number field is required',
  'Call 112 in an emergency',
  '+1 like from user 42',
  'progress 45% (1,234,567 of 2,743,482)',
  'SELECT * FROM orders WHERE id = 9876543210',
  'build #20261129.7 failed',
  'timestamp 20261129072309',
  'GET /v2/catalog/products?page=2&per_page=50 500',
  'https://example.com/search?q=iphone+15&sort=price',
  'https://example.com/product/6123456789?variant=40123456789012',
  'https://example.com/blog/2026/11/29/release-notes',
  'rrweb event 3 source 5',
  'AKIA is a prefix',
  'sk_test is not a key',
  'xoxb- token prefix documented',
  'DE89 is a check digit pair',
  'NL91ABNA041716430 (17 characters: too short)',
  'GB00 WEST 1234 5698 7654 32',
  '4111 1111 1111 1112 (fails Luhn)',
  '5500-0000-0000-0005 (fails Luhn)',
  '1764412345678',
  '0.1234567890123',
  '3.14159265358979',
  'PLZ 80331, Tel.-Durchwahl -12',
  'batch 20261129-0042 done',
  'page 3/17, rows 51-75',
  'serial SN-7731-0042-AB',
  'Release 2026.11 (build 4412)',
  'width: 1024px; height: 768px',
  'GET /api/v1/users/42/orders?limit=20&offset=40 500',
  'hash #a1b2c3 in route /#/orders/123',
  'checksum 0x7f3a9c21',
  'lat=48.137154&lng=11.576124',
  'font-weight 400 and 700 loaded',
  'response time 95th 1234 ms',
])
  keep(text);

export { lookAlikes, secrets };

/**
 * The CSV format of the issue export (issue 23, docs/api.md "CSV export"): RFC 4180 records (CRLF between
 * records, a field with a comma, a double quote or a line break enclosed in double quotes and its quotes
 * doubled), UTF-8 with a byte order mark so Excel reads the accents right, and every text cell neutralised
 * against formula injection (OWASP "CSV Injection"): a cell that starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return gets a leading `'`, so a spreadsheet shows it as text instead of evaluating it. Visitors
 * write titles, custom fields and page addresses; none of it may run in a team member's spreadsheet.
 */

/** What Excel needs to read the file as UTF-8 rather than the system's code page. */
export const UTF8_BOM = '\uFEFF';
/** RFC 4180's record separator. */
export const CRLF = '\r\n';

/** A cell's value: text is neutralised and quoted as needed; numbers we made are written as they are. */
export type CsvValue = string | number | null | undefined;

/** The first characters a spreadsheet may take as the start of a formula or a DDE call (OWASP's list). */
const formulaLead = /^[=+\-@\t\r]/;
/** A field RFC 4180 must enclose in double quotes. */
const needsQuotes = /[",\r\n]/;

/** Prefixes `'` to text a spreadsheet could evaluate (`=1+1`, `+cmd`, `-2+3`, `@SUM(…)`, tab, CR). */
export function neutralise(text: string): string {
  return formulaLead.test(text) ? `'${text}` : text;
}

/** One field: numbers as written, text neutralised, then enclosed in quotes when RFC 4180 needs it. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = neutralise(value);
  return needsQuotes.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record with its CRLF. */
export function csvRow(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(',') + CRLF;
}

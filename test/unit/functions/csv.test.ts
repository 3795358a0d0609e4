/** The export's CSV format (functions/issues/csv.ts): RFC 4180 quoting and the formula neutralising. */
import { describe, expect, it } from 'vitest';
import { CRLF, csvCell, csvRow, neutralise, UTF8_BOM } from '../../../functions/issues/csv';
import { exportFileName } from '../../../functions/issues/export-csv';
import { parseCsv } from '../../support/csv';

describe('the CSV format', () => {
  it.each(['=1+1', '+1', '-1+2', '@SUM(A1)', '\t=1', '\r=1'])('neutralises %j with a leading quote', (v) => {
    expect(neutralise(v)).toBe(`'${v}`);
  });

  it('leaves other text and numbers we write as they are', () => {
    expect(neutralise('Checkout fails')).toBe('Checkout fails');
    expect(neutralise(' =1')).toBe(' =1');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('quotes commas, quotes and line breaks and doubles the quotes (RFC 4180)', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('one\ntwo')).toBe('"one\ntwo"');
    expect(csvCell('=A1,"x"')).toBe('"\'=A1,""x"""');
    expect(csvRow(['a', 1, null])).toBe(`a,1,${CRLF}`);
  });

  it('reads back what it writes', () => {
    const cells = ['=cmd', 'a,b', 'x"y', 'l1\r\nl2', '', '@x'];
    const text = UTF8_BOM + csvRow(cells) + csvRow(['2']);
    expect(parseCsv(text)).toEqual([cells.map((c) => (/^[=@]/.test(c) ? `'${c}` : c)), ['2']]);
  });

  it('names the file after the project, the list and the day, safe for file systems', () => {
    const at = new Date('2026-11-25T23:59:00Z');
    expect(exportFileName('Shop', 'open', at)).toBe('Shop-open-2026-11-25.csv');
    expect(exportFileName('a/b:c*?"<>|\u0007', 'resolved', at)).toBe('a_b_c_-resolved-2026-11-25.csv');
    expect(exportFileName('...', 'open', at)).toBe('snag-open-2026-11-25.csv');
  });
});

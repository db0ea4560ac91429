import { describe, expect, it } from 'vitest';
import {
  addslashes,
  bcryptInput,
  dateFromGmt,
  htmlspecialchars,
  isNumeric,
  jsonWithParameter,
  likeRegex,
  numberFormat,
  phpFloat,
  rawurldecode,
  stripslashes,
  urldecode,
  utf8mb3,
} from '#src/faults/emulation.js';

// The faults stand for a vendor's PHP platform, so their helpers must do what PHP does: a helper that is
// kinder or harsher than PHP makes a fault the suite is measured against less realistic. Expected values are
// what PHP 8 prints for the same input.

describe('PHP string functions the faults emulate', () => {
  it('urldecode reads + as a space and leaves a % without two hex digits as it is; rawurldecode keeps +', () => {
    expect(urldecode('a+b%2Bc%zz%4')).toBe('a b+c%zz%4');
    expect(rawurldecode('a+b%20c')).toBe('a+b c');
  });

  it('stripslashes drops each backslash and keeps the character after it; addslashes escapes \\ \' "', () => {
    expect(stripslashes('C:\\tmp \\\\ \\"q\\"')).toBe('C:tmp \\ "q"');
    expect(addslashes(`O'Re"il\\`)).toBe(`O\\'Re\\"il\\\\`);
    expect(stripslashes(addslashes(`it's "x" \\ y`))).toBe(`it's "x" \\ y`);
  });

  it('htmlspecialchars (ENT_QUOTES) escapes & first, so an entity already written is escaped again', () => {
    expect(htmlspecialchars(`<a href="x">O'Brien & Co</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;O&#039;Brien &amp; Co&lt;/a&gt;');
    expect(htmlspecialchars('&amp;')).toBe('&amp;amp;');
    expect(htmlspecialchars('Zoë 🍵')).toBe('Zoë 🍵');
  });

  it('is_numeric takes a sign, a point, an exponent and whitespace at either end, and nothing else', () => {
    for (const v of ['1234567890', '12345678.9', '+123456789', ' 123456789', '123456789 ', '1e5', '.5', '5.', '-0'])
      expect(isNumeric(v), v).toBe(true);
    for (const v of ['', ' ', '.', '0x1A', '12 34', '1_000', '1,000', 'e5', '12a', '++1']) expect(isNumeric(v), v).toBe(false);
  });

  it('number_format($amount, 2) writes a comma between thousands; (float) of it stops at the comma', () => {
    expect(numberFormat(1234.5)).toBe('1,234.50');
    expect(numberFormat(-1234567.891)).toBe('-1,234,567.89');
    expect(numberFormat(999.999)).toBe('1,000.00');
    expect(phpFloat('1,234.50')).toBe(1);
    expect(phpFloat(' 12abc')).toBe(12);
    expect(phpFloat('1e3')).toBe(1000);
    expect(phpFloat('abc')).toBe(0);
  });

  it('a utf8mb3 column keeps astral characters as ?, strips them, or cuts the string at the first', () => {
    expect(utf8mb3('a😀b😀c', 'question-mark')).toBe('a?b?c');
    expect(utf8mb3('a😀b😀c', 'stripped')).toBe('abc');
    expect(utf8mb3('a😀b😀c', 'cut')).toBe('a');
    expect(utf8mb3('Zoë', 'cut')).toBe('Zoë');
  });
});

describe('platform behaviour the faults emulate', () => {
  it("get_date_from_gmt shifts a stored UTC time to the site's zone, across midnight, in the same form", () => {
    expect(dateFromGmt('2026-11-24 20:00:00', 330)).toBe('2026-11-25 01:30:00');
    expect(dateFromGmt('2026-12-31 23:59:59', 330)).toBe('2027-01-01 05:29:59');
    expect(dateFromGmt('0000-00-00 00:00:00', 330)).toBe('0000-00-00 00:00:00');
    expect(dateFromGmt('2026-11-24T20:00:00Z', 330)).toBe('2026-11-24T20:00:00Z');
  });

  it('bcrypt reads the first 72 bytes of UTF-8: passwords alike in those bytes verify alike, a character cut in half too', () => {
    const head = `Aa1-${'€'.repeat(22)}`; // 4 + 66 = 70 bytes
    expect(bcryptInput(`${head}xyz`)).toBe(bcryptInput(`${head}xyQ`)); // 72 bytes alike, the rest ignored
    expect(bcryptInput(`${head}x`)).not.toBe(bcryptInput(`${head}y`));
    expect(bcryptInput(`${head}€A`)).toBe(bcryptInput(`${head}€B`)); // the 71st-72nd bytes are 2 of €'s 3
    expect(bcryptInput(`${head}€`)).not.toBe(bcryptInput(`${head}¢`)); // € and ¢ differ in their first byte
    expect(bcryptInput('short')).toBe('short');
  });

  it('a LIKE pattern: % any run, _ any one character, every other character literal, unanchored', () => {
    const re = likeRegex('a_c%');
    expect(re.test('xxABCzz')).toBe(true);
    expect(re.test('a-c')).toBe(true);
    expect(re.test('ac')).toBe(false);
    expect(likeRegex('a.c').test('abc')).toBe(false);
    expect(likeRegex('a.c').test('A.C')).toBe(true);
  });

  it('a JSON media type counts as one with a parameter only when it carries one', () => {
    expect(jsonWithParameter('application/json; charset=utf-8')).toBe(true);
    expect(jsonWithParameter(' Application/JSON ;charset=UTF-8')).toBe(true);
    expect(jsonWithParameter('application/json')).toBe(false);
    expect(jsonWithParameter(undefined)).toBe(false);
  });
});

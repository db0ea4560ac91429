import { describe, expect, it } from 'vitest';
import { absint, likeRegex, likeWhole } from '../../reference-impl/src/faults/emulation.js';

describe('the PHP and MySQL emulation the faults share', () => {
  it('likeWhole matches a whole value as `LIKE` does: _ one character, % any run, case aside, a hyphen as itself', () => {
    expect(likeWhole('a_b@x-y.test').test('A.B@X-Y.TEST')).toBe(true);
    expect(likeWhole('a_b@x-y.test').test('a.bc@x-y.test')).toBe(false);
    expect(likeWhole('%@example.test').test('anyone@example.test')).toBe(true);
    expect(likeWhole('a.b').test('axb')).toBe(false); // a dot is itself, not a wildcard
  });
  it('likeRegex is unanchored, and takes the u flag with a hyphen in the pattern', () => {
    expect(likeRegex('x-y').test('before x-y after')).toBe(true);
    expect(() => likeRegex('a-b_c', 'iu')).not.toThrow();
  });
  it('absint reads the leading integer, made positive, and 0 without one', () => {
    expect([
      absint('12.5'),
      absint('12abc'),
      absint('-12'),
      absint(' 7'),
      absint('abc'),
      absint(-3.9),
      absint(Number.NaN),
    ]).toEqual([12, 12, 12, 7, 0, 3, 0]);
  });
});

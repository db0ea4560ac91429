import fc from 'fast-check';

export type Alphabet = 'letters' | 'alnum' | 'digits' | 'printable' | 'unicode';

export interface TextConstraints {
  minLength?: number;
  maxLength?: number;
  /** Which characters: ASCII letters, letters and digits, digits, printable ASCII, or any unicode. */
  alphabet?: Alphabet;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';

function unit(alphabet: Alphabet): fc.Arbitrary<string> {
  switch (alphabet) {
    case 'letters':
      return fc.constantFrom(...LETTERS);
    case 'alnum':
      return fc.constantFrom(...LETTERS, ...DIGITS);
    case 'digits':
      return fc.constantFrom(...DIGITS);
    case 'printable':
      return fc.string({ minLength: 1, maxLength: 1, unit: 'binary-ascii' }).filter((c) => c >= ' ' && c <= '~');
    case 'unicode':
      return fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' });
  }
}

/**
 * Text within a length range. Lengths count characters as JavaScript does (UTF-16 units) for
 * ASCII alphabets and graphemes for `unicode`; servers in other languages may count otherwise,
 * which is exactly what the boundary properties probe.
 */
export function text(c: TextConstraints = {}): fc.Arbitrary<string> {
  const minLength = c.minLength ?? 0;
  const maxLength = c.maxLength ?? Math.max(minLength, 32);
  return fc.array(unit(c.alphabet ?? 'alnum'), { minLength, maxLength }).map((chars) => chars.join(''));
}

/** Non-blank text: at least one visible character first, so a trimming server keeps the length. */
export function visibleText(c: TextConstraints = {}): fc.Arbitrary<string> {
  const minLength = Math.max(1, c.minLength ?? 1);
  return fc
    .tuple(
      fc.constantFrom(...LETTERS),
      text({ ...c, minLength: minLength - 1, maxLength: Math.max(minLength, c.maxLength ?? 32) - 1 }),
    )
    .map(([first, rest]) => first + rest);
}

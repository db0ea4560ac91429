import fc from 'fast-check';
import { text } from './strings.js';

export interface UsernameConstraints {
  minLength?: number;
  maxLength?: number;
  /** A prefix every name carries (the run's prefix), letters and digits only. */
  prefix?: string;
}

/** Usernames of letters and digits only (documents 1 and 2), optionally run-prefixed. */
export function username(c: UsernameConstraints = {}): fc.Arbitrary<string> {
  const prefix = c.prefix ?? '';
  if (!/^[A-Za-z0-9]*$/.test(prefix)) throw new Error('a username prefix must be letters and digits');
  const room = Math.max(1, (c.maxLength ?? 24) - prefix.length);
  return text({
    minLength: Math.min(room, Math.max(1, (c.minLength ?? 1) - prefix.length)),
    maxLength: room,
    alphabet: 'alnum',
  }).map((s) => prefix + s);
}

/** Usernames that break the letters-and-digits rule: one forbidden character somewhere. */
export function invalidUsername(c: UsernameConstraints = {}): fc.Arbitrary<string> {
  return fc.tuple(username(c), fc.constantFrom(' ', '-', '_', '.', '@', "'", 'é', '名', '!'), fc.nat()).map(([name, bad, at]) => {
    const i = at % (name.length + 1);
    return name.slice(0, i) + bad + name.slice(i);
  });
}

export interface PhoneConstraints {
  digits?: number;
}

/** A phone of exactly N digits (document 2: 10), not starting with 0 so integer parsing keeps it. */
export function phone(c: PhoneConstraints = {}): fc.Arbitrary<string> {
  const n = c.digits ?? 10;
  return fc
    .tuple(fc.integer({ min: 1, max: 9 }), text({ minLength: n - 1, maxLength: n - 1, alphabet: 'digits' }))
    .map(([d, rest]) => `${d}${rest}`);
}

/** Phones that are not exactly N digits: too short, too long, or with a non-digit. */
export function invalidPhone(c: PhoneConstraints = {}): fc.Arbitrary<string> {
  const n = c.digits ?? 10;
  return fc.oneof(
    text({ minLength: 1, maxLength: n - 1, alphabet: 'digits' }),
    text({ minLength: n + 1, maxLength: n + 4, alphabet: 'digits' }),
    phone(c).chain((p) =>
      fc.tuple(fc.nat({ max: n - 1 }), fc.constantFrom('a', '-', ' ', '+')).map(([i, x]) => p.slice(0, i) + x + p.slice(i + 1)),
    ),
  );
}

/** Numeric strings as document 1 and 2 carry ids and flags: optional sign, digits only. */
export function numericString(c: { min?: number; max?: number } = {}): fc.Arbitrary<string> {
  return fc.integer({ min: c.min ?? 0, max: c.max ?? 2 ** 31 - 1 }).map(String);
}

import type { Exchange } from '../http/exchange.js';

/** At most this many details are read per search: enough to show a filter that is ignored, cheap on a target that matches. */
const MAX_DETAIL_READS = 5;

/**
 * Listed items a search for `word` should not have returned. A listing's summary is short (a truncated
 * description, no tags), and a target may match text the summary does not show, so an item whose
 * summary lacks the word is a stray only when its detail, read as text (its shape may be not shown),
 * lacks it too. Shared by the search checks of the interfaces that have a listing and a detail.
 */
export async function searchStrays<T>(
  items: T[],
  word: string,
  how: { summary: (item: T) => string; detail: (item: T) => Promise<Exchange> },
): Promise<{ strays: T[]; evidence: Exchange[] }> {
  const w = word.toLowerCase();
  const strays: T[] = [];
  const evidence: Exchange[] = [];
  for (const item of items.filter((i) => !how.summary(i).toLowerCase().includes(w)).slice(0, MAX_DETAIL_READS)) {
    const ex = await how.detail(item);
    if (!(ex.response?.body ?? '').toLowerCase().includes(w)) {
      strays.push(item);
      evidence.push(ex);
    }
  }
  return { strays, evidence };
}

/**
 * Two adjacent words of 3 or more letters or digits, one space apart, in a name: a phrase of the name, so
 * a search for them finds it whether several keywords mean all, any or a phrase.
 */
export function adjacentWords(name: string): [string, string] | undefined {
  const m = /(?:^|\s)([A-Za-z0-9]{3,}) ([A-Za-z0-9]{3,})(?=\s|$)/.exec(name);
  return m?.[1] && m[2] ? [m[1], m[2]] : undefined;
}

/** What a two-word search with "+" for the space showed, and the exchanges that show it. */
export type PlusReading =
  | { read: 'space' }
  | { read: 'plus' | 'unjudged'; plus: Exchange; encoded: Exchange; search: { plus: string; encoded: string } };

/**
 * How a target reads "+" in a query: forms, URLSearchParams and http_build_query write a space so, and a
 * target that decodes its query with rawurldecode() looks for "a+b". `finds` sends its search as written
 * into the query string and says whether the named product came back. Found with "+": a space. Found only
 * with "%20": the "+" was read as a plus. Found with neither: not judged, since how two keywords match is
 * not stated. Shared by the search checks of the interfaces whose listing takes a query.
 */
export async function plusReading(
  words: [string, string],
  finds: (search: string) => Promise<{ found: boolean; ex: Exchange }>,
): Promise<PlusReading> {
  const search = { plus: words.join('+'), encoded: words.join('%20') };
  const plus = await finds(search.plus);
  if (plus.found) return { read: 'space' };
  const encoded = await finds(search.encoded);
  return { read: encoded.found ? 'plus' : 'unjudged', plus: plus.ex, encoded: encoded.ex, search };
}

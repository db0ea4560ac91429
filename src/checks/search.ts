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

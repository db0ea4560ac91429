import { describe, expect, it } from 'vitest';
import { adjacentWords, plusReading, searchStrays } from '../../src/checks/search.js';
import type { Exchange } from '../../src/http/exchange.js';

const answer = (body: string) => ({ response: { body } }) as unknown as Exchange;

describe('searchStrays', () => {
  const items = [
    { id: 1, name: 'Cast Iron Skillet', detail: '' },
    { id: 2, name: 'Saucepan', detail: '{"tag":"skillet, pans"}' },
    { id: 3, name: 'Oxford Shirt', detail: '{"description":"cotton"}' },
  ];
  const how = {
    summary: (i: (typeof items)[number]) => i.name,
    detail: async (i: (typeof items)[number]) => answer(i.detail),
  };

  it('keeps an item whose summary or detail holds the word (case aside), and reads no detail for a summary match', async () => {
    const read: number[] = [];
    const { strays, evidence } = await searchStrays(items, 'SKILLET', {
      ...how,
      detail: (i) => {
        read.push(i.id);
        return how.detail(i);
      },
    });
    expect(strays.map((i) => i.id)).toEqual([3]);
    expect(evidence).toHaveLength(1);
    expect(read).toEqual([2, 3]);
  });

  it('reads at most five details', async () => {
    const many = Array.from({ length: 9 }, (_, k) => ({ id: k, name: 'Shirt', detail: '' }));
    const { strays } = await searchStrays(many, 'skillet', how);
    expect(strays.map((i) => i.id)).toEqual([0, 1, 2, 3, 4]);
  });

  it('counts an item whose detail has no answer as a stray', async () => {
    const { strays } = await searchStrays(items.slice(2), 'skillet', {
      ...how,
      detail: async () => ({}) as unknown as Exchange,
    });
    expect(strays).toHaveLength(1);
  });
});

describe('adjacentWords', () => {
  it('takes the first two neighbouring words of 3 or more letters or digits, one space apart', () => {
    expect(adjacentWords('A Cast Iron Skillet')).toEqual(['Cast', 'Iron']);
    expect(adjacentWords('Shirt, blue Oxford 100')).toEqual(['blue', 'Oxford']);
    expect(adjacentWords('Linen  Shirt')).toBeUndefined();
    expect(adjacentWords('Saucepan')).toBeUndefined();
  });
});

describe('plusReading', () => {
  // A target that finds the product for the searches in `hits`, written as sent in the query.
  const target = (hits: string[]) => {
    const sent: string[] = [];
    const finds = async (search: string) => {
      sent.push(search);
      return { found: hits.includes(search), ex: answer(search) };
    };
    return { sent, finds };
  };

  it('reads "+" as a space when the product comes back for it, and sends nothing more', async () => {
    const t = target(['Cast+Iron', 'Cast%20Iron']);
    expect(await plusReading(['Cast', 'Iron'], t.finds)).toEqual({ read: 'space' });
    expect(t.sent).toEqual(['Cast+Iron']);
  });

  it('reads "+" as a plus when only %20 finds the product, with both exchanges as evidence', async () => {
    const t = target(['Cast%20Iron']);
    const r = await plusReading(['Cast', 'Iron'], t.finds);
    expect(r).toMatchObject({ read: 'plus', search: { plus: 'Cast+Iron', encoded: 'Cast%20Iron' } });
    expect(r.read !== 'space' && [r.plus.response?.body, r.encoded.response?.body]).toEqual(['Cast+Iron', 'Cast%20Iron']);
  });

  it('does not judge a target that finds the product under neither encoding', async () => {
    expect(await plusReading(['Cast', 'Iron'], target([]).finds)).toMatchObject({ read: 'unjudged' });
  });
});

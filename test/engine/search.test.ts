import { describe, expect, it } from 'vitest';
import { searchStrays } from '../../src/checks/search.js';
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

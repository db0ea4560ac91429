import fc from 'fast-check';
import { ofLength } from '../../arbitraries/rr-fields.js';
import type { CheckSpec } from '../../checks/model.js';
import { checkProperty } from '../../checks/properties.js';
import { asRecord, bodyOf, call, dataOf, ROUTES, type Session, shown } from './client.js';
import { type C, type NegState, setUp } from './endpoint-calls.js';
import { freshSession, validAddress } from './prop-setup.js';

// One customer's token against another's addresses (RR-SEC-02, ADVISORY: document 1 does not
// say that a token scopes the address book, but every real client relies on it): seeded reads,
// edits and deletes with B's token, and after each, A's book is what it was.

async function book(ctx: C, session: Session): Promise<Map<string, string>> {
  const ex = await call(ctx, 'GET', ROUTES.address, { session });
  const raw = dataOf(bodyOf(ex)).addresses;
  return new Map(
    (Array.isArray(raw) ? raw : []).map((a: unknown) => {
      const r = asRecord(a) ?? {};
      return [String(r.address_id), `${String(r.address_1)}|${String(r.city)}|${String(r.postcode)}`];
    }),
  );
}

export const crossAccountCheck: CheckSpec<NegState> = {
  id: 'RR-SEC-02',
  title: "seeded reads, edits and deletes with another customer's token never show or change the first customer's addresses",
  run: async (ctx: C) => {
    await setUp(ctx);
    const a = ctx.state.a;
    if (!a || !ctx.state.own) ctx.skip('no customer with an address was provisioned');
    // A second address, so a delete is refused for ownership alone, not because it is the last one.
    const street = ctx.names.label('street').slice(0, 40);
    const second = await call(ctx, 'POST', ROUTES.addressAdd, {
      session: a.session,
      json: validAddress(ctx, { address_1: street }),
    });
    const secondId = dataOf(bodyOf(second)).address_id;
    if (typeof secondId !== 'number' && typeof secondId !== 'string')
      ctx.skip(`could not add a second address: ${shown(second)}`);
    const ids = [ctx.state.own, String(secondId)];
    const b = await freshSession(ctx);
    const before = await book(ctx, a.session);
    // Isolation is judged on A's book: without A's addresses in it, no change could be seen.
    const missing = ids.filter((id) => !before.has(id));
    if (missing.length > 0)
      ctx.skip(`A's address list does not show A's addresses ${missing.join(', ')}, so a change by B could not be seen`);
    await checkProperty(
      ctx,
      'rest-route/tokens/cross-account',
      fc.record({
        op: fc.constantFrom('read', 'edit', 'delete'),
        which: fc.nat(1),
        asNumber: fc.boolean(),
        city: fc.integer({ min: 2, max: 20 }).chain((n) => ofLength(n)),
      }),
      async (c) => {
        const id = ids[c.which % ids.length] as string;
        const value = c.asNumber ? Number(id) : id;
        let ex: Awaited<ReturnType<typeof call>>;
        if (c.op === 'read') {
          ex = await call(ctx, 'GET', ROUTES.addressEdit, { session: b, query: { address_id: String(value) } });
          ctx.expect(
            !ex.response?.body.includes(street) || id !== ids[1],
            `B's GET address/edit of A's address ${id} shows A's street`,
            ex,
          );
        } else if (c.op === 'edit')
          ex = await call(ctx, 'POST', ROUTES.addressEdit, {
            session: b,
            query: { address_id: String(value) },
            json: validAddress(ctx, { city: c.city }),
          });
        else ex = await call(ctx, 'POST', ROUTES.addressDelete, { session: b, json: { address_id: value } });
        const now = await book(ctx, a.session);
        const changed = [...before].filter(([k, v]) => now.get(k) !== v).map(([k]) => k);
        ctx.expect(
          changed.length === 0 && now.size === before.size,
          `after B's ${c.op} of A's address ${id}, A's book changed (addresses ${changed.join(', ') || 'count'})`,
          ex,
        );
      },
    );
  },
};

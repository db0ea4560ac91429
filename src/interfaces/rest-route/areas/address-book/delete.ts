import type { CheckSpec } from '../../../../checks/model.js';
import { type AddressState, add, addBody, type C, del, idOf, list, session } from '../../address-ops.js';
import { bodyOf, call, envelope, ROUTES, shown } from '../../client.js';
import { expectAccepted, expectRefused } from '../../refusals.js';

// Last, as they empty the book: requests that must not reach an address (an id no address has, another
// customer's), the two delete refusals of section 7, and deletes with both spellings of address_id.

export const deleteChecks: CheckSpec<AddressState>[] = [
  {
    // Every address_id the checks sent fitted in 32 bits, so a module that reads an integer id through a
    // 32-bit cast (4294967296 + N read as N) showed nowhere: its delete of an id no address has removes
    // address N. Row 10 gives no range for the integer; an id no address has must not name one.
    id: 'RR-STATE-01',
    title: 'a delete of address_id 4294967296 + N, which no address has, leaves address N in the list',
    needs: ['addr2', 'edited2'],
    run: async (ctx: C) => {
      const kept = ctx.state.addr2 as string;
      if (!/^\d{1,15}$/.test(kept))
        ctx.skip(`address_id ${JSON.stringify(kept)} is not a decimal integer, so no id 2^32 past it can be written`);
      const wide = 2 ** 32 + Number(kept);
      const ex = await del(ctx, wide);
      const { ex: lex, addresses } = await list(ctx);
      ctx.expect(
        addresses.some((a) => String(a.address_id) === kept),
        `a delete of address_id ${wide}, which no address has, answered ${shown(ex)}; address ${kept} (${wide} - 2^32) left the list`,
        ex,
        lex,
      );
    },
  },
  {
    id: 'RR-SEC-02',
    title: "another customer cannot read, edit or delete the first customer's address",
    needs: ['b', 'addr1', 'addr2'],
    run: async (ctx: C) => {
      const target = ctx.state.addr2 as string;
      const { ex: la0, addresses: before } = await list(ctx);
      const street = before.find((a) => String(a.address_id) === target)?.address_1;
      ctx.expect(typeof street === 'string' && street.length >= 3, `A's address ${target} is not in A's list`, la0);
      const { ex: lb, addresses } = await list(ctx, 'b');
      ctx.expect(!addresses.some((a) => String(a.address_id) === target), "B's list shows A's address", lb);
      const read = await call(ctx, 'GET', ROUTES.addressEdit, { session: session(ctx, 'b'), query: { address_id: target } });
      ctx.expect(!read.response?.body.includes(street), "B's GET address/edit shows A's street", read);
      const edit = await call(ctx, 'POST', ROUTES.addressEdit, {
        session: session(ctx, 'b'),
        query: { address_id: target },
        json: addBody(ctx, { city: 'Hijacked' }),
      });
      const gone = await del(ctx, target, 'b');
      const { ex: la, addresses: mine } = await list(ctx);
      const still = mine.find((a) => String(a.address_id) === target);
      ctx.expect(still, "B's delete removed A's address", gone, la);
      ctx.expect(still.city !== 'Hijacked', "B's edit changed A's address", edit, la);
    },
  },
  {
    id: 'RR-ADDR-17',
    title: 'the default address cannot be deleted while others remain (error_default)',
    needs: ['addr1', 'addr2'],
    run: async (ctx: C) => {
      const { ex: lex, addresses } = await list(ctx);
      const def = addresses.find((a) => a.default === 1);
      if (!def) ctx.skip(`no address of the list is marked default: 1, so the rule cannot be exercised (${shown(lex)})`);
      ctx.expect(addresses.length >= 2, 'expected two addresses in the book', lex);
      const ex = await del(ctx, String(def.address_id));
      expectRefused(ctx, ex, 'delete the default address', ['error_default', 'default']);
      // Row 10 takes address_id as an integer or a string, so the rule holds for both spellings. A
      // target of the string reading (AMB-RR-07) refuses the integer for that reason: no error key is asked.
      const asInteger = await del(ctx, Number(def.address_id));
      expectRefused(ctx, asInteger, 'delete the default address with an integer address_id');
      const { ex: after, addresses: now } = await list(ctx);
      ctx.expect(
        now.some((a) => String(a.address_id) === String(def.address_id)),
        'the default address left the list',
        ex,
        asInteger,
        after,
      );
    },
  },
  {
    id: 'RR-ADDR-15',
    title: 'POST address/delete of a non-default address succeeds (integer and string ids; AMB-RR-07)',
    needs: ['addr1', 'addr2'],
    run: async (ctx: C) => {
      const { addresses } = await list(ctx);
      const victim = addresses.find((a) => a.default !== 1 && String(a.address_id) !== '');
      ctx.expect(victim, 'no non-default address to delete');
      const ex = await del(ctx, Number(victim.address_id));
      const intOk = bodyOf(ex)?.status === true;
      let last = ex;
      if (!intOk) {
        last = await del(ctx, String(victim.address_id));
        ctx.expect(
          bodyOf(last)?.status === true,
          `delete refused with an integer and a string address_id: ${shown(last)}`,
          ex,
          last,
        );
      }
      ctx.choose('AMB-RR-07', intOk ? 'integer' : 'string');
      envelope(ctx, last, 'account-address-delete.post');
      const { ex: after, addresses: now } = await list(ctx);
      ctx.expect(
        !now.some((a) => String(a.address_id) === String(victim.address_id)),
        'the deleted address is still listed',
        after,
      );
      ctx.state.deleted = String(victim.address_id);
      // The other spelling of address_id must work too (row 10: integer or string).
      const extra = await add(ctx, addBody(ctx));
      const extraId = idOf(extra);
      if (!extraId)
        ctx.skip(
          `the ${intOk ? 'integer' : 'string'} address_id was accepted, but adding another address to delete with the ${intOk ? 'string' : 'integer'} one failed, so that spelling is not judged: ${shown(extra)}`,
        );
      const other = await del(ctx, intOk ? extraId : Number(extraId));
      expectAccepted(ctx, other, `delete with a ${intOk ? 'string' : 'integer'} address_id`);
      const { ex: later, addresses: rest } = await list(ctx);
      ctx.expect(
        !rest.some((a) => String(a.address_id) === String(extraId)),
        `the address deleted with a ${intOk ? 'string' : 'integer'} address_id is still listed`,
        later,
      );
    },
  },
  {
    // Every delete was followed by reads alone, so a delete that a later edit of the same address_id
    // undoes (a soft delete whose edit writes the row back) showed nowhere. The edit's answer is not
    // judged: whether editing a deleted address is refused is not stated; that it stays deleted is.
    id: 'RR-STATE-01',
    title: 'an edit of a deleted address does not bring it back into the list',
    needs: ['deleted', 'countryId'],
    run: async (ctx: C) => {
      const gone = ctx.state.deleted as string;
      const ex = await call(ctx, 'POST', ROUTES.addressEdit, {
        session: session(ctx),
        query: { address_id: gone },
        json: addBody(ctx, { city: 'Revivedtown' }),
      });
      const { ex: lex, addresses } = await list(ctx);
      ctx.expect(
        !addresses.some((a) => String(a.address_id) === gone),
        `address ${gone} was deleted and left the list (RR-ADDR-15); an edit of it answered ${shown(ex)}, and the list shows it again`,
        ex,
        lex,
      );
    },
  },
  {
    id: 'RR-ADDR-16',
    title: 'deleting the only remaining address is refused (error_delete)',
    needs: ['addr1'],
    run: async (ctx: C) => {
      const { ex: lex, addresses } = await list(ctx);
      const keep = addresses.find((x) => x.default === 1) ?? addresses[0];
      for (const a of addresses.filter((x) => x !== keep)) await del(ctx, String(a.address_id));
      const { addresses: now } = await list(ctx);
      if (now.length !== 1) ctx.skip(`could not bring the book down to one address (${now.length} remain): ${shown(lex)}`);
      const only = String(now[0]?.address_id);
      const ex = await del(ctx, only);
      expectRefused(ctx, ex, 'delete the only address', ['error_delete', 'error_default', 'address_id']);
      const { ex: after, addresses: left } = await list(ctx);
      ctx.expect(left.length === 1, 'the only address left the book', after);
    },
  },
];

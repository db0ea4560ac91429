import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { errorMessages, type GraphQLOptions, type GraphQLResult } from '../../../graphql/client.js';
import {
  type Account,
  accepted,
  expectSelection,
  gql,
  loginToken,
  newSession,
  op,
  record,
  refusal,
  SeededCustomer,
  short,
  validateData,
} from '../client.js';
import { noSecretsCheck } from './common.js';

/** customerByEmail and orders ("4. Endpoints" rows 8-9, paging in "1. What the service does"). */
interface QueriesState {
  a: Account & { token: string };
  /** GQL-CUST-03's second customer, whose own record GQL-CUST-02 reads after another customer asked for it. */
  b: Account & { token: string };
  customer: GraphQLResult;
  orders: GraphQLResult;
  /** The customer with orders that the settings name (SFC_GQL_EMAIL), when they name one. */
  seeded: SeededCustomer | null;
}
type C = CheckContext<QueriesState>;

/**
 * Document 3 has no operation that places an order, so paging can only be seen on a customer the
 * target already holds orders for: SFC_GQL_EMAIL / SFC_GQL_PASSWORD. Without them, null.
 */
function seededCustomer(ctx: C): SeededCustomer | null {
  if (ctx.state.seeded === undefined) ctx.state.seeded = SeededCustomer.of(ctx) ?? null;
  return ctx.state.seeded;
}

type Send = (call: (options: GraphQLOptions) => Promise<GraphQLResult>) => Promise<GraphQLResult>;

/** The callers of orders: the settings' customer (when named), customer A, and no token. */
function orderCallers(ctx: C): { token: boolean; send: Send }[] {
  const seeded = seededCustomer(ctx);
  const a = ctx.state.a!.token;
  return [
    ...(seeded ? [{ token: true, send: (call: Parameters<Send>[0]) => seeded.send(ctx, call) }] : []),
    { token: true, send: (call) => call({ token: a }) },
    { token: false, send: (call) => call({}) },
  ];
}

/** The records of a customerByEmail result: one object or a list (AMB-GQL-06). */
function customers(v: unknown): Record<string, unknown>[] {
  const list = Array.isArray(v) ? v : v === null || v === undefined ? [] : [v];
  return list.filter((x): x is Record<string, unknown> => record(x) !== undefined);
}

function orderList(res: GraphQLResult): Record<string, unknown>[] | undefined {
  const v = res.data?.orders;
  return Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => record(x) !== undefined) : undefined;
}

export const queriesArea: AreaSpec<QueriesState> = {
  interface: 'graphql',
  name: 'queries',
  checks: [
    {
      id: 'GQL-CUST-01',
      title: 'customerByEmail returns firstname, lastname and email (AMB-GQL-06)',
      async run(ctx: C) {
        // Names with quotes, markup and accents: GQL-CUST-02 reads them back.
        const a = await newSession(ctx, true);
        ctx.state.a = a;
        const res = await op(ctx, 'customerByEmail', { email: a.email }, { token: a.token });
        if (
          errorMessages(res.errors).some((m) =>
            /unknown argument|argument "email"|has no argument|Cannot query field "customerByEmail"/i.test(m),
          ) &&
          !res.data?.customerByEmail
        )
          ctx.skip(
            `the argument of customerByEmail is not shown (NS-GQL-04) and the target does not take "email: String!": ${errorMessages(res.errors).join('; ')}`,
          );
        const v = accepted(ctx, res, 'customerByEmail');
        validateData(ctx, res, 'customerByEmail');
        ctx.choose('AMB-GQL-06', Array.isArray(v) ? 'list' : 'object');
        ctx.expect(
          customers(v).length > 0,
          'expected at least one record for a registered e-mail, got an empty list',
          res.exchange,
        );
        ctx.state.customer = res;
      },
    },
    {
      id: 'GQL-ENV-03',
      title: 'customerByEmail returns exactly the selected fields',
      needs: ['customer'],
      async run(ctx: C) {
        expectSelection(ctx, ctx.state.customer!);
      },
    },
    {
      id: 'GQL-CUST-02',
      title: 'the record is the customer who has the e-mail, with the names as sent (an apostrophe, quotes, markup, accents)',
      needs: ['customer', 'a'],
      async run(ctx: C) {
        const a = ctx.state.a!;
        const res = ctx.state.customer!;
        const list = customers(res.data?.customerByEmail);
        const want = { firstname: a.firstname, lastname: a.lastname, email: a.email };
        const ok =
          list.length > 0 &&
          list.every((c) => c.email === a.email) &&
          list.some((c) => c.firstname === a.firstname && c.lastname === a.lastname);
        ctx.expect(ok, `expected ${JSON.stringify(want)}, got ${short(res.data?.customerByEmail)}`, res.exchange);
      },
    },
    {
      id: 'GQL-CUST-03',
      title: 'customerByEmail gives no record of a customer to another customer or to a caller without a token',
      needs: ['a', 'customer'],
      async run(ctx: C) {
        const a = ctx.state.a!;
        const b = await newSession(ctx);
        ctx.state.b = b;
        for (const [who, token] of [
          ['another customer', b.token],
          ['no token', undefined],
        ] as const) {
          const res = await op(ctx, 'customerByEmail', { email: a.email }, token ? { token } : {});
          const leaked = refusal(res, 'customerByEmail')
            ? []
            : customers(res.data?.customerByEmail).filter((c) => c.email === a.email);
          ctx.expect(
            leaked.length === 0,
            `${who}: customerByEmail disclosed the record of ${a.email}: ${short(leaked[0])}`,
            res.exchange,
          );
        }
      },
    },
    {
      id: 'GQL-CUST-02',
      title: "customerByEmail of a customer's own e-mail, right after another customer asked for it, is that customer's record",
      needs: ['a', 'b'],
      async run(ctx: C) {
        const { a, b } = ctx.state as Required<QueriesState>;
        // The same request body from two tokens, the other customer's first: an answer cached without the
        // token in its key serves the first caller's answer (null, or no record of b) to b.
        const other = await op(ctx, 'customerByEmail', { email: b.email }, { token: a.token });
        const own = await op(ctx, 'customerByEmail', { email: b.email }, { token: b.token });
        const list = customers(own.data?.customerByEmail);
        const want = { firstname: b.firstname, lastname: b.lastname, email: b.email };
        ctx.expect(
          list.length > 0 &&
            list.every((c) => c.email === b.email) &&
            list.some((c) => c.firstname === b.firstname && c.lastname === b.lastname),
          `after another customer asked for ${b.email}, its own customer's customerByEmail: expected ${JSON.stringify(want)}, got ${refusal(own, 'customerByEmail') ?? short(own.data?.customerByEmail)}`,
          other.exchange,
          own.exchange,
        );
      },
    },
    {
      id: 'GQL-CUST-02',
      title:
        "customerByEmail of a customer's own e-mail written in upper case, where login takes that spelling for the account, is that customer's record",
      needs: ['b'],
      async run(ctx: C) {
        const b = ctx.state.b!;
        const typed = b.email.toUpperCase();
        if (typed === b.email) ctx.skip(`the e-mail ${b.email} has no letter to write in another case`);
        // Whether e-mails match case-insensitively is not stated: judged only where login takes the spelling for
        // the account, so the target itself holds it for that customer's e-mail. The token of that login asks
        // (a target that ends older tokens on login keeps it valid). 2 requests.
        const lg = await op(ctx, 'login', { email: typed, password: b.password });
        const token = loginToken(ctx, lg);
        if (typeof token !== 'string' || token.length === 0)
          ctx.skip(
            `login with ${typed} was refused (${refusal(lg, 'login') ?? short(lg.data?.login)}): the target matches e-mails by case`,
          );
        const res = await op(ctx, 'customerByEmail', { email: typed }, { token });
        const list = customers(res.data?.customerByEmail);
        const want = { firstname: b.firstname, lastname: b.lastname, email: b.email };
        ctx.expect(
          list.length > 0 &&
            list.every((c) => typeof c.email === 'string' && c.email.toLowerCase() === b.email.toLowerCase()) &&
            list.some((c) => c.firstname === b.firstname && c.lastname === b.lastname),
          `login took ${JSON.stringify(typed)} for the account of ${b.email}; customerByEmail of that spelling with its token: expected ${JSON.stringify(want)}, got ${refusal(res, 'customerByEmail') ?? short(res.data?.customerByEmail)}`,
          lg.exchange,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-ORD-01',
      title: 'orders(start, limit) returns a list of entries with order_id',
      needs: ['a'],
      async run(ctx: C) {
        const res = await op(ctx, 'orders', { start: 0, limit: 5 }, { token: ctx.state.a!.token });
        const v = accepted(ctx, res, 'orders');
        ctx.expect(Array.isArray(v), `expected orders to be a list, got ${short(v)}`, res.exchange);
        validateData(ctx, res, 'orders');
        ctx.state.orders = res;
        // A new customer has no orders: the entries themselves are seen on the customer the settings name.
        const seeded = seededCustomer(ctx);
        if (!seeded)
          ctx.skip(
            `orders answered a list (${(v as unknown[]).length} entries) for a new customer, who has none to carry order_id, and document 3 has no operation that places one; set SFC_GQL_EMAIL and SFC_GQL_PASSWORD to a customer with orders`,
          );
        const theirs = await seeded.send(ctx, (o) => op(ctx, 'orders', { start: 0, limit: 5 }, o));
        const list = accepted(ctx, theirs, 'orders');
        ctx.expect(
          Array.isArray(list),
          `SFC_GQL_EMAIL customer: expected orders to be a list, got ${short(list)}`,
          theirs.exchange,
        );
        validateData(ctx, theirs, 'orders');
        const bare = (list as unknown[]).filter((o) => {
          const id = record(o)?.order_id;
          return !(typeof id === 'string' ? id.length > 0 : typeof id === 'number');
        });
        ctx.expect(
          bare.length === 0,
          `SFC_GQL_EMAIL customer: ${bare.length} entries without an order_id: ${short(bare.slice(0, 3))}`,
          theirs.exchange,
        );
        if ((list as unknown[]).length === 0)
          ctx.skip('orders answered an empty list for the SFC_GQL_EMAIL customer too: no entry was seen to carry order_id');
        ctx.state.orders = theirs;
      },
    },
    {
      id: 'GQL-ENV-03',
      title: 'orders returns exactly the selected fields',
      needs: ['orders'],
      async run(ctx: C) {
        const res = ctx.state.orders!;
        // On an empty list no selected field can be seen present (or extra): nothing is judged.
        if ((orderList(res) ?? []).length === 0)
          ctx.skip('orders returned no entry (a new customer has none; SFC_GQL_EMAIL names no customer with orders)');
        expectSelection(ctx, res);
      },
    },
    {
      id: 'GQL-ORD-02',
      title:
        'orders returns at most limit entries (limits 1 and 2, with and without the token; limit 0 where a page held entries; limit 1 also without start)',
      needs: ['a'],
      async run(ctx: C) {
        let seen = 0;
        for (const { token, send } of orderCallers(ctx)) {
          let most = 0;
          for (const limit of [1, 2]) {
            const res = await send((o) => op(ctx, 'orders', { start: 0, limit }, o));
            const list = orderList(res);
            if (!list) {
              if (token)
                ctx.fail(
                  `orders with the token: expected a list, got ${refusal(res, 'orders') ?? short(res.data?.orders)}`,
                  res.exchange,
                );
              continue; // whether orders needs a token is not shown (NS-GQL-05)
            }
            seen = Math.max(seen, list.length);
            most = Math.max(most, list.length);
            ctx.expect(
              list.length <= limit,
              `limit ${limit}: expected at most ${limit} entries, got ${list.length}`,
              res.exchange,
            );
          }
          // A limit of 0 is a value given, not a limit left out (PHP's empty() takes it for none and answers
          // the default page): sent where a page held entries, so that any entry shows; a refusal lists nothing,
          // which keeps the bound (whether a target takes a limit of 0 is not shown, NS-GQL-09).
          if (most >= 1) {
            const zero = await send((o) => op(ctx, 'orders', { start: 0, limit: 0 }, o));
            const none = orderList(zero);
            if (!none) ctx.note(`orders(start 0, limit 0) was refused: ${refusal(zero, 'orders') ?? short(zero.data?.orders)}`);
            else
              ctx.expect(
                none.length === 0,
                `orders(start 0, limit 0): expected no entry, got ${none.length} (the limit 0 read as none given?)`,
                zero.exchange,
              );
          }
          // start and limit are both optional Int: limit 1 alone pages too. Sent where a page of 2 held
          // 2 entries, so that one too many shows; a refusal lists nothing, which keeps the bound.
          if (most < 2) continue;
          const alone = await send((o) =>
            gql(ctx).runText('query orders($limit: Int!) { orders(limit: $limit) { order_id } }', { limit: 1 }, o),
          );
          const list = orderList(alone);
          if (!list)
            ctx.note(`orders(limit: 1) without start was refused: ${refusal(alone, 'orders') ?? short(alone.data?.orders)}`);
          else
            ctx.expect(
              list.length <= 1,
              `orders(limit: 1) without start: expected at most 1 entry, got ${list.length}`,
              alone.exchange,
            );
        }
        if (seen === 0)
          ctx.skip(
            'orders returned no entry to any caller (a new customer has none; set SFC_GQL_EMAIL and SFC_GQL_PASSWORD to a customer with orders), so the limit was only seen on empty lists',
          );
      },
    },
    {
      id: 'GQL-ORD-03',
      title:
        'start is an offset: (start 1, limit 1) is the second entry of (start 0, limit 2), which is not short of a page of 4, pages of 2 are slices of one window, and the page after the window repeats none of it',
      needs: ['a'],
      async run(ctx: C) {
        const seeded = seededCustomer(ctx);
        for (const { send } of orderCallers(ctx)) {
          const two = await send((o) => op(ctx, 'orders', { start: 0, limit: 2 }, o));
          const page = orderList(two);
          const second = page?.[1];
          if (!second) {
            // One entry on a page of limit 2: the caller has one order, or the page lost an entry. A page of limit
            // 4 tells them apart (asked only then): where it holds 2 or more, the page of limit 2 is its first two
            // (a resolver that drops the last row of a full page, its look-ahead pop left without the look-ahead).
            if (page?.length !== 1) continue;
            const wide = await send((o) => op(ctx, 'orders', { start: 0, limit: 4 }, o));
            const window = (orderList(wide) ?? []).map((o) => String(o.order_id));
            if (window.length < 2) continue;
            ctx.fail(
              `orders(start 0, limit 2) answered 1 entry ${short(page.map((o) => o.order_id))}, but orders(start 0, limit 4) holds ${window.length}: expected its first two ${short(window.slice(0, 2))}`,
              two.exchange,
              wide.exchange,
            );
          }
          const next = await send((o) => op(ctx, 'orders', { start: 1, limit: 1 }, o));
          const got = orderList(next)?.[0];
          ctx.expect(
            got && String(got.order_id) === String(second.order_id),
            `expected order_id ${short(second.order_id)} at start 1, got ${short(got?.order_id)}`,
            two.exchange,
            next.exchange,
          );
          // With limit 1 an offset and a page number (offset start x limit) agree: pages of 2 tell them
          // apart. Each page must be the slice [start, start + limit) of one window from start 0,
          // judged where the window holds that whole slice (small limits only, NS-GQL-09).
          const wide = await send((o) => op(ctx, 'orders', { start: 0, limit: 4 }, o));
          const window = (orderList(wide) ?? []).map((o) => String(o.order_id));
          for (const start of [1, 2]) {
            if (window.length < start + 2) break;
            const res = await send((o) => op(ctx, 'orders', { start, limit: 2 }, o));
            const page = (orderList(res) ?? []).map((o) => String(o.order_id));
            const want = window.slice(start, start + 2);
            ctx.expect(
              JSON.stringify(page) === JSON.stringify(want),
              `expected orders(start ${start}, limit 2) to be entries ${start + 1}-${start + 2} of orders(start 0, limit 4) ${short(window)}: ${short(want)}, got ${short(page)}${page[0] !== undefined && page[0] === window[start * 2] ? ' (start read as a page number?)' : ''}`,
              wide.exchange,
              res.exchange,
            );
          }
          // The page after the window, partial or past the end: an offset page shares no entry with
          // the window. A resolver that fills a short last page (start moved back to count - limit)
          // repeats entries of the window.
          if (window.length > 0) {
            const after = await send((o) => op(ctx, 'orders', { start: window.length, limit: 4 }, o));
            const why = refusal(after, 'orders');
            if (why) ctx.note(`orders(start ${window.length}, limit 4), the page after the window, was refused: ${why}`);
            const repeated = (orderList(after) ?? []).map((o) => String(o.order_id)).filter((id) => window.includes(id));
            ctx.expect(
              repeated.length === 0,
              `expected orders(start ${window.length}, limit 4) to hold no entry of orders(start 0, limit 4) ${short(window)}; it repeats ${short(repeated)} (a partial last page filled from the page before?)`,
              wide.exchange,
              after.exchange,
            );
          }
          return;
        }
        ctx.skip(
          seeded
            ? 'fewer than 2 orders are visible to the SFC_GQL_EMAIL customer'
            : 'fewer than 2 orders are visible: a new customer has none and document 3 has no operation that places one; set SFC_GQL_EMAIL and SFC_GQL_PASSWORD to a customer with orders',
        );
      },
    },
    {
      id: 'GQL-ORD-04',
      title: "a new customer's orders list, and orders without a token, show no other customer's orders",
      needs: ['a'],
      async run(ctx: C) {
        for (const token of [ctx.state.a!.token, undefined]) {
          const res = await op(ctx, 'orders', { start: 0, limit: 5 }, token ? { token } : {});
          const list = orderList(res) ?? [];
          ctx.expect(
            list.length === 0,
            `${token ? "a new customer's token" : 'no token'}: expected no orders (a new customer has placed none), got ${list.length}: ${short(list.slice(0, 3))}`,
            res.exchange,
          );
        }
      },
    },
    noSecretsCheck<QueriesState>(),
  ],
};

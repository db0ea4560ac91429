import { Kind, type OperationDefinitionNode, parse } from 'graphql';
import { money } from '../../graphql/context.js';
import { type Fault, type FaultRequest, isObject } from '../model.js';
import { bearerCustomer, has, variables } from './shared.js';

/**
 * Whether an orders field of the request runs without a value for `argument`: the argument left out, or given as a
 * variable the request's variables do not hold (webonyx then leaves the key out of $args).
 */
function ordersWithout(req: FaultRequest, argument: string): boolean {
  if (!has(req, 'orders')) return false;
  let ops: OperationDefinitionNode[];
  try {
    ops = parse(req.endpoint, { maxTokens: 5000 }).definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
  } catch {
    return false;
  }
  const given = variables(req) ?? {};
  return ops.some((op) =>
    op.selectionSet.selections.some((f) => {
      if (f.kind !== Kind.FIELD || f.name.value !== 'orders') return false;
      const arg = f.arguments?.find((a) => a.name.value === argument);
      return !arg || (arg.value.kind === Kind.VARIABLE && !(arg.value.name.value in given));
    }),
  );
}

export const limitIgnored: Fault = {
  id: 'GQL-LIMIT-IGNORED',
  iface: 'graphql',
  before(req) {
    const v = variables(req);
    if (has(req, 'orders') && v && 'limit' in v) v.limit = 100;
  },
};

export const startIgnored: Fault = {
  id: 'GQL-START-IGNORED',
  iface: 'graphql',
  before(req) {
    const v = variables(req);
    if (has(req, 'orders') && v && 'start' in v) v.start = 0;
  },
};

export const startAsPage: Fault = {
  id: 'GQL-START-AS-PAGE',
  iface: 'graphql',
  // start read as a page number (the platform's own `page` parameter): the offset is start x limit.
  before(req) {
    const v = variables(req);
    if (!has(req, 'orders') || !v || typeof v.start !== 'number' || v.start <= 0) return;
    const limit = typeof v.limit === 'number' && v.limit > 0 ? v.limit : 10;
    v.start = Math.min(v.start * limit, 2 ** 31 - 1);
  },
};

export const ordersLimitNeedsStart: Fault = {
  id: 'GQL-ORDERS-LIMIT-NEEDS-START',
  iface: 'graphql',
  // The resolver pages only when both arguments are given (isset(start) && isset(limit)): a limit
  // sent alone is dropped and the default page (10 orders) comes back.
  before(req) {
    const v = variables(req);
    if (has(req, 'orders') && v && v.limit != null && v.start == null) v.limit = 10;
  },
};

export const ordersLastPageFull: Fault = {
  id: 'GQL-ORDERS-LAST-PAGE-FULL',
  iface: 'graphql',
  // The resolver "fills" a last page: when start + limit runs past the customer's orders, start is
  // moved back to count - limit, so a partial last page comes back full, repeating entries of the
  // page before it, and a start past the end repeats the last page.
  async before(req, ctx) {
    const v = variables(req);
    if (!has(req, 'orders') || !v || typeof v.start !== 'number' || v.start <= 0) return;
    const me = await bearerCustomer(req, ctx);
    if (me === undefined) return;
    const limit = typeof v.limit === 'number' && v.limit > 0 ? Math.min(v.limit, 100) : 10;
    const { n } = ctx.db.prepare('SELECT COUNT(*) AS n FROM gql_order WHERE customer_id = ?').get(me) as { n: number };
    if (v.start + limit > n) v.start = Math.max(0, n - limit);
  },
};

export const ordersLimitZeroDefault: Fault = {
  id: 'GQL-ORDERS-LIMIT-ZERO-DEFAULT',
  iface: 'graphql',
  // The orders resolver reads its paging as the platform's list controllers read a query string:
  // $limit = !empty($args['limit']) ? (int)$args['limit'] : 10. empty() is true for 0, so a limit of 0, a value
  // the client gave, counts as none and the default page of up to 10 orders is answered. Every other limit pages
  // as it should (a limit of 1 or more, and a start of 0, which empty() turns into the default 0).
  before(req) {
    const v = variables(req);
    if (has(req, 'orders') && v && v.limit === 0) v.limit = 10;
  },
};

export const ordersStartOneBased: Fault = {
  id: 'GQL-ORDERS-START-ONE-BASED',
  iface: 'graphql',
  // The orders resolver was copied from the platform's account/order list, whose offset is ($page - 1) * $limit for
  // a 1-based page: the vendor put start where $page was and dropped the multiplication, keeping the - 1 (floored
  // at 0), so the offset is start - 1. start 0 and start 1 both answer the first entries, and the page a client
  // asks for after a page of limit entries (start = limit) begins with the last entry of that page again.
  before(req) {
    const v = variables(req);
    if (has(req, 'orders') && v && typeof v.start === 'number' && v.start > 0) v.start -= 1;
  },
};

export const ordersStartUndefinedWarning: Fault = {
  id: 'GQL-ORDERS-START-UNDEFINED-WARNING',
  iface: 'graphql',
  // The orders resolver reads $start = (int)$args['start']; without isset() (limit got its default of 10 through
  // isset(), start did not), and the shop runs with display_errors on: an orders query that leaves start out, an
  // optional argument, has PHP's warning printed in front of the JSON (Warning: Undefined array key "start" in
  // .../svc_graphql.php on line 212). The orders themselves are right, and a query with start answers JSON.
  after(res, req) {
    if (typeof res.body === 'string' || !ordersWithout(req, 'start')) return;
    res.body = `<br />\n<b>Warning</b>:  Undefined array key "start" in <b>/var/www/html/catalog/controller/extension/svc_graphql/svc_graphql.php</b> on line <b>212</b><br />\n${JSON.stringify(res.body)}`;
  },
};

export const ordersFullPagePopped: Fault = {
  id: 'GQL-ORDERS-FULL-PAGE-POPPED',
  iface: 'graphql',
  // The resolver was written for a look-ahead row: it fetched LIMIT start, limit + 1, and when more than a page
  // came back it set has_more and dropped the extra row. A refactor that cast the paging (LIMIT (int)$start,
  // (int)$limit) lost the + 1 and left the test as count($rows) >= $limit: every full page loses its last entry,
  // so a page of limit 2 answers 1 entry, one of limit 1 none, while a page of limit 4 answers 3; a partial page
  // (fewer orders left than the limit) comes back whole.
  after(res, req) {
    const v = variables(req) ?? {};
    const data = isObject(res.body) ? res.body.data : undefined;
    const list = isObject(data) ? data.orders : undefined;
    if (!has(req, 'orders') || !Array.isArray(list)) return;
    const limit = typeof v.limit === 'number' && v.limit > 0 ? Math.min(v.limit, 100) : 10;
    if (list.length >= limit) list.pop();
  },
};

export const ordersOffsetTwice: Fault = {
  id: 'GQL-ORDERS-OFFSET-TWICE',
  iface: 'graphql',
  // The model pages in SQL (LIMIT start, limit) and the resolver, written for the unpaged
  // getOrders(), pages the rows again with array_slice($rows, $start, $limit): a page after the
  // first loses its first start entries, and (start 1, limit 1) comes back empty.
  after(res, req) {
    const v = variables(req);
    const data = isObject(res.body) ? res.body.data : undefined;
    if (!has(req, 'orders') || !v || typeof v.start !== 'number' || v.start <= 0) return;
    if (!isObject(data) || !Array.isArray(data.orders)) return;
    data.orders = data.orders.slice(v.start);
  },
};

export const ordersEmptyPageError: Fault = {
  id: 'GQL-ORDERS-EMPTY-PAGE-ERROR',
  iface: 'graphql',
  // The resolver treats an empty result as a failure (if (!$results) throw new Error('No orders
  // found.')): a customer without orders, or a page past the last, answers orders: null and an
  // error instead of an empty list.
  after(res, req) {
    const data = isObject(res.body) ? res.body.data : undefined;
    if (!has(req, 'orders') || !isObject(data) || !Array.isArray(data.orders) || data.orders.length > 0) return;
    const message = 'No orders found.';
    data.orders = null;
    const earlier = isObject(res.body) && Array.isArray(res.body.errors) ? res.body.errors : [];
    res.body = {
      data,
      errors: [...earlier, { message, path: ['orders'], extensions: { code: 'NOT_FOUND' } }],
      status: false,
      message,
    };
  },
};

/** The response keys the orders field of the request selects (aliases as sent); empty when it cannot be read. */
function ordersSelection(req: FaultRequest): string[] {
  try {
    for (const d of parse(req.endpoint, { maxTokens: 5000 }).definitions) {
      if (d.kind !== Kind.OPERATION_DEFINITION) continue;
      for (const f of d.selectionSet.selections)
        if (f.kind === Kind.FIELD && f.name.value === 'orders' && f.selectionSet)
          return f.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.alias?.value ?? s.name.value] : []));
    }
  } catch {
    // not parsed: the handler refused it
  }
  return [];
}

/** orders requests -> their customer (GQL-ORDERS-LIMIT-COUNTS-PRODUCT-ROWS). */
const ordersCustomer = new WeakMap<object, number>();

export const ordersLimitCountsProductRows: Fault = {
  id: 'GQL-ORDERS-LIMIT-COUNTS-PRODUCT-ROWS',
  iface: 'graphql',
  // The orders resolver joins the order's products (for a product count the list once showed): SELECT o.order_id, ...
  // FROM order o LEFT JOIN order_product op ON (op.order_id = o.order_id) WHERE o.customer_id = ? ORDER BY o.order_id
  // DESC LIMIT start, limit, and folds the rows into orders in PHP ($orders[$row['order_id']] = ..., then
  // array_values). LIMIT and OFFSET count joined rows, one per product: a page holding an order of two products
  // answers fewer orders than the limit, and the next page starts inside that order, so it repeats it. Customers
  // whose orders each hold one product page right.
  async before(req, ctx) {
    if (!has(req, 'orders')) return;
    const me = await bearerCustomer(req, ctx);
    if (me !== undefined) ordersCustomer.set(req.raw, me);
  },
  after(res, req, ctx) {
    const me = ordersCustomer.get(req.raw);
    const data = isObject(res.body) ? res.body.data : undefined;
    if (me === undefined || !isObject(data) || !Array.isArray(data.orders)) return;
    const v = variables(req) ?? {};
    const start = typeof v.start === 'number' ? v.start : 0;
    const limit = typeof v.limit === 'number' ? Math.min(v.limit, 100) : 10;
    const keys = ordersSelection(req);
    if (start < 0 || limit < 1 || keys.length === 0) return;
    const orders = ctx.db.prepare('SELECT * FROM gql_order WHERE customer_id = ? ORDER BY order_id DESC').all(me) as Array<
      Record<string, unknown>
    >;
    const rows = orders.flatMap((o) => Array.from({ length: Math.max(1, Number(o.products)) }, () => o));
    const page = [...new Set(rows.slice(start, start + limit))];
    const entry = (o: Record<string, unknown>): Record<string, unknown> => {
      const full: Record<string, unknown> = {
        order_id: o.order_id,
        status: o.status,
        total: money(Number(o.total_cents)),
        currency_code: o.currency_code,
        products: o.products,
        date_added: o.date_added,
      };
      return Object.fromEntries(keys.map((k) => [k, full[k] ?? null]));
    };
    data.orders = page.map(entry);
  },
};

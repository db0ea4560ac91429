import { createHash } from 'node:crypto';
import { Kind, type ObjectFieldNode, type OperationDefinitionNode, parse, print, visit } from 'graphql';
import { AnswerCache, isNumeric, jsonWithParameter, stripslashes } from '../emulation.js';
import { type Fault, isObject } from '../model.js';
import { CART_FIELDS, clean, has, result } from './shared.js';

/** Every field of a cart line, as the vendor's line resolver returns them whatever the selection. */
const LINE_SELECTION = (
  parse(
    '{ cart_id product_id name model shipping image option { option_id name value } download { download_id name } quantity minimum subtract stock price total reward points tax_class_id weight weight_class_id length width height length_class_id }',
  ).definitions[0] as OperationDefinitionNode
).selectionSet;

/** Requests the operation-name gate refused, for `after` to answer as the gate did (nothing executed). */
const gatedByName = new WeakSet<object>();

/** Answers of queries by request body (query text and variables), for 10 s (GQL-QUERY-CACHE-NO-TOKEN). */
const QUERY_CACHE = new AnswerCache<unknown>(10_000);

/** Query requests -> their cache key; those answered from the cache. */
const queryKeys = new WeakMap<object, string>();

const cachedAnswers = new WeakMap<object, unknown>();

/** The operation of a GraphQL text when it is a query (not a mutation); false for anything else or a syntax error. */
function isQueryText(text: string): boolean {
  try {
    const ops = parse(text, { maxTokens: 5000 }).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    return ops.length === 1 && (ops[0] as OperationDefinitionNode).operation === 'query';
  } catch {
    return false;
  }
}

export const unselectedField: Fault = {
  id: 'GQL-UNSELECTED-FIELD',
  iface: 'graphql',
  // A resolver that returns its whole row, bypassing the selection set.
  after(res) {
    for (const f of CART_FIELDS) {
      const r = result(res, f);
      if (r && !('currency_code' in r)) r.currency_code = 'USD';
    }
  },
};

export const syntax500: Fault = {
  id: 'GQL-SYNTAX-500',
  iface: 'graphql',
  after(res) {
    const errors = isObject(res.body) ? res.body.errors : undefined;
    if (Array.isArray(errors) && errors.some((e) => isObject(e) && /^Syntax Error/.test(String(e.message)))) {
      res.status = 500;
      res.body = { errors: [{ message: 'Internal server error' }] };
    }
  },
};

export const noDataWrapper: Fault = {
  id: 'GQL-NO-DATA-WRAPPER',
  iface: 'graphql',
  after(res) {
    if (isObject(res.body) && isObject(res.body.data) && !res.body.errors) res.body = res.body.data;
  },
};

export const imageAbsolute: Fault = {
  id: 'GQL-IMAGE-ABSOLUTE',
  iface: 'graphql',
  after(res) {
    for (const f of CART_FIELDS) {
      const items = result(res, f)?.items;
      if (Array.isArray(items))
        for (const line of items)
          if (isObject(line) && typeof line.image === 'string' && !/^https?:/.test(line.image))
            line.image = `http://shop.example.test/image/${line.image}`;
    }
  },
};

export const lineAllFields: Fault = {
  id: 'GQL-LINE-ALL-FIELDS',
  iface: 'graphql',
  // The cart line resolver returns its whole row: a client selecting a few line fields gets all of
  // them (the summary's own fields do follow the selection).
  before(req) {
    const body = req.raw.body;
    if (!has(req, 'items') || !isObject(body) || typeof body.query !== 'string') return;
    let document: ReturnType<typeof parse>;
    try {
      document = parse(body.query, { maxTokens: 5000 });
    } catch {
      return; // the handler answers the syntax error
    }
    body.query = print(
      visit(document, {
        Field(node) {
          if (node.name.value === 'items' && node.selectionSet?.kind === Kind.SELECTION_SET)
            return { ...node, selectionSet: LINE_SELECTION };
          return undefined;
        },
      }),
    );
  },
};

export const jsonCharsetEmpty: Fault = {
  id: 'GQL-JSON-CHARSET-EMPTY',
  iface: 'graphql',
  // The endpoint reads php://input only when Content-Type is exactly application/json, and $_POST
  // otherwise: a JSON body sent as application/json; charset=utf-8 (the same media type with a
  // parameter, as many clients send it) is read as an empty request.
  before(req) {
    if (jsonWithParameter(req.raw.headers['content-type'])) req.raw.body = {};
  },
};

export const publicByOperationName: Fault = {
  id: 'GQL-PUBLIC-BY-OPERATION-NAME',
  iface: 'graphql',
  // The controller decides whether a request needs a token before the document is parsed, from the first
  // "mutation <name>" or "query <name>" in its text: only the names login and register are public. A login or
  // register sent as an anonymous operation, or under a name of the client's own (mutation SignIn), is refused
  // with 401 as a request without a token.
  before(req) {
    const body = req.raw.body;
    if (req.raw.headers.authorization || !isObject(body) || typeof body.query !== 'string') return;
    if (!/\b(login|register)\s*\(/.test(body.query)) return;
    const name = /\b(?:mutation|query)\s+([_A-Za-z]\w*)/.exec(body.query)?.[1];
    if (name === 'login' || name === 'register') return;
    gatedByName.add(req.raw);
    body.query = '{ __typename }'; // nothing runs: the gate answers first
  },
  after(res, req) {
    if (!gatedByName.has(req.raw)) return;
    const message = 'This operation requires a token: send header Authorization: Bearer <token> (from the login mutation).';
    res.status = 401;
    res.body = { errors: [{ message, extensions: { code: 'UNAUTHENTICATED' } }], status: false, message };
  },
};

export const queryCacheNoToken: Fault = {
  id: 'GQL-QUERY-CACHE-NO-TOKEN',
  iface: 'graphql',
  // A response cache in front of the endpoint keeps the answers of queries (not mutations) for 10 s, keyed by the
  // request body, query text and variables, without the Authorization header: customerByEmail of an e-mail asked
  // first by another customer (whose answer is null) answers null to the e-mail's own customer, and the
  // customer's own record is served to whoever asks next. Errors are not cached.
  before(req, ctx) {
    const body = req.raw.body;
    if (!isObject(body) || typeof body.query !== 'string' || !isQueryText(body.query)) return;
    let key: string;
    try {
      key = JSON.stringify([body.query, body.variables ?? null]);
    } catch {
      return; // variables nested too deep to hash: not cacheable, the handler answers
    }
    queryKeys.set(req.raw, key);
    const hit = QUERY_CACHE.get(ctx.db, key);
    if (hit !== undefined) cachedAnswers.set(req.raw, hit);
  },
  after(res, req, ctx) {
    const key = queryKeys.get(req.raw);
    if (key === undefined) return;
    if (cachedAnswers.has(req.raw)) {
      res.status = 200;
      res.body = cachedAnswers.get(req.raw);
      return;
    }
    if (res.status === 200 && clean(res) && isObject(res.body) && isObject(res.body.data)) QUERY_CACHE.put(ctx.db, key, res.body);
  },
};

export const queryTextStripslashes: Fault = {
  id: 'GQL-QUERY-TEXT-STRIPSLASHES',
  iface: 'graphql',
  // The controller passes the request's strings through the platform's old input filter, written for magic_quotes
  // (stripslashes()), before the executor parses them: the query text goes through it, the variables array does
  // not. A string written inline with an escape (\" or \\, a quote or backslash in a password or a name) loses
  // its backslash, so the literal ends early or reads otherwise; the same value through variables is taken as sent.
  before(req) {
    const body = req.raw.body;
    if (isObject(body) && typeof body.query === 'string' && body.query.includes('\\')) body.query = stripslashes(body.query);
  },
};

/** json_encode's JSON_NUMERIC_CHECK: every string PHP's is_numeric() takes is written as a number. */
function numericChecked(node: unknown): unknown {
  if (typeof node === 'string') return isNumeric(node) ? Number(node) : node;
  if (Array.isArray(node)) return node.map(numericChecked);
  if (isObject(node)) return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, numericChecked(v)]));
  return node;
}

export const jsonNumericCheck: Fault = {
  id: 'GQL-JSON-NUMERIC-CHECK',
  iface: 'graphql',
  // The controller writes the result with json_encode($result, JSON_NUMERIC_CHECK), added so that prices MySQL
  // hands over as strings come out as numbers: every string is_numeric() takes becomes a number too. The coupon
  // code 2222 comes back as coupon_code: 2222, a number where the document says String (and IDs as numbers).
  after(res) {
    if (isObject(res.body) && 'data' in res.body) res.body = { ...res.body, data: numericChecked(res.body.data) };
  },
};

/** addProductToCart requests whose options were written inline -> the kind of the literal (ObjectValue or ListValue). */
const inlineOptions = new WeakMap<object, string>();

export const optionsLiteralStringsOnly: Fault = {
  id: 'GQL-OPTIONS-LITERAL-STRINGS-ONLY',
  iface: 'graphql',
  // The vendor wrote the CartOptions scalar from graphql-php's custom scalar example (EmailType): parseValue takes
  // the decoded array that variables give, parseLiteral keeps the example's
  // if (!$valueNode instanceof StringValueNode) throw new Error('Query error: Can only parse strings got: ' .
  // $valueNode->kind);. options written inline in the query ({} or [], even empty) fail validation, so an
  // addProductToCart with its input inline adds nothing; through variables it works.
  before(req) {
    const body = req.raw.body;
    if (!isObject(body) || typeof body.query !== 'string' || !/\boptions\s*:\s*[{[]/.test(body.query)) return;
    let document: ReturnType<typeof parse>;
    try {
      document = parse(body.query, { maxTokens: 5000 });
    } catch {
      return;
    }
    let kind: string | undefined;
    const changed = visit(document, {
      ObjectField(node: ObjectFieldNode) {
        if (node.name.value !== 'options' || (node.value.kind !== Kind.OBJECT && node.value.kind !== Kind.LIST)) return undefined;
        kind = node.value.kind === Kind.OBJECT ? 'ObjectValue' : 'ListValue';
        // An undefined variable in its place: validation refuses the document and nothing runs, as the throw does.
        return { ...node, value: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: 'sfcInlineOptions' } } };
      },
    });
    if (!kind) return;
    inlineOptions.set(req.raw, kind);
    body.query = print(changed);
  },
  after(res, req) {
    const kind = inlineOptions.get(req.raw);
    if (!kind) return;
    const message = `Expected value of type "CartOptions", found ${kind === 'ObjectValue' ? '{}' : '[]'}; Query error: Can only parse strings got: ${kind}`;
    res.body = { errors: [{ message, extensions: { category: 'graphql' } }], status: false, message };
  },
};

export const downloadRowFields: Fault = {
  id: 'GQL-DOWNLOAD-ROW-FIELDS',
  iface: 'graphql',
  // The cart line's download field is the vendor's JSON scalar, resolved with the entries of the platform's
  // cart->getProducts(), which builds each download as array('download_id', 'name', 'filename', 'mask'): a line of
  // a product with a download answers the stored file's name (with its random suffix) and its mask beside the
  // selected download_id and name. Lines without downloads, and the other line fields, follow the selection.
  after(res) {
    for (const f of CART_FIELDS) {
      const items = result(res, f)?.items;
      if (!Array.isArray(items)) continue;
      for (const line of items) {
        const downloads = isObject(line) && Array.isArray(line.download) ? line.download : [];
        for (const d of downloads) {
          if (!isObject(d) || d.download_id === undefined) continue;
          const mask = `${String(d.name ?? 'download')
            .replace(/\W+/g, '_')
            .toLowerCase()}.pdf`;
          const suffix = createHash('sha1')
            .update(`download-${String(d.download_id)}`)
            .digest('hex');
          Object.assign(d, { filename: `${mask}.${suffix}`, mask });
        }
      }
    }
  },
};

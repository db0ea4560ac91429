import { describe, expect, it } from 'vitest';
import { type Exchange, REDACTED, redact, responseJson, responseObject, toCurl } from '../../src/http/exchange.js';

const exchange = (over: Partial<Exchange['request']> = {}): Exchange => ({
  request: {
    method: 'POST',
    url: 'http://t/x',
    headers: { 'content-type': 'application/json', svc_token: 'eyJ.abc.def' },
    ...over,
  },
  response: { status: 200, headers: { 'set-cookie': 'sid=1' }, body: '{"svc_token":"eyJ.abc.def"}' },
  durationMs: 3,
  startedAt: '2026-01-01T00:00:00.000Z',
});

describe('redaction', () => {
  it('hides token headers, cookies and password fields', () => {
    const safe = redact(exchange({ body: JSON.stringify({ username: 'u1', password: 'p@ss', nested: { confirm: 'p@ss' } }) }));
    expect(safe.request.headers.svc_token).toBe(REDACTED);
    expect(safe.request.body).not.toContain('p@ss');
    expect(JSON.parse(safe.request.body ?? '{}').username).toBe('u1');
    expect(safe.response?.headers['set-cookie']).toBe(REDACTED);
  });
  it('hides known secrets wherever they appear, responses included', () => {
    const safe = redact(exchange(), ['eyJ.abc.def']);
    expect(JSON.stringify(safe)).not.toContain('eyJ.abc.def');
  });
  it('hides password fields of form bodies', () => {
    const safe = redact(exchange({ form: { username: 'u1', password: 'hunter22' }, body: 'username=u1&password=hunter22' }));
    expect(safe.request.form?.password).toBe(REDACTED);
    expect(safe.request.body).not.toContain('hunter22');
  });
  it('leaves the original exchange untouched', () => {
    const ex = exchange();
    redact(ex, ['eyJ.abc.def']);
    expect(ex.request.headers.svc_token).toBe('eyJ.abc.def');
  });
});

describe('curl lines', () => {
  it('replays a JSON request', () => {
    expect(toCurl(exchange({ body: '{"a":"it\'s"}' }))).toBe(
      `curl -sS -X POST 'http://t/x' -H 'content-type: application/json' -H 'svc_token: eyJ.abc.def' --data-raw '{"a":"it'\\''s"}'`,
    );
  });
  it('replays a multipart request with -F and no fixed boundary', () => {
    const line = toCurl(exchange({ headers: { 'content-type': 'multipart/form-data' }, form: { a: '1', 'b[c]': '2' } }));
    expect(line).toBe(`curl -sS -X POST 'http://t/x' -F 'a=1' -F 'b[c]=2'`);
  });
});

describe('tokens in responses', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXBhcnQ';
  it('redacts secrets written inline in a GraphQL document, and nothing else of it', () => {
    const query =
      'mutation { login(email: "a@b.test", password: "Pw-1-\\"x") { svc_token } register(input: {confirm: "c1", firstname: "Ann"}) }';
    const safe = redact(exchange({ body: JSON.stringify({ query, variables: {} }) }));
    const sent = JSON.parse(safe.request.body ?? '{}') as { query: string };
    expect(sent.query).toBe(
      `mutation { login(email: "a@b.test", password: "${REDACTED}") { svc_token } register(input: {confirm: "${REDACTED}", firstname: "Ann"}) }`,
    );
  });
  it('redacts JWTs anywhere but keeps their header segment', () => {
    const ex = exchange();
    if (ex.response) ex.response.body = `{"note":"Bearer ${jwt}"}`;
    const safe = redact(ex);
    expect(safe.response?.body).not.toContain('eyJzdWIiOiIxMjMifQ');
    expect(safe.response?.body).toContain('eyJhbGciOiJSUzI1NiJ9.');
  });
  it('redacts token fields of JSON responses, whatever their shape', () => {
    const ex = exchange();
    if (ex.response)
      ex.response.body = JSON.stringify({ data: { token: 'opaque-123456' }, letscms_token: 'abc-987654', token_type: 'x' });
    const body = redact(ex).response?.body ?? '';
    expect(body).not.toContain('opaque-123456');
    expect(body).not.toContain('abc-987654');
  });
});

describe('parsed response bodies', () => {
  const answered = (body: string): Exchange => ({ ...exchange(), response: { status: 200, headers: {}, body } });

  it('parses a body once: later reads get the same value, frozen so no reader can change it for the others', () => {
    const ex = answered('{"status":true,"data":{"items":[1,2]}}');
    const first = responseObject(ex) as { data: { items: number[] } };
    expect(first).toEqual({ status: true, data: { items: [1, 2] } });
    expect(responseJson(ex)).toBe(first);
    expect(Object.isFrozen(first.data.items)).toBe(true);
    expect(() => first.data.items.push(3)).toThrow(TypeError);
  });
  it('reads every JSON value, and nothing else', () => {
    expect(responseJson(answered(' \n[1]'))).toEqual([1]);
    expect(responseObject(answered('[1]'))).toBeUndefined();
    expect(responseJson(answered('-1.5'))).toBe(-1.5);
    expect(responseJson(answered('null'))).toBeNull();
    expect(responseJson(answered('<html>'))).toBeUndefined();
    expect(responseJson(answered(''))).toBeUndefined();
    expect(responseJson(answered('{"cut":'))).toBeUndefined();
    expect(responseJson(answered('nope'))).toBeUndefined();
    expect(responseJson({ ...exchange(), response: undefined, error: 'refused' })).toBeUndefined();
  });
  it('redacts a form body that starts like JSON as a form', () => {
    const safe = redact(exchange({ body: '1password=hunter22&x=1' }));
    expect(safe.request.body).toBe(`1password=${REDACTED}&x=1`);
  });
});

import { PactV4, MatchersV3, Verifier } from '@pact-foundation/pact';
import { buildServer, urlsFor } from '/work/main/reference-impl/src/server.js';
process.env.PACT_DO_NOT_TRACK = 'true';
const { like, regex, eachLike, fromProviderState } = MatchersV3;
const pact = new PactV4({ consumer: 'c', provider: 'p', dir: '/tmp/pp/out', logLevel: 'error' });
const boundary = 'sfcboundary';
const body = `--${boundary}\r\nContent-Disposition: form-data; name="page"\r\n\r\n1\r\n--${boundary}--\r\n`;
await pact.addInteraction().given('products exist', { page: 1 }).uponReceiving('list products')
  .withRequest('GET', fromProviderState('/shop/wp-json/svc/v1/product/${id}', '/shop/wp-json/svc/v1/product/1') as unknown as string, (b) => b.headers({ svc_token: 'x' }))
  .willRespondWith(200, (b) => b.jsonBody({ status: like(true), data: { id: like(1), name: like('x') } }))
  .executeTest(async (ms) => { const r = await fetch(`${ms.url}/shop/wp-json/svc/v1/product/1`, { headers: { svc_token: 'x' } }); console.log(r.status, await r.text()); });
await pact.addInteraction().given('a customer', { username: 'bob' }).uponReceiving('login')
  .withRequest('POST', '/shop/wp-json/svc/v1/auth/login', (b) => b.body(`multipart/form-data; boundary=${boundary}`, Buffer.from(body)))
  .willRespondWith(200, (b) => b.jsonBody({ status: like(true), message: like('m') }))
  .executeTest(async (ms) => { const r = await fetch(`${ms.url}/shop/wp-json/svc/v1/auth/login`, { method: 'POST', headers: {'content-type': `multipart/form-data; boundary=${boundary}`}, body }); console.log(r.status, await r.text()); });
const { app } = await buildServer({ db: ':memory:' });
const addr = await app.listen({ port: 0, host: '127.0.0.1' });
const t0 = Date.now();
try {
  const out = await new Verifier({ providerBaseUrl: addr, pactUrls: ['/tmp/pp/out/c-p.json'], logLevel: 'error',
    stateHandlers: { 'products exist': async (p) => { console.log('state', p); return { id: 2 }; }, 'a customer': async () => undefined },
    requestFilter: (req, _res, next) => { console.log('filter', req.path, req.headers.svc_token); next(); } }).verifyProvider();
  console.log('OK', out);
} catch (e) { console.log('ERR', String(e).slice(0, 2000)); }
console.log('ms', Date.now() - t0);
await app.close();

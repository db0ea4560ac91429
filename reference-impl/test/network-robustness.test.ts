import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure, expectOk, type Net, newMember, ROOT, startNet } from './network-helpers.js';

// Document 2 variant A under stress: races, malformed input, restarts, another vendor segment.
const open: Net[] = [];
async function fresh(options: { db?: string; vendor?: string } = {}): Promise<Net> {
  const net = await startNet(options);
  open.push(net);
  return net;
}
afterEach(async () => {
  for (const net of open.splice(0)) await net.app.close();
});

describe('concurrency', () => {
  it('50 parallel registrations of one username create exactly one account', async () => {
    const net = await fresh();
    const base = newMember({}, { sponsor_name: 'netroot' }); // with a sponsor, so the account is placed in the tree
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        net.call('POST', '/auth/register', { body: { ...base, email: `race${i}@example.test` } }),
      ),
    );
    for (const r of results) expectEnvelope(r);
    expect(results.filter((r) => r.json.status === true)).toHaveLength(1);
    expect(results.filter((r) => r.json.status === false && r.status === 200)).toHaveLength(49);
    const rows = net.db.prepare('SELECT COUNT(*) AS n FROM net_users WHERE user_login = ?').get(base.username) as { n: number };
    expect(rows.n).toBe(1);
    const placed = net.db.prepare('SELECT COUNT(*) AS n FROM net_net_users WHERE user_name = ?').get(base.username) as {
      n: number;
    };
    expect(placed.n).toBe(1);
    await net.login(base.username, base.password);
  });

  it('20 parallel withdrawals that together exceed the balance never overdraw it', async () => {
    const net = await fresh();
    const token = await net.login(ROOT.username, ROOT.password); // balance 5000.00
    const results = await Promise.all(
      Array.from({ length: 20 }, () => net.call('POST', '/withdrawal_request', { token, body: { amount: 300 } })),
    );
    for (const r of results) expectEnvelope(r);
    expect(results.filter((r) => r.json.status === true)).toHaveLength(16); // 16 x 300 = 4800 <= 5000 < 17 x 300
    const info = (await net.call('GET', '/withdrawal', { token })).json.withdrawal_info as Record<string, string>;
    expect(info.total_balance).toBe('200.00');
  });

  it('20 parallel registrations into one free position place exactly one user there', async () => {
    const net = await fresh();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        net.call('POST', '/auth/register', {
          body: newMember({}, { sponsor_name: 'netroot', parent_name: 'netroot', position: 'right' }),
        }),
      ),
    );
    const placed = results.filter((r) => r.json.status === true);
    expect(placed).toHaveLength(1);
    for (const r of results.filter((x) => x.json.status === false)) expectFailure(r, 'net_user[position]');
    const token = await net.login(ROOT.username, ROOT.password);
    const tree = (await net.call('GET', '/user_geneology', { token })).json.geneology_data as {
      userData: Record<string, unknown>;
      children: Array<{ name: string; userData: Record<string, unknown> }>;
    };
    expect(tree.userData.right_link).toBe(false);
    const right = tree.children.filter((c) => c.userData.position === 'right');
    const winner = placed[0]?.json.user as Record<string, string> | undefined;
    expect(right.map((c) => c.name)).toEqual([winner?.user_login]);
  });
});

describe('malformed and hostile input', () => {
  it('answers bad JSON, wrong content types, missing bodies and odd shapes with the envelope, never 5xx', async () => {
    const net = await fresh();
    const token = await net.login(ROOT.username, ROOT.password);
    const badJson = await net.call('POST', '/auth/login', { raw: { payload: '{"username": ', contentType: 'application/json' } });
    expectEnvelope(badJson);
    expect(badJson.json.status).toBe(false);
    expectFailure(await net.call('POST', '/auth/register', { raw: { payload: 'username=x', contentType: 'text/plain' } }));
    expectFailure(await net.call('POST', '/auth/register'), 'username');
    expectFailure(await net.call('POST', '/auth/login', { body: [1, 2, 3] }));
    expectFailure(await net.call('POST', '/withdrawal_request', { token, body: 'amount' }));
    const odd = [
      { username: ['netroot'], password: { $ne: '' } },
      { username: 'a'.repeat(100_000), password: 'x' },
      { username: "netroot' OR '1'='1", password: "' OR 1=1 --" },
      { username: null, password: 12345, extra: { deep: [1, { x: 2 }] } },
    ];
    for (const body of odd) {
      expectFailure(await net.call('POST', '/auth/login', { body }));
      expectFailure(await net.call('POST', '/auth/register', { body: { ...body, net_user: 'not-an-object' } }));
      expectFailure(
        await net.call('POST', '/Join_net', { token, body: { sponsor_name: body.username, parent_name: [], position: 7 } }),
      );
      expectFailure(
        await net.call('POST', '/bank_details_save', { token, body: { ...body, account_number: '1; DROP TABLE x' } }),
      );
    }
    for (const q of ['start=1e400&limit=-0', 'start[]=1', 'limit=9999999999999999999', 'start=%00']) {
      const res = await net.call('GET', `/pair_commission?${q}`, { token });
      expectEnvelope(res);
    }
    expectFailure(await net.call('GET', '/payout_details?payout_id[]=1', { token }), 'payout_id');
    const big = await net.call('POST', '/auth/register', {
      raw: { payload: JSON.stringify({ username: 'x'.repeat(2 * 1024 * 1024) }), contentType: 'application/json' },
    });
    expectEnvelope(big);
    expect(big.json.status).toBe(false);
    const unknown = await net.call('GET', '/no/such/endpoint');
    expectEnvelope(unknown);
    expect(unknown.json.status).toBe(false);
  });

  it('tolerates trailing and duplicate slashes and the quoted or "null" token forms of real clients', async () => {
    const net = await fresh();
    const token = await net.login(ROOT.username, ROOT.password);
    expectOk(await net.call('GET', '/user_info/', { token }));
    expectOk(await net.call('GET', '//user_info', { token }));
    expectOk(await net.call('GET', '/user_info', { token: `"${token}"` }));
    const nullToken = await net.call('GET', '/user_info', { token: 'null' });
    expect(nullToken.status).toBe(401);
    expect(nullToken.json.message).toMatch(/token/);
  });
});

describe('vendor segment', () => {
  it('uses <vendor>_token for the header and the login key', async () => {
    const net = await fresh({ vendor: 'letscms' });
    expect(net.prefix).toBe('/network/wp-json/letscms/v1');
    const res = await net.call('POST', '/auth/login', { body: ROOT });
    expectOk(res);
    expect(res.json).not.toHaveProperty('svc_token');
    const token = res.json.letscms_token as string;
    expectOk(await net.call('GET', '/user-info', { token }));
    const wrongHeader = await net.call('GET', '/user-info', { headers: { svc_token: token } });
    expect(wrongHeader.status).toBe(401);
    expect(wrongHeader.json.message).toMatch(/letscms_token/);
  });
});

describe('persistence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sfc-network-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps accounts, withdrawals and tokens across a restart, and seeds only once', async () => {
    const db = join(dir, 'net.db');
    const first = await startNet({ db });
    const member = newMember();
    const reg = await first.call('POST', '/auth/register', { body: member });
    expectOk(reg);
    const token = reg.json.svc_token as string;
    const rootToken = await first.login(ROOT.username, ROOT.password);
    expectOk(await first.call('POST', '/withdrawal_request', { token: rootToken, body: { amount: 250 } }));
    await first.app.close();

    const second = await fresh({ db });
    const info = await second.call('GET', '/user_info', { token });
    expectOk(info);
    expect((info.json.user as Record<string, string>).user_login).toBe(member.username);
    await second.login(member.username, member.password);
    const w = (await second.call('GET', '/withdrawal', { token: rootToken })).json;
    expect((w.withdrawal_info as Record<string, string>).total_balance).toBe('4750.00');
    const payouts = (await second.call('GET', '/payout_list', { token: rootToken })).json.payout as unknown[];
    expect(payouts).toHaveLength(3); // not seeded twice
  });
});

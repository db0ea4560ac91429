import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectFailure,
  expectOk,
  expectStrings,
  MEMBER_PASSWORD,
  MONEY,
  NET_USER_KEYS,
  type Net,
  newMember,
  POINTS,
  ROOT,
  startNet,
  TIMESTAMP,
  UNI_USER_KEYS,
  USER_KEYS,
} from './network-helpers.js';

// Document 2 variant A, endpoint by endpoint: success shapes, failures, tokens, own-data isolation.
let net: Net;
let rootToken: string;
let leftToken: string;

beforeAll(async () => {
  net = await startNet();
  rootToken = await net.login(ROOT.username, ROOT.password);
  leftToken = await net.login('netleft', MEMBER_PASSWORD);
});
afterAll(async () => {
  await net.app.close();
});

describe('POST /auth/login', () => {
  it('returns the token, the user (with first and last name) and the binary record', async () => {
    const res = await net.call('POST', '/auth/login', { body: ROOT });
    expectOk(res);
    const token = res.json.svc_token as string;
    expect(token.split('.')).toHaveLength(3);
    expect(JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString()).alg).toBe('RS256');
    expectStrings(res.json.user, [...USER_KEYS, 'first_name', 'last_name']);
    expect(res.json.user).not.toHaveProperty('user_pass');
    expectStrings(res.json.net_user, NET_USER_KEYS);
    const n = res.json.net_user as Record<string, string>;
    for (const k of ['qualified_points', 'own_points', 'left_points', 'right_points']) expect(n[k]).toMatch(POINTS);
    expect(n.creation_date).toMatch(TIMESTAMP);
    expect(n.parent_key).toBe(''); // the root of the tree
  });

  it('accepts multipart and url-encoded fields', async () => {
    expectOk(await net.call('POST', '/auth/login', { multipart: ROOT }));
    expectOk(await net.call('POST', '/auth/login', { form: ROOT }));
  });

  it('rejects missing fields, non-alphanumeric usernames and wrong credentials', async () => {
    expectFailure(await net.call('POST', '/auth/login', { body: {} }), 'username');
    expectFailure(await net.call('POST', '/auth/login', { body: { username: 'netroot' } }), 'password');
    expectFailure(await net.call('POST', '/auth/login', { body: { username: 'net root', password: 'x' } }), 'username');
    const wrong = await net.call('POST', '/auth/login', { body: { username: 'netroot', password: 'nope' } });
    expectFailure(wrong);
    expect(wrong.json.message).toMatch(/invalid login/i);
    expectFailure(await net.call('POST', '/auth/login', { body: { username: 'nobody42', password: 'nope' } }));
  });
});

describe('POST /auth/register', () => {
  it('creates the account, places it and returns token, user and net_user', async () => {
    const body = newMember({}, { sponsor_name: 'netroot', parent_name: 'netlr', position: 'left' });
    const res = await net.call('POST', '/auth/register', { body });
    expectOk(res);
    expectStrings(res.json.user, USER_KEYS);
    expect(res.json.user).not.toHaveProperty('user_pass');
    expectStrings(res.json.net_user, NET_USER_KEYS);
    const n = res.json.net_user as Record<string, string>;
    expect(n.position).toBe('left');
    expect(n.parent_key).toBe('LR00000004');
    expect(n.sponsor_key).toBe('ROOT000001');
    const info = await net.call('GET', '/user_info', { token: res.json.svc_token as string });
    expect((info.json.user as Record<string, string>).user_login).toBe(body.username);
    // and the new account can log in
    await net.login(body.username, body.password);
  });

  it('accepts multipart net_user[...] fields with numbers as strings', async () => {
    const m = newMember();
    const res = await net.call('POST', '/auth/register', {
      multipart: {
        first_name: m.first_name,
        last_name: m.last_name,
        username: m.username,
        password: m.password,
        email: m.email,
        'net_user[phone]': '9876543210',
        'net_user[address]': '1 Multipart Way',
        'net_user[sponsor_name]': 'netleft',
      },
    });
    expectOk(res);
    expect((res.json.net_user as Record<string, string>).sponsor_key).toBe('LEFT000002');
  });

  it('reports each invalid field by name', async () => {
    const res = await net.call('POST', '/auth/register', { body: {} });
    expectFailure(res);
    expect(Object.keys(res.json.errors as object)).toEqual(
      expect.arrayContaining(['first_name', 'last_name', 'username', 'password', 'email', 'net_user[address]']),
    );
    expectFailure(await net.call('POST', '/auth/register', { body: newMember({ username: 'bad-name' }) }), 'username');
    expectFailure(await net.call('POST', '/auth/register', { body: newMember({ email: 'not-an-email' }) }), 'email');
    expectFailure(await net.call('POST', '/auth/register', { body: newMember({}, { phone: '12345' }) }), 'net_user[phone]');
    expectFailure(
      await net.call('POST', '/auth/register', { body: newMember({}, { position: 'middle' }) }),
      'net_user[position]',
    );
    expectFailure(
      await net.call('POST', '/auth/register', { body: newMember({}, { sponsor_name: 'ghost99' }) }),
      'net_user[sponsor_name]',
    );
  });

  it('refuses a username or e-mail that exists (case-insensitively) and a taken position', async () => {
    expectFailure(await net.call('POST', '/auth/register', { body: newMember({ username: 'NetRoot' }) }), 'username');
    expectFailure(await net.call('POST', '/auth/register', { body: newMember({ email: 'NETROOT@example.test' }) }), 'email');
    const taken = newMember({}, { parent_name: 'netroot', position: 'left' });
    expectFailure(await net.call('POST', '/auth/register', { body: taken }), 'net_user[position]');
    // nothing of the refused registration was kept
    expectFailure(await net.call('POST', '/auth/login', { body: { username: taken.username, password: taken.password } }));
  });
});

describe('user records', () => {
  it('GET /user-info and /user_info return the user with its password hash and the uni_user', async () => {
    for (const path of ['/user-info', '/user_info']) {
      const res = await net.call('GET', path, { token: rootToken });
      expectOk(res);
      expectStrings(res.json.user, [...USER_KEYS, 'user_pass']);
      expect((res.json.user as Record<string, string>).user_pass).not.toContain('Root-pass');
      expectStrings(res.json.uni_user, UNI_USER_KEYS);
    }
  });

  it('asks for the token when it is missing, and refuses a bad one, with 401', async () => {
    for (const token of [undefined, '', 'not.a.token', `${rootToken.slice(0, -4)}AAAA`]) {
      const res = await net.call('GET', '/user_info', token === undefined ? {} : { token });
      expect(res.status).toBe(401);
      expect(res.json.status).toBe(false);
      expect(res.json.message).toMatch(/svc_token/);
    }
  });

  it('GET /uni-get-user-info looks a user up by user_id or user_key without a token and without the hash', async () => {
    const byId = await net.call('GET', '/uni-get-user-info?user_id=1');
    expectOk(byId);
    expect(byId.json.user).not.toHaveProperty('user_pass');
    expectStrings(byId.json.uni_user, UNI_USER_KEYS);
    const byKey = await net.call('GET', '/uni-get-user-info?user_key=LEFT000002');
    expect((byKey.json.user as Record<string, string>).user_login).toBe('netleft');
    expectFailure(await net.call('GET', '/uni-get-user-info'), 'user_id');
    expectFailure(await net.call('GET', '/uni-get-user-info?user_id=abc'), 'user_id');
    expectFailure(await net.call('GET', '/uni-get-user-info?user_id=99999'));
    expectFailure(await net.call('GET', "/uni-get-user-info?user_key=' OR 1=1 --"));
  });
});

describe('bank details', () => {
  it('GET /bank_details lists the caller record and the labels', async () => {
    const res = await net.call('GET', '/bank_details', { token: rootToken });
    expectOk(res);
    const list = res.json.bank_details as unknown[];
    expect(list).toHaveLength(1);
    expectStrings(list[0], ['user_key', 'account_holder', 'account_number', 'bank_name', 'branch', 'ifsc_code']);
    expectStrings(list[0], ['contact_number', 'insert_date']);
    expectStrings(res.json.language, ['holder_name', 'account_number', 'bank_name', 'branch', 'ifsc_code', 'contact_no']);
  });

  it('POST /bank_details_save validates, saves and replaces only the caller record', async () => {
    const m = newMember();
    const reg = await net.call('POST', '/auth/register', { body: m });
    const token = reg.json.svc_token as string;
    expect((await net.call('GET', '/bank_details', { token })).json.bank_details).toEqual([]);
    const bad = await net.call('POST', '/bank_details_save', { token, body: { account_number: '12ab' } });
    expectFailure(bad);
    expect(Object.keys(bad.json.errors as object)).toEqual(
      expect.arrayContaining(['account_holder_name', 'account_number', 'bank_name', 'branch', 'ifsc_code', 'contact_number']),
    );
    const fields = {
      account_holder_name: 'Test Member',
      account_number: '998877665544',
      bank_name: 'Bank',
      branch: 'B1',
      ifsc_code: 'IFSC0001',
      contact_number: '9876543210',
    };
    expectOk(await net.call('POST', '/bank_details_save', { token, multipart: fields }));
    expectOk(await net.call('POST', '/bank_details_save', { token, body: { ...fields, account_number: 112233 } }));
    const mine = (await net.call('GET', '/bank_details', { token })).json.bank_details as Array<Record<string, string>>;
    expect(mine).toHaveLength(1);
    expect(mine[0]?.account_number).toBe('112233');
    expect(mine[0]?.account_holder).toBe('Test Member');
    const roots = (await net.call('GET', '/bank_details', { token: rootToken })).json.bank_details as Array<
      Record<string, string>
    >;
    expect(roots[0]?.account_number).toBe('123456789012');
    expect(await net.call('POST', '/bank_details_save', { body: fields })).toMatchObject({ status: 401 });
  });
});

describe('payouts and commissions', () => {
  it('GET /payout_list lists own payouts and pages with start and limit', async () => {
    const all = await net.call('GET', '/payout_list', { token: rootToken });
    expectOk(all);
    const payouts = all.json.payout as Array<Record<string, string>>;
    expect(payouts.length).toBeGreaterThanOrEqual(3);
    for (const p of payouts) {
      expectStrings(p, ['id', 'user_key', 'payout_id', 'total_points', 'insert_date']);
      for (const k of ['pair_commission', 'referral_commission', 'level_commission', 'bonus_amount', 'total_amount', 'tax']) {
        expect(p[k]).toMatch(MONEY);
      }
      expect(p.user_key).toBe('ROOT000001');
    }
    const page = await net.call('GET', '/payout_list?start=1&limit=1', { token: rootToken });
    expect(page.json.payout).toEqual([payouts[1]]);
    expect((await net.call('GET', '/payout_list?start=50', { token: rootToken })).json.payout).toEqual([]);
    expectFailure(await net.call('GET', '/payout_list?start=-1', { token: rootToken }), 'start');
    expectFailure(await net.call('GET', '/payout_list?limit=ten', { token: rootToken }), 'limit');
    const theirs = (await net.call('GET', '/payout_list', { token: leftToken })).json.payout as Array<Record<string, string>>;
    expect(theirs.every((p) => p.user_key === 'LEFT000002')).toBe(true);
  });

  it('GET /payout_details gives the commissions paid in one of the caller payouts', async () => {
    const res = await net.call('GET', '/payout_details?payout_id=2', { token: rootToken });
    expectOk(res);
    expect(res.json.user_key).toBe('ROOT000001');
    for (const k of ['ref_commission', 'pair_commission', 'bonus_commission', 'level_commission']) {
      const list = res.json[k] as Array<Record<string, string>>;
      expect(list.length).toBeGreaterThan(0);
      expect(list.every((c) => c.payout_id === '2' && c.user_key === 'ROOT000001')).toBe(true);
    }
    expect((res.json.pair_commission as Array<Record<string, string>>)[0]?.amount).toBe('1200.00');
    expectFailure(await net.call('GET', '/payout_details', { token: rootToken }), 'payout_id');
    expectFailure(await net.call('GET', '/payout_details?payout_id=x', { token: rootToken }), 'payout_id');
    expectFailure(await net.call('GET', '/payout_details?payout_id=2', { token: leftToken })); // not theirs
    expect((await net.call('GET', '/payout_details?payout_id=2')).status).toBe(401);
  });

  it.each([
    ['/pair_commission', 'pair_commission', ['id', 'user_key', 'childs', 'amount', 'status', 'payout_id', 'insert_date']],
    ['/level_commission', 'level_commission', ['id', 'user_key', 'sponsor_key', 'amount', 'level', 'status', 'payout_id']],
    ['/bonus_commission', 'bonus_commission', ['id', 'user_key', 'amount', 'bonus_count', 'status', 'payout_id']],
  ])('GET %s lists own records (3+) and pages', async (path, key, fields) => {
    const all = await net.call('GET', path, { token: rootToken });
    expectOk(all);
    const rows = all.json[key] as Array<Record<string, string>>;
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const r of rows) {
      expectStrings(r, fields);
      expect(r.amount).toMatch(MONEY);
      expect(r.user_key).toBe('ROOT000001');
    }
    const second = await net.call('GET', `${path}?start=1&limit=2`, { token: rootToken });
    expect(second.json[key]).toEqual(rows.slice(1, 3));
    const theirs = (await net.call('GET', path, { token: leftToken })).json[key] as Array<Record<string, string>>;
    expect(theirs.every((r) => r.user_key === 'LEFT000002')).toBe(true);
    expect((await net.call('GET', path)).status).toBe(401);
  });
});

describe('GET /user_geneology', () => {
  it('returns the caller subtree with links on free sides and "" for a leaf', async () => {
    const res = await net.call('GET', '/user_geneology', { token: rootToken });
    expectOk(res);
    type Node = { name: string; userData: Record<string, unknown>; isLoggedUser: boolean; children: Node[] | '' };
    const root = res.json.geneology_data as Node & Record<string, unknown>;
    expectStrings(root, ['name', 'imageUrl', 'profileUrl', 'userKey']);
    expect(root.name).toBe('netroot');
    expect(root.isLoggedUser).toBe(true);
    expectStrings(root.userData, ['sponsor', 'parent', 'position', 'total_earning', 'total_widral', 'downlines']);
    expect(root.userData.left_link).toBe(false);
    // registrations without a parent spill down the outer left leg, so the root's right stays free
    expect(root.userData.right_link).toEqual(expect.stringMatching(/position=right$/));
    expect(root.userData.total_earning).toBe('6000.00');
    const leaves: Node[] = [];
    const walk = (n: Node) => {
      if (n.children === '') leaves.push(n);
      else n.children.forEach(walk);
      // a link is false exactly when that side is taken, otherwise a registration URL
      for (const side of ['left', 'right']) {
        const taken = n.children !== '' && n.children.some((c) => c.userData.position === side);
        const link = n.userData[`${side}_link`];
        if (taken) expect(link).toBe(false);
        else expect(link).toEqual(expect.stringMatching(/^http.*position=/));
      }
      if (n !== root) expect(n.isLoggedUser).toBe(false);
    };
    walk(root);
    expect(leaves.length).toBeGreaterThan(0);
    for (const leaf of leaves) expect(typeof leaf.userData.left_link).toBe('string');
    // /downliners (the pagination illustration) pages the same downline
    const down = await net.call('GET', '/downliners?start=1&limit=2', { token: rootToken });
    expectOk(down);
    const all = (await net.call('GET', '/downliners?limit=100', { token: rootToken })).json.downliners as unknown[];
    expect(all).toHaveLength(Number(root.userData.downlines));
    expect(down.json.downliners).toEqual(all.slice(1, 3));
    const mine = await net.call('GET', '/user_geneology', { token: leftToken });
    expect((mine.json.geneology_data as Node).name).toBe('netleft');
  });
});

describe('withdrawals', () => {
  it('GET /withdrawal gives balance, limits, labels and history', async () => {
    const res = await net.call('GET', '/withdrawal', { token: rootToken });
    expectOk(res);
    const info = res.json.withdrawal_info as Record<string, string>;
    expectStrings(info, ['user_key', 'total_balance', 'requested_amount', 'pending_withdrawal']);
    expect(info.total_balance).toBe('5000.00');
    const setting = res.json.general_setting as Record<string, string>;
    expect(Number(setting.net_withdrawal_limit_min)).toBe(10);
    expect(Number(setting.net_withdrawal_limit_max)).toBe(1000);
    expect(res.json.language).toBeTypeOf('object');
    const history = res.json.all_withdrawal_data as Array<Record<string, string>>;
    expect(history.length).toBeGreaterThanOrEqual(2);
    expectStrings(history[0], ['id', 'user_id', 'amount', 'withdrawal_initiated_date', 'payment_processed', 'transaction_id']);
  });

  it('POST /withdrawal_request enforces the amount, the limits and the balance', async () => {
    const token = await net.login('netleft', MEMBER_PASSWORD); // balance 100.00
    const balance = async () =>
      ((await net.call('GET', '/withdrawal', { token })).json.withdrawal_info as Record<string, string>).total_balance;
    expect(await balance()).toBe('100.00');
    expectFailure(await net.call('POST', '/withdrawal_request', { token, body: {} }), 'amount');
    for (const amount of ['abc', -5, 0, '12.345', [], { a: 1 }, 5, 1000.01]) {
      expectFailure(await net.call('POST', '/withdrawal_request', { token, body: { amount } }), 'amount');
    }
    expectOk(await net.call('POST', '/withdrawal_request', { token, multipart: { amount: '60.50' } }));
    expect(await balance()).toBe('39.50');
    expectFailure(await net.call('POST', '/withdrawal_request', { token, body: { amount: 40 } }), 'amount');
    expectOk(await net.call('POST', '/withdrawal_request', { token, body: { amount: 39.5 } }));
    expect(await balance()).toBe('0.00');
    const history = (await net.call('GET', '/withdrawal', { token })).json.all_withdrawal_data as Array<Record<string, string>>;
    expect(history.map((w) => w.amount)).toEqual(['60.50', '39.50']);
    expect((await net.call('POST', '/withdrawal_request', { body: { amount: 20 } })).status).toBe(401);
    // the limits are inclusive: 10 and 1000 are accepted for an account with the balance
    expectOk(await net.call('POST', '/withdrawal_request', { token: rootToken, body: { amount: '10' } }));
    expectOk(await net.call('POST', '/withdrawal_request', { token: rootToken, body: { amount: 1000 } }));
    const root = (await net.call('GET', '/withdrawal', { token: rootToken })).json.withdrawal_info as Record<string, string>;
    expect(root.total_balance).toBe('3990.00');
    expect(root.pending_withdrawal).toBe('1410.00');
  });
});

describe('POST /Join_net', () => {
  it('places an account without a binary position, once', async () => {
    const token = await net.login('netjoin', 'Join-pass-2024');
    expectFailure(await net.call('GET', '/user_geneology', { token }));
    const missing = await net.call('POST', '/Join_net', { token, body: {} });
    expectFailure(missing);
    expect(Object.keys(missing.json.errors as object).sort()).toEqual(['parent_name', 'position', 'sponsor_name']);
    const taken = { sponsor_name: 'netroot', parent_name: 'netroot', position: 'left' };
    expectFailure(await net.call('POST', '/Join_net', { token, body: taken }), 'position');
    expectFailure(
      await net.call('POST', '/Join_net', { token, body: { ...taken, parent_name: 'ghost77', position: 'right' } }),
      'parent_name',
    );
    expectOk(await net.call('POST', '/Join_net', { token, multipart: { ...taken, parent_name: 'netlr', position: 'right' } }));
    const tree = await net.call('GET', '/user_geneology', { token });
    expect((tree.json.geneology_data as Record<string, unknown>).userKey).toBe('JOIN000006');
    expectFailure(await net.call('POST', '/Join_net', { token, body: { ...taken, parent_name: 'netroot', position: 'right' } }));
    expectFailure(await net.call('POST', '/Join_net', { token: rootToken, body: { ...taken, position: 'right' } }));
    expect((await net.call('POST', '/Join_net', { body: taken })).status).toBe(401);
  });
});

import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { type Call, type Form, isObject, type Json, net, SCHEMAS } from '../client.js';
import {
  conforms,
  described,
  envelope,
  noServerErrorCheck,
  placementRefusalKeyed,
  refused,
  refusedWithFieldError,
  succeeded,
} from '../expect.js';
import { type Account, anchorAccount, register, registerForm, registerInTree, rootAccount } from '../provision.js';
import { reserve } from '../reservations.js';
import { childAt, nodes, type TreeNode, toNode } from '../tree.js';

/**
 * Registration into the binary tree: A at a free position of the SFC_NET_USERNAME tree, then B
 * and C under A (left and right), the refusals (taken position, third child, bad input), and
 * what A's geneology tree shows of it.
 */
interface TreeState {
  root: Account;
  a: Account;
  b: Account;
  c: Account;
  /** D: under B at right with A as sponsor (a sponsor other than the parent). */
  d: Account;
  /** E: the account NET-REG-07 saw refused, registered again at D's left; its left is where C's case twin is sent. */
  e: Account;
  tree: Json;
  /** The refused placements (taken position, third child, unknown parent or sponsor), read by NET-REG-14. */
  placementRefusals: Array<{ what: string; call: Call }>;
  /** The body NET-REG-07 sent at A's taken left and saw refused: its username and email must still be free. */
  refusedForm: Form;
  /** C's login (NET-AUTH-01), whose names NET-AUTH-09 judges. */
  cLogin: Call;
  /** Username and user_key of each accepted register of the two sent at once at C's left (NET-REG-02) and right (NET-REG-07). */
  cChildren: { left: string[]; right: string[] };
}

type Ctx = CheckContext<TreeState>;
const A = (ctx: Ctx) => ctx.state.a as Account;

/**
 * C's names, as names are written: a login that escapes them for HTML answers &amp; and &#039;. Zoë's ë is
 * written decomposed (e and a combining diaeresis, NFD, as some systems write it): a store that normalises
 * to NFC answers another character.
 */
const C_NAMES = { first_name: 'Ann & Zoe\u0308', last_name: "O'Neil" };

/** JSON with every character past ASCII as \uXXXX: a precomposed and a decomposed letter print alike. */
const escaped = (v: unknown) =>
  JSON.stringify(v).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A register body placed under A (sponsor and parent A) at `position`. */
const underA = (ctx: Ctx, position: string, overrides: Record<string, string | undefined> = {}) =>
  registerForm(ctx, { sponsor: A(ctx).username, parent: A(ctx).username, position }, overrides);

/** A body placed under B's free left side (reserved by NET-REG-10): valid placement, so only the field under test can fail it. */
const underB = (ctx: Ctx, overrides: Record<string, string | undefined>) => {
  const b = ctx.state.b?.username ?? A(ctx).username;
  return registerForm(ctx, { sponsor: A(ctx).username, parent: b, position: 'left' }, overrides);
};

/** Links of the deep chain (NET-GEN-01): the reference cuts its tree at 10 levels, so 10 reach the cut. */
const CHAIN = 10;

/** The tail of C's password, which starts past its 72nd byte. */
const TAIL = 'Zz9';

/** `head` padded with é (two bytes each) to at least 72 bytes, then TAIL. */
const longPassword = (head: string): string =>
  `${head}${'\u00e9'.repeat(Math.max(0, Math.ceil((72 - Buffer.byteLength(head)) / 2)))}${TAIL}`;

/**
 * A username of digits only (letters and digits, as Part 8 allows), still this run's and this area's own: each
 * character of a generated one written as two digits (0-9 as 00-09, a-z as 10-35), so it reads back.
 */
const digitsOnly = (name: string): string =>
  [...name.toLowerCase()].map((c) => String(Number.parseInt(c, 36)).padStart(2, '0')).join('');

const keyOf = (acc: Account | undefined): string =>
  acc?.netUser && typeof acc.netUser.user_key === 'string' ? acc.netUser.user_key : '';

/** Keeps a refused placement for NET-REG-14. */
function placementRefused(ctx: Ctx, what: string, call: Call): void {
  ctx.state.placementRefusals = [...(ctx.state.placementRefusals ?? []), { what, call }];
}

function geneology(ctx: Ctx): { root: Json; child: (side: string) => Json | undefined } {
  const root = ctx.state.tree as Json;
  const kids = Array.isArray(root.children) ? root.children.filter(isObject) : [];
  const child = (side: string) => kids.find((k) => isObject(k.userData) && k.userData.position === side);
  return { root, child };
}

export const registrationArea: AreaSpec<TreeState> = {
  interface: 'rest-v1-network',
  name: 'registration',
  checks: [
    {
      id: 'NET-REG-01',
      title: 'register A under SFC_NET_USERNAME at a free position of its tree: status true, token, user, net_user',
      async run(ctx: Ctx) {
        ctx.state.root = await rootAccount(ctx);
        const r = await registerInTree(ctx);
        if (!r.call) ctx.skip('no free position found in the geneology tree of SFC_NET_USERNAME');
        succeeded(ctx, r.call, `register at ${r.tried.at(-1)}`);
        ctx.expect(r.account, `register: expected "${net(ctx).tokenHeader}" in the response`, r.call.ex);
        ctx.expect(isObject(r.call.body.net_user), 'register into the tree: expected net_user to be a record', r.call.ex);
        ctx.state.a = r.account;
        // The schema last: an account whose record has a mistyped field is still one, so the checks built
        // on A (NET-TYPE-02, ...) run and name the requirement the field breaks instead of being skipped.
        conforms(ctx, r.call, 'auth-register');
      },
    },
    {
      id: 'NET-AUTH-02',
      title: 'the register token is a JWT signed with RS256',
      needs: ['a'],
      async run(ctx: Ctx) {
        const token = A(ctx).token;
        const [h] = token.split('.');
        let alg: unknown;
        try {
          alg = (JSON.parse(Buffer.from(h ?? '', 'base64url').toString('utf8')) as Json).alg;
        } catch {
          alg = undefined;
        }
        ctx.expect(
          token.split('.').length === 3 && alg === 'RS256',
          `expected an RS256 JWT, got header alg ${JSON.stringify(alg)}`,
          A(ctx).call.ex,
        );
      },
    },
    {
      id: 'NET-AUTH-08',
      title: 'the register user record carries neither first_name, last_name (login only) nor user_pass (user-info only)',
      needs: ['a'],
      async run(ctx: Ctx) {
        const call = A(ctx).call;
        const user = isObject(call.body.user) ? call.body.user : {};
        const extra = ['first_name', 'last_name', 'user_pass'].filter((f) => f in user);
        ctx.expect(
          extra.length === 0,
          `register: the document gives first_name and last_name on login only and user_pass on user-info only, but the register user record carries ${extra.join(', ')}`,
          call.ex,
        );
      },
    },
    {
      id: 'NET-REG-10',
      title: 'register B under A at left: net_user has position left and A as parent and sponsor',
      needs: ['a'],
      async run(ctx: Ctx) {
        const form = underA(ctx, 'left');
        // B's left is where the refusals below register (underB), meant to fail by one field only.
        // Unreserved, another area's registerInTree could take it first; a target that checks the
        // placement before the fields would then refuse them for the position instead.
        reserve(ctx, String(form.username), 'left');
        // B's right is where D goes with A as sponsor (the next NET-REG-10).
        reserve(ctx, String(form.username), 'right');
        const { call, account } = await register(ctx, form);
        succeeded(ctx, call, 'register B under A (left)');
        ctx.state.b = account;
        conforms(ctx, call, 'auth-register');
        const n = isObject(call.body.net_user) ? call.body.net_user : {};
        const want = { position: 'left', parent_key: keyOf(A(ctx)), sponsor_key: keyOf(A(ctx)) };
        const got = { position: n.position, parent_key: n.parent_key, sponsor_key: n.sponsor_key };
        ctx.expect(
          JSON.stringify(want) === JSON.stringify(got),
          `expected net_user ${JSON.stringify(want)}, got ${JSON.stringify(got)}`,
          call.ex,
        );
      },
    },
    {
      id: 'NET-REG-10',
      title:
        'register D (a username of digits only) under B at right with A as sponsor: net_user has position right, B as parent and A as sponsor',
      needs: ['b'],
      async run(ctx: Ctx) {
        // Sponsor and parent differ, so a target that records one in place of the other shows it.
        // A sponsors from above B (B's own parent), so the sponsor is in the parent's upline either way.
        // D's username is digits only: D is the parent of the NET-REG-01 below, and a target that reads a
        // name of digits as a user ID (is_numeric ? get_userdata : get_user_by login) finds no such parent.
        const b = ctx.state.b as Account;
        const form = registerForm(
          ctx,
          { sponsor: A(ctx).username, parent: b.username, position: 'right' },
          { username: digitsOnly(ctx.names.username()) },
        );
        // D's left is where the registration refused by NET-REG-07 is sent again (the NET-REG-01 after it),
        // D's right where NET-REG-03 sends A's e-mail with a trailing space.
        reserve(ctx, String(form.username), 'left');
        reserve(ctx, String(form.username), 'right');
        const { call, account } = await register(ctx, form);
        succeeded(ctx, call, 'register D under B (right), sponsor A');
        ctx.state.d = account;
        const n = isObject(call.body.net_user) ? call.body.net_user : {};
        const want = { position: 'right', parent_key: keyOf(b), sponsor_key: keyOf(A(ctx)) };
        const got = { position: n.position, parent_key: n.parent_key, sponsor_key: n.sponsor_key };
        ctx.expect(
          JSON.stringify(want) === JSON.stringify(got),
          `expected net_user ${JSON.stringify(want)} (parent B, sponsor A), got ${JSON.stringify(got)}`,
          call.ex,
        );
      },
    },
    {
      id: 'NET-TYPE-02',
      title: "the points of B's net_user are decimals with 3 places as strings",
      needs: ['b'],
      async run(ctx: Ctx) {
        const b = ctx.state.b as Account;
        for (const f of ['qualified_points', 'own_points', 'left_points', 'right_points'])
          ctx.validate(`${SCHEMAS}formats.schema.json#/$defs/decimal3`, b.netUser?.[f], b.call.ex, `net_user.${f}`);
      },
    },
    {
      id: 'NET-REG-07',
      title: "register at A's left, which B holds, while A's right is free: refused",
      needs: ['b'],
      async run(ctx: Ctx) {
        // An apostrophe in last_name and address, as names and streets carry them: the NET-REG-01 after
        // NET-GEN-01 sends this body again at a free position, where it must be accepted as any other.
        const form = underA(ctx, 'left', {
          last_name: "O'Brien",
          'net_user[address]': `12 St John's Road ${ctx.names.label('addr')}`,
        });
        const { call } = await register(ctx, form);
        placementRefused(ctx, 'register at a taken position', call);
        // Kept only when refused: an accepted one took the username, and NET-REG-07 has failed already.
        if (call.body.status === false) ctx.state.refusedForm = form;
        refused(ctx, call, 'register at a taken position');
      },
    },
    {
      id: 'NET-REG-01',
      title:
        "the username, email and password refused at A's taken left (NET-REG-07), sent again at D's free left with its apostrophes (O'Brien, St John's Road), D's username being digits only: accepted (a refusal creates no account, and a parent is named by its username)",
      needs: ['d', 'refusedForm'],
      async run(ctx: Ctx) {
        // A refusal that had stored the account anyway would now answer "username already exists".
        const d = ctx.state.d as Account;
        const refusedForm = ctx.state.refusedForm as Form;
        const form: Form = {
          ...refusedForm,
          'net_user[sponsor_name]': A(ctx).username,
          'net_user[parent_name]': d.username,
          'net_user[position]': 'left',
        };
        // E's left is where the NET-AUTH-01 after NET-AUTH-09 sends C's username in lower case.
        reserve(ctx, String(form.username), 'left');
        const { call, account } = await register(ctx, form);
        succeeded(
          ctx,
          call,
          `register ${form.username} (${form.email}, address ${JSON.stringify(form['net_user[address]'])}) at D's free left, after the same username and email were refused at A's taken left`,
        );
        ctx.state.e = account;
      },
    },
    {
      id: 'NET-REG-08',
      title:
        "register C at A's right (sponsored by SFC_NET_USERNAME), then a third child under A at left and at right: refused (with no position: refused, or unplaced)",
      needs: ['b'],
      async run(ctx: Ctx) {
        // C's password begins with a space and holds a tag, a percent-encoded octet, a run of spaces and a
        // backslash, and its username capitals (letters and digits still): NET-AUTH-01 logs in with both.
        // A target that trims the password at both register and login conforms; one that trims it at one only does not.
        // Its names hold an ampersand, an apostrophe and a combining mark, which NET-AUTH-09 expects back from that login.
        // And it runs past 72 bytes of UTF-8 in accented letters (fewer characters than bytes), where bcrypt
        // stops reading: NET-AUTH-03 changes only its tail.
        const password = longPassword(` ${ctx.names.password()} <i>%41</i>  &"q" C:\\tmp `);
        const username = `${ctx.names.username()}CapsX`;
        // C's left is where NET-REG-02 sends one register twice at once, C's right where NET-REG-07 sends two
        // different ones at once: no other area may take them first.
        reserve(ctx, username, 'left');
        reserve(ctx, username, 'right');
        // C's sponsor is SFC_NET_USERNAME (A's upline), not A: siblings with sponsors of their own show a target
        // that writes a new member's sponsor to every child of its parent (NET-GEN-06 reads B's after C's).
        const sponsor = (ctx.state.root as Account).username;
        const c = await register(
          ctx,
          underA(ctx, 'right', { username, password, ...C_NAMES, 'net_user[sponsor_name]': sponsor }),
        );
        if (!c.account) ctx.skip(`could not register C at A's right: ${described(c.call)}`);
        ctx.state.c = c.account;
        // And with no position at all. Whether register needs one is AMB-NET-03: a target may refuse it (the
        // position missing, or no free side under A), or, reading the placement as optional, register the
        // user unplaced. So only a refusal is judged, by NET-REG-14 (errors keyed by a placement field); the
        // unplaced account is the other reading.
        for (const side of ['left', 'right', undefined]) {
          const what = `register a third child under A (${side ?? 'no net_user[position]'})`;
          const { call } = await register(ctx, underA(ctx, 'left', { 'net_user[position]': side }));
          placementRefused(ctx, what, call);
          if (side) refused(ctx, call, what);
        }
      },
    },
    {
      id: 'NET-AUTH-01',
      title:
        "C logs in with the username and password it registered with (a username with capitals, a password beginning with a space and holding <i>, %41, two spaces, a backslash and accented letters past 72 bytes), answered with C's user and net_user",
      needs: ['c'],
      async run(ctx: Ctx) {
        // Login is the only way back into an account: what register stored must be what login verifies.
        const c = ctx.state.c as Account;
        const call = await net(ctx).login(c.username, c.password);
        ctx.state.cLogin = call;
        succeeded(ctx, call, `login as ${c.username} with the password sent at register (${JSON.stringify(c.password)})`);
        conforms(ctx, call, 'auth-login');
        // Whether user_login keeps the case sent is not shown: the account is C's either way.
        const login = isObject(call.body.user) ? call.body.user.user_login : undefined;
        ctx.expect(
          typeof login === 'string' && login.toLowerCase() === c.username.toLowerCase(),
          `login as ${c.username}: user.user_login is ${JSON.stringify(login)}`,
          call.ex,
        );
        // And its net_user is C's binary record, the one its register answered (C was placed at A's right).
        const key = c.netUser?.user_key;
        if (typeof key === 'string' && key !== '') {
          const got = isObject(call.body.net_user) ? call.body.net_user : undefined;
          ctx.expect(
            got?.user_key === key,
            `login as ${c.username}: expected net_user of user_key ${key} (its register's), got ${JSON.stringify(got ? { user_key: got.user_key, user_name: got.user_name } : call.body.net_user)}`,
            c.call.ex,
            call.ex,
          );
        }
      },
    },
    {
      id: 'NET-AUTH-03',
      title: "login as C with C's password changed past its 72nd byte only (its last characters): refused",
      needs: ['c'],
      async run(ctx: Ctx) {
        // A password is the whole string: a hash that reads only a prefix of it (bcrypt: 72 bytes) takes
        // any password alike in that prefix.
        const c = ctx.state.c as Account;
        if (!c.password.endsWith(TAIL) || Buffer.byteLength(c.password.slice(0, -TAIL.length)) < 72)
          ctx.skip("C's password does not run past 72 bytes before its tail");
        const wrong = `${c.password.slice(0, -TAIL.length)}Yy8`;
        const call = await net(ctx).login(c.username, wrong);
        refused(ctx, call, `login as ${c.username} with the password C registered with but its last 3 characters`);
        ctx.expect(!net(ctx).tokenOf(call.body), 'a refused login must not carry a token', call.ex);
      },
    },
    {
      id: 'NET-AUTH-09',
      title:
        "C's login answers the names C registered with (an ampersand, an apostrophe, a combining mark), not HTML-escaped or normalised",
      needs: ['cLogin'],
      async run(ctx: Ctx) {
        const call = ctx.state.cLogin as Call;
        if (call.body.status !== true) ctx.skip(`C's login was refused (NET-AUTH-01): ${described(call)}`);
        const user = isObject(call.body.user) ? call.body.user : {};
        const got = { first_name: user.first_name, last_name: user.last_name };
        ctx.expect(
          got.first_name === C_NAMES.first_name && got.last_name === C_NAMES.last_name,
          `login as C: expected the names registered, ${escaped(C_NAMES)}, got ${escaped(got)}`,
          (ctx.state.c as Account).call.ex,
          call.ex,
        );
      },
    },
    {
      id: 'NET-AUTH-01',
      title:
        "register C's username in lower case (a new e-mail and password) at E's free left: refused, or a new account that logs in with the username and password it registered with",
      needs: ['c', 'e'],
      async run(ctx: Ctx) {
        // Whether usernames differing in letter case only are one username is not shown: a refusal conforms.
        // An account register accepted is one login must reach: a target whose register compares the case and
        // whose login does not gives the new account's login to C, and refuses the new password.
        const c = ctx.state.c as Account;
        const e = ctx.state.e as Account;
        const twin = c.username.toLowerCase();
        const form = registerForm(ctx, { sponsor: A(ctx).username, parent: e.username, position: 'left' }, { username: twin });
        const { call } = await register(ctx, form);
        envelope(ctx, call, `register ${twin} (C, ${c.username}, in lower case)`);
        if (call.body.status !== true) {
          ctx.note(`register refused ${twin} beside C (${c.username}): usernames are one whatever their case`);
          return;
        }
        const login = await net(ctx).login(twin, String(form.password));
        succeeded(
          ctx,
          login,
          `login as ${twin} with the password it registered with (register accepted it beside C, ${c.username}, registered before)`,
        );
        const email = isObject(login.body.user) ? login.body.user.user_email : undefined;
        ctx.expect(
          typeof email === 'string' && email.toLowerCase() === String(form.email).toLowerCase(),
          `login as ${twin}: expected the account registered as ${twin} (${form.email}), got user_email ${JSON.stringify(email)}`,
          call.ex,
          login.ex,
        );
      },
    },
    {
      id: 'NET-REG-09',
      title: 'register with net_user[position] other than left or right: refused',
      needs: ['b'],
      async run(ctx: Ctx) {
        const { call } = await register(ctx, underB(ctx, { 'net_user[position]': 'middle' }));
        refused(ctx, call, 'register with position "middle"');
      },
    },
    {
      id: 'NET-REG-11',
      title: 'register without net_user[address]: refused with errors keyed by address',
      needs: ['a'],
      async run(ctx: Ctx) {
        const { call } = await register(ctx, underB(ctx, { 'net_user[address]': undefined }));
        refusedWithFieldError(ctx, call, 'address', 'register without net_user[address]');
      },
    },
    {
      id: 'NET-REG-12',
      title: 'register under a parent name that does not exist: refused',
      needs: ['a'],
      async run(ctx: Ctx) {
        const { call } = await register(ctx, underB(ctx, { 'net_user[parent_name]': ctx.names.username() }));
        placementRefused(ctx, 'register under an unknown parent', call);
        refused(ctx, call, 'register under an unknown parent');
      },
    },
    {
      id: 'NET-REG-13',
      title: 'register under a sponsor name that does not exist (parent and position valid): refused',
      needs: ['a'],
      async run(ctx: Ctx) {
        const { call } = await register(ctx, underB(ctx, { 'net_user[sponsor_name]': ctx.names.username() }));
        placementRefused(ctx, 'register under an unknown sponsor', call);
        refused(ctx, call, 'register under an unknown sponsor');
      },
    },
    {
      id: 'NET-REG-14',
      title: 'the refused placements (taken position, third child, unknown parent or sponsor) key errors by a placement field',
      needs: ['placementRefusals'],
      async run(ctx: Ctx) {
        // "Validation failures return errors as an object keyed by the field name", the examples
        // including "username or email already existing": a name that is no member, or a side
        // already taken, is the same kind of failure of a placement field.
        const refusals = (ctx.state.placementRefusals ?? []).filter((r) => r.call.body.status === false);
        if (refusals.length === 0) ctx.skip('no placement was refused in this area (see NET-REG-07, -08, -12, -13)');
        for (const r of refusals) placementRefusalKeyed(ctx, r.call, r.what);
      },
    },
    {
      id: 'NET-REG-02',
      title: "register with A's username (new email): refused with errors keyed username",
      needs: ['a'],
      async run(ctx: Ctx) {
        const { call } = await register(ctx, underB(ctx, { username: A(ctx).username }));
        refusedWithFieldError(ctx, call, 'username', 'register with an existing username');
      },
    },
    {
      id: 'NET-REG-03',
      title: "register with A's email (new username): refused with errors keyed email",
      needs: ['a'],
      async run(ctx: Ctx) {
        const { call } = await register(ctx, underB(ctx, { email: A(ctx).email }));
        refusedWithFieldError(ctx, call, 'email', 'register with an existing email');
      },
    },
    {
      id: 'NET-REG-03',
      title: "register with A's email followed by a space, at D's free right: refused, or accepted as an e-mail other than A's",
      needs: ['d'],
      async run(ctx: Ctx) {
        // A target that trims input trims the e-mail before its uniqueness check too: one that checks the
        // e-mail as sent and stores it trimmed gives a second account A's e-mail. A target that keeps the
        // space stores another e-mail, and one that finds it malformed refuses it: both conform.
        const d = ctx.state.d as Account;
        const email = `${A(ctx).email} `;
        const form = registerForm(ctx, { sponsor: A(ctx).username, parent: d.username, position: 'right' }, { email });
        const { call } = await register(ctx, form);
        envelope(ctx, call, `register with ${JSON.stringify(email)} (A's e-mail and a space)`);
        if (call.body.status !== true) return;
        const stored = isObject(call.body.user) ? call.body.user.user_email : undefined;
        ctx.expect(
          typeof stored === 'string' && stored.trim().toLowerCase() !== A(ctx).email.toLowerCase(),
          `register with ${JSON.stringify(email)} (A's e-mail, ${A(ctx).email}, and a space) was accepted with user.user_email ${JSON.stringify(stored)}: a second account with A's e-mail, which is unique`,
          A(ctx).call.ex,
          call.ex,
        );
      },
    },
    {
      id: 'NET-REG-04',
      title: 'register without each of first_name, last_name, username, password, email: refused, errors keyed by it',
      needs: ['a'],
      async run(ctx: Ctx) {
        for (const field of ['first_name', 'last_name', 'username', 'password', 'email']) {
          const { call } = await register(ctx, underB(ctx, { [field]: undefined }));
          refusedWithFieldError(ctx, call, field, `register without ${field}`);
        }
      },
    },
    {
      id: 'NET-REG-05',
      title: 'register with a username holding a dash and a space: refused with errors keyed username',
      needs: ['a'],
      async run(ctx: Ctx) {
        const { call } = await register(ctx, underB(ctx, { username: `${ctx.names.username()}-x y` }));
        refusedWithFieldError(ctx, call, 'username', 'register with a username of other characters than letters and digits');
      },
    },
    {
      id: 'NET-REG-06',
      title: 'register with a phone of 9 digits, and of letters: refused with errors keyed phone',
      needs: ['a'],
      async run(ctx: Ctx) {
        for (const phone of ['987654321', 'abcdefghij']) {
          const { call } = await register(ctx, underB(ctx, { 'net_user[phone]': phone }));
          refusedWithFieldError(ctx, call, 'phone', `register with phone "${phone}"`);
        }
      },
    },
    {
      id: 'NET-REG-15',
      title: 'register with each required field sent empty (""): refused with errors keyed by it',
      needs: ['a'],
      async run(ctx: Ctx) {
        for (const field of ['first_name', 'last_name', 'username', 'password', 'email', 'net_user[address]']) {
          const { call } = await register(ctx, underB(ctx, { [field]: '' }));
          refusedWithFieldError(ctx, call, field.replace(/^net_user\[(.*)\]$/, '$1'), `register with ${field} ""`);
        }
      },
    },
    {
      id: 'NET-GEN-01',
      title: "A's user_geneology answers geneology_data, a geneology node",
      needs: ['a', 'b'],
      async run(ctx: Ctx) {
        const call = await net(ctx).get('/user_geneology', { token: A(ctx).token });
        succeeded(ctx, call, 'user_geneology');
        conforms(ctx, call, 'user-geneology');
        ctx.state.tree = call.body.geneology_data as Json;
      },
    },
    {
      id: 'NET-GEN-02',
      title: 'the root of the tree is the token holder (isLoggedUser true, userKey its user_key)',
      needs: ['tree'],
      async run(ctx: Ctx) {
        const { root } = geneology(ctx);
        ctx.expect(
          root.isLoggedUser === true,
          `expected isLoggedUser true at the root, got ${JSON.stringify(root.isLoggedUser)}`,
        );
        ctx.expect(root.userKey === keyOf(A(ctx)), `expected root userKey ${keyOf(A(ctx))}, got ${JSON.stringify(root.userKey)}`);
      },
    },
    {
      id: 'NET-GEN-03',
      title: "A's tree shows B at left and C at right",
      needs: ['tree', 'b', 'c'],
      async run(ctx: Ctx) {
        const { child } = geneology(ctx);
        for (const [side, acc] of [
          ['left', ctx.state.b],
          ['right', ctx.state.c],
        ] as const) {
          const node = child(side);
          ctx.expect(node, `expected a child at ${side} of A (${acc?.username}), found none`);
          ctx.expect(
            node.userKey === keyOf(acc) || node.name === acc?.username,
            `expected ${acc?.username} (${keyOf(acc)}) at ${side}, found ${JSON.stringify({ name: node.name, userKey: node.userKey })}`,
          );
        }
      },
    },
    {
      id: 'NET-GEN-06',
      title:
        "in A's tree, B and C are not the logged user, their userData names A as parent, and as sponsor B's (A) and C's (SFC_NET_USERNAME), C registered after B",
      needs: ['tree', 'b', 'c'],
      async run(ctx: Ctx) {
        const { child } = geneology(ctx);
        // B was registered with A as sponsor and parent, C after it with A as parent and SFC_NET_USERNAME as
        // sponsor: C's registration leaves B's sponsor as it was. How userData names a member is not shown,
        // so a username, user_key or user ID all name it.
        const names = (acc: Account) =>
          [acc.username.toLowerCase(), keyOf(acc).toLowerCase(), String(acc.user.ID ?? '')].filter((v) => v !== '');
        const a = A(ctx);
        const root = ctx.state.root as Account;
        for (const [side, acc, sponsor, label] of [
          ['left', ctx.state.b, a, 'A'],
          ['right', ctx.state.c, root, 'SFC_NET_USERNAME'],
        ] as const) {
          const node = child(side);
          if (!node) ctx.fail(`expected a child at ${side} of A (${acc?.username}), found none`);
          ctx.expect(
            node.isLoggedUser === false,
            `${acc?.username} at ${side}: expected isLoggedUser false (A is the caller), got ${JSON.stringify(node.isLoggedUser)}`,
          );
          const data = isObject(node.userData) ? node.userData : {};
          for (const [field, who, whoLabel] of [
            ['sponsor', sponsor, label],
            ['parent', a, 'A'],
          ] as const)
            ctx.expect(
              names(who).includes(String(data[field] ?? '').toLowerCase()),
              `${acc?.username} at ${side}: expected userData.${field} to name ${whoLabel} (${names(who).join(' or ')}), got ${JSON.stringify(data[field])}`,
            );
        }
      },
    },
    {
      id: 'NET-GEN-06',
      title:
        "in A's tree, D (under B, sponsored by A) is not the logged user, and its userData names A as sponsor and B as parent",
      needs: ['tree', 'b', 'd'],
      async run(ctx: Ctx) {
        const b = ctx.state.b as Account;
        const d = ctx.state.d as Account;
        const root = toNode(ctx.state.tree) as TreeNode;
        const bNode = childAt(root, 'left');
        const node = bNode ? childAt(bNode, 'right') : undefined;
        if (!node || !(node.userKey === keyOf(d) || node.name === d.username))
          ctx.fail(
            `expected D (${d.username}) at the right of B (${b.username}) in A's tree, found ${JSON.stringify(node?.name)}`,
          );
        ctx.expect(
          node.raw.isLoggedUser === false,
          `D: expected isLoggedUser false, got ${JSON.stringify(node.raw.isLoggedUser)}`,
        );
        // As above: a username, user_key or user ID names a member.
        const names = (acc: Account) =>
          [acc.username.toLowerCase(), keyOf(acc).toLowerCase(), String(acc.user.ID ?? '')].filter((v) => v !== '');
        const data = isObject(node.raw.userData) ? node.raw.userData : {};
        for (const [field, acc, label] of [
          ['sponsor', A(ctx), 'A'],
          ['parent', b, 'B'],
        ] as const)
          ctx.expect(
            names(acc).includes(String(data[field] ?? '').toLowerCase()),
            `D: expected userData.${field} to name ${label} (${names(acc).join(' or ')}), got ${JSON.stringify(data[field])}`,
          );
      },
    },
    {
      id: 'NET-GEN-04',
      title: "in A's tree, each side's link is false where a child sits and a registration URL where none does",
      needs: ['tree', 'b', 'c'],
      async run(ctx: Ctx) {
        // Every node of one snapshot, not just B: other areas may place accounts below B meanwhile.
        const all = nodes(toNode(ctx.state.tree) as TreeNode);
        for (const n of all)
          for (const side of ['left', 'right'] as const) {
            const link = side === 'left' ? n.leftLink : n.rightLink;
            const taken = childAt(n, side) !== undefined;
            ctx.expect(
              taken ? link === false : typeof link === 'string' && link.length > 0,
              `${n.name || n.userKey}: ${side} side ${taken ? 'taken' : 'free'}, expected ${side}_link ${taken ? 'false' : 'a registration URL'}, got ${JSON.stringify(link)}`,
            );
          }
        const root = all[0] as TreeNode;
        ctx.expect(
          root.leftLink === false && root.rightLink === false,
          `A: both sides are taken (B, C), got ${JSON.stringify([root.leftLink, root.rightLink])}`,
        );
      },
    },
    {
      id: 'NET-GEN-05',
      title: "every leaf of A's tree (B had no children when registered) carries children as the empty string",
      needs: ['tree', 'b'],
      async run(ctx: Ctx) {
        const leaves = nodes(toNode(ctx.state.tree) as TreeNode).filter((n) => n.children.length === 0);
        ctx.expect(leaves.length > 0, "expected at least one leaf in A's tree (B or C)");
        for (const n of leaves)
          ctx.expect(
            n.rawChildren === '',
            `${n.name || n.userKey}, a leaf: expected children "", got ${JSON.stringify(n.rawChildren)}`,
          );
      },
    },
    {
      id: 'NET-REG-02',
      title: "one new register body sent twice at the same time (a double submit) at C's free left: at most one is accepted",
      needs: ['c'],
      async run(ctx: Ctx) {
        // The username and e-mail are unique: whichever of the two is handled second registers a username
        // that exists by then. A target that checks and then inserts without a unique key lets both through.
        const c = ctx.state.c as Account;
        // Sponsored by SFC_NET_USERNAME, above A: neither parent nor sponsor is A, whose tree the NET-GEN-03 at the
        // end reads again.
        const sponsor = (ctx.state.root as Account).username;
        const form = registerForm(ctx, { sponsor, parent: c.username, position: 'left' });
        const both = await Promise.all([register(ctx, form), register(ctx, form)]);
        for (const [i, r] of both.entries())
          envelope(ctx, r.call, `register ${form.username} (copy ${i + 1} of 2, sent at once)`);
        const accepted = both.filter((r) => r.call.body.status === true);
        const kids = ctx.state.cChildren ?? { left: [], right: [] };
        ctx.state.cChildren = { ...kids, left: accepted.flatMap((r) => [String(form.username), keyOf(r.account)]) };
        if (accepted.length === 0)
          ctx.skip(`neither copy was accepted at C's free left: ${both.map((r) => described(r.call)).join('; ')}`);
        ctx.expect(
          accepted.length === 1,
          `two registers of ${form.username} (${form.email}) sent at once both answered status true: the username and e-mail are unique, so the one handled second must be refused`,
          ...both.map((r) => r.call.ex),
        );
      },
    },
    {
      id: 'NET-REG-07',
      title: "two registers of two new accounts sent at the same time at C's free right: at most one is accepted",
      needs: ['c'],
      async run(ctx: Ctx) {
        // The side holds one child: whichever register is handled second asks for a side taken by then. A
        // target that reads "is it free" and then inserts, with no unique key on parent and side, places both.
        const c = ctx.state.c as Account;
        // Sponsored by SFC_NET_USERNAME, as the register at C's left above.
        const sponsor = (ctx.state.root as Account).username;
        const forms = [0, 1].map(() => registerForm(ctx, { sponsor, parent: c.username, position: 'right' }));
        const both = await Promise.all(forms.map((form) => register(ctx, form)));
        for (const [i, r] of both.entries())
          envelope(ctx, r.call, `register ${forms[i]?.username} at C's right (one of two sent at once)`);
        const accepted = both.filter((r) => r.call.body.status === true);
        const kids = ctx.state.cChildren ?? { left: [], right: [] };
        ctx.state.cChildren = {
          ...kids,
          right: both.flatMap((r, i) => (r.account ? [String(forms[i]?.username), keyOf(r.account)] : [])),
        };
        if (accepted.length === 0)
          ctx.skip(`neither register was accepted at C's free right: ${both.map((r) => described(r.call)).join('; ')}`);
        ctx.expect(
          accepted.length === 1,
          `two registers of different accounts (${forms.map((f) => f.username).join(', ')}) sent at once at C's right (${c.username}) both answered status true: the side holds one child, so the one handled second must be refused`,
          ...both.map((r) => r.call.ex),
        );
      },
    },
    {
      id: 'NET-GEN-03',
      title:
        "A's tree, read again after the registers at C's left and right (parent C, sponsor SFC_NET_USERNAME), shows them below C",
      needs: ['tree', 'c', 'cChildren'],
      async run(ctx: Ctx) {
        // A read its tree (NET-GEN-01) before them, and is neither their parent nor their sponsor: a target that
        // caches a member's tree and clears only the parent's and the sponsor's serves A the tree it read.
        const c = ctx.state.c as Account;
        const kids = ctx.state.cChildren as { left: string[]; right: string[] };
        if (kids.left.length + kids.right.length === 0)
          ctx.skip("no register at C's left or right was accepted (NET-REG-02, NET-REG-07)");
        const call = await net(ctx).get('/user_geneology', { token: A(ctx).token });
        succeeded(ctx, call, 'user_geneology of A, again');
        const root = toNode(call.body.geneology_data);
        const cNode = root ? childAt(root, 'right') : undefined;
        for (const side of ['left', 'right'] as const) {
          const names = kids[side].filter((n) => n !== '').map((n) => n.toLowerCase());
          if (names.length === 0) continue;
          const node = cNode ? childAt(cNode, side) : undefined;
          // Named as NET-GEN-03 above names a member: its username or its user_key.
          ctx.expect(
            node !== undefined && (names.includes(node.name.toLowerCase()) || names.includes(node.userKey.toLowerCase())),
            `A's tree read again: expected ${names.join(' or ')} at ${side} of C (${c.username}), registered there after A's first read, found ${cNode ? JSON.stringify(node?.name ?? null) : `no C at A's right (${JSON.stringify(root?.children.map((n) => n.name))})`}`,
            call.ex,
          );
        }
      },
    },
    {
      id: 'NET-GEN-01',
      title: `a chain of ${CHAIN} registrations, each at the left of the one before, below a new account: every node its tree shows, to the deepest, is a geneology node`,
      async run(ctx: Ctx) {
        // The documents give no depth, so a target may cut a deep tree (the reference shows 10 levels); but
        // the read still succeeds, and each node it shows is "a geneology node" (Part 2), down to its
        // children. A target whose tree code breaks only that deep (a placeholder child where it cuts, or
        // a recursion that never ends there) is seen only with a tree this deep.
        const top = await anchorAccount(ctx);
        let last = top;
        for (let i = 1; i <= CHAIN; i++) {
          const form = registerForm(ctx, { sponsor: top.username, parent: last.username, position: 'left' });
          // The next one's position, before this one exists: no other area's registerInTree takes it first.
          reserve(ctx, String(form.username), 'left');
          const { call, account } = await register(ctx, form);
          if (!account)
            ctx.skip(`could not register link ${i} of the chain, at the left of ${last.username}: ${described(call)}`);
          last = account;
        }
        const call = await net(ctx).get('/user_geneology', { token: top.token });
        succeeded(ctx, call, `user_geneology of ${top.username}, ${CHAIN} levels above the last of its chain`);
        conforms(ctx, call, 'user-geneology');
      },
    },
    noServerErrorCheck(),
  ],
};

// A, B, D, E and C placed in the tree, in the order later checks rely on, and the placements refused on the way.
import type { CheckSpec } from '../../../../checks/model.js';
import { type Form, isObject, type Json, net, SCHEMAS } from '../../client.js';
import { conforms, described, refused, succeeded } from '../../expect.js';
import { type Account, register, registerForm, registerInTree, rootAccount } from '../../provision.js';
import { reserve } from '../../reservations.js';
import { keyOf, placementRefused } from './helpers.js';
import { A, C_NAMES, type Ctx, TAIL, type TreeState } from './state.js';

/** A register body placed under A (sponsor and parent A) at `position`. */
const underA = (ctx: Ctx, position: string, overrides: Record<string, string | undefined> = {}) =>
  registerForm(ctx, { sponsor: A(ctx).username, parent: A(ctx).username, position }, overrides);

/** `head` padded with é (two bytes each) to at least 72 bytes, then TAIL. */
const longPassword = (head: string): string =>
  `${head}${'\u00e9'.repeat(Math.max(0, Math.ceil((72 - Buffer.byteLength(head)) / 2)))}${TAIL}`;

/**
 * A username of digits only (letters and digits, as Part 8 allows), still this run's and this area's own: each
 * character of a generated one written as two digits (0-9 as 00-09, a-z as 10-35), so it reads back.
 */
const digitsOnly = (name: string): string =>
  [...name.toLowerCase()].map((c) => String(Number.parseInt(c, 36)).padStart(2, '0')).join('');

export const placementChecks: CheckSpec<TreeState>[] = [
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
      const c = await register(ctx, underA(ctx, 'right', { username, password, ...C_NAMES, 'net_user[sponsor_name]': sponsor }));
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
];

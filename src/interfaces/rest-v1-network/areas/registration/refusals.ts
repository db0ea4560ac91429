// Register bodies wrong in one field or placement each, sent where only that can fail them: refused, keyed by it.
import type { CheckSpec } from '../../../../checks/model.js';
import { isObject } from '../../client.js';
import { envelope, placementRefusalKeyed, refused, refusedWithFieldError } from '../../expect.js';
import { type Account, register, registerForm } from '../../provision.js';
import { placementRefused } from './helpers.js';
import { A, type Ctx, type TreeState } from './state.js';

/** A body placed under B's free left side (reserved by NET-REG-10): valid placement, so only the field under test can fail it. */
const underB = (ctx: Ctx, overrides: Record<string, string | undefined>) => {
  const b = ctx.state.b?.username ?? A(ctx).username;
  return registerForm(ctx, { sponsor: A(ctx).username, parent: b, position: 'left' }, overrides);
};

export const refusalChecks: CheckSpec<TreeState>[] = [
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
];

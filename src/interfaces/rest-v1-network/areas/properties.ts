import fc from 'fast-check';
import { invalidPhone, invalidUsername, phone } from '../../../arbitraries/identifiers.js';
import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { checkProperty } from '../../../checks/properties.js';
import { withRunLock } from '../../../provisioning/scratch.js';
import { type Call, isObject, net, parse } from '../client.js';
import { described, envelope, keyedBy, noServerErrorCheck, refused, succeeded } from '../expect.js';
import { FreshAccounts } from '../fresh.js';
import { type Account, ROOT_WITHDRAWALS_LOCK, register, registerForm, rootAccount } from '../provision.js';
import { acceptable, readInfo, readLimits } from './model-withdrawals.js';

/**
 * Boundary properties of every documented limit (Part 4 A register row, Part 8 Limits): values
 * past the limit are refused (MUST, the existing ids), values at the edges accepted, and each
 * refusal should name its field (NET-PROP-01, collected across the properties and judged once).
 */
interface PropState {
  fresh: FreshAccounts;
  root: Account;
  min: number;
  max: number;
  balance: number;
  /** Refusals that did not key errors by the field (NET-PROP-01). */
  unnamed: { what: string; call: Call }[];
  /** Refusals judged for NET-PROP-01 (named or not). */
  judged: number;
}

type Ctx = CheckContext<PropState>;

const fresh = (ctx: Ctx) => ctx.state.fresh as FreshAccounts;
const money = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

/** A refusal (MUST), and whether errors name the field (recorded for NET-PROP-01). */
function refusedNaming(ctx: Ctx, call: Call, field: string, what: string): void {
  refused(ctx, call, what);
  ctx.state.judged = (ctx.state.judged ?? 0) + 1;
  if (keyedBy(call.body.errors, field)) return;
  ctx.state.unnamed = [...(ctx.state.unnamed ?? []), { what: `${what} (field ${field})`, call }];
}

/** A register body valid in every field but the ones given, at a free slot (refused bodies take no slot). */
async function registerWith(ctx: Ctx, overrides: Record<string, string>): Promise<Call> {
  const slot = await fresh(ctx).peek();
  const form = registerForm(
    ctx,
    { sponsor: await fresh(ctx).sponsorName(), parent: slot.parent, position: slot.position },
    overrides,
  );
  const call = (await register(ctx, form)).call;
  if (call.body.status === true) fresh(ctx).drop();
  return call;
}

/**
 * A register body valid in every field but the ones given, at a free slot, sent url-encoded or as JSON (the
 * net_user fields nested, as a JSON body carries them): the body forms besides the samples' multipart, which a
 * target may read through another path than its form fields. A target that reads no such body refuses it.
 * A number among the overrides goes as a JSON number in a JSON body (a form carries its digits), a null as null.
 */
async function registerBodyAs(
  ctx: Ctx,
  overrides: Record<string, string | number | null>,
  as: 'urlencoded' | 'json',
): Promise<Call> {
  const slot = await fresh(ctx).peek();
  const form = registerForm(
    ctx,
    { sponsor: await fresh(ctx).sponsorName(), parent: slot.parent, position: slot.position },
    Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, String(v)])),
  );
  const nested: Record<string, unknown> = {};
  const netUser: Record<string, unknown> = {};
  for (const [k, v] of Object.entries({ ...form, ...overrides })) {
    const m = /^net_user\[(\w+)\]$/.exec(k);
    if (m) netUser[m[1] as string] = v;
    else nested[k] = v;
  }
  const body = as === 'json' ? { json: { ...nested, net_user: netUser } } : { urlencoded: form };
  const ex = await ctx.http.send({ method: 'POST', url: net(ctx).url('/auth/register'), ...body });
  const call: Call = { ex, body: parse(ex) };
  // Accepted, the account holds the slot and brings its own two, under the name the target stored (a
  // target may trim or drop what it was sent).
  if (call.body.status === true) {
    const member = isObject(call.body.net_user) ? call.body.net_user.user_name : undefined;
    const login = isObject(call.body.user) ? call.body.user.user_login : undefined;
    const stored = [member, login].find((v) => typeof v === 'string' && v !== '');
    if (typeof stored === 'string') fresh(ctx).took(stored);
    else fresh(ctx).drop();
  }
  return call;
}

/** An accepted register of a username with other characters must not have stored them (NET-REG-05). */
function storedLettersAndDigits(ctx: Ctx, call: Call, what: string): void {
  envelope(ctx, call, what);
  if (call.body.status !== true) return;
  const login = isObject(call.body.user) ? call.body.user.user_login : undefined;
  const member = isObject(call.body.net_user) ? call.body.net_user.user_name : undefined;
  const stored = [login, member].filter((v) => v !== undefined && v !== null);
  ctx.expect(
    stored.every((v) => typeof v === 'string' && /^[A-Za-z0-9]+$/.test(v)),
    `${what} was accepted with user.user_login ${JSON.stringify(login)} and net_user.user_name ${JSON.stringify(member)}: a username holding a character other than letters and digits`,
    call.ex,
  );
}

/** Runs of properties that register an account each time (a slot and a password hash per run). */
const registeringRuns = (runs: number) => Math.max(2, Math.ceil(runs / 4));

/** Positions that are not left or right in any case (a target may fold case or trim). */
const badPosition = fc
  .oneof(fc.constantFrom('middle', 'center', '0', '1', 'lef', 'rightt', 'left right', 'both'), fc.string({ maxLength: 12 }))
  .filter((p) => p.trim() !== '' && !['left', 'right'].includes(p.trim().toLowerCase()));

export const propertiesArea: AreaSpec<PropState> = {
  interface: 'rest-v1-network',
  name: 'properties',
  checks: [
    {
      id: 'NET-REG-05',
      title: 'property: a username with any character other than letters and digits is refused',
      async run(ctx: Ctx) {
        ctx.state.fresh = new FreshAccounts(ctx);
        await fresh(ctx).sponsorName();
        await checkProperty(
          ctx,
          'net-username-invalid',
          invalidUsername({ prefix: 'sfc', maxLength: 30 }).filter(
            // Surrounding blanks are left out: a target may trim input, and the trimmed name is valid.
            (n) => n.trim() === n,
          ),
          async (name) => {
            refusedNaming(
              ctx,
              await registerWith(ctx, { username: name }),
              'username',
              `register with username ${JSON.stringify(name)}`,
            );
          },
        );
      },
    },
    {
      id: 'NET-REG-06',
      title: 'property: a phone that is not exactly 10 digits is refused',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        await checkProperty(ctx, 'net-phone-invalid', invalidPhone({ digits: 10 }), async (p) => {
          refusedNaming(
            ctx,
            await registerWith(ctx, { 'net_user[phone]': p }),
            'phone',
            `register with phone ${JSON.stringify(p)}`,
          );
        });
      },
    },
    {
      id: 'NET-REG-05',
      title: 'a username of letters and digits with a line feed at its end: refused, or stored without the line feed',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        // PCRE's $ also matches before a final line feed: /^[a-zA-Z0-9]+$/ without the D modifier lets "name\n"
        // through. A target that trims input stores the valid name, which conforms (as the property's blanks).
        const name = `${ctx.names.username()}\n`;
        // Multipart carries a line break as CR LF (the HTML form encoding): the bare line feed goes url-encoded,
        // which PHP's $_POST reads as it reads multipart.
        const call = await registerBodyAs(ctx, { username: name }, 'urlencoded');
        storedLettersAndDigits(ctx, call, `register with username ${JSON.stringify(name)} (url-encoded)`);
      },
    },
    {
      id: 'NET-REG-05',
      title: 'a username with a dash, in a JSON body: refused, or stored without the dash',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        // The rule is the username's, whatever the body: a target that tests it on its form fields ($_POST) and
        // reads the fields through a path that also takes JSON lets a JSON body's name through unchecked.
        const name = `${ctx.names.username()}-x`;
        const call = await registerBodyAs(ctx, { username: name }, 'json');
        storedLettersAndDigits(ctx, call, `register with username ${JSON.stringify(name)} (a JSON body)`);
      },
    },
    {
      id: 'NET-REG-06',
      title: 'a phone of nine digits, in a JSON body: refused',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        // As the username's (NET-REG-05, JSON): the phone's rule holds whatever the body, and a target that tests
        // its form fields ($_POST) while reading the fields through a path that takes JSON too lets it through.
        // The samples send multipart, so a target may refuse a JSON body whole, for no field in particular: the
        // refusal is judged, and not recorded for NET-PROP-01's naming of the field.
        const p = '123456789';
        refused(
          ctx,
          await registerBodyAs(ctx, { 'net_user[phone]': p }, 'json'),
          `register with phone ${JSON.stringify(p)} (a JSON body)`,
        );
      },
    },
    {
      id: 'NET-REG-04',
      title: 'last_name sent as null, in a JSON body: refused',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        // A null is a key that exists: a required test of array_key_exists() (or isset() on the form fields
        // only) takes it, and (string) null stores the name empty. Only a JSON body can carry a null. A target
        // may refuse JSON bodies whole, which is a refusal too (not recorded for NET-PROP-01's naming).
        refused(ctx, await registerBodyAs(ctx, { last_name: null }, 'json'), 'register with last_name null (a JSON body)');
      },
    },
    {
      id: 'NET-REG-01',
      title:
        'a phone of 10 digits as a JSON number, in a JSON body: accepted wherever the same body with the phone as a string is',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        // The register row types net_user[phone] as an integer: a JSON body may carry it as one. The samples send
        // multipart, so a target may refuse JSON bodies whole; only a refusal the phone as a string does not get
        // is a failure (a second register, at a fresh slot, only then).
        const p = Number(ctx.names.phone());
        const asNumber = await registerBodyAs(ctx, { 'net_user[phone]': p }, 'json');
        envelope(ctx, asNumber, `register with net_user.phone ${p} (a JSON number)`);
        if (asNumber.body.status === true) return;
        const asString = await registerBodyAs(ctx, { 'net_user[phone]': String(p) }, 'json');
        if (asString.body.status !== true)
          ctx.skip(`the target refuses this JSON register body with the phone as a string too (${described(asString)})`);
        ctx.fail(
          `register with net_user.phone ${p} as a JSON number was refused (${described(asNumber)}), the same body with "${p}" accepted: the document types the phone as an integer`,
          asNumber.ex,
          asString.ex,
        );
      },
    },
    {
      id: 'NET-REG-06',
      title: 'a phone of nine digits and a decimal point (ten characters of a number): refused',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        // "10 digits" counted as ten characters of a number (is_numeric and strlen) takes a point, a sign or a
        // blank for a digit; the property's random phones rarely put one where such a test lets it through.
        const p = '12345678.9';
        refusedNaming(
          ctx,
          await registerWith(ctx, { 'net_user[phone]': p }),
          'phone',
          `register with phone ${JSON.stringify(p)}`,
        );
      },
    },
    {
      id: 'NET-REG-06',
      title: 'a phone of 11 digits beginning with 0 (a trunk prefix before 10 digits): refused',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        // A target that strips a national prefix (0, +91) before counting 10 digits takes 11; the property's random
        // long phones rarely begin with exactly one 0.
        const p = `0${ctx.names.phone()}`;
        refusedNaming(
          ctx,
          await registerWith(ctx, { 'net_user[phone]': p }),
          'phone',
          `register with phone ${JSON.stringify(p)}`,
        );
      },
    },
    {
      id: 'NET-REG-01',
      title: 'an e-mail with an underscore where a registered one has a dot (a.b and a_b): accepted, it is another e-mail',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        // The e-mail must be unique, not unlike every other: a test of it by LIKE without escaping takes the
        // underscore for any one character and finds the dotted e-mail registered just before.
        const base = ctx.names.email();
        const dotted = base.replace('@', '.u@');
        const first = await registerWith(ctx, { email: dotted });
        if (first.body.status !== true) ctx.skip(`register with e-mail ${dotted} was refused: ${described(first)}`);
        const twin = base.replace('@', '_u@');
        const second = await registerWith(ctx, { email: twin });
        envelope(ctx, second, `register with e-mail ${twin}`);
        ctx.expect(
          second.body.status === true,
          `register with e-mail ${twin} was refused (${described(second)}), though the e-mail registered before it is ${dotted}, another e-mail`,
          first.ex,
          second.ex,
        );
      },
    },
    {
      id: 'NET-REG-09',
      title: 'property: a position other than left or right is refused',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        await checkProperty(ctx, 'net-position-invalid', badPosition, async (p) => {
          refusedNaming(
            ctx,
            await registerWith(ctx, { 'net_user[position]': p }),
            'position',
            `register with position ${JSON.stringify(p)}`,
          );
        });
      },
    },
    {
      id: 'NET-JOIN-03',
      title: 'property: Join_net with a position other than left or right is refused (an account not yet placed)',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        // An account without a place (AMB-NET-03 allows one); else the join is refused for being placed.
        const { account, call } = await register(ctx, registerForm(ctx, {}));
        const placed = account?.netUser && ['left', 'right'].includes(String(account.netUser.position));
        if (!account || placed)
          ctx.skip(`the target does not keep an account registered without a placement (${described(call)})`);
        const sponsor = await fresh(ctx).sponsorName();
        await checkProperty(ctx, 'net-join-position-invalid', badPosition, async (p) => {
          const slot = await fresh(ctx).peek();
          const form = { sponsor_name: sponsor, parent_name: slot.parent, position: p };
          const join = await net(ctx).post('/Join_net', { token: account.token, form });
          if (join.body.status === true) fresh(ctx).drop();
          refusedNaming(ctx, join, 'position', `Join_net with position ${JSON.stringify(p)}`);
        });
      },
    },
    {
      id: 'NET-REG-01',
      title:
        'property: usernames of letters and digits only, 10-digit phones and either position are accepted at free positions (the edges)',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        // The run prefix keeps names unique; the suffix probes the edges: all digits, all capitals, mixed.
        const suffix = fc.oneof(
          fc.stringMatching(/^[0-9]{1,8}$/),
          fc.stringMatching(/^[A-Z]{1,8}$/),
          fc.stringMatching(/^[A-Za-z0-9]{1,8}$/),
        );
        const edges = fc.oneof(fc.constantFrom('1000000000', '9999999999'), phone({ digits: 10 }));
        await checkProperty(
          ctx,
          'net-register-valid',
          fc.tuple(suffix, edges),
          async ([tail, p]) => {
            const username = `${ctx.names.username()}${tail}`;
            const slot = await fresh(ctx).peek();
            // Slots alternate left and right, so both positions are exercised.
            const r = await fresh(ctx).place({ username, 'net_user[phone]': p, 'net_user[position]': slot.position });
            const what = `register ${username} with phone ${p} at ${slot.parent}/${slot.position}`;
            succeeded(ctx, r.call, what);
            const pos = r.account?.netUser?.position;
            ctx.expect(
              pos === undefined || String(pos).toLowerCase() === slot.position,
              `${what}: net_user.position is ${JSON.stringify(pos)}`,
              r.call.ex,
            );
          },
          { runs: registeringRuns(ctx.settings.runs) },
        );
      },
    },
    {
      id: 'NET-WD-04',
      title: 'property: a withdrawal below net_withdrawal_limit_min is refused (SFC_NET_USERNAME, whose balance covers it)',
      async run(ctx: Ctx) {
        ctx.state.root = await rootAccount(ctx);
        const info = await net(ctx).get('/withdrawal', { token: ctx.state.root.token });
        const { min, max } = readLimits(info);
        if (!Number.isFinite(min) || !Number.isFinite(max)) ctx.skip(`no numeric withdrawal limits: ${described(info)}`);
        ctx.state.min = min;
        ctx.state.max = max;
        ctx.state.balance = readInfo(info).balance;
        if (min <= 0.01) ctx.skip(`the minimum is ${min}: there is no positive amount below it`);
        const below = fc.integer({ min: 1, max: Math.round(min * 100) - 1 }).map((c) => c / 100);
        await checkProperty(ctx, 'net-withdrawal-below-min', below, async (amount) => {
          const call = await net(ctx).post('/withdrawal_request', {
            token: ctx.state.root?.token,
            form: { amount: money(amount) },
          });
          refusedNaming(ctx, call, 'amount', `withdrawal_request of ${money(amount)} (minimum ${min})`);
        });
      },
    },
    {
      id: 'NET-WD-05',
      title: 'property: a withdrawal above net_withdrawal_limit_max is refused (within the balance where it allows)',
      needs: ['root', 'max'],
      async run(ctx: Ctx) {
        const { max = 0, balance = 0 } = ctx.state;
        // Above the maximum but within the balance, so only the maximum can be the reason.
        const top = Math.max(Math.round(max * 100) + 1, Math.min(Math.round(balance * 100), Math.round(max * 200)));
        const above = fc.integer({ min: Math.round(max * 100) + 1, max: top }).map((c) => c / 100);
        await checkProperty(ctx, 'net-withdrawal-above-max', above, async (amount) => {
          const call = await net(ctx).post('/withdrawal_request', {
            token: ctx.state.root?.token,
            form: { amount: money(amount) },
          });
          refusedNaming(ctx, call, 'amount', `withdrawal_request of ${money(amount)} (maximum ${max}, balance ${balance})`);
        });
      },
    },
    {
      id: 'NET-WD-03',
      title: 'a withdrawal of exactly the minimum, and of exactly the maximum, is accepted (the edges)',
      needs: ['root', 'min', 'max', 'balance'],
      async run(ctx: Ctx) {
        const { min = 0, max = 0, balance = 0 } = ctx.state;
        // The maximum costs real balance: tried only when as much again stays for the other areas.
        const edges = [min, ...(balance >= min + 2 * max ? [max] : [])];
        // Not while the withdrawals area compares this account's sums before and after its own request.
        await withRunLock(
          ctx.settings.runId,
          ROOT_WITHDRAWALS_LOCK,
          async () => {
            for (const amount of edges) {
              if (!acceptable({ min, max, available: balance, requested: 0, records: 0, accepted: [] }, amount))
                ctx.skip(`the balance ${balance} does not cover ${money(amount)}`);
              const call = await net(ctx).post('/withdrawal_request', {
                token: ctx.state.root?.token,
                form: { amount: money(amount) },
              });
              succeeded(ctx, call, `withdrawal_request of exactly ${money(amount)} (limits ${min}..${max})`);
            }
          },
          { onGiveUp: (m) => ctx.note(m) },
        );
        if (edges.length === 1) ctx.note(`the maximum edge was not tried: balance ${balance} is below ${money(min + 2 * max)}`);
      },
    },
    {
      id: 'NET-PROP-02',
      title: 'property: a withdrawal inside the limits but above the available balance is refused (a fresh account)',
      needs: ['fresh', 'min', 'max'],
      async run(ctx: Ctx) {
        const account = await fresh(ctx).next();
        const info = await net(ctx).get('/withdrawal', { token: account.token });
        const { min = 0, max = 0 } = ctx.state;
        const balance = readInfo(info).balance;
        if (!Number.isFinite(balance)) ctx.fail(`withdrawal: total_balance is not a number: ${described(info)}`, info.ex);
        const low = Math.max(Math.round(min * 100), Math.round(balance * 100) + 1);
        if (low > Math.round(max * 100)) ctx.skip(`the fresh account's balance ${balance} is not below the maximum ${max}`);
        const over = fc.integer({ min: low, max: Math.round(max * 100) }).map((c) => c / 100);
        await checkProperty(ctx, 'net-withdrawal-above-balance', over, async (amount) => {
          const call = await net(ctx).post('/withdrawal_request', { token: account.token, form: { amount: money(amount) } });
          refusedNaming(ctx, call, 'amount', `withdrawal_request of ${money(amount)} (balance ${balance})`);
        });
      },
    },
    {
      id: 'NET-PROP-01',
      title: 'every refusal of the boundary properties above named its field in errors',
      needs: ['fresh'],
      async run(ctx: Ctx) {
        const unnamed = ctx.state.unnamed ?? [];
        const judged = ctx.state.judged ?? 0;
        if (judged === 0) ctx.skip('the boundary properties above saw no refusal, so none could be judged for naming its field');
        const kinds = [...new Set(unnamed.map((u) => u.what.replace(/ of .*? \(| with \S+ .*? \(/, ' (')))];
        ctx.expect(
          unnamed.length === 0,
          `${unnamed.length} of ${judged} refusal(s) without errors keyed by the field, e.g. ${unnamed
            .slice(0, 3)
            .map((u) => `${u.what}: ${described(u.call)}`)
            .join('; ')} (kinds: ${kinds.slice(0, 5).join(', ')})`,
          ...unnamed.slice(0, 3).map((u) => u.call.ex),
        );
      },
    },
    noServerErrorCheck(),
  ],
};

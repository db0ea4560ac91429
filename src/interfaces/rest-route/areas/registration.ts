import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import type { Exchange } from '../../../http/exchange.js';
import {
  type Account,
  freshFields,
  type LoginField,
  loginProbe,
  postLogin,
  postRegister,
  type Reading,
  type RegisterFields,
  register,
  registerBody,
} from '../accounts.js';
import { asRecord, bodyOf, call, dataOf, envelope, ROUTES, shown } from '../client.js';
import { expectAccepted, expectRefused } from '../refusals.js';
import { sweepChecks } from '../sweep.js';

// The register rules of sections 4, 7 and 8: limits, uniqueness, required fields. Every refusal
// is logged so the sweep can check that it names its error (RR-ERR-02).

interface RegistrationState {
  reading: Reading;
  base: Account;
  /** RR-REG-15's register with the parameter-table fields succeeded: the target takes them. */
  table: true;
  /** RR-REG-02's account, registered in a group other than the default one, and that group. */
  grouped: { account: Account; group: string };
}
type C = CheckContext<RegistrationState>;

/** A register the rules must refuse: fresh fields with `overrides`, without the `drop`ped ones. */
async function refused(
  ctx: C,
  what: string,
  names: string[],
  overrides: Partial<RegisterFields>,
  drop: (keyof RegisterFields)[] = [],
): Promise<{ ex: Exchange; fields: RegisterFields }> {
  const fields = freshFields(ctx, overrides);
  const ex = await postRegister(ctx, ctx.state.reading ?? 'sample', fields, drop);
  expectRefused(ctx, ex, what, names);
  return { ex, fields };
}

/**
 * A refused register stores no account: its credentials do not log in (by e-mail, and by username
 * too in the table reading, AMB-RR-01). The refusal alone does not show that; a login does.
 */
async function storedNothing(ctx: C, what: string, refusal: { ex: Exchange; fields: RegisterFields }): Promise<void> {
  const by: LoginField[] = ctx.state.reading === 'table' ? ['email', 'username'] : ['email'];
  for (const field of by) {
    const login = await postLogin(ctx, field, refusal.fields);
    ctx.expect(
      bodyOf(login)?.status !== true,
      `${what} was refused, yet its ${field} and password log in: the refused register stored the account`,
      refusal.ex,
      login,
    );
  }
}

async function accepted(ctx: C, what: string, overrides: Partial<RegisterFields>): Promise<void> {
  const ex = await postRegister(ctx, ctx.state.reading ?? 'sample', freshFields(ctx, overrides));
  expectAccepted(ctx, ex, what);
}

/**
 * Registers `fields` with the parameter-table body and logs in by its username; skips the check
 * unless both succeed, as only a target that takes a username is bound by the username rules.
 */
async function takesUsername(ctx: C, fields: RegisterFields): Promise<RegisterFields> {
  const probe = await register(ctx, fields, 'table');
  if (!probe.account)
    ctx.skip(
      `the target refuses the parameter-table register body, so it takes no username: ${probe.exchanges.map(shown).join(' | ')}`,
    );
  const login = await postLogin(ctx, 'username', probe.account.fields);
  if (bodyOf(login)?.status !== true)
    ctx.skip(`the target does not log in by username, so it takes no username (AMB-RR-01): ${shown(login)}`);
  return probe.account.fields;
}

export const registrationArea: AreaSpec<RegistrationState> = {
  interface: 'rest-route',
  name: 'registration',
  checks: [
    {
      id: 'RR-REG-10',
      title: 'register without customer_group_id succeeds (it defaults to the default group)',
      run: async (ctx: C) => {
        const fields = freshFields(ctx);
        const out = await register(ctx, fields);
        ctx.expect(
          out.account,
          `register without customer_group_id was refused in both readings: ${out.exchanges.map(shown).join(' | ')}`,
          ...out.exchanges,
        );
        ctx.choose('AMB-RR-03', out.account.reading);
        ctx.state.reading = out.account.reading;
        ctx.state.base = out.account;
        const group = out.account.data.customer_group_id;
        ctx.expect(
          typeof group === 'string' && group !== '',
          `expected the default customer_group_id, got ${JSON.stringify(group)}`,
          out.account.exchange,
        );
      },
    },
    {
      id: 'RR-REG-04',
      title: 'a second register with an e-mail already registered is refused (error_exists)',
      needs: ['base'],
      run: async (ctx: C) => {
        const base = ctx.state.base as Account;
        const refusal = await refused(ctx, 'register with an e-mail already registered', ['error_exists', 'email'], {
          email: base.fields.email,
        });
        // The refusal alone does not show that the account is as registered: a module that files the
        // register with an upsert refuses it after writing its password over the account's. One login
        // (two in the table reading when the e-mail is refused, AMB-RR-01).
        const by: LoginField[] = ctx.state.reading === 'table' ? ['email', 'username'] : ['email'];
        const logins: Exchange[] = [];
        for (const field of by) {
          const login = await postLogin(ctx, field, base.fields);
          logins.push(login);
          if (bodyOf(login)?.status === true) return;
        }
        ctx.fail(
          `after the refused register of ${base.fields.email}, the account's registered password no longer logs in: the refused register changed the account`,
          refusal.ex,
          ...logins,
        );
      },
    },
    {
      // Every duplicate was the e-mail exactly as registered, so a module that looks the e-mail up as
      // sent and stores it trimmed showed nowhere. A refusal keeps the rule whatever its key (taken, or
      // not a valid e-mail); an acceptance that keeps the space stored another string.
      id: 'RR-REG-04',
      title: 'a register with an existing e-mail behind a leading space is refused, or not stored as that e-mail',
      needs: ['base'],
      run: async (ctx: C) => {
        const existing = (ctx.state.base as Account).fields.email;
        const ex = await postRegister(ctx, ctx.state.reading ?? 'sample', freshFields(ctx, { email: ` ${existing}` }));
        const stored = bodyOf(ex)?.status === true ? dataOf(bodyOf(ex)).email : undefined;
        ctx.expect(
          typeof stored !== 'string' || stored.toLowerCase() !== existing.toLowerCase(),
          `register with " ${existing}" (a registered e-mail behind a space) answered status true with email "${String(stored)}": a second account with an e-mail already registered`,
          ex,
        );
      },
    },
    {
      // Every duplicate was the e-mail with the capitals it was registered with, so a module whose duplicate
      // check compares case-sensitively (a binary collation) while its store and login do not showed nowhere.
      // Only the domain changes case: domain names are case-insensitive, so it is the same address whatever
      // a target makes of the local part's case. Any refusal keeps the rule. One request.
      id: 'RR-REG-04',
      title: 'a register with an existing e-mail whose domain is written in capitals is refused',
      needs: ['base'],
      run: async (ctx: C) => {
        const existing = (ctx.state.base as Account).fields.email;
        const at = existing.lastIndexOf('@');
        const upper = `${existing.slice(0, at)}${existing.slice(at).toUpperCase()}`;
        if (at < 0 || upper === existing) ctx.skip(`the e-mail ${existing} has no domain with letters to write in capitals`);
        const ex = await postRegister(ctx, ctx.state.reading ?? 'sample', freshFields(ctx, { email: upper }));
        ctx.expect(
          bodyOf(ex)?.status !== true,
          `register with ${upper} (the registered ${existing}, its domain in capitals) answered status true: a second account with an e-mail already registered`,
          ex,
        );
      },
    },
    {
      // Every duplicate was sent after the first register had answered, so a module that checks the
      // e-mail and inserts with no unique key (both registers of a race pass the check) showed nowhere.
      id: 'RR-REG-04',
      title: 'two registers of one new e-mail sent at the same time: one at most succeeds, the refused one stores nothing',
      needs: ['reading'],
      run: async (ctx: C) => {
        const reading = ctx.state.reading ?? 'sample';
        const email = ctx.names.email();
        const twins = [freshFields(ctx, { email }), freshFields(ctx, { email })];
        const answers = await Promise.all(twins.map((f) => postRegister(ctx, reading, f)));
        const won = answers.filter((ex) => bodyOf(ex)?.status === true).length;
        if (won === 0)
          ctx.skip(`neither of two registers of ${email} sent at the same time was accepted: ${answers.map(shown).join(' | ')}`);
        ctx.expect(
          won === 1,
          `two registers of ${email} sent at the same time both succeeded: the e-mail is registered twice`,
          ...answers,
        );
        const lost = answers.findIndex((ex) => bodyOf(ex)?.status !== true);
        const loser = twins[lost];
        const refusal = answers[lost];
        if (loser && refusal)
          await storedNothing(ctx, `the register of ${email} that lost the race`, { ex: refusal, fields: loser });
      },
    },
    {
      id: 'RR-REG-05',
      title:
        'first and last name: 32 characters (ASCII, accented, outside the BMP) and the 1-character "0" accepted; 33 and empty refused',
      needs: ['reading'],
      run: async (ctx: C) => {
        // The lastname is the 1-character "0", the limit's other end: a validator written with PHP's
        // empty() takes "0" for missing. The 32-character lastname is the accented register's below.
        await accepted(ctx, 'register with a 32-character firstname and the 1-character lastname "0"', {
          firstname: 'F'.repeat(32),
          lastname: '0',
        });
        // Part 8 counts characters, not bytes: 32 accented letters (precomposed, one code point each,
        // 2 bytes in UTF-8) are 32 characters under every counting of characters.
        await accepted(ctx, 'register with a 32-character firstname and lastname of accented letters', {
          firstname: `\u00c9${'\u00e9'.repeat(31)}`,
          lastname: `\u00d6${'\u00fc'.repeat(31)}`,
        });
        // And 32 characters each outside the BMP (CJK Extension B, as names are written: one code point, 4 bytes in
        // UTF-8, 2 UTF-16 units each): a target that counts UTF-16 units, as JavaScript's length does, takes them
        // for 64 and refuses the name. Part 8's "characters" are characters, and RR-ADDR-05 already asks that such
        // characters be kept as sent.
        const extB = ['\u{20BB7}', '\u{2000B}', '\u{2123D}', '\u{20B9F}'];
        await accepted(ctx, 'register with a 32-character firstname of characters outside the BMP', {
          firstname: Array.from({ length: 32 }, (_, i) => extB[i % extB.length]).join(''),
        });
        await refused(ctx, 'register with a 33-character firstname', ['error_firstname', 'firstname', 'first_name'], {
          firstname: 'F'.repeat(33),
        });
        await refused(ctx, 'register with a 33-character lastname', ['error_lastname', 'lastname', 'last_name'], {
          lastname: 'L'.repeat(33),
        });
        await refused(ctx, 'register with an empty firstname', ['error_firstname', 'firstname', 'first_name'], { firstname: '' });
      },
    },
    {
      id: 'RR-REG-06',
      title: 'an e-mail address that is not valid is refused (error_email)',
      needs: ['reading'],
      run: async (ctx: C) => {
        for (const email of ['not-an-email', 'a@', '@example.test'])
          await refused(ctx, `register with e-mail ${JSON.stringify(email)}`, ['error_email', 'email'], { email });
        // Each of those lacks an @ or a side of it, so a register that checks the e-mail with a loose pattern
        // (the 1.5-era /^[^@]+@.*\.[a-z]{2,6}$/i: anything after the first @, anything but @ before it) showed
        // nowhere. A second @, or a space in the local part, is not valid in any reading of an address; nor is a
        // whole address followed by a second @ and domain (a pattern that checks only a prefix took it).
        const fresh = ctx.names.email();
        const at = fresh.lastIndexOf('@');
        for (const email of [
          `${fresh.slice(0, at)}@${fresh.slice(at)}`,
          `${fresh.slice(0, 4)} ${fresh.slice(4)}`,
          `${fresh}${fresh.slice(at)}`,
        ])
          await refused(ctx, `register with e-mail ${JSON.stringify(email)}`, ['error_email', 'email'], { email });
      },
    },
    {
      id: 'RR-REG-07',
      title: 'a 2-character telephone is refused (fits neither reading; AMB-RR-04 recorded)',
      needs: ['reading'],
      run: async (ctx: C) => {
        await refused(ctx, 'register with a 2-character telephone', ['error_telephone', 'telephone', 'phone'], {
          telephone: '12',
        });
        // 11 characters, not 10 digits: which limit the target applies.
        const probe = await postRegister(ctx, ctx.state.reading ?? 'sample', freshFields(ctx, { telephone: '+1 555 0100' }));
        ctx.choose('AMB-RR-04', bodyOf(probe)?.status === true ? '3-32-characters' : '10-digits');
      },
    },
    {
      id: 'RR-REG-08',
      title: 'a confirmation that differs from the password is refused',
      needs: ['reading'],
      run: async (ctx: C) => {
        await refused(ctx, 'register with a different confirmation', ['error_confirm', 'confirm'], { confirm: 'Different-9!' });
      },
    },
    {
      // Every password the checks sent held letters, so a confirm rule written with PHP's != (two strings of
      // digits compared as numbers) showed nowhere. Row 2 lets a password be digits; a leading 0 makes another.
      id: 'RR-REG-08',
      title: 'a digits-only password whose confirmation adds a leading 0 (equal as numbers only) is refused',
      needs: ['reading'],
      run: async (ctx: C) => {
        const password = ctx.names.phone();
        await refused(ctx, `register with password ${password} and confirm 0${password}`, ['error_confirm', 'confirm'], {
          password,
          confirm: `0${password}`,
        });
      },
    },
    {
      // The refusals were judged by their answer alone, so a module that stores the customer before
      // it checks the agreement (and then answers error_agree) showed nowhere.
      id: 'RR-REG-09',
      title: 'a register without agreement (agree 0, or no agree) is refused and stores no account',
      needs: ['reading'],
      run: async (ctx: C) => {
        const zero = await refused(ctx, 'register with agree 0', ['error_agree', 'agree'], { agree: 0 });
        const none = await refused(ctx, 'register without agree', ['error_agree', 'agree'], {}, ['agree']);
        await storedNothing(ctx, 'register with agree 0', zero);
        await storedNothing(ctx, 'register without agree', none);
      },
    },
    {
      id: 'RR-REG-11',
      title: 'a register without the e-mail address is refused',
      needs: ['reading'],
      run: async (ctx: C) => {
        await refused(ctx, 'register without email', ['error_email', 'email'], {}, ['email']);
      },
    },
    {
      id: 'RR-REG-02',
      title: 'register with a customer_group_id taken from GET register succeeds in that group',
      needs: ['reading', 'base'],
      run: async (ctx: C) => {
        const base = ctx.state.base as Account;
        // GET register may be open or need a token (AMB-RR-08): try without, then with.
        let ex = await call(ctx, 'GET', ROUTES.register);
        if (bodyOf(ex)?.status !== true) ex = await call(ctx, 'GET', ROUTES.register, { headers: { token: base.token } });
        if (bodyOf(ex)?.status !== true)
          ex = await call(ctx, 'GET', ROUTES.register, { headers: { authorization: `Bearer ${base.token}` } });
        const groups = dataOf(bodyOf(ex)).customer_groups;
        const ids = (Array.isArray(groups) ? groups : []).map((g) => asRecord(g)?.customer_group_id);
        // A group other than the default one where GET register lists several: only then does the
        // answer show that the group sent was taken (found by mutation testing: a register that
        // ignored customer_group_id and always used the default group passed with the default group).
        const fallback = String(base.data.customer_group_id ?? '');
        const group = ids.find((g) => (typeof g === 'string' || typeof g === 'number') && String(g) !== fallback) ?? ids[0];
        if (typeof group !== 'string' && typeof group !== 'number')
          ctx.skip(`GET register listed no customer group: ${shown(ex)}`);
        const out = await register(ctx, freshFields(ctx, { customer_group_id: Number(group) }), ctx.state.reading);
        const last = out.exchanges[out.exchanges.length - 1];
        ctx.expect(
          out.account,
          `register with customer_group_id ${group} was refused: ${last ? shown(last) : ''}`,
          ...out.exchanges,
        );
        envelope(ctx, out.account.exchange, 'account-register.post');
        ctx.expect(
          String(out.account.data.customer_group_id) === String(group),
          `registered in group ${group}, the answer says ${JSON.stringify(out.account.data.customer_group_id)}`,
          out.account.exchange,
        );
        if (String(group) !== fallback) ctx.state.grouped = { account: out.account, group: String(group) };
      },
    },
    {
      // RR-REG-02 read the group of a register in another group than the default one from the register
      // answer alone, so a module that answers the group sent while the core files the default group (the
      // groups shown at registration being the default one only) showed nowhere: the login of that account
      // answers the Customer as filed.
      id: 'RR-LOGIN-09',
      title: 'an account registered in a group other than the default one logs in with the customer_group_id register answered',
      needs: ['grouped'],
      run: async (ctx: C) => {
        const { account, group } = ctx.state.grouped as RegistrationState['grouped'];
        const login = await loginProbe(ctx, account);
        const last = login.exchanges[login.exchanges.length - 1];
        if (!login.field || !last)
          ctx.skip(
            `the account registered in group ${group} did not log in (RR-LOGIN-02 judges logins): ${login.exchanges.map(shown).join(' | ')}`,
          );
        const answered = dataOf(bodyOf(last)).customer_group_id;
        ctx.expect(
          String(answered) === String(account.data.customer_group_id),
          `${account.fields.email} was registered with customer_group_id ${group} and register answered customer_group_id ${JSON.stringify(account.data.customer_group_id)}; its login answers customer_group_id ${JSON.stringify(answered)}`,
          account.exchange,
          last,
        );
      },
    },
    {
      id: 'RR-REG-13',
      title: 'a username with characters other than letters and digits is refused (parameter-table fields)',
      needs: ['reading'],
      run: async (ctx: C) => {
        // Only a target that takes a username is held to the rule (the requirement says so): one
        // that refuses the table body, or does not log in by username, would refuse these for
        // other reasons (no firstname, lastname, telephone), and the username rule goes untested.
        await takesUsername(ctx, freshFields(ctx));
        for (const username of [`ab-${ctx.names.username()}`, `ab ${ctx.names.username()}`]) {
          const ex = await postRegister(ctx, 'table', freshFields(ctx, { username }));
          expectRefused(ctx, ex, `register with username ${JSON.stringify(username)}`, ['error_username', 'username']);
        }
      },
    },
    {
      id: 'RR-REG-14',
      title: 'a second account with the same username is refused (parameter-table fields)',
      needs: ['reading'],
      run: async (ctx: C) => {
        // The first account, registered with the table body and logged in by its username, shows
        // the target takes a username; a refusal of the second is then about the username.
        const first = await takesUsername(ctx, freshFields(ctx));
        const second = await postRegister(ctx, 'table', freshFields(ctx, { username: first.username }));
        expectRefused(ctx, second, 'register with a username already taken', ['error_username', 'error_exists', 'username']);
      },
    },
    {
      // Found by mutation testing (audit): a target that read numbers as no text (so a JSON integer
      // phone was missing) or JSON booleans as no flag survived, as no check sent the table's types.
      id: 'RR-REG-15',
      title: 'parameter-table fields in the table types: phone a JSON integer of 10 digits, newsletter a JSON boolean',
      needs: ['reading'],
      run: async (ctx: C) => {
        // Only a target that takes the table fields is bound by their types (AMB-RR-03).
        const plain = await postRegister(ctx, 'table', freshFields(ctx));
        if (bodyOf(plain)?.status !== true)
          ctx.skip(
            `the target refused the parameter-table fields with string values, so their types do not apply: ${shown(plain)}`,
          );
        ctx.state.table = true;
        const typed: Array<[string, Record<string, unknown>]> = [
          ['phone as a JSON integer of 10 digits', { phone: Number(ctx.names.phone()) }],
          ['newsletter as the JSON boolean true', { newsletter: true }],
          ['newsletter as the JSON boolean false', { newsletter: false }],
        ];
        for (const [what, patch] of typed) {
          const json = { ...registerBody('table', freshFields(ctx)), ...patch };
          const ex = await call(ctx, 'POST', ROUTES.register, { json });
          expectAccepted(ctx, ex, `register with the parameter-table fields and ${what}`);
        }
      },
    },
    {
      // Every telephone rule was sent in the reading the area took (the sample's telephone on a target
      // that takes both), so a module that checks telephone and files the table's phone unchecked
      // showed nowhere. A target that takes the table fields (RR-REG-15) is held to the limit in them.
      id: 'RR-REG-07',
      title: 'a 2-character phone in the parameter-table fields is refused (fits neither reading)',
      needs: ['table'],
      run: async (ctx: C) => {
        const ex = await postRegister(ctx, 'table', freshFields(ctx, { telephone: '12' }));
        expectRefused(ctx, ex, 'register with the parameter-table fields and a 2-character phone', [
          'error_telephone',
          'error_required_telephone',
          'telephone',
          'phone',
        ]);
      },
    },
    ...sweepChecks<RegistrationState>({ others: false }),
  ],
};

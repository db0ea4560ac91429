import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import type { Exchange } from '../../../http/exchange.js';
import {
  freshFields,
  keepNewest,
  type LoginField,
  loginProbe,
  type Provisioned,
  postLogin,
  provision,
  register,
} from '../accounts.js';
import { asRecord, bodyOf, call, dataOf, envelope, ROUTES, shown } from '../client.js';
import { expectAccepted, expectRefused } from '../refusals.js';
import { sweepChecks } from '../sweep.js';

// Store info (row 11) and the forgotten-password flow (rows 12 to 14): code, update, then the
// new password logs in and the old one no longer does.

interface AccountState {
  me: Provisioned;
  /** RR-ACCT-01's GET account, sent without Accept-Language. */
  storeInfo: Exchange;
  other: Provisioned;
  /** Two fresh customers: `a`'s token names `b`'s e-mail (the document ties the e-mail to no token). */
  pair: { a: Provisioned; b: Provisioned };
  loginField: LoginField;
  oldPassword: string;
  newPassword: string;
  /** RR-SEC-03's POST forgotten: a second one for me's e-mail, sent while RR-PWD-02's code is pending. */
  repeatCode: Exchange;
  /** RR-PWD-05's login of me with the new password an accepted update set. */
  loginAfterUpdate: Exchange;
}
type C = CheckContext<AccountState>;

const me = (ctx: C): Provisioned => ctx.state.me as Provisioned;

/** A login of `me`'s account; the token it issues becomes me's session (keepNewest). */
async function loginMe(ctx: C, field: LoginField, password?: string) {
  const ex = await postLogin(ctx, field, me(ctx).account.fields, password);
  keepNewest(me(ctx), ex);
  return ex;
}

/** Two fresh customers of the reading `me` took, made once per area. */
async function pair(ctx: C): Promise<{ a: Provisioned; b: Provisioned }> {
  if (!ctx.state.pair) {
    const reading = me(ctx).account.reading;
    ctx.state.pair = { a: await provision(ctx, reading), b: await provision(ctx, reading) };
  }
  return ctx.state.pair;
}

export const accountArea: AreaSpec<AccountState> = {
  interface: 'rest-route',
  name: 'account',
  checks: [
    {
      id: 'RR-ACCT-01',
      title: 'GET account answers with the store info and language',
      run: async (ctx: C) => {
        ctx.state.me = await provision(ctx);
        const ex = await call(ctx, 'GET', ROUTES.account, { session: me(ctx).session });
        ctx.state.storeInfo = ex;
        envelope(ctx, ex, 'account-account.get');
      },
    },
    {
      // No request carried Accept-Language, which the HTTP stacks of phones and browsers add, so a module
      // that writes language.code from that header (a language the store may not have) showed nowhere. The
      // store's answer to a language it lacks is not stated; that the code names one of its languages is.
      id: 'RR-ACCT-02',
      title: 'the store languages include the code of the language object (without Accept-Language, and with fr-FR)',
      needs: ['me'],
      run: async (ctx: C) => {
        const asked = 'fr-FR,fr;q=0.9';
        const ex = await call(ctx, 'GET', ROUTES.account, { session: me(ctx).session, headers: { 'accept-language': asked } });
        for (const [how, one] of [
          ['without Accept-Language', ctx.state.storeInfo],
          [`with Accept-Language: ${asked}`, ex],
        ] as const) {
          if (!one) continue;
          const body = bodyOf(one);
          const code = asRecord(body?.language)?.code;
          const langs = dataOf(body).languages;
          const codes = Array.isArray(langs) ? langs.map((l) => asRecord(l)?.code) : [];
          ctx.expect(
            codes.includes(code),
            `GET account ${how}: language.code ${JSON.stringify(code)} is not among the store languages ${JSON.stringify(codes)}`,
            one,
          );
        }
      },
    },
    {
      id: 'RR-PWD-01',
      title: 'GET forgotten with the token answers with data [] and language (AMB-RR-06)',
      needs: ['me'],
      run: async (ctx: C) => {
        const plain = await call(ctx, 'GET', ROUTES.forgotten, { session: me(ctx).session });
        if (bodyOf(plain)?.status === true) {
          ctx.choose('AMB-RR-06', 'token-only');
          envelope(ctx, plain, 'account-forgotten.get');
          return;
        }
        const withEmail = await call(ctx, 'GET', ROUTES.forgotten, {
          session: me(ctx).session,
          query: { email: me(ctx).account.fields.email },
        });
        ctx.choose('AMB-RR-06', 'with-email');
        envelope(ctx, withEmail, 'account-forgotten.get');
      },
    },
    {
      id: 'RR-PWD-02',
      title: 'POST forgotten with a registered e-mail returns an integer otp and the e-mail',
      needs: ['me'],
      run: async (ctx: C) => {
        const email = me(ctx).account.fields.email;
        const ex = await call(ctx, 'POST', ROUTES.forgotten, { session: me(ctx).session, json: { email } });
        const body = envelope(ctx, ex, 'account-forgotten.post');
        ctx.expect(dataOf(body).email === email, `expected data.email ${email}, got ${JSON.stringify(dataOf(body).email)}`, ex);
      },
    },
    {
      id: 'RR-SEC-03',
      title: 'the one-time code is not disclosed in the forgotten-password response',
      needs: ['me'],
      run: async (ctx: C) => {
        const ex = await call(ctx, 'POST', ROUTES.forgotten, {
          session: me(ctx).session,
          json: { email: me(ctx).account.fields.email },
        });
        ctx.state.repeatCode = ex;
        ctx.expect(
          dataOf(bodyOf(ex)).otp === undefined,
          'the response carries the one-time code (as the document specifies): anyone who can call the endpoint reads it; a finding, not a conformance failure',
          ex,
        );
      },
    },
    {
      // Every POST forgotten the checks judged was the first for its e-mail, so a module that answers
      // the code still pending as its reset table gives it back (a string of digits) showed nowhere.
      // Whether a second request issues a new code or repeats the first is not stated; its type is.
      id: 'RR-PWD-02',
      title: 'a second POST forgotten for the same e-mail, while the first code is pending, answers otp an integer',
      needs: ['repeatCode'],
      run: async (ctx: C) => {
        const ex = ctx.state.repeatCode as Exchange;
        if (bodyOf(ex)?.status !== true)
          ctx.skip(`a second POST forgotten for the same e-mail was refused (a rule of the target's own): ${shown(ex)}`);
        const body = envelope(ctx, ex, 'account-forgotten.post');
        const email = me(ctx).account.fields.email;
        ctx.expect(dataOf(body).email === email, `expected data.email ${email}, got ${JSON.stringify(dataOf(body).email)}`, ex);
      },
    },
    {
      // me's first login (RR-PWD-06's) came after two POST forgotten and skipped the check when refused, so a
      // POST forgotten that also sets a password of its own (the platform's old reset mail) showed nowhere.
      // Row 13 answers a code and row 14 sets the new password; until then the registered password logs in.
      id: 'RR-LOGIN-02',
      title: 'after POST forgotten (and no update), login with the registered password succeeds',
      needs: ['me'],
      run: async (ctx: C) => {
        const { account } = me(ctx);
        const probe = await loginProbe(ctx, account);
        for (const ex of probe.exchanges) keepNewest(me(ctx), ex);
        if (probe.field) ctx.state.loginField = probe.field;
        const asked = [ctx.state.repeatCode].filter((ex): ex is Exchange => ex !== undefined);
        ctx.expect(
          probe.field !== undefined,
          `after POST forgotten for ${account.fields.email} and no password update, login with the registered password was refused: ${probe.exchanges.map(shown).join(' | ')}`,
          ...asked,
          ...probe.exchanges,
        );
      },
    },
    {
      id: 'RR-PWD-03',
      title: 'POST forgotten with an e-mail address that is not valid is refused',
      needs: ['me'],
      run: async (ctx: C) => {
        const ex = await call(ctx, 'POST', ROUTES.forgotten, { session: me(ctx).session, json: { email: 'not-an-email' } });
        expectRefused(ctx, ex, 'POST forgotten with "not-an-email"', ['error_email', 'email']);
      },
    },
    {
      id: 'RR-PWD-06',
      title: 'POST updatepassword without the password is refused and changes nothing',
      needs: ['me', 'loginField'],
      run: async (ctx: C) => {
        const { account } = me(ctx);
        const field = ctx.state.loginField as LoginField;
        const ex = await call(ctx, 'POST', ROUTES.updatePassword, {
          session: me(ctx).session,
          json: { email: account.fields.email },
        });
        expectRefused(ctx, ex, 'updatepassword without a password', ['error_password', 'password']);
        const again = await loginMe(ctx, field);
        expectAccepted(ctx, again, 'login with the unchanged password after the refused update');
      },
    },
    {
      // Found by mutation testing: an update that ignored a missing email survived the suite.
      id: 'RR-PWD-07',
      title: 'POST updatepassword without the email is refused and changes nothing',
      needs: ['me', 'loginField'],
      run: async (ctx: C) => {
        const { session } = me(ctx);
        const ex = await call(ctx, 'POST', ROUTES.updatePassword, { session, json: { password: ctx.names.password() } });
        expectRefused(ctx, ex, 'updatepassword without an email', ['error_email', 'email']);
        const again = await loginMe(ctx, ctx.state.loginField!);
        expectAccepted(ctx, again, 'login with the unchanged password after the refused update');
      },
    },
    {
      id: 'RR-PWD-04',
      title: 'POST updatepassword with email and a new password succeeds with data []',
      needs: ['me', 'loginField'],
      run: async (ctx: C) => {
        const { account, session } = me(ctx);
        // Row 2: a password may hold special characters. The five HTML-special ones make an update
        // that stores the password escaped (and so never logs in with it: RR-PWD-05) show.
        const next = `${ctx.names.password()}&<>"'`;
        const ex = await call(ctx, 'POST', ROUTES.updatePassword, {
          session,
          json: { email: account.fields.email, password: next },
        });
        envelope(ctx, ex, 'account-forgotten-updatepassword.post');
        ctx.state.oldPassword = account.fields.password;
        ctx.state.newPassword = next;
      },
    },
    {
      id: 'RR-PWD-05',
      title: 'after an update the new password logs in and the old one is refused; a second update takes effect too',
      needs: ['newPassword', 'oldPassword', 'loginField'],
      run: async (ctx: C) => {
        const { account } = me(ctx);
        const field = ctx.state.loginField as LoginField;
        const fresh = await loginMe(ctx, field, ctx.state.newPassword);
        ctx.state.loginAfterUpdate = fresh;
        expectAccepted(ctx, fresh, 'login with the new password');
        const stale = await loginMe(ctx, field, ctx.state.oldPassword);
        expectRefused(ctx, stale, 'login with the old password');
        // Row 14 takes email and password only, so an update needs no code of POST forgotten: the
        // first update followed a code, and an update that works only while a code is pending
        // (the first one consuming it) showed nowhere. A second update, with no code asked since:
        const third = `${ctx.names.password()}2`;
        const again = await call(ctx, 'POST', ROUTES.updatePassword, {
          session: me(ctx).session,
          json: { email: account.fields.email, password: third },
        });
        if (bodyOf(again)?.status !== true) {
          ctx.note(
            `a second update, with no code asked since the first, was refused, so whether it applies is not judged: ${shown(again)}`,
          );
          return;
        }
        const latest = await loginMe(ctx, field, third);
        expectAccepted(ctx, latest, 'login with the password of a second update, accepted with no code asked since the first');
      },
    },
    {
      // Every login after a password update was judged by its status alone, so an update that saves the
      // customer from its own body (email and password only), emptying the names, showed nowhere. Row
      // 14 changes the password; the login's Customer is still the account as registered.
      id: 'RR-LOGIN-07',
      title: 'after a password update, login answers the firstname, lastname and email registered',
      needs: ['loginAfterUpdate'],
      run: async (ctx: C) => {
        const ex = ctx.state.loginAfterUpdate as Exchange;
        if (bodyOf(ex)?.status !== true)
          ctx.skip(`the login with the new password was refused (RR-PWD-05 judges that): ${shown(ex)}`);
        const { fields } = me(ctx).account;
        const d = dataOf(bodyOf(ex));
        const wrong = (['firstname', 'lastname', 'email'] as const).filter((k) => d[k] !== fields[k]);
        ctx.expect(
          wrong.length === 0,
          `after a password update, the login of ${fields.email} answers ${wrong.map((k) => `${k} ${JSON.stringify(d[k])}`).join(', ')}; registered ${wrong.map((k) => JSON.stringify(fields[k])).join(', ')}`,
          ex,
        );
      },
    },
    {
      // Every login of the password flow was by e-mail, so a module whose login by username checks a
      // copy of the hash that the update does not write (an API user table of its own) showed nowhere.
      // Only a target that takes a username (the parameter-table reading, AMB-RR-01) is judged.
      id: 'RR-PWD-05',
      title: 'after an update, a login by username (where the target takes one) takes the new password and refuses the old',
      needs: ['me'],
      run: async (ctx: C) => {
        const fields = freshFields(ctx);
        const out = await register(ctx, fields, 'table');
        if (!out.account?.token)
          ctx.skip(
            `the target refuses the parameter-table register body, so it takes no username: ${out.exchanges.map(shown).join(' | ')}`,
          );
        const first = await postLogin(ctx, 'username', fields);
        if (bodyOf(first)?.status !== true)
          ctx.skip(`the target does not log in by username, so it takes no username (AMB-RR-01): ${shown(first)}`);
        const next = ctx.names.password();
        // The login's token, the newest of the account (a target may have ended the register's).
        const loginToken = bodyOf(first)?.token;
        const update = await call(ctx, 'POST', ROUTES.updatePassword, {
          session: {
            token: typeof loginToken === 'string' && loginToken !== '' ? loginToken : out.account.token,
            header: me(ctx).session.header,
          },
          json: { email: fields.email, password: next },
        });
        if (bodyOf(update)?.status !== true)
          ctx.skip(
            `the update of ${fields.email} was refused, so what it changes is not judged here (RR-PWD-04): ${shown(update)}`,
          );
        const fresh = await postLogin(ctx, 'username', fields, next);
        expectAccepted(ctx, fresh, `login by username ${fields.username} with the new password of an accepted update`);
        const stale = await postLogin(ctx, 'username', fields);
        expectRefused(ctx, stale, `login by username ${fields.username} with the password an accepted update replaced`);
      },
    },
    {
      // Every password the checks sent was a few ASCII bytes, so an update hashed by bcrypt (which
      // reads the first 72 bytes of UTF-8 only, as password_verify() does at login) showed nowhere:
      // after it, the old password logs in when it shares those bytes with the new one. The two here
      // share 72 bytes (three-byte characters keep them inside a limit of 40 characters) and differ after.
      id: 'RR-PWD-05',
      title: 'after an update to a password past 72 bytes, the old password alike in its first 72 bytes is refused',
      needs: ['me', 'loginField'],
      run: async (ctx: C) => {
        const base = ctx.names.password().slice(0, 14);
        const stem = base + '\u20ac'.repeat(Math.ceil((72 - Buffer.byteLength(base)) / 3));
        const [old, next] = [`${stem}Ab1!`, `${stem}Zy9?`];
        const fields = freshFields(ctx, { password: old });
        const out = await register(ctx, fields, me(ctx).account.reading);
        if (!out.account?.token)
          ctx.skip(
            `the target refused a register with a ${[...old].length}-character password (a limit of its own), so no such update is judged: ${out.exchanges.map(shown).join(' | ')}`,
          );
        const update = await call(ctx, 'POST', ROUTES.updatePassword, {
          session: { token: out.account.token, header: me(ctx).session.header },
          json: { email: fields.email, password: next },
        });
        if (bodyOf(update)?.status !== true)
          ctx.skip(
            `the update to a ${[...next].length}-character password was refused, so what it changes is not judged here: ${shown(update)}`,
          );
        const field = ctx.state.loginField as LoginField;
        const fresh = await postLogin(ctx, field, fields, next);
        expectAccepted(ctx, fresh, 'login with the new password of an accepted update');
        const stale = await postLogin(ctx, field, fields, old);
        expectRefused(
          ctx,
          stale,
          'login with the old password, which shares its first 72 bytes of UTF-8 with the new one and differs after them',
        );
      },
    },
    {
      id: 'RR-SEC-04',
      title: "one customer's token cannot set another customer's password",
      needs: ['me', 'loginField'],
      run: async (ctx: C) => {
        const victim = me(ctx).account;
        const other = await provision(ctx, victim.reading);
        const chosen = `Hijack-${ctx.names.runId}!9`;
        const ex = await call(ctx, 'POST', ROUTES.updatePassword, {
          session: other.session,
          json: { email: victim.fields.email, password: chosen },
        });
        const login = await loginMe(ctx, ctx.state.loginField as LoginField, chosen);
        ctx.expect(
          bodyOf(login)?.status !== true,
          "another customer's token set this customer's password (the update needs no code): a finding, not a conformance failure",
          ex,
          login,
        );
      },
    },
    {
      // Found by mutation testing (audit): a target that, given another customer's e-mail, issued the
      // code for the token holder and answered with the holder's e-mail survived, as every check
      // named the holder's own e-mail. A target may refuse such a request (its own rule: RR-SEC-04);
      // when it accepts, the answer must name the e-mail sent (row 13).
      id: 'RR-PWD-02',
      title: "POST forgotten naming another registered customer's e-mail: if accepted, data names that e-mail",
      needs: ['me'],
      run: async (ctx: C) => {
        const { a, b } = await pair(ctx);
        const email = b.account.fields.email;
        const ex = await call(ctx, 'POST', ROUTES.forgotten, { session: a.session, json: { email } });
        if (bodyOf(ex)?.status !== true)
          ctx.skip("the target refused a code for an e-mail other than the token holder's (a rule of its own): nothing to judge");
        const body = envelope(ctx, ex, 'account-forgotten.post');
        ctx.expect(
          dataOf(body).email === email,
          `POST forgotten for ${email} (another customer's token) succeeded naming ${JSON.stringify(dataOf(body).email)}`,
          ex,
        );
      },
    },
    {
      // Found by mutation testing (audit): an update that, given another customer's e-mail, set the
      // token holder's password instead survived. When the target accepts such an update, the new
      // password is the one of the account the e-mail names (row 14: email and the new password).
      id: 'RR-PWD-05',
      title: "an update naming another registered customer's e-mail: if accepted, that customer's password changes",
      needs: ['me', 'loginField'],
      run: async (ctx: C) => {
        const { a, b } = await pair(ctx);
        const field = ctx.state.loginField as LoginField;
        const next = ctx.names.password();
        const ex = await call(ctx, 'POST', ROUTES.updatePassword, {
          session: a.session,
          json: { email: b.account.fields.email, password: next },
        });
        if (bodyOf(ex)?.status !== true)
          ctx.skip(
            "the target refused an update of an e-mail other than the token holder's (a rule of its own): nothing to judge",
          );
        const fresh = await postLogin(ctx, field, b.account.fields, next);
        expectAccepted(ctx, fresh, `login of ${b.account.fields.email} with the new password its accepted update set`);
        const stale = await postLogin(ctx, field, b.account.fields);
        expectRefused(ctx, stale, `login of ${b.account.fields.email} with its old password after the accepted update`);
      },
    },
    ...sweepChecks<AccountState>(),
  ],
};

// One account per e-mail: a second register of it, however spelt or however timed, is refused.
import type { CheckSpec } from '../../../../checks/model.js';
import { type GraphQLResult, hasErrors } from '../../../../graphql/client.js';
import { customerInput, freshAccount, op, phoneForm, record, refusal, register, short } from '../../client.js';
import { loginWorks } from './accounts.js';
import type { AuthState, C } from './state.js';

export const duplicateEmailChecks: CheckSpec<AuthState>[] = [
  {
    id: 'GQL-REG-03',
    title:
      'a second register with an e-mail already registered is refused, and the account registered first still logs in with its own password and names',
    needs: ['account', 'loginRes'],
    async run(ctx: C) {
      const first = ctx.state.account!;
      const again = { ...freshAccount(ctx), email: first.email };
      const res = await register(ctx, again);
      ctx.expect(
        res.data?.register !== true || hasErrors(res.errors),
        'expected the duplicate e-mail to be refused, got register: true',
        res.exchange,
      );
      // A refusal that still wrote (an upsert reporting the duplicate afterwards) shows on the first account.
      const back = await loginWorks(ctx, first);
      if (!back)
        ctx.fail(
          'the duplicate register was refused, yet the account registered first no longer logs in with its own password',
          res.exchange,
        );
      // Names as the first login gave them (how a target stores names is GQL-LOGIN-03's subject).
      const names = (r: GraphQLResult | undefined) => {
        const user = record(record(r?.data?.login)?.user_data);
        return JSON.stringify([user?.firstname, user?.lastname]);
      };
      ctx.expect(
        names(back) === names(ctx.state.loginRes),
        `after the refused duplicate register, expected user_data names ${names(ctx.state.loginRes)} as at the first login, got ${names(back)}`,
        res.exchange,
        back.exchange,
      );
    },
  },
  {
    id: 'GQL-REG-03',
    title:
      'a register of the registered e-mail behind a leading space is refused, or its password does not log in as that e-mail',
    needs: ['account'],
    async run(ctx: C) {
      const first = ctx.state.account!;
      // An e-mail looked up as sent and stored trimmed lets the registered address in a second time.
      const again = { ...freshAccount(ctx), email: ` ${first.email}` };
      const res = await register(ctx, again);
      const why = refusal(res, 'register');
      if (why) {
        ctx.note(`register of " ${first.email}" was refused (${why})`);
        return;
      }
      // Accepted: a target that kept the space holds another e-mail; the registered one must not open with this password.
      const second = await loginWorks(ctx, { ...again, email: first.email });
      ctx.expect(
        !second,
        `register of " ${first.email}" (a leading space) answered register: true, and ${first.email} now logs in with that register's password: a second account holds a registered e-mail`,
        res.exchange,
        ...(second ? [second.exchange] : []),
      );
    },
  },
  {
    id: 'GQL-REG-03',
    title: 'a register of the registered e-mail in upper case, where login takes that spelling for the account, is refused',
    needs: ['account'],
    async run(ctx: C) {
      const first = ctx.state.account!;
      const typed = ctx.state.caseless;
      // Whether e-mails differing in case are one e-mail is not stated: judged only where the target's own login
      // took the upper-case spelling for the account (GQL-LOGIN-03). A duplicate check that compares case (= on
      // PostgreSQL, a binary collation) registers it again. 1 request.
      if (!typed)
        ctx.skip(
          `login did not take ${first.email} typed in upper case for the account: whether another case is another e-mail is the target's reading`,
        );
      const input = customerInput(ctx, { ...freshAccount(ctx), email: typed }, phoneForm(ctx) ?? 'string');
      const res = await op(ctx, 'register', { input });
      ctx.expect(
        res.data?.register !== true || hasErrors(res.errors),
        `a register of ${JSON.stringify(typed)} answered register: true, though login takes that spelling for the account registered as ${JSON.stringify(first.email)}: the e-mail is unique (a duplicate check that compares case?)`,
        res.exchange,
      );
    },
  },
  {
    id: 'GQL-REG-03',
    title:
      'a second register of an e-mail holding a capital outside ASCII (an internationalised address) is refused, as any duplicate',
    async run(ctx: C) {
      // A duplicate check of LOWER(email) against PHP's strtolower(), which folds A to Z only, never finds an e-mail
      // with Ü in it, so the same e-mail registers again. 2 requests.
      const first = { ...freshAccount(ctx), email: ctx.names.email().replace('@', '-\u00dcnal@') };
      const res = await register(ctx, first);
      // Which characters an e-mail may hold is not stated: judged only where register takes this one.
      if (res.data?.register !== true || hasErrors(res.errors))
        ctx.skip(
          `register of ${first.email} was refused (${refusal(res, 'register') ?? short(res.data?.register)}): no registered e-mail with a capital outside ASCII to register again`,
        );
      const again = await register(ctx, { ...freshAccount(ctx), email: first.email });
      ctx.expect(
        again.data?.register !== true || hasErrors(again.errors),
        `a second register of ${first.email}, an e-mail already registered (register: true), was answered register: true: the e-mail is unique (a capital outside ASCII missed by a byte-wise lowercasing?)`,
        res.exchange,
        again.exchange,
      );
    },
  },
  {
    id: 'GQL-REG-03',
    title:
      'two registers of one new e-mail sent at the same time: one is refused, and the account logs in with the names of the one accepted',
    async run(ctx: C) {
      // A check of the e-mail and an insert without a unique key let both through when they overlap.
      const email = ctx.names.email();
      const twins = [0, 1].map(() => ({ ...freshAccount(ctx), email }));
      const form = phoneForm(ctx) ?? 'string';
      const results = await Promise.all(twins.map((a) => op(ctx, 'register', { input: customerInput(ctx, a, form) })));
      const trail = results.map((r) => r.exchange);
      const won = results.map((r) => r.data?.register === true && !hasErrors(r.errors));
      ctx.expect(
        !(won[0] && won[1]),
        `two registers of ${email} sent at the same time both answered register: true; the e-mail is unique, so one must be refused`,
        ...trail,
      );
      const i = won.indexOf(true);
      const winner = twins[i];
      // Two refusals keep the rule (nothing was registered twice) but leave the race unobserved.
      if (!winner)
        ctx.skip(
          `neither of two registers of ${email} sent at the same time was accepted: ${results.map((r) => refusal(r, 'register')).join(' / ')}`,
        );
      // Read back: the account is the one accepted (a refused twin that still wrote shows in the names).
      const back = await loginWorks(ctx, winner);
      const user = record(record(back?.data?.login)?.user_data);
      ctx.expect(
        back && user?.firstname === winner.firstname && user?.lastname === winner.lastname,
        `after two registers of ${email} at the same time, the one accepted (${winner.firstname} ${winner.lastname}) ${back ? `logs in as ${short([user?.firstname, user?.lastname])}` : 'does not log in with its password'}`,
        ...trail,
        ...ctx.http.exchanges.slice(-1),
      );
    },
  },
];

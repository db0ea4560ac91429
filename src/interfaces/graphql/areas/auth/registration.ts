// register takes a complete CustomerInput: e-mails with capitals or an underscore, telephone and postcode in either form.
import type { CheckSpec } from '../../../../checks/model.js';
import { hasErrors } from '../../../../graphql/client.js';
import { customerInput, freshAccount, newAccount, op, phoneForm, refusal, register, short, validateData } from '../../client.js';
import { capitalDomain } from './accounts.js';
import type { AuthState, C } from './state.js';

export const registrationChecks: CheckSpec<AuthState>[] = [
  {
    id: 'GQL-REG-01',
    title: 'register with every CustomerInput field returns register: true',
    async run(ctx: C) {
      // Capitals in the e-mail (its domain): GQL-LOGIN-01 logs this account in with the e-mail as sent.
      const account = freshAccount(ctx);
      account.email = capitalDomain(account.email);
      const res = await register(ctx, account);
      if (res.data?.register === true && !hasErrors(res.errors)) ctx.state.capitals = account;
      validateData(ctx, res, 'register');
      ctx.expect(
        res.data?.register === true,
        `expected register: true, got ${refusal(res, 'register') ?? short(res.data?.register)}`,
        res.exchange,
      );
    },
  },
  {
    id: 'GQL-REG-01',
    title: 'an e-mail holding an underscore registers beside one that differs from it there by a hyphen',
    async run(ctx: C) {
      // first_last@ and first-last@ are two addresses: a duplicate check by LIKE reads _ as any character.
      const base = ctx.names.email();
      const hyphen = { ...freshAccount(ctx), email: base.replace('@', '-u@') };
      const underscore = { ...freshAccount(ctx), email: base.replace('@', '_u@') };
      const first = await register(ctx, hyphen);
      if (first.data?.register !== true || hasErrors(first.errors))
        ctx.skip(
          `register of ${hyphen.email} was refused (${refusal(first, 'register') ?? short(first.data?.register)}): no pair to compare`,
        );
      const res = await register(ctx, underscore);
      if (res.data?.register === true && !hasErrors(res.errors)) return;
      // Which characters an e-mail may hold is not stated: judged only where an underscore registers on its own.
      const alone = { ...freshAccount(ctx), email: ctx.names.email().replace('@', '_v@') };
      const probe = await register(ctx, alone);
      if (probe.data?.register !== true || hasErrors(probe.errors))
        ctx.skip(
          `register refuses an e-mail holding an underscore (${alone.email}: ${refusal(probe, 'register') ?? short(probe.data?.register)}), so ${underscore.email} is not judged`,
        );
      ctx.fail(
        `register of ${underscore.email} was refused (${refusal(res, 'register') ?? short(res.data?.register)}) after ${hyphen.email} was registered, though ${alone.email} registers: the two e-mails differ (an _ matched as a wildcard?)`,
        first.exchange,
        res.exchange,
        probe.exchange,
      );
    },
  },
  {
    id: 'GQL-REG-04',
    title: 'telephone and postcode are accepted as strings of digits (also with a leading zero) or as integers (AMB-GQL-02)',
    async run(ctx: C) {
      await newAccount(ctx);
      const form = phoneForm(ctx);
      if (!form) ctx.fail('neither strings of digits nor integers were accepted for telephone and postcode');
      ctx.choose('AMB-GQL-02', form);
      if (form === 'integer') {
        ctx.note('telephone and postcode were taken as integers: a leading zero, which only a string keeps, is not sent');
        return;
      }
      // Strings of digits beginning with 0 (a London number, a Boston postcode): an integer round
      // trip in the validation refuses exactly these, and every generated value begins otherwise.
      const input = {
        ...customerInput(ctx, freshAccount(ctx), 'string'),
        telephone: `0${ctx.names.phone().slice(1)}`,
        postcode: '02134',
      };
      const res = await op(ctx, 'register', { input });
      ctx.expect(
        res.data?.register === true && !hasErrors(res.errors),
        `telephone ${JSON.stringify(input.telephone)} and postcode ${JSON.stringify(input.postcode)} (strings of digits with a leading zero): expected register: true, got ${refusal(res, 'register') ?? short(res.data?.register)}`,
        res.exchange,
      );
    },
  },
];

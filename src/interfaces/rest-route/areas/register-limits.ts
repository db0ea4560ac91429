import fc from 'fast-check';
import { limitCase, telephoneCase, usernameSuffix } from '../../../arbitraries/rr-fields.js';
import type { AreaSpec } from '../../../checks/model.js';
import { checkProperty } from '../../../checks/properties.js';
import { freshFields, postLogin, postRegister, register } from '../accounts.js';
import { bodyOf } from '../client.js';
import { type PC, type PropState, ready, registerRuns } from '../prop-setup.js';
import { expectAccepted, expectRefused } from '../refusals.js';
import { sweepChecks } from '../sweep.js';

// Boundary properties of the register limits (document 1, Parts 4, 7 and 8): names 1 to 32,
// telephone (3 to 32 characters by the message, 10 digits by the table: AMB-RR-04) and username
// letters and digits. Every run registers an account, so these take `registerRuns` runs.

export const registerLimitsArea: AreaSpec<PropState> = {
  interface: 'rest-route',
  name: 'register-limits',
  checks: [
    {
      id: 'RR-REG-05',
      title: 'register firstname and lastname: seeded lengths around 1 to 32 accepted exactly inside the limit',
      run: async (ctx: PC) => {
        const { account } = await ready(ctx);
        await checkProperty(
          ctx,
          'rest-route/register-limits/names',
          fc.tuple(
            fc.constantFrom('firstname', 'lastname') as fc.Arbitrary<'firstname' | 'lastname'>,
            limitCase({ min: 1, max: 32 }),
          ),
          async ([field, c]) => {
            const ex = await postRegister(ctx, account.reading, freshFields(ctx, { [field]: c.value }));
            const what = `register with a ${c.length}-character ${field}`;
            if (c.valid) expectAccepted(ctx, ex, what);
            else expectRefused(ctx, ex, what, [`error_${field}`, field, field === 'firstname' ? 'first_name' : 'last_name']);
          },
          { runs: registerRuns(ctx) },
        );
      },
    },
    {
      id: 'RR-REG-07',
      title:
        'register telephone: fitting both readings is accepted, fitting neither is refused; one-reading values record AMB-RR-04',
      run: async (ctx: PC) => {
        const { account } = await ready(ctx);
        // Which reading the values that only one reading accepts agree with (AMB-RR-04).
        const seen = { message: 0, table: 0, other: 0 };
        await checkProperty(
          ctx,
          'rest-route/register-limits/telephone',
          telephoneCase(),
          async (c) => {
            const ex = await postRegister(ctx, account.reading, freshFields(ctx, { telephone: c.value }));
            const what = `register with telephone ${JSON.stringify(c.value)}`;
            if (c.message && c.table) expectAccepted(ctx, ex, what);
            else if (!c.message && !c.table)
              expectRefused(ctx, ex, what, ['error_telephone', 'error_required_telephone', 'telephone', 'phone']);
            else {
              const ok = bodyOf(ex)?.status === true;
              if (ok === c.message) seen.message += 1;
              if (ok === c.table) seen.table += 1;
              if (ok !== c.message && ok !== c.table) seen.other += 1;
            }
          },
          { runs: registerRuns(ctx) },
        );
        if (seen.message + seen.table > 0) {
          ctx.choose('AMB-RR-04', seen.message >= seen.table ? '3-32-characters' : '10-digits');
          ctx.note(`telephone values only one reading accepts agreed with: ${JSON.stringify(seen)}`);
        }
      },
    },
    {
      id: 'RR-REG-13',
      title: 'register username (parameter-table reading): letters and digits accepted, any other character refused',
      run: async (ctx: PC) => {
        await ready(ctx);
        // Only a target that takes a username is held to the rule: it registers one and logs in by it.
        const probe = await register(ctx, freshFields(ctx), 'table');
        if (!probe.account) ctx.skip('the target refuses the parameter-table register body, so it takes no username');
        const login = await postLogin(ctx, 'username', probe.account.fields);
        if (bodyOf(login)?.status !== true)
          ctx.skip('the target does not log in by username, so it takes no username (AMB-RR-01)');
        await checkProperty(
          ctx,
          'rest-route/register-limits/username',
          usernameSuffix(),
          async (c) => {
            const username = `${ctx.names.username()}${c.suffix}`;
            const ex = await postRegister(ctx, 'table', freshFields(ctx, { username }));
            const what = `register with username ${JSON.stringify(username)}`;
            if (c.valid) expectAccepted(ctx, ex, what);
            else expectRefused(ctx, ex, what, ['error_username', 'username']);
          },
          { runs: registerRuns(ctx) },
        );
      },
    },
    ...sweepChecks<PropState>(),
  ],
};

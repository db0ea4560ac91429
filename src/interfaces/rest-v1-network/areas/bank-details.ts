import { createHash } from 'node:crypto';
import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import type { Exchange } from '../../../http/exchange.js';
import { type Call, type Form, net } from '../client.js';
import { conforms, described, listOf, noServerErrorCheck, refused, refusedWithFieldError, succeeded } from '../expect.js';
import { type Account, anchorAccount, rootAccount } from '../provision.js';

/** Bank details: the read shape, saving (and its validation), reading back, and isolation between accounts. */
interface BankState {
  account: Account;
  saved: Form;
}

type Ctx = CheckContext<BankState>;

const FIELDS = ['account_holder_name', 'account_number', 'bank_name', 'branch', 'ifsc_code', 'contact_number'] as const;

export function bankForm(label: string): Form {
  // Integers where the document says integer, derived from the run-unique label (no clock, no randomness).
  const hash = createHash('sha256').update(label).digest();
  const digits = String(hash.readUInt32BE(0) % 1_000_000_000).padStart(9, '1');
  // 12 digits, as real account numbers run: past a 32-bit integer, so a column too narrow shows.
  const account = `${digits}${String(hash.readUInt16BE(4) % 1000).padStart(3, '0')}`;
  return {
    account_holder_name: `Holder ${label}`,
    account_number: account,
    bank_name: `Bank ${label}`,
    branch: 'Main',
    ifsc_code: 'SFCB0001234',
    contact_number: `9${digits}`,
  };
}

/** The bank record a save of `form` reads back as (the input's account_holder_name is the record's account_holder). */
export const readBack = (form: Form) => ({
  account_holder: form.account_holder_name,
  account_number: form.account_number,
  bank_name: form.bank_name,
  branch: form.branch,
  ifsc_code: form.ifsc_code,
  contact_number: form.contact_number,
});

/** The save that writes a listed bank record back (its account_holder is the input's account_holder_name). */
export const savedForm = (record: Record<string, unknown>): Form =>
  Object.fromEntries(
    FIELDS.map((f) => [f, String(record[f === 'account_holder_name' ? 'account_holder' : f] ?? record[f] ?? '')]),
  );

/** Whether the bank_details answer lists a record holding every field of `want` (compared as text). */
const listsRecord = (ctx: Ctx, call: Call, want: Record<string, unknown>): boolean =>
  listOf(ctx, call, 'bank_details').some((r) => Object.entries(want).every(([k, v]) => String(r[k] ?? '') === String(v)));

/**
 * Reads the area account's bank_details (`when`: after what) and expects the record a save of `sent`
 * reads back as; `schema` judges the answer's shape first, `note` ends the message, `evidence` led there.
 */
async function expectReadBack(
  ctx: Ctx,
  sent: Form,
  when: string,
  { schema = false, note = '', evidence = [] }: { schema?: boolean; note?: string; evidence?: Exchange[] } = {},
): Promise<void> {
  const call = await net(ctx).get('/bank_details', { token: (ctx.state.account as Account).token });
  succeeded(ctx, call, `bank_details ${when}`);
  if (schema) conforms(ctx, call, 'bank-details');
  const want = readBack(sent);
  ctx.expect(
    listsRecord(ctx, call, want),
    `${when}, expected a bank record ${JSON.stringify(want)}, got ${JSON.stringify(call.body.bank_details)}${note}`,
    ...evidence,
    call.ex,
  );
}

export const bankDetailsArea: AreaSpec<BankState> = {
  interface: 'rest-v1-network',
  name: 'bank-details',
  checks: [
    {
      id: 'NET-BANK-03',
      title: 'bank_details of SFC_NET_USERNAME answers bank_details (bank records) and language labels',
      async run(ctx: Ctx) {
        const root = await rootAccount(ctx);
        const call = await net(ctx).get('/bank_details', { token: root.token });
        succeeded(ctx, call, 'bank_details');
        conforms(ctx, call, 'bank-details');
      },
    },
    {
      id: 'NET-SEC-05',
      title: "a new account's bank_details lists none of another account's records",
      async run(ctx: Ctx) {
        ctx.state.account = await anchorAccount(ctx);
        const own = ctx.state.account.netUser?.user_key;
        // A new account's empty list shows isolation only where another account holds records
        // that could leak: SFC_NET_USERNAME's.
        const root = await rootAccount(ctx);
        const theirs = await net(ctx).get('/bank_details', { token: root.token });
        succeeded(ctx, theirs, 'bank_details of SFC_NET_USERNAME');
        const others = listOf(ctx, theirs, 'bank_details');
        if (others.length === 0)
          ctx.skip('SFC_NET_USERNAME lists no bank record, so no other account holds one that could leak to the new account');
        const same = (x: object, y: object) => JSON.stringify(x) === JSON.stringify(y);
        const call = await net(ctx).get('/bank_details', { token: ctx.state.account.token });
        succeeded(ctx, call, 'bank_details of a new account');
        const foreign = listOf(ctx, call, 'bank_details').filter((r) => r.user_key !== own || others.some((o) => same(o, r)));
        ctx.expect(
          foreign.length === 0,
          `expected only records of user_key ${own}, got ${JSON.stringify(foreign.map((r) => r.user_key))}`,
          theirs.ex,
          call.ex,
        );
      },
    },
    {
      id: 'NET-BANK-01',
      title: 'bank_details_save with all six fields answers status true',
      needs: ['account'],
      async run(ctx: Ctx) {
        const form = bankForm(ctx.names.label('bank'));
        const call = await net(ctx).post('/bank_details_save', { token: (ctx.state.account as Account).token, form });
        succeeded(ctx, call, 'bank_details_save');
        conforms(ctx, call, 'bank-details-save');
        ctx.state.saved = form;
      },
    },
    {
      id: 'NET-BANK-04',
      title: 'the saved bank details (a 12-digit account number) read back through bank_details',
      needs: ['account', 'saved'],
      async run(ctx: Ctx) {
        await expectReadBack(ctx, ctx.state.saved as Form, 'after saving', { schema: true });
      },
    },
    {
      id: 'NET-BANK-01',
      title: 'bank_details_save of the same six fields again (nothing to change): status true',
      needs: ['account', 'saved'],
      async run(ctx: Ctx) {
        // Details saved as they already are make a save like any other: a target that judges a save by the
        // rows it changed ($wpdb->update() answers 0 then) refuses it.
        const form = ctx.state.saved as Form;
        const call = await net(ctx).post('/bank_details_save', { token: (ctx.state.account as Account).token, form });
        succeeded(ctx, call, 'bank_details_save of the details already saved');
      },
    },
    {
      id: 'NET-BANK-04',
      title:
        'a second save with other details (a 12-digit account number, an apostrophe in holder and branch, a percent sign before two hex digits in branch, a character outside the BMP and an ampersand in bank_name) reads back too (the record replaced, or a record added)',
      needs: ['account', 'saved'],
      async run(ctx: Ctx) {
        // A save answered with status true is a save: changed details must show, whether the target
        // keeps one record per account (replaced) or a list of them (added).
        const account = ctx.state.account as Account;
        const first = ctx.state.saved as Form;
        // An apostrophe, as names and places carry them: a target that stores the input slashed or escaped shows it.
        // And a character outside the BMP (U+20BB7, of the surname Yoshida): a column of three-byte
        // utf8 stores it as "?" or cuts the text there. And "%Ca", a percent sign and two hex digits, as a
        // share or a name may carry: a target that sanitizes text as WordPress's sanitize_text_field() drops it.
        // And "&", as bank names carry it ("Smith & Sons"): a target that stores the input through htmlspecialchars()
        // reads it back as "&amp;" (on PHP 7's default flags the apostrophe stays as sent, so it alone does not show).
        const label = ctx.names.label('bank-again');
        const form = {
          ...bankForm(label),
          account_holder_name: `Holder O'Neil ${label}`,
          bank_name: `\u{20BB7}\u7530 & Sons Bank ${label}`,
          branch: "St. John's 100%Cafe",
          ifsc_code: 'SFCB0005678',
        };
        const save = await net(ctx).post('/bank_details_save', { token: account.token, form });
        succeeded(ctx, save, 'bank_details_save a second time, with other details');
        // The last accepted save, whatever reads back: the check after the refusals compares with it.
        ctx.state.saved = form;
        await expectReadBack(ctx, form, 'after saving again', {
          note: ` (the first save was ${JSON.stringify(readBack(first))})`,
          evidence: [save.ex],
        });
      },
    },
    {
      id: 'NET-BANK-02',
      title: 'bank_details_save without each required field: refused with errors keyed by it',
      needs: ['account'],
      async run(ctx: Ctx) {
        for (const field of FIELDS) {
          const form = bankForm(ctx.names.label('bank'));
          delete form[field];
          const call = await net(ctx).post('/bank_details_save', { token: (ctx.state.account as Account).token, form });
          refusedWithFieldError(ctx, call, field, `bank_details_save without ${field}`);
        }
      },
    },
    {
      id: 'NET-BANK-05',
      title: 'bank_details_save with an account_number of letters, and with one with a decimal point: refused',
      needs: ['account'],
      async run(ctx: Ctx) {
        const form = { ...bankForm(ctx.names.label('bank')), account_number: 'ABC-not-a-number' };
        const call = await net(ctx).post('/bank_details_save', { token: (ctx.state.account as Account).token, form });
        refused(ctx, call, 'bank_details_save with account_number "ABC-not-a-number"');
        // A number that is no integer: a test of is_numeric() takes it, where letters fail any test.
        const decimal = { ...form, account_number: '1234567890.5' };
        const second = await net(ctx).post('/bank_details_save', { token: (ctx.state.account as Account).token, form: decimal });
        if (second.body.status === true) ctx.state.saved = decimal; // the last accepted save, which the read-back expects
        refused(ctx, second, 'bank_details_save with account_number "1234567890.5"');
      },
    },
    {
      id: 'NET-ENV-04',
      title: 'bank_details_save with a contact_number of letters: a refusal keys errors by contact_number',
      needs: ['account'],
      async run(ctx: Ctx) {
        // A missing field (NET-BANK-02) and a malformed one may be caught by different code: the malformed
        // contact number's error must name the input too, not another key (a label's, contact_no).
        const form = { ...bankForm(ctx.names.label('bank-contact')), contact_number: 'CALL-ME' };
        const call = await net(ctx).post('/bank_details_save', { token: (ctx.state.account as Account).token, form });
        if (call.body.status === true) {
          // Accepted: the last accepted save now, which the read-back after the refusals expects.
          ctx.state.saved = form;
          ctx.skip('bank_details_save took contact_number "CALL-ME": no validation failure to judge');
        }
        refusedWithFieldError(ctx, call, 'contact_number', 'bank_details_save with contact_number "CALL-ME"');
      },
    },
    {
      id: 'NET-BANK-04',
      title:
        'after the refused saves (NET-BANK-02, NET-BANK-05, NET-ENV-04), the details of the last accepted save still read back',
      needs: ['account', 'saved'],
      async run(ctx: Ctx) {
        // A refused save is no save: a target that wrote the fields it was given before validating
        // them has replaced the record with the refused forms' details.
        await expectReadBack(ctx, ctx.state.saved as Form, 'after the refused saves', {
          note: ' (the last accepted save; the refused ones were for a missing or malformed field)',
        });
      },
    },
    {
      id: 'NET-BANK-04',
      title: "another account's first save and second save (a change) of its bank details: this account's still read back",
      needs: ['account', 'saved'],
      async run(ctx: Ctx) {
        // Each save writes the saver's own record: a target whose update of an existing record lost the
        // user condition of its WHERE writes another account's second save into this account's record.
        const other = await anchorAccount(ctx);
        const saves: Exchange[] = [];
        for (const label of ['bank-other-1', 'bank-other-2']) {
          const call = await net(ctx).post('/bank_details_save', { token: other.token, form: bankForm(ctx.names.label(label)) });
          if (call.body.status !== true) ctx.skip(`another account's bank_details_save was not accepted: ${described(call)}`);
          saves.push(call.ex);
        }
        await expectReadBack(ctx, ctx.state.saved as Form, 'after another account saved its bank details twice', {
          note: ` (this account's last accepted save; the other account is ${other.username})`,
          evidence: saves,
        });
      },
    },
    {
      id: 'NET-BANK-04',
      title:
        'two saves with different details in every field, sent at the same time: bank_details reads back one of them whole, not a mix of the two',
      needs: ['account', 'saved'],
      async run(ctx: Ctx) {
        // Whichever lands last is the record (or both are, in a list); a target that writes the record
        // field by field without a lock leaves fields of each, which no one sent together.
        const token = (ctx.state.account as Account).token;
        const one = bankForm(ctx.names.label('bank-race-1'));
        const two = { ...bankForm(ctx.names.label('bank-race-2')), branch: 'West End', ifsc_code: 'SFCB0009876' };
        const saves = await Promise.all([one, two].map((form) => net(ctx).post('/bank_details_save', { token, form })));
        const refusedSave = saves.find((call) => call.body.status !== true);
        if (refusedSave) ctx.skip(`a save sent at the same time as another was not accepted: ${described(refusedSave)}`);
        const call = await net(ctx).get('/bank_details', { token });
        succeeded(ctx, call, 'bank_details after two saves at once');
        const [a, b] = [readBack(one), readBack(two)];
        ctx.expect(
          listsRecord(ctx, call, a) || listsRecord(ctx, call, b),
          `after two saves at once, expected the record of one of them, ${JSON.stringify(a)} or ${JSON.stringify(b)}, got ${JSON.stringify(call.body.bank_details)}`,
          ...saves.map((s) => s.ex),
          call.ex,
        );
      },
    },
    noServerErrorCheck(),
  ],
};

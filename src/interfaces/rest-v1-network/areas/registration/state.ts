// What the registration checks share: the accounts they build one after another, and the names C is given.
import type { CheckContext } from '../../../../checks/context.js';
import type { Call, Form, Json } from '../../client.js';
import type { Account } from '../../provision.js';

export interface TreeState {
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

export type Ctx = CheckContext<TreeState>;
export const A = (ctx: Ctx) => ctx.state.a as Account;

/**
 * C's names, as names are written: a login that escapes them for HTML answers &amp; and &#039;. Zoë's ë is
 * written decomposed (e and a combining diaeresis, NFD, as some systems write it): a store that normalises
 * to NFC answers another character.
 */
export const C_NAMES = { first_name: 'Ann & Zoe\u0308', last_name: "O'Neil" };

/** The tail of C's password, which starts past its 72nd byte. */
export const TAIL = 'Zz9';

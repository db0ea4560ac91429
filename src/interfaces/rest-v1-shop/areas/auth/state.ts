// What the auth checks hand each other across their files (they run in order on one account).
import type { CheckContext } from '../../../../checks/context.js';
import type { Exchange } from '../../../../http/exchange.js';
import type { Envelope } from '../../client.js';
import type { Account } from '../../flows.js';

export interface AuthState {
  account: Account;
  registerBody: Envelope;
  registerEx: Exchange;
  loginBody: Envelope;
  loginEx: Exchange;
  loginToken: string;
  /** The login SHOP-AUTH-01 sent with the account's username before registering it (refused: no such account yet). */
  loginBeforeRegister: Exchange;
}

export type C = CheckContext<AuthState>;
export type UserRecord = Record<string, unknown>;

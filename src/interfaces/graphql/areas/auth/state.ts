// The state the auth checks share across their files: what an earlier check set, a later one needs.
import type { CheckContext } from '../../../../checks/context.js';
import type { GraphQLResult } from '../../../../graphql/client.js';
import type { Account } from '../../client.js';

export interface AuthState {
  account: Account;
  token: string;
  loginRes: GraphQLResult;
  /** The account GQL-REG-01 registered, its e-mail's domain in capitals, when register returned true. */
  capitals: Account;
  /** The account's e-mail in upper case, when login took it for the account (GQL-LOGIN-03): one e-mail to the target. */
  caseless: string;
  /** Every answer to a login written through a fragment (GQL-AUTH-01), taken or not: GQL-HTTP-03 judges their status. */
  fragmentLogins: GraphQLResult[];
}

export type C = CheckContext<AuthState>;

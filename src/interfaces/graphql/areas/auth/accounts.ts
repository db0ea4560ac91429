// Helpers on the suite's accounts that the register and login checks share.
import type { GraphQLResult } from '../../../../graphql/client.js';
import { type Account, type Ctx, loginToken, op } from '../../client.js';

/** The e-mail with its domain's labels capitalised (sfc-...@Example.Test): a valid address, prefix kept. */
export const capitalDomain = (email: string): string =>
  email.replace(/@(.+)$/, (_, domain: string) => `@${domain.replace(/(^|\.)([a-z])/g, (m) => m.toUpperCase())}`);

/** The login response when `account` can log in (after a refused register no account may exist), else undefined. */
export async function loginWorks(ctx: Ctx, account: Account): Promise<GraphQLResult | undefined> {
  const res = await op(ctx, 'login', { email: account.email, password: account.password });
  const token = loginToken(ctx, res);
  return typeof token === 'string' && token.length > 0 ? res : undefined;
}

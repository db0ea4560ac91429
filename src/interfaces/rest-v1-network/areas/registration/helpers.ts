// Helpers several check files of the area call: an account's user_key, and the refusals NET-REG-14 reads.
import type { Call } from '../../client.js';
import type { Account } from '../../provision.js';
import type { Ctx } from './state.js';

export const keyOf = (acc: Account | undefined): string =>
  acc?.netUser && typeof acc.netUser.user_key === 'string' ? acc.netUser.user_key : '';

/** Keeps a refused placement for NET-REG-14. */
export function placementRefused(ctx: Ctx, what: string, call: Call): void {
  ctx.state.placementRefusals = [...(ctx.state.placementRefusals ?? []), { what, call }];
}

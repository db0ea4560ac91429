import type { CheckContext } from '../../checks/context.js';
import { net } from './client.js';
import { described } from './expect.js';
import { type Account, anchorAccount, register, registerForm } from './provision.js';
import { reserve, reserveChildren } from './reservations.js';

/**
 * Fresh accounts for properties and model runs: one per run, so runs are independent. The first
 * is an anchor in the SFC_NET_USERNAME tree; later ones hang below earlier ones, at slots this
 * helper created itself (each new account brings two free slots), so no geneology read of the
 * big tree is needed per run. A slot taken meanwhile (another area registering there) is
 * dropped and the next one tried.
 */

type Ctx = CheckContext<unknown>;

export interface Slot {
  parent: string;
  position: 'left' | 'right';
}

const MAX_TRIES = 6;

export class FreshAccounts {
  private readonly slots: Slot[] = [];
  private sponsor: string | undefined;

  /**
   * `reserve`: the caller builds below every account it gets and counts on both positions being free
   * (a model run). Their children are then reserved before each account exists, so no other area's
   * registerInTree takes one. Off for the rest: a reservation hides the positions from every area,
   * and with all of them reserved the part of the tree a target shows fills up.
   */
  constructor(
    private readonly ctx: Ctx,
    private readonly options: { reserve?: boolean } = {},
  ) {}

  /** Slots known to be free (e.g. left over by a model run), tried before the helper's own. */
  offer(slots: Slot[]): void {
    this.slots.unshift(...slots);
  }

  /**
   * The next free slot without taking it (for requests that are meant to be refused), reserved for
   * this area: unreserved, another area's registerInTree saw it free and took it, and a register here
   * meant to be refused for one of its fields was refused for the position instead.
   */
  async peek(): Promise<Slot> {
    for (;;) {
      if (this.slots.length === 0) await this.next();
      const slot = this.slots[0] as Slot;
      if (reserve(this.ctx, slot.parent, slot.position)) return slot;
      this.slots.shift(); // another area's to fill
    }
  }

  /** The slot of the last `peek` was taken after all (a registration meant to be refused was accepted). */
  drop(): void {
    this.slots.shift();
  }

  /** The slot of the last `peek` now holds `username`, registered there as meant: its two positions are free. */
  took(username: string): void {
    this.slots.shift();
    this.slots.push({ parent: username, position: 'left' }, { parent: username, position: 'right' });
  }

  /** A sponsor name for registrations: the first account made. */
  async sponsorName(): Promise<string> {
    if (!this.sponsor) await this.next();
    return this.sponsor as string;
  }

  /** Registers the form at the next free slot; `account` is set on success, the slot then used. */
  async place(
    overrides: Record<string, string | undefined> = {},
  ): Promise<{ account?: Account; call: Awaited<ReturnType<typeof register>>['call'] }> {
    let last: Awaited<ReturnType<typeof register>> | undefined;
    for (let i = 0; i < MAX_TRIES; i++) {
      const slot = await this.peek();
      const form = registerForm(this.ctx, { sponsor: this.sponsor, parent: slot.parent, position: slot.position }, overrides);
      // Unreserved, another area's registerInTree could take a child position between two steps of a
      // model run: NET-STATE-01 failed so against the reference in 1 of 30 network-only runs.
      if (this.options.reserve) reserveChildren(this.ctx, String(form.username));
      last = await register(this.ctx, form);
      if (last.account) {
        this.slots.shift();
        this.slots.push(
          { parent: last.account.username, position: 'left' },
          { parent: last.account.username, position: 'right' },
        );
        return last;
      }
      const text = JSON.stringify([last.call.body.errors, last.call.body.message]).toLowerCase();
      if (!/position|parent|taken|occupied|child/.test(text)) return last;
      this.slots.shift(); // taken by someone else meanwhile: try the next one
    }
    return last as Awaited<ReturnType<typeof register>>;
  }

  /** A new account (a fresh run); skips the check with the reason when none can be made. */
  async next(): Promise<Account> {
    if (!this.sponsor) {
      const anchor = await anchorAccount(this.ctx);
      this.sponsor = anchor.username;
      this.slots.push({ parent: anchor.username, position: 'left' }, { parent: anchor.username, position: 'right' });
      return anchor;
    }
    // place() asks peek() for a slot and peek() asks next(): with none left, say so instead of looping.
    if (this.slots.length === 0) this.ctx.skip("every free position below this area's accounts was used or taken");
    const r = await this.place();
    if (!r.account) this.ctx.skip(`could not register a fresh account for the run: ${described(r.call)}`);
    return r.account;
  }
}

/** The account's own geneology read (its subtree only: small for a fresh account). */
export const geneologyOf = (ctx: Ctx, token: string) => net(ctx).get('/user_geneology', { token });

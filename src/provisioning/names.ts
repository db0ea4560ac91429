import { createHash } from 'node:crypto';

/**
 * Unique names for everything a run creates. Each carries the run id, so a run's leftovers can
 * be found, and a per-area tag, so files running in parallel never collide.
 */
export class RunNames {
  private n = 0;
  private readonly tag: string;

  constructor(
    readonly runId: string,
    /** Who names: `<interface>/<area>`. */
    readonly scope: string,
  ) {
    this.tag = areaTag(scope);
  }

  private next(): string {
    this.n += 1;
    return `${this.tag}${this.n}`;
  }

  /** Whether a username or e-mail was made by this run (by any area). */
  isFromRun(name: string): boolean {
    return name.startsWith(`sfc${this.runId}`) || name.startsWith(`sfc-${this.runId}-`);
  }

  /** Whether a username or e-mail was made by this area of this run. */
  isOwn(name: string): boolean {
    return name.startsWith(`sfc${this.runId}${this.tag}`) || name.startsWith(`sfc-${this.runId}-${this.tag}`);
  }

  /** `sfc-<run>-<tag><n>@example.test` */
  email(): string {
    return `sfc-${this.runId}-${this.next()}@example.test`;
  }

  /** Letters and digits only: `sfc<run><tag><n>`. */
  username(): string {
    return `sfc${this.runId}${this.next()}`;
  }

  /** Letters, digits and a special character, at least 8 long. */
  password(): string {
    return `Pw-${this.runId}-${this.next()}!`;
  }

  /** A 10-digit phone number, unique within the run. */
  phone(): string {
    const digits = createHash('sha256').update(`${this.runId}${this.next()}`).digest().readUInt32BE(0) % 1_000_000_000;
    return `9${String(digits).padStart(9, '0')}`;
  }

  /** A short label with the run prefix, e.g. for names and addresses. */
  label(prefix = 'sfc'): string {
    return `${prefix}-${this.runId}-${this.next()}`;
  }
}

/**
 * The area's part of every name: three hex digits of its scope ("<interface>/<area>"). Areas of one
 * run share a target (and two interfaces may share one user table), so no two areas may have the
 * same tag; a test checks it over every area.
 */
export function areaTag(scope: string): string {
  return createHash('sha256').update(scope).digest('hex').slice(0, 3);
}

export function newRunId(): string {
  return Math.random()
    .toString(36)
    .slice(2, 8)
    .replace(/[^a-z0-9]/g, 'x')
    .padEnd(6, 'x');
}

import type { Settings } from '../config/settings.js';
import type { TargetClient } from '../http/client.js';
import { type Exchange, responseJson } from '../http/exchange.js';
import type { RunNames } from '../provisioning/names.js';
import type { SchemaRegistry } from '../schemas/registry.js';
import { CheckSkipped, ConformanceFailure } from './model.js';

/** What a check's `run` receives. State is shared by the checks of one area, in order. */
export interface CheckContext<S = Record<string, unknown>> {
  readonly settings: Settings;
  readonly http: TargetClient;
  readonly schemas: SchemaRegistry;
  readonly names: RunNames;
  /** Shared by the checks of the area: what one check creates (a token, an address), the next uses. */
  readonly state: Partial<S>;
  /** A target-data setting (`SFC_*`), or undefined when the target has none. */
  data(key: string): string | undefined;
  /** Fails the check: the target broke the requirement. */
  fail(message: string, ...evidence: Exchange[]): never;
  /** Fails the check unless `condition` holds. */
  expect(condition: unknown, message: string, ...evidence: Exchange[]): asserts condition;
  /**
   * The response body parsed as JSON; fails the check (with the exchange) when there is no
   * response, or the body is not JSON.
   */
  json<T = unknown>(exchange: Exchange): T;
  /** Fails the check, listing every problem, unless `value` conforms to schema `ref` (path under specs/). */
  validate(ref: string, value: unknown, exchange: Exchange, what?: string): void;
  /** Ends the check as skipped: it could not be exercised, for this reason. */
  skip(reason: string): never;
  /** Records which alternative of an ambiguity (ambiguity register id) the target chose. */
  choose(ambiguityId: string, alternative: string): void;
  /** Runs at the end of the area (teardown of what the check created), in reverse order. */
  onTeardown(fn: () => Promise<void>): void;
  /** A note for the report (for example, a finding that is not a failure). */
  note(text: string): void;
  /** Counts property runs for the report (called by checkProperty). */
  countPropertyRuns(n: number): void;
}

export interface ContextRecorder {
  choices: Record<string, string>;
  notes: string[];
  teardowns: (() => Promise<void>)[];
  propertyRuns: number;
}

/** Runs an area's teardowns, last registered first; best effort: what the API cannot remove carries the run prefix. */
export async function runTeardowns(teardowns: (() => Promise<void>)[]): Promise<void> {
  for (const fn of teardowns.splice(0).reverse()) {
    try {
      await fn();
    } catch {
      // best effort (above)
    }
  }
}

export function createContext<S>(
  base: { settings: Settings; http: TargetClient; schemas: SchemaRegistry; names: RunNames; state: Partial<S> },
  recorder: ContextRecorder,
): CheckContext<S> {
  const ctx: CheckContext<S> = {
    ...base,
    data: (key) => {
      const v = base.settings.data[key];
      return v === undefined || v === '' ? undefined : v;
    },
    fail(message, ...evidence) {
      throw new ConformanceFailure(message, evidence);
    },
    expect(condition, message, ...evidence) {
      if (!condition) throw new ConformanceFailure(message, evidence);
    },
    json<T>(exchange: Exchange): T {
      if (!exchange.response) throw new ConformanceFailure(`no response: ${exchange.error ?? 'unknown error'}`, [exchange]);
      const text = exchange.response.body;
      if (text.trim() === '')
        throw new ConformanceFailure(`empty body (HTTP ${exchange.response.status}) where JSON is due`, [exchange]);
      const parsed = responseJson(exchange);
      if (parsed === undefined) {
        const type = exchange.response.headers['content-type'] ?? 'no content type';
        const cut = exchange.response.truncated ? ' (body cut at the size cap)' : '';
        throw new ConformanceFailure(
          `body is not JSON (HTTP ${exchange.response.status}, ${type})${cut}: ${JSON.stringify(text.slice(0, 120))}`,
          [exchange],
        );
      }
      return parsed as T;
    },
    validate(ref, value, exchange, what = 'response') {
      const issues = base.schemas.check(ref, value);
      if (issues.length > 0) {
        const list = issues.slice(0, 12).map((i) => `${i.path} ${i.message}`);
        if (issues.length > 12) list.push(`... and ${issues.length - 12} more`);
        throw new ConformanceFailure(`${what} does not match ${ref}:\n  ${list.join('\n  ')}`, [exchange], issues);
      }
    },
    skip(reason) {
      throw new CheckSkipped(reason);
    },
    choose(id, alternative) {
      recorder.choices[id] = alternative;
    },
    onTeardown(fn) {
      recorder.teardowns.push(fn);
    },
    note(text) {
      recorder.notes.push(text);
    },
    countPropertyRuns(n) {
      recorder.propertyRuns += n;
    },
  };
  return ctx;
}

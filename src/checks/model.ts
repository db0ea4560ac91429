import type { Exchange } from '../http/exchange.js';

export type Level = 'MUST' | 'SHOULD' | 'MAY' | 'ADVISORY';
export type InterfaceId = 'rest-route' | 'rest-v1-network' | 'rest-v1-shop' | 'graphql';
export const INTERFACES: readonly InterfaceId[] = ['rest-route', 'rest-v1-network', 'rest-v1-shop', 'graphql'];

export interface Source {
  document: string;
  /** A heading of the document, e.g. "4. Endpoints" or "A. Network-plan variant". */
  section: string;
  /** Where inside the section, e.g. "row 7" or "Register body". */
  detail?: string;
}

/** A requirement of the catalog (`specs/requirements/<interface>.json`). */
export interface Requirement {
  id: string;
  level: Level;
  interface: InterfaceId;
  area: string;
  source: Source;
  statement: string;
  endpoints?: string[];
  testable: boolean;
  untestableReason?: string;
}

/**
 * A check: one requirement exercised one way. Level and source are not repeated here: they are
 * the catalog's (one place of truth), joined in when the area is built.
 */
export interface CheckSpec<S = Record<string, unknown>> {
  /** The requirement id this check exercises. */
  id: string;
  /** What this check does, in words; the test name. */
  title: string;
  /** State keys (see AreaState) that earlier checks of the area must have set; missing -> skipped. */
  needs?: (keyof S & string)[];
  run(ctx: import('./context.js').CheckContext<S>): Promise<void>;
}

export interface Check<S = Record<string, unknown>> extends CheckSpec<S> {
  level: Level;
  source: Source;
}

/** A group of checks that run in order and share state: one suite file. */
export interface AreaSpec<S = Record<string, unknown>> {
  interface: InterfaceId;
  /** Short name, e.g. "auth", "address-book". */
  name: string;
  checks: CheckSpec<S>[];
}

/** The target broke a requirement. Carries the evidence; anything else thrown is a suite error. */
export class ConformanceFailure extends Error {
  override name = 'ConformanceFailure';
  constructor(
    message: string,
    readonly exchanges: Exchange[] = [],
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** The check could not be exercised (missing data, failed prerequisite); the reason is reported. */
export class CheckSkipped extends Error {
  override name = 'CheckSkipped';
}

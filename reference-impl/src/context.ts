import type Database from 'better-sqlite3';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenService } from './tokens.js';

/** What every interface module receives: the one database, the token service and the settings. */
export interface AppContext {
  db: Database.Database;
  tokens: TokenService;
  /** Vendor segment: header `<vendor>_token`, route `<vendor>_graphql/<vendor>_graphql`, namespace `/wp-json/<vendor>/v1`. */
  vendor: string;
  /** Folder of the seed data (`fixtures/seed/` of the repository). */
  fixturesDir: string;
  /** Id of a deliberately injected fault (fault catalog), or null. Off unless `--fault` is given. */
  fault: string | null;
}

/**
 * One interface of the documents. Each module owns its tables (prefixed with its name) and
 * never reads another module's tables: the four interfaces are read independently.
 */
export interface InterfaceModule {
  name: 'rest-route' | 'network' | 'shop' | 'graphql';
  /** CREATE TABLE IF NOT EXISTS ...; runs on every start. */
  migrate(db: Database.Database): void;
  /** Loads seed data; runs once, on a database this module has not seeded yet. */
  seed(ctx: AppContext): void;
  /**
   * For the two `{api_root}` variants: routes registered under the module's prefix
   * (`/network/wp-json/<vendor>/v1` or `/shop/wp-json/<vendor>/v1`).
   */
  routes?(app: FastifyInstance, ctx: AppContext): void;
  /** For the two `index.php?route=` interfaces: handles one request whose `route` this module owns. */
  handle?(request: FastifyRequest, reply: FastifyReply, ctx: AppContext): Promise<unknown>;
  /** The body of a framework-level failure (bad JSON, unknown path, body too large) in this interface's envelope. */
  errorBody(message: string): Record<string, unknown>;
}

/**
 * The counter behind the mutation rate limit (`apollo/rate-limit-plugin.ts`): units per client address in fixed
 * windows, kept by `rate-limiter-flexible`.
 *
 * The counting is `rate-limiter-flexible`'s, a maintained library with atomic counters in many
 * stores, because per-client limits must hold across replicas: the store follows DATABASE_URL.
 * - A SQLite `file:` URL means one process: `RateLimiterMemory` counts in memory (each entry is
 *   dropped by its own timer when its window ends, so memory is bounded by the addresses active
 *   within one window).
 * - A `postgresql://` (or `postgres://`) URL means replicas sharing one database:
 *   `RateLimiterPostgres` counts in the table `rate_limit_mutations` of that database (an atomic
 *   `INSERT … ON CONFLICT DO UPDATE` per take), through its own `pg` pool of two connections,
 *   ended by `close()`. The library creates the table (`CREATE TABLE IF NOT EXISTS`); replicas
 *   starting at once can still race on it (PostgreSQL then answers 23505, 42710 or 42P07, and the
 *   library only forgives the first), so a failed creation is tried again: at once after such a
 *   race, after DATABASE_RETRY_MS (doubling, up to a minute) when the database is unreachable.
 *   Until the table is there, and whenever a query fails, the limiter falls back to its
 *   `insuranceLimiter`, a `RateLimiterMemory` of this replica: a PostgreSQL outage makes the
 *   limit per replica for its length instead of failing every mutation with a 500 (the analyses
 *   themselves fail with SERVICE_UNAVAILABLE from the store anyway). After a failed query, the
 *   next ones go straight to the insurance for DATABASE_RETRY_MS, so an unreachable database
 *   costs one mutation its timeout (STORE_TIMEOUT_MS) per period, not every mutation. Rows whose
 *   window ended over an hour ago are deleted every five minutes.
 *
 * Windows are fixed, as the library keeps them: the first unit counted for an address opens a
 * window of RATE_LIMIT_WINDOW_MS (in PostgreSQL its end is stored with the row, taken from the
 * clock of the replica that opened it), and the count starts again from zero once it ends.
 *
 * Units are all or nothing: a request that needs more units than remain is refused and takes
 * none (after a refusal of 30 aliased saves, a single save still fits). `consume` alone would
 * keep them: it adds the units even when it refuses. So `take` first reads the window (`get`)
 * and refuses without writing anything when the units do not fit; only otherwise does it
 * `consume` them, atomically. If concurrent requests from the same address took the room in
 * between, `consume` refuses and its units are given back at once (`reward`; should the window
 * have ended in between, so that the reward opened a new one below zero, a `penalty` brings it
 * back to zero). The count never goes past the limit; concurrent requests of one address may
 * at worst be refused while units of another are being given back.
 */
import pg from 'pg';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible';

/** The table of the counts in PostgreSQL. */
export const RATE_LIMIT_TABLE = 'rate_limit_mutations';

/** Connections of the limiter's own pool. */
const POOL_SIZE = 2;

/** Longest wait for a connection or a query of the limiter, ms; past it the insurance decides. */
export const STORE_TIMEOUT_MS = 1000;

/** Longest wait between two attempts to create the table. */
const MAX_RETRY_MS = 60_000;

/** Immediate attempts after a lost race on the table's creation. */
const RACE_RETRIES = 5;

/** SQLSTATEs of a `CREATE TABLE IF NOT EXISTS` that lost a race with another replica's. */
const CREATION_RACE = new Set(['23505', '42710', '42P07']);

/** How often rows of long-ended windows are deleted, and how long after their end. */
const SWEEP_EVERY_MS = 300_000;
const SWEEP_AFTER_MS = 3_600_000;

/** What `take` decided. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Where the counts are kept. */
export type RateStore = 'off' | 'memory' | 'postgres';

/** The logging the limiter does (a pino logger fits). */
export interface RateLimitLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Options of `createRateLimiter`. */
export interface RateLimiterOptions {
  /** Units per window (RATE_LIMIT_MUTATIONS; 0: no limit). */
  limit: number;
  /** Length of a window, ms (RATE_LIMIT_WINDOW_MS). */
  windowMs: number;
  /** DATABASE_URL: `file:` counts in this process, `postgres(ql)://` in that database. */
  databaseUrl: string;
  /**
   * DATABASE_RETRY_MS: how long the insurance decides alone after a failed query, and the first
   * delay before the table's creation is tried again (0: every query is tried, and a creation
   * that failed for another reason than a race is not tried again). Default 5000.
   */
  retryMs?: number;
  logger?: RateLimitLogger;
  /** The clock of the DATABASE_RETRY_MS pause, ms (default `performance.now`; tests move their own). */
  now?: () => number;
}

const silent: RateLimitLogger = { info() {}, warn() {}, error() {} };

/** Whether `databaseUrl` names a PostgreSQL database. */
export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//i.test(databaseUrl.trim());
}

/** The mutation rate limiter for `options`; see the file comment. `close()` it when done. */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  return new RateLimiter(options);
}

/** Fixed-window counts of units per address, in memory or in PostgreSQL; see the file comment. */
export class RateLimiter {
  /** Units per window (0: no limit). */
  readonly limit: number;
  readonly windowMs: number;
  /** Where the counts are kept (`postgres` even while the insurance stands in). */
  readonly store: RateStore;
  /**
   * Settles once the counting is set up: at once in memory; with PostgreSQL once the table is
   * there, or once the first attempt to create it failed (the insurance counts meanwhile).
   */
  readonly ready: Promise<void>;

  readonly #logger: RateLimitLogger;
  readonly #retryMs: number;
  readonly #now: () => number;
  /** This process's counts: the limiter itself in memory, the insurance with PostgreSQL. */
  readonly #local: RateLimiterMemory | undefined;
  #shared: RateLimiterPostgres | undefined;
  #pool: pg.Pool | undefined;
  /** Queries go straight to the insurance until then (on `#now`). */
  #pausedUntil = 0;
  #failing = false;
  #retryTimer: NodeJS.Timeout | undefined;
  #sweepTimer: NodeJS.Timeout | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: RateLimiterOptions) {
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    this.#logger = options.logger ?? silent;
    this.#retryMs = options.retryMs ?? 5000;
    this.#now = options.now ?? (() => performance.now());
    if (this.limit <= 0) {
      this.store = 'off';
      this.ready = Promise.resolve();
      return;
    }
    // The library counts in seconds (fractions are fine: it works in ms inside).
    this.#local = new RateLimiterMemory({ points: this.limit, duration: this.windowMs / 1000 });
    if (!isPostgresUrl(options.databaseUrl)) {
      this.store = 'memory';
      this.ready = Promise.resolve();
      return;
    }
    this.store = 'postgres';
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: POOL_SIZE,
      connectionTimeoutMillis: STORE_TIMEOUT_MS,
      query_timeout: STORE_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
      // Idle connections never keep the process alive; `close()` ends them anyway.
      allowExitOnIdle: true,
      application_name: 'chess-paths rate limit',
    });
    // An idle connection's error (the server restarting) must not crash the process: the pool
    // replaces the connection, and the next query tells whether the database is back.
    pool.on('error', (err) => this.#logger.warn({ err: err.message }, 'rate limit: PostgreSQL connection error'));
    this.#pool = pool;
    this.ready = new Promise((resolve) => this.#connect(0, 0, resolve));
  }

  /** Takes `units` for `address` if they all fit in its current window; otherwise takes none. */
  async take(address: string, units: number): Promise<RateDecision> {
    const limiter: RateLimiterAbstract | undefined = this.#shared ?? this.#local;
    if (!limiter) return { allowed: true };
    try {
      const current = await limiter.get(address);
      // An entry whose window has ended (its timer not yet run) counts for nothing.
      const open = current !== null && current.msBeforeNext > 0;
      if ((open ? current.consumedPoints : 0) + units > this.limit) {
        return { allowed: false, retryAfterMs: open ? Math.round(current.msBeforeNext) : this.windowMs };
      }
      try {
        await limiter.consume(address, units);
        return { allowed: true };
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        // Concurrent requests took the room since `get`: these units go back.
        const given = await limiter.reward(address, units);
        if (given.consumedPoints < 0) await limiter.penalty(address, -given.consumedPoints);
        return { allowed: false, retryAfterMs: Math.max(0, Math.round(rejection.msBeforeNext)) };
      }
    } catch (err) {
      // Neither the store nor the insurance answered (not expected of a limiter in memory): a
      // broken limit lets mutations through rather than failing them all.
      this.#logger.error({ err }, 'mutation rate limit failed; the mutation is allowed');
      return { allowed: true };
    }
  }

  /** Addresses counted in this process's memory (the insurance's, with PostgreSQL), for tests. */
  get localSize(): number {
    return this.#local?.dump().storage.length ?? 0;
  }

  /** Whether the counts are in PostgreSQL now (the table is there), for tests. */
  get shared(): boolean {
    return this.#shared !== undefined;
  }

  /** Stops trying to create the table and ends the pool (waits for queries in flight). */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      clearTimeout(this.#retryTimer);
      clearInterval(this.#sweepTimer);
      const pool = this.#pool;
      this.#pool = undefined;
      await pool?.end();
    })();
    return this.#closing;
  }

  /** Creates the PostgreSQL limiter (and so its table), trying again as the file comment says. */
  #connect(attempt: number, races: number, settled: () => void): void {
    if (this.#closing) {
      settled();
      return;
    }
    const limiter = new RateLimiterPostgres(
      {
        // The pool behind a guard (see #query); `storeType` is needed as it is no pg.Pool itself.
        storeClient: { query: (query: pg.QueryConfig) => this.#query(query) },
        storeType: 'pool',
        tableName: RATE_LIMIT_TABLE,
        keyPrefix: '',
        points: this.limit,
        // `windowMs / 1000 * 1000` may miss `windowMs` by 1e-13 (1001 ms), but `Date.now()` plus
        // that rounds back to the whole ms that the bigint `expire` column needs.
        duration: this.windowMs / 1000,
        // Our own sweep instead: the library's timer would outlive `close()`.
        clearExpiredByTimeout: false,
        insuranceLimiter: this.#local,
      },
      (err?: Error) => {
        if (this.#closing) return settled();
        if (!err) {
          this.#shared = limiter;
          this.#sweepTimer = setInterval(() => void this.#sweep(), SWEEP_EVERY_MS);
          this.#sweepTimer.unref();
          if (attempt > 0) this.#logger.info({ table: RATE_LIMIT_TABLE }, 'rate limit: counting in PostgreSQL');
          return settled();
        }
        const code = (err as { code?: unknown }).code;
        if (typeof code === 'string' && CREATION_RACE.has(code) && races < RACE_RETRIES) {
          // Another replica created it at the same moment: it is there now.
          return this.#connect(attempt, races + 1, settled);
        }
        const retry = this.#retryMs > 0;
        const delay = Math.min(MAX_RETRY_MS, this.#retryMs * 2 ** Math.min(attempt, 16));
        this.#logger.warn(
          { err: err.message, table: RATE_LIMIT_TABLE, ...(retry ? { retryInMs: delay } : {}) },
          'rate limit: cannot create its PostgreSQL table; mutations are limited per replica meanwhile',
        );
        if (retry) {
          this.#retryTimer = setTimeout(() => this.#connect(attempt + 1, 0, () => {}), delay);
          this.#retryTimer.unref();
        }
        settled();
      },
    );
  }

  /**
   * One query of the library. After a failure that looks like an outage, queries fail at once for
   * DATABASE_RETRY_MS (the library then asks the insurance), and the change is logged once each
   * way.
   */
  async #query(query: pg.QueryConfig): Promise<pg.QueryResult> {
    const pool = this.#pool;
    if (!pool) throw new Error('the rate limiter is closed');
    if (this.#now() < this.#pausedUntil) throw new Error('PostgreSQL was unavailable a moment ago');
    try {
      const result = await pool.query(query);
      if (this.#failing) {
        this.#failing = false;
        this.#logger.info({}, 'rate limit: PostgreSQL answers again; mutation limits are shared again');
      }
      return result;
    } catch (err) {
      // SQL errors of the statement itself (the creation race, a missing privilege) say nothing
      // of the database's availability.
      const code = err instanceof pg.DatabaseError ? (err.code ?? '') : '';
      if (!/^(23|42)/.test(code)) {
        this.#pausedUntil = this.#now() + this.#retryMs;
        if (!this.#failing) {
          this.#failing = true;
          this.#logger.warn(
            { err: (err as Error).message },
            'rate limit: PostgreSQL unavailable; mutations are limited per replica until it answers',
          );
        }
      }
      throw err;
    }
  }

  /** Deletes rows whose window ended long ago (a failure waits for the next sweep). */
  async #sweep(): Promise<void> {
    try {
      await this.#query({
        text: `DELETE FROM "${RATE_LIMIT_TABLE}" WHERE expire < $1`,
        values: [Date.now() - SWEEP_AFTER_MS],
      });
    } catch {
      // Only housekeeping: the rows count for nothing once their window has ended.
    }
  }
}

/**
 * Whether the database can be used, as a small circuit breaker around every store operation.
 *
 * An operation that fails because of the database itself (SQLite says it is locked, read-only,
 * full, cannot open or read its file, or is corrupt; PostgreSQL cannot be reached, is shutting
 * down or restarting, is out of connections or disk) rejects with `DatabaseUnavailableError`
 * carrying the database's own words, and the store is marked unavailable. While it is, writes fail at
 * once instead of reaching SQLite: better-sqlite3 is synchronous, so a write to a locked database
 * would hold the event loop for the whole busy timeout, every time. Once every `retryMs` one write
 * is let through as a trial (or `healthy()` runs a trial write of its own); the first write that
 * succeeds marks the store available again. Reads are tried while only writes fail: they keep
 * working in WAL mode under another connection's write lock and on a full disk; once reads fail
 * too, they are refused at once but for one trial per `retryMs`, so a hung database does not make
 * every path question wait for a connection. Errors of the caller's own making (a
 * wrong token, bad input, a constraint) are passed on unchanged and say nothing about the database.
 *
 * A write that SQLite would take can still be lost: once the database file is removed (or
 * replaced) while the service runs, the open connection writes on into a file no one will open
 * again. The store's `precondition` says so, and it fails writes and health like any other
 * unavailability, until the service is restarted and opens the file at its path again.
 *
 * Health is earned by writing: `healthy()` is true only while a real write (an operation or the
 * trial write) succeeded less than `freshMs` ago; when the last one is older, or there was none
 * yet, it runs a trial write first. So a disk that filled up while nothing was written, or a
 * database that cannot be written at start-up, shows on `/health` before any user's save fails.
 */

import { DatabaseBusyError, DatabaseUnavailableError } from './errors.js';
import type { StoreLogger } from './migrate.js';

/** SQLite result codes (primary, as better-sqlite3 names them) that mean the database is unusable. */
const UNAVAILABLE_CODE = /^SQLITE_(BUSY|LOCKED|READONLY|FULL|IOERR|CANTOPEN|CORRUPT|NOTADB|PERM|NOLFS|PROTOCOL)(_|$)/;

interface SqliteCause {
  code: string;
  message: string;
}

/** One level of a driver, driver-adapter or Prisma error, as far as these checks read it. */
interface ErrorLevel {
  kind?: unknown;
  code?: unknown;
  message?: unknown;
  originalCode?: unknown;
  originalMessage?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
  cause?: unknown;
}

/** `error` and the errors it wraps (Prisma's driver-adapter error, `cause`), outermost first. */
function* levels(error: unknown): Generator<ErrorLevel> {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const level = current as ErrorLevel;
    yield level;
    current = level.meta?.driverAdapterError?.cause ?? level.cause;
  }
}

/** The SQLite error inside a driver, driver-adapter or Prisma error, if there is one. */
function sqliteCause(error: unknown): SqliteCause | undefined {
  for (const e of levels(error)) {
    if (typeof e.originalCode === 'string' && e.originalCode.startsWith('SQLITE_')) {
      return { code: e.originalCode, message: String(e.originalMessage ?? e.originalCode) };
    }
    if (typeof e.code === 'string' && e.code.startsWith('SQLITE_')) {
      return { code: e.code, message: String(e.message ?? e.code) };
    }
  }
  return undefined;
}

/** Kinds of Prisma driver-adapter error that mean PostgreSQL cannot be reached or used. */
const UNAVAILABLE_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'DatabaseDoesNotExist',
  'DatabaseAccessDenied',
  'AuthenticationFailed',
  'TlsConnectionError',
]);
/**
 * PostgreSQL SQLSTATE classes that mean the server, not the request, is the problem: connection
 * exceptions (08), insufficient resources (53: disk full, out of memory), operator intervention
 * (57P: shutting down, starting up), system errors (58), and a read-only transaction (25006).
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P|58)|^25006$/;
/** What the `pg` driver says when a connection dies or none can be had in time. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connect ECONNREFUSED|Client has encountered a connection error|Connection ended unexpectedly|the database system is (starting up|shutting down)|Query read timeout/i;

/**
 * Why `error` is a wait that ran out rather than a failure (no free connection in the pool in
 * time, Prisma's P2028: a transaction could not start in time), or undefined. A busy database is
 * not an unavailable one: such errors fail their own operation only.
 */
export function busyReason(error: unknown): string | undefined {
  for (const e of levels(error)) {
    if (e.code === 'P2028') return 'a transaction could not start in time';
    if (typeof e.message === 'string' && /timeout exceeded when trying to connect/i.test(e.message)) {
      return 'no database connection came free in time';
    }
  }
  return undefined;
}

/** Why a PostgreSQL-side error (anywhere in the chain) means the database is unavailable, or undefined. */
function postgresReason(error: unknown): string | undefined {
  for (const e of levels(error)) {
    if (typeof e.kind === 'string' && UNAVAILABLE_KINDS.has(e.kind)) return `PostgreSQL: ${e.kind}`;
    const sqlstate = e.kind === 'postgres' ? e.code : e.originalCode;
    if (typeof sqlstate === 'string' && UNAVAILABLE_SQLSTATE.test(sqlstate)) {
      return String(e.message ?? e.originalMessage ?? sqlstate)
        .split('\n')[0]
        .slice(0, 200);
    }
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) {
      return e.message.split('\n')[0].slice(0, 200);
    }
  }
  return undefined;
}

/**
 * Why `error` means the database is unavailable, in the database's words (SQLite's
 * `database is locked`, `attempt to write a readonly database`, `database or disk is full`;
 * PostgreSQL's connection errors, shutdown, full disk), or undefined when it is some other error.
 */
export function unavailableReason(error: unknown): string | undefined {
  if (error instanceof DatabaseUnavailableError) return error.reason;
  const cause = sqliteCause(error);
  if (cause && UNAVAILABLE_CODE.test(cause.code)) return cause.message.split('\n')[0].slice(0, 200);
  const postgres = postgresReason(error);
  if (postgres) return postgres;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'PrismaClientInitializationError') return 'the database cannot be opened';
  return undefined;
}

/** Options of `Availability`. */
export interface AvailabilityOptions {
  /** While unavailable, how often a write is let through as a trial, ms. */
  retryMs: number;
  /** A write that changes nothing lasting (the trial of `healthy()`). */
  probe: () => Promise<unknown>;
  /** How long a successful write vouches for health, ms (default 30 000). */
  freshMs?: number;
  /**
   * Checked before every write and health check: why the database cannot be written safely now
   * although a write would succeed (its file removed or replaced while the service runs), or
   * undefined. Such a reason fails the write as unavailability.
   */
  precondition?: () => string | undefined;
  logger: StoreLogger;
  /** Clock, for tests. */
  now?: () => number;
}

/** The circuit breaker; see the file comment. */
export class Availability {
  readonly #options: AvailabilityOptions;
  readonly #now: () => number;
  #failure: { reason: string; lastTry: number } | undefined;
  #probing: Promise<boolean> | undefined;
  /** When a write (operation or trial) last succeeded; undefined before the first. */
  #lastSuccess: number | undefined;
  /** Set while reads fail as unavailable (cleared by any operation that succeeds). */
  #readsFailing: { reason: string; lastTry: number } | undefined;

  constructor(options: AvailabilityOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Why the database is unavailable, or undefined while it is fine. */
  get reason(): string | undefined {
    return this.#failure?.reason;
  }

  /**
   * Runs a read. While reads fail as unavailable too (PostgreSQL unreachable or hung: each read
   * would wait for a connection), one is let through per `retryMs` and the others reject at once.
   */
  read<T>(operation: () => Promise<T>): Promise<T> {
    const refused = this.#refusal(this.#readsFailing);
    return refused ? Promise.reject(refused) : this.#attempt(operation, false);
  }

  /** Runs a write, or rejects at once while unavailable and no trial is due. */
  async write<T>(operation: () => Promise<T>): Promise<T> {
    const refused = this.#refusal(this.#failure);
    if (refused) throw refused;
    return this.#attempt(operation, true);
  }

  /**
   * While `failing` (writes, or reads), the error that refuses an operation at once, or undefined
   * when none is failing or a trial is due (its time is then taken).
   */
  #refusal(failing: { reason: string; lastTry: number } | undefined): DatabaseUnavailableError | undefined {
    if (!failing) return undefined;
    if (this.#now() - failing.lastTry < this.#options.retryMs) return new DatabaseUnavailableError(failing.reason);
    failing.lastTry = this.#now();
    return undefined;
  }

  /**
   * True when available and a write succeeded less than `freshMs` ago. Otherwise runs a trial
   * write (at most one at a time; while unavailable, at most one per `retryMs`) and reports it.
   */
  healthy(): Promise<boolean> {
    const lost = this.#options.precondition?.();
    if (lost !== undefined) {
      this.#fail(lost, new DatabaseUnavailableError(lost));
      return Promise.resolve(false);
    }
    if (this.#probing) return this.#probing;
    const failure = this.#failure;
    const now = this.#now();
    if (!failure) {
      if (this.#lastSuccess !== undefined && now - this.#lastSuccess < (this.#options.freshMs ?? 30_000))
        return Promise.resolve(true);
    } else {
      if (now - failure.lastTry < this.#options.retryMs) return Promise.resolve(false);
      failure.lastTry = now;
    }
    return this.trial();
  }

  /** Runs a trial write now and reports whether it succeeded (the store runs one when it opens). */
  trial(): Promise<boolean> {
    this.#probing ??= this.#attempt(this.#options.probe, true).then(
      () => true,
      (error: unknown) => {
        // Unavailability is logged by #attempt; anything else would go unseen.
        if (unavailableReason(error) === undefined) this.#options.logger.error({ err: error }, 'trial write failed');
        return false;
      },
    );
    const probing = this.#probing;
    void probing.finally(() => {
      if (this.#probing === probing) this.#probing = undefined;
    });
    return probing;
  }

  async #attempt<T>(operation: () => Promise<T>, write: boolean): Promise<T> {
    try {
      const lost = write ? this.#options.precondition?.() : undefined;
      if (lost !== undefined) throw new DatabaseUnavailableError(lost);
      const result = await operation();
      this.#readsFailing = undefined; // the database answered
      if (write) {
        this.#lastSuccess = this.#now();
        if (this.#failure) {
          this.#options.logger.warn({ reason: this.#failure.reason }, 'database available again');
          this.#failure = undefined;
        }
      }
      return result;
    } catch (error) {
      const reason = unavailableReason(error);
      if (reason === undefined) {
        const busy = busyReason(error);
        if (busy !== undefined) throw new DatabaseBusyError(busy, { cause: error });
        throw error;
      }
      this.#fail(reason, error);
      if (!write) this.#readsFailing = { reason, lastTry: this.#readsFailing?.lastTry ?? this.#now() };
      throw error instanceof DatabaseUnavailableError ? error : new DatabaseUnavailableError(reason, { cause: error });
    }
  }

  /** Marks the store unavailable for `reason` (logged the first time). */
  #fail(reason: string, error: unknown): void {
    if (!this.#failure) {
      this.#options.logger.error(
        { reason, err: error },
        'database unavailable: writes fail until a trial write succeeds',
      );
    }
    this.#failure = { reason, lastTry: this.#failure?.lastTry ?? this.#now() };
  }
}

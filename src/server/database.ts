/**
 * The server's database, opened in the background so that the server listens at once: until the
 * store is open (or when it failed to open), `/health` answers 503 and path questions are answered
 * by the engine alone, while analyses report SERVICE_UNAVAILABLE. A store that failed to open is
 * tried again after DATABASE_RETRY_MS, doubling up to a minute (not after a migration error, which
 * needs a person); one that opens once shutdown began is closed at once. Prisma is loaded by the
 * first opening, so engine-only runs never load it. The health report is made here too, since
 * all it tells besides shutdown is the database's state (src/http/router.ts serves it).
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { HealthReport } from '../http/router.js';
import { openStore, redactUrl, type Store, type StoreOptions, unavailableReason } from '../store/index.js';

/** Opens the store (the real one: `storeOpener`). */
export type StoreOpener = (options: StoreOptions) => Promise<Store>;

/** Longest wait between two attempts to open the database. */
const MAX_OPEN_RETRY_MS = 60_000;

/** Time `/health` waits for the database's answer. */
const HEALTH_TIMEOUT_MS = 2000;

/** The real store (Prisma is loaded by its first opening, so engine-only runs never load it). */
export function storeOpener(logger: Logger): StoreOpener {
  return (options: StoreOptions): Promise<Store> =>
    openStore(options, { logger: logger.child({ component: 'store' }) });
}

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

/** The store of a running server, from its first attempt to open until shutdown closes it. */
export class ServerDatabase {
  readonly #config: Config;
  /** Null: the server runs without a database. */
  readonly #openStore: StoreOpener | null;
  readonly #logger: Logger;
  #store: Store | undefined;
  #state: HealthReport['database'];
  /** Why the database could not be opened, as far as it is safe to say on /health. */
  #openFailure: string | undefined;
  #stopping = false;
  #retryTimer: NodeJS.Timeout | undefined;
  /** The attempt to open the store in progress (or the last one). */
  #opening: Promise<void> = Promise.resolve();

  constructor(config: Config, openStore: StoreOpener | null, logger: Logger) {
    this.#config = config;
    this.#openStore = openStore;
    this.#logger = logger;
    this.#state = openStore ? 'opening' : 'disabled';
  }

  /** The store once it is open; undefined while opening, when disabled, when it failed, once closed. */
  get store(): Store | undefined {
    return this.#store;
  }

  /** The attempt to open the store in progress (or the last one); it never rejects. */
  get opening(): Promise<void> {
    return this.#opening;
  }

  /** Tries to open the store (`attempt` counts from 0), and again later if it fails; see the file comment. */
  open(attempt = 0): Promise<void> {
    const config = this.#config;
    const logger = this.#logger;
    if (!this.#openStore || this.#stopping) return Promise.resolve();
    this.#opening = this.#openStore({
      databaseUrl: config.databaseUrl,
      poolSize: config.databasePoolSize,
      maxCacheBytes: config.cacheMaxBytes,
      maxAnalysisBytes: config.maxAnalysisBytes,
      maxAnalysesBytes: config.analysesMaxBytes,
      idempotencyWindowMs: config.idempotencyWindowHours * 3_600_000,
      busyTimeoutMs: config.databaseBusyTimeoutMs,
      retryMs: config.databaseRetryMs,
    }).then(
      (opened) => {
        if (this.#stopping) {
          void opened.close();
          return;
        }
        this.#store = opened;
        this.#state = 'ok';
        this.#openFailure = undefined;
        logger.info({ databaseUrl: redactUrl(config.databaseUrl), attempt: attempt + 1 }, 'database ready');
      },
      (err: unknown) => {
        this.#state = 'unavailable';
        const migration = (err as { name?: unknown } | null)?.name === 'MigrationError';
        // The database's own words when they are known to say nothing secret (as while it runs).
        const reason = unavailableReason(err);
        this.#openFailure = migration
          ? 'migration error (see the server log)'
          : `failed to open${reason ? `: ${reason}` : ''} (see the server log)`;
        const retry = !migration && !this.#stopping && config.databaseRetryMs > 0;
        const delay = Math.min(MAX_OPEN_RETRY_MS, config.databaseRetryMs * 2 ** Math.min(attempt, 16));
        logger.error(
          { err, databaseUrl: redactUrl(config.databaseUrl), ...(retry ? { retryInMs: delay } : {}) },
          'database failed to open; serving path queries from the engine only',
        );
        if (retry) {
          this.#retryTimer = setTimeout(() => void this.open(attempt + 1), delay);
          this.#retryTimer.unref();
        }
      },
    );
    return this.#opening;
  }

  /** What `/health` reports: the server's status and the database's. */
  async health(): Promise<HealthReport> {
    const database = this.#state;
    if (this.#stopping) return { status: 'stopping', database };
    if (database === 'disabled') return { status: 'ok', database };
    if (database === 'opening') return { status: 'starting', database };
    if (!this.#store) {
      return { status: 'degraded', database, ...(this.#openFailure ? { reason: this.#openFailure } : {}) };
    }
    const current = this.#store;
    const healthy = await withTimeout(current.healthy(), HEALTH_TIMEOUT_MS, false);
    if (healthy) return { status: 'ok', database: 'ok' };
    const reason = current.unavailableReason?.();
    return { status: 'degraded', database: 'unavailable', ...(reason ? { reason } : {}) };
  }

  /** Shutdown began: `/health` says so, no attempt starts again, and a store still opening is closed once open. */
  stop(): void {
    this.#stopping = true;
    clearTimeout(this.#retryTimer);
  }

  /**
   * Takes the open store away from the requests (those still waiting on it fail as it closes)
   * and closes it, ending what would hold it after `timeoutMs`; undefined when none is open.
   */
  close(timeoutMs: number): Promise<void> | undefined {
    if (!this.#store) return undefined;
    const opened = this.#store;
    this.#store = undefined;
    this.#state = 'closed';
    return opened.close(timeoutMs);
  }
}

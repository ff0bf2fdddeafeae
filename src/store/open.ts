/**
 * Persistence: `openStore` applies the committed migrations and opens the database its URL names:
 * a SQLite file (`file:`) through Prisma's better-sqlite3 driver adapter on ONE connection that
 * holds the database exclusively (`./connection.ts`: the WAL index lives in heap memory, so no
 * `-shm` file is mapped and nothing done to such a file can crash the process), or PostgreSQL
 * (`postgresql://`, shared by several replicas) through the pg adapter on a bounded pool
 * (`./connection-postgres.ts`, migrations under an advisory lock). It runs a trial write, and returns
 * the result cache and the analysis store (contract in `./types.ts`), each operation guarded by
 * the availability circuit breaker (`./availability.ts`): a database that is locked, read-only or
 * full turns into `DatabaseUnavailableError`s and an unhealthy store until a write succeeds again.
 * The store still opens when the trial write fails; it reports unavailable and recovers later.
 * Given a time, `close` keeps it, ending statements still in flight if it must (`./close.ts`).
 *
 * Loaded on the first `openStore` through the store's door (`./index.ts`), since it loads Prisma
 * and both database drivers.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { databaseFileFromUrl } from '../config/kinds.js';
import { DEFAULTS } from '../config.js';
import { PrismaAnalysisStore } from './analysis-store.js';
import { Availability } from './availability.js';
import { SqliteRowReads } from './cache-reads.js';
import { SqliteRowWrites } from './cache-writes.js';
import { closeWithin } from './close.js';
import {
  configureConnection,
  connectionFactory,
  fileIdentityCheck,
  type LockingMode,
  probeWrite,
} from './connection.js';
import {
  postgresAdapter,
  probeWritePostgres,
  storeApplicationName,
  terminateBusyBackends,
} from './connection-postgres.js';
import { dialectOf, redactUrl } from './dialect.js';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaClient as PostgresPrismaClient } from './generated/prisma-postgres/client.js';
import { migrate, type StoreLogger } from './migrate.js';
import { migratePostgres } from './migrate-postgres.js';
import { PrismaResultCache } from './result-cache.js';
import { readTotals, type StoreTotals } from './totals.js';
import type { AnalysisStore, ResultCache, Store, StoreOptions } from './types.js';

/** Options beyond the contract: for the server's logger and for tests. */
export interface StoreExtras {
  /** Where problems are reported (hit-count write failures, unreadable rows); default console. */
  logger?: StoreLogger;
  /** Migrations to apply; default the package's `prisma/migrations`. */
  migrationsDir?: string;
  /** How long the migrator (and a `normal`-mode connection) waits for a lock, in ms (overrides the option). */
  busyTimeoutMs?: number;
  /** Delay before hit counts are written, in ms (default 200). */
  hitFlushDelayMs?: number;
  /**
   * How long a successful write vouches for `healthy()`, in ms, before it runs a trial write
   * again (default 30 000).
   */
  healthFreshMs?: number;
  /** Clock of the retry and freshness windows (`retryMs`, `healthFreshMs`), ms; default `Date.now`. For tests. */
  now?: () => number;
  /**
   * How long a transaction may wait for a connection, and then run, ms (Prisma's `maxWait`,
   * default 2000, and `timeout`, default 5000). For tests whose bursts queue on the pool.
   */
  transactionOptions?: { maxWait?: number; timeout?: number };
  /**
   * `exclusive` (default): the service's connection holds the database alone, with no `-shm`
   * file. `normal`: other processes may open the database meanwhile (the WAL index is then a
   * mapped `-shm` file, and truncating it kills the process with SIGBUS); for tests that need a
   * second connection, and for tools.
   */
  lockingMode?: LockingMode;
  /** The clock of idempotency records and their window (default the system's). For tests. */
  idempotencyClock?: () => Date;
  /** Called with every SQL statement Prisma runs (e.g. to count queries). */
  onQuery?: (event: { query: string; params: string; duration: number }) => void;
  /**
   * Called with the connected Prisma client. Tests use it to break the database from inside
   * (`PRAGMA query_only`, `PRAGMA max_page_count`) and to mend it again.
   */
  onConnected?: (prisma: PrismaClient) => void | Promise<void>;
}

const consoleLogger: StoreLogger = {
  warn: (obj, msg) => console.warn(`[store] ${msg}`, obj),
  error: (obj, msg) => console.error(`[store] ${msg}`, obj),
};

/** The store, with the running totals of its tables (for tools, metrics and tests). */
export interface OpenedStore extends Store {
  /** Rows and bytes of the result cache and of the analyses. */
  totals(): Promise<StoreTotals>;
}

/**
 * Opens the store: creates the directory, applies pending migrations, connects Prisma, runs a
 * trial write (its failure leaves the store open but unavailable).
 */
export async function openStore(options: StoreOptions, extras: StoreExtras = {}): Promise<OpenedStore> {
  const logger = extras.logger ?? consoleLogger;
  const dialect = dialectOf(options.databaseUrl);
  if (!dialect) {
    throw new Error(
      `DATABASE_URL must be a SQLite file: URL such as ${DEFAULTS.DATABASE_URL} or a postgresql:// URL, got ${JSON.stringify(redactUrl(options.databaseUrl))}`,
    );
  }
  const busyTimeoutMs = extras.busyTimeoutMs ?? options.busyTimeoutMs ?? 5000;
  const lockingMode = extras.lockingMode ?? 'exclusive';
  const clientOptions = {
    ...(extras.onQuery ? { log: [{ emit: 'event' as const, level: 'query' as const }] } : {}),
    ...(extras.transactionOptions ? { transactionOptions: extras.transactionOptions } : {}),
  };
  let prisma: PrismaClient;
  /** SQLite: whole cache rows read without Prisma, on Prisma's own connection. */
  let rowReads: SqliteRowReads | undefined;
  /** SQLite: cache rows written without Prisma, on the same connection. */
  let rowWrites: SqliteRowWrites | undefined;
  /** PostgreSQL: the `application_name` of the store's connections, for a forced close. */
  let applicationName: string | undefined;
  if (dialect === 'sqlite') {
    const file = databaseFileFromUrl(options.databaseUrl);
    mkdirSync(dirname(file), { recursive: true });
    migrate(file, { migrationsDir: extras.migrationsDir, busyTimeoutMs, logger });
    const factory = connectionFactory(file, { lockingMode, busyTimeoutMs });
    rowReads = new SqliteRowReads(() => factory.database(), extras.onQuery);
    rowWrites = new SqliteRowWrites(() => factory.database(), extras.onQuery);
    prisma = new PrismaClient({ adapter: factory, ...clientOptions });
  } else {
    await migratePostgres(options.databaseUrl, {
      migrationsDir: extras.migrationsDir,
      connectTimeoutMs: Math.max(busyTimeoutMs, 5000),
      logger,
    });
    applicationName = storeApplicationName();
    const adapter = postgresAdapter(options.databaseUrl, {
      applicationName,
      poolSize: options.poolSize ?? 10,
      connectTimeoutMs: Math.max(busyTimeoutMs, 5000),
      logger,
    });
    // Both generated clients have the same models and methods: the SQLite client's type stands
    // for both in the store's code.
    prisma = new PostgresPrismaClient({ adapter, ...clientOptions }) as unknown as PrismaClient;
  }
  if (extras.onQuery) {
    const onQuery = extras.onQuery;
    (
      prisma as unknown as {
        $on(event: 'query', cb: (e: { query: string; params: string; duration: number }) => void): void;
      }
    ).$on('query', (event) => onQuery({ query: event.query, params: event.params, duration: event.duration }));
  }
  // Built before connecting: they check their options, and a bad one must not leave the
  // database open (and locked).
  const availability = new Availability({
    retryMs: options.retryMs ?? 5000,
    freshMs: extras.healthFreshMs,
    now: extras.now,
    // The file exists once migrated (SQLite); it is still the same file or nothing is written.
    precondition: dialect === 'sqlite' ? fileIdentityCheck(databaseFileFromUrl(options.databaseUrl)) : undefined,
    probe: () => (dialect === 'sqlite' ? probeWrite(prisma) : probeWritePostgres(prisma)),
    logger,
  });
  const cache = new PrismaResultCache(prisma, {
    maxCacheBytes: options.maxCacheBytes,
    logger,
    hitFlushDelayMs: extras.hitFlushDelayMs,
    guardWrite: (write) => availability.write(write),
    dialect,
    rowReads,
    rowWrites,
  });
  const analyses = new PrismaAnalysisStore(prisma, {
    dialect,
    maxAnalysisBytes: options.maxAnalysisBytes,
    maxAnalysesBytes: options.maxAnalysesBytes,
    idempotencyWindowMs: options.idempotencyWindowMs,
    clock: extras.idempotencyClock,
    logger,
  });
  try {
    await prisma.$connect();
    if (dialect === 'sqlite') await configureConnection(prisma, lockingMode);
    await extras.onConnected?.(prisma);
  } catch (error) {
    await prisma.$disconnect().catch(() => undefined);
    throw error;
  }

  // The first write takes the exclusive lock and proves the database writable; a failure leaves
  // the store open but unavailable, and the retry logic recovers it.
  await availability.trial();
  await cache.warmUp();
  // In the background: until it is loaded, every key is looked up.
  void cache.loadWrittenKeys();
  const guardedCache: ResultCache = {
    getMany: (problems) => availability.read(() => cache.getMany(problems)),
    putMany: (results) => availability.write(() => cache.putMany(results)),
    mayHold: (key) => cache.mayHold(key),
    get exactKeys() {
      return cache.exactKeys;
    },
    writtenKeysSize: () => cache.writtenKeysSize(),
  };
  const guardedAnalyses: AnalysisStore = {
    save: (input, saveOptions) => availability.write(() => analyses.save(input, saveOptions)),
    get: (id) => availability.read(() => analyses.get(id)),
    list: (args) => availability.read(() => analyses.list(args)),
    update: (id, token, patch, expectedVersion) =>
      availability.write(() => analyses.update(id, token, patch, expectedVersion)),
    delete: (id, token) => availability.write(() => analyses.delete(id, token)),
    authorize: (id, token) => availability.read(() => analyses.authorize(id, token)),
  };
  let closing: Promise<void> | null = null;

  return {
    cache: guardedCache,
    analyses: guardedAnalyses,
    async healthy() {
      if (closing) return false;
      try {
        await availability.read(() => prisma.$queryRawUnsafe('SELECT 1'));
      } catch {
        return false;
      }
      return availability.healthy();
    },
    unavailableReason: () => availability.reason,
    totals: () => availability.read(() => readTotals(prisma)),
    close(timeoutMs = Number.POSITIVE_INFINITY) {
      const named = applicationName;
      closing ??= closeWithin({
        timeoutMs,
        graceful: async () => {
          try {
            await cache.close();
          } finally {
            await prisma.$disconnect();
          }
        },
        // SQLite's statements run on this thread and are over by now: only its close can wait.
        force: named ? (ms) => terminateBusyBackends(options.databaseUrl, named, ms).then(() => {}) : undefined,
        logger,
      });
      return closing;
    },
  };
}

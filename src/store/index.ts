/**
 * Persistence: `openStore` opens the SQLite database named by a `file:` URL through Prisma's
 * better-sqlite3 driver adapter (WAL, busy timeout), applies the committed migrations, and returns
 * the result cache and the analysis store (contract in `./types.ts`), each operation guarded by
 * the availability circuit breaker (`./availability.ts`): a database that is locked, read-only or
 * full turns into `DatabaseUnavailableError`s and an unhealthy store until a write succeeds again.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { DEFAULTS } from '../config.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaAnalysisStore } from './analysis-store.js';
import { Availability } from './availability.js';
import { migrate, type StoreLogger } from './migrate.js';
import { PrismaResultCache } from './result-cache.js';
import type { AnalysisStore, ResultCache, Store, StoreOptions } from './types.js';

export * from './types.js';
export { unavailableReason } from './availability.js';
export { DEFAULT_MIGRATIONS_DIR, MigrationError, migrate, readMigrations } from './migrate.js';
export type { MigrateOptions, MigrateResult, StoreLogger } from './migrate.js';

/** Options beyond the contract: for the server's logger and for tests. */
export interface StoreExtras {
  /** Where problems are reported (hit-count write failures, unreadable rows); default console. */
  logger?: StoreLogger;
  /** Migrations to apply; default the package's `prisma/migrations`. */
  migrationsDir?: string;
  /** How long a statement waits for another connection's lock, in ms (overrides the option). */
  busyTimeoutMs?: number;
  /** Delay before hit counts are written, in ms (default 200). */
  hitFlushDelayMs?: number;
  /** Called with every SQL statement Prisma runs (e.g. to count queries). */
  onQuery?: (event: { query: string; params: string; duration: number }) => void;
  /**
   * Called with the connected Prisma client. Tests use it to break the database from inside
   * (`PRAGMA query_only`, `PRAGMA max_page_count`) and to mend it again.
   */
  onConnected?: (prisma: PrismaClient) => void | Promise<void>;
}

/**
 * The trial write of `healthy()` while the database is unavailable: a row holding 8 KiB, inserted
 * and deleted in one committed transaction, so it needs the write lock, write access, new pages
 * and room in the WAL, like any real write, and leaves nothing behind.
 */
async function probeWrite(prisma: PrismaClient): Promise<void> {
  const key = '~health-probe';
  await prisma.$transaction([
    prisma.$executeRawUnsafe(
      'INSERT INTO "CachedResult" ("key", "piece", "files", "ranks", "mask", "sources", "targets", "layerCount", "layers") ' +
        "VALUES (?, 'KING', 1, 1, '0x0', '0x0', '0x0', 0, zeroblob(8192)) ON CONFLICT DO NOTHING",
      key,
    ),
    prisma.$executeRawUnsafe('DELETE FROM "CachedResult" WHERE "key" = ?', key),
  ]);
}

const consoleLogger: StoreLogger = {
  warn: (obj, msg) => console.warn(`[store] ${msg}`, obj),
  error: (obj, msg) => console.error(`[store] ${msg}`, obj),
};

/**
 * The file a `file:` URL names: `file:./x.db` and `file:x.db` are relative to the working
 * directory, `file:/abs/x.db` and `file:///abs/x.db` absolute; a `?query` part is ignored.
 */
export function databaseFileFromUrl(url: string, cwd: string = process.cwd()): string {
  if (!url.startsWith('file:')) {
    throw new Error(`DATABASE_URL must be a SQLite file: URL such as ${DEFAULTS.DATABASE_URL}, got ${JSON.stringify(url)}`);
  }
  let path = url.slice('file:'.length);
  const query = path.indexOf('?');
  if (query >= 0) path = path.slice(0, query);
  if (path.startsWith('//')) {
    // file://host/path: only an empty host (file:///abs) or localhost is a local file.
    const slash = path.indexOf('/', 2);
    const host = slash < 0 ? path.slice(2) : path.slice(2, slash);
    if (host !== '' && host !== 'localhost') throw new Error(`DATABASE_URL names a remote host: ${url}`);
    path = slash < 0 ? '' : path.slice(slash);
  }
  path = decodeURIComponent(path);
  if (path === '' || path === ':memory:') {
    throw new Error(`DATABASE_URL must name a database file (in-memory databases are not supported): ${url}`);
  }
  return resolve(cwd, path);
}

/** Opens the store: creates the directory, applies pending migrations, connects Prisma. */
export async function openStore(options: StoreOptions, extras: StoreExtras = {}): Promise<Store> {
  const logger = extras.logger ?? consoleLogger;
  const file = databaseFileFromUrl(options.databaseUrl);
  mkdirSync(dirname(file), { recursive: true });
  const busyTimeoutMs = extras.busyTimeoutMs ?? options.busyTimeoutMs ?? 5000;

  migrate(file, { migrationsDir: extras.migrationsDir, busyTimeoutMs, logger });

  const adapter = new PrismaBetterSqlite3({ url: file, timeout: busyTimeoutMs });
  const prisma = extras.onQuery
    ? new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] })
    : new PrismaClient({ adapter });
  if (extras.onQuery) {
    const onQuery = extras.onQuery;
    (prisma as unknown as { $on(event: 'query', cb: (e: { query: string; params: string; duration: number }) => void): void }).$on(
      'query',
      (event) => onQuery({ query: event.query, params: event.params, duration: event.duration }),
    );
  }
  try {
    await prisma.$connect();
    // WAL is persistent (set by the migrator); the busy timeout is the adapter's `timeout`.
    await prisma.$queryRawUnsafe('PRAGMA synchronous = NORMAL');
    await extras.onConnected?.(prisma);
  } catch (error) {
    await prisma.$disconnect().catch(() => undefined);
    throw error;
  }

  const availability = new Availability({ retryMs: options.retryMs ?? 5000, probe: () => probeWrite(prisma), logger });
  const cache = new PrismaResultCache(prisma, {
    lruSize: options.lruSize,
    maxCacheRows: options.maxCacheRows,
    logger,
    hitFlushDelayMs: extras.hitFlushDelayMs,
    guardWrite: (write) => availability.write(write),
  });
  const analyses = new PrismaAnalysisStore(prisma);
  const guardedCache: ResultCache = {
    getMany: (problems) => availability.read(() => cache.getMany(problems)),
    putMany: (results) => availability.write(() => cache.putMany(results)),
  };
  const guardedAnalyses: AnalysisStore = {
    save: (input) => availability.write(() => analyses.save(input)),
    get: (id) => availability.read(() => analyses.get(id)),
    list: (args) => availability.read(() => analyses.list(args)),
    update: (id, token, patch) => availability.write(() => analyses.update(id, token, patch)),
    delete: (id, token) => availability.write(() => analyses.delete(id, token)),
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
    close() {
      closing ??= (async () => {
        try {
          await cache.close();
        } finally {
          await prisma.$disconnect();
        }
      })();
      return closing;
    },
  };
}

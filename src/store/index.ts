/**
 * Persistence: `openStore` opens the SQLite database named by a `file:` URL through Prisma's
 * better-sqlite3 driver adapter (WAL, busy timeout), applies the committed migrations, and returns
 * the result cache and the analysis store (contract in `./types.ts`).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaAnalysisStore } from './analysis-store.js';
import { migrate, type StoreLogger } from './migrate.js';
import { PrismaResultCache } from './result-cache.js';
import type { Store, StoreOptions } from './types.js';

export * from './types.js';
export { DEFAULT_MIGRATIONS_DIR, MigrationError, migrate, readMigrations } from './migrate.js';
export type { MigrateOptions, MigrateResult, StoreLogger } from './migrate.js';

/** Default of `DATABASE_URL`. */
export const DEFAULT_DATABASE_URL = 'file:./data/chess-paths.db';

/** Options beyond the contract: for the server's logger and for tests. */
export interface StoreExtras {
  /** Where problems are reported (hit-count write failures, unreadable rows); default console. */
  logger?: StoreLogger;
  /** Migrations to apply; default the package's `prisma/migrations`. */
  migrationsDir?: string;
  /** How long a statement waits for another connection's lock, in ms (default 5000). */
  busyTimeoutMs?: number;
  /** Delay before hit counts are written, in ms (default 200). */
  hitFlushDelayMs?: number;
  /** Called with every SQL statement Prisma runs (e.g. to count queries). */
  onQuery?: (event: { query: string; params: string; duration: number }) => void;
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
    throw new Error(`DATABASE_URL must be a SQLite file: URL such as ${DEFAULT_DATABASE_URL}, got ${JSON.stringify(url)}`);
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
  const busyTimeoutMs = extras.busyTimeoutMs ?? 5000;

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
  } catch (error) {
    await prisma.$disconnect().catch(() => undefined);
    throw error;
  }

  const cache = new PrismaResultCache(prisma, {
    lruSize: options.lruSize,
    maxCacheRows: options.maxCacheRows,
    logger,
    hitFlushDelayMs: extras.hitFlushDelayMs,
  });
  const analyses = new PrismaAnalysisStore(prisma);
  let closing: Promise<void> | null = null;

  return {
    cache,
    analyses,
    async healthy() {
      if (closing) return false;
      try {
        await prisma.$queryRawUnsafe('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
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

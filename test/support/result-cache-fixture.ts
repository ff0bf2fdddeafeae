/**
 * A result-cache test fixture: a fresh database per test (a SQLite file by default, or a
 * PostgreSQL database of its own), stores opened with the statements they run recorded and their
 * own Prisma connection at hand (on SQLite the only one that may read the file while the store
 * holds it exclusively), all closed after each test and the database dropped.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach } from 'vitest';
import { placeholders } from '../../src/store/dialect.js';
import type { PrismaClient } from '../../src/store/generated/prisma/client.js';
import { type OpenedStore, openStore, type StoreExtras } from '../../src/store/index.js';
import { queryPostgres, SQLITE, type StoreDatabase, type TestDatabase } from './postgres.js';
import { recordingLogger, tempDir } from './store-fixtures.js';

/** An open store with its connection and the statements it ran. */
export interface OpenedCache {
  store: OpenedStore;
  prisma: PrismaClient;
  /** Statements run since it opened, with their bound parameters. */
  statements: { query: string; params: unknown[] }[];
}

/** Registers the hooks; call at the top of a test file (or of a `describe` per database). */
export function useCacheFixture(database: StoreDatabase = SQLITE) {
  let dir: string | undefined;
  let cleanup: (() => void) | undefined;
  let dbFile: string;
  let postgres: TestDatabase | undefined;
  const open: OpenedStore[] = [];
  const sqlite = database.dialect === 'sqlite';

  beforeEach(async () => {
    if (sqlite) {
      ({ dir, cleanup } = tempDir());
      dbFile = join(dir, 'cache.db');
    } else {
      postgres = await database.create();
    }
  });
  afterEach(async () => {
    try {
      for (const store of open.splice(0)) await store.close();
    } finally {
      cleanup?.();
      cleanup = undefined;
      await postgres?.drop();
      postgres = undefined;
    }
  });

  const sqliteOnly = (what: string) => {
    if (!sqlite) throw new Error(`${what} is for SQLite only`);
  };
  const databaseUrl = () => (sqlite ? `file:${dbFile}` : (postgres as TestDatabase).url);

  return {
    /** The temporary directory of the SQLite file. */
    dir: (): string => {
      sqliteOnly('dir()');
      return dir as string;
    },
    /** Points the next stores at another SQLite file. */
    setFile: (file: string) => {
      sqliteOnly('setFile()');
      dbFile = file;
    },
    async openCache(opts: { maxCacheBytes?: number } = {}, extras: StoreExtras = {}): Promise<OpenedCache> {
      let prisma!: PrismaClient;
      const statements: OpenedCache['statements'] = [];
      const store = await openStore(
        {
          databaseUrl: databaseUrl(),
          maxCacheBytes: opts.maxCacheBytes ?? 0,
          maxAnalysisBytes: 1 << 20,
          maxAnalysesBytes: 0,
        },
        {
          logger: recordingLogger(),
          onQuery: (e) => statements.push({ query: e.query, params: JSON.parse(e.params) as unknown[] }),
          onConnected: (client) => void (prisma = client),
          ...extras,
        },
      );
      open.push(store);
      statements.length = 0;
      return { store, prisma, statements };
    },
    async closeStore(store: OpenedStore): Promise<void> {
      await store.close();
      const at = open.indexOf(store);
      if (at >= 0) open.splice(at, 1);
    },
    /** A connection of its own to the SQLite file: only once the store is closed (it holds the file exclusively). */
    raw: (): Database.Database => {
      sqliteOnly('raw()');
      return new Database(dbFile, { timeout: 5000 });
    },
    /**
     * Runs `sql` (`?` parameters, as SQLite writes them) on a connection of its own; on SQLite
     * only once the store is closed.
     */
    async rawQuery<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]> {
      if (!sqlite) return (await queryPostgres(databaseUrl(), placeholders('postgresql', sql), params)) as T[];
      const db = new Database(dbFile, { readonly: true, timeout: 5000 });
      try {
        return db.prepare(sql).all(...params) as T[];
      } finally {
        db.close();
      }
    },
  };
}

/** `sql` written with `?` parameters, as the store's dialect wants it (`$1`... on PostgreSQL). */
export function sqlFor(database: StoreDatabase, sql: string): string {
  return placeholders(database.dialect, sql);
}

/** The keys the table holds. */
export async function keysIn(prisma: PrismaClient): Promise<Set<string>> {
  const rows = await prisma.$queryRawUnsafe<{ key: string }[]>('SELECT "key" FROM "CachedResult"');
  return new Set(rows.map((r) => r.key));
}

// Prisma quotes SQLite names with backticks in schema `main`, PostgreSQL names with double quotes
// in schema `public`; the matchers below accept both.
const NAME = '[`"]';
const TABLE = `${NAME}(?:main|public)${NAME}\\.${NAME}CachedResult${NAME}`;
const ROW_READ = new RegExp(`^SELECT .*${NAME}layers${NAME}.* FROM ${TABLE}`);
const SIZE_READ = new RegExp(`^SELECT .*${NAME}bytes${NAME} FROM ${TABLE}`);

/** A read of whole rows (with their layers). */
export const isRowRead = (q: string) => ROW_READ.test(q);
/** A read of row sizes only. */
export const isSizeRead = (q: string) => SIZE_READ.test(q) && !/[`"]layers[`"]/.test(q);
/** A multi-row upsert of cache rows. */
export const isUpsert = (q: string) => q.startsWith('INSERT INTO "CachedResult"');
/** An eviction statement. */
export const isEviction = (q: string) => q.startsWith('DELETE FROM "CachedResult" WHERE "key" IN (');
/** Rows of a multi-row upsert (`(?, ?, ?` on SQLite, `($1, $2, $3` on PostgreSQL). */
export const rowsInUpsert = (q: string) => q.match(/\((?:\?|\$\d+), (?:\?|\$\d+), (?:\?|\$\d+)/g)?.length ?? 0;
/** Keys bound to a `findMany({ where: { key: { in } } })`: its 64-hex-digit parameters. */
export const keyParams = (params: unknown[]) =>
  params.filter((p) => typeof p === 'string' && /^[0-9a-f]{64}$/.test(p)) as string[];

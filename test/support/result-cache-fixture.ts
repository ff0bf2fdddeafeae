/**
 * A result-cache test fixture: a fresh database file per test, stores opened with the statements
 * they run recorded and their own Prisma connection at hand (the only one that may read the file
 * while the store holds it exclusively), all closed after each test.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach } from 'vitest';
import type { PrismaClient } from '../../src/store/generated/prisma/client.js';
import { type OpenedStore, openStore, type StoreExtras } from '../../src/store/index.js';
import { recordingLogger, tempDir } from './store-fixtures.js';

/** An open store with its connection and the statements it ran. */
export interface OpenedCache {
  store: OpenedStore;
  prisma: PrismaClient;
  /** Statements run since it opened, with their bound parameters. */
  statements: { query: string; params: unknown[] }[];
}

/** Registers the hooks; call at the top of a test file. */
export function useCacheFixture() {
  let dir: string;
  let cleanup: () => void;
  let dbFile: string;
  const open: OpenedStore[] = [];

  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    dbFile = join(dir, 'cache.db');
  });
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
    cleanup();
  });

  return {
    dir: () => dir,
    /** Points the next stores at another file. */
    setFile: (file: string) => void (dbFile = file),
    async openCache(opts: { maxCacheBytes?: number } = {}, extras: StoreExtras = {}): Promise<OpenedCache> {
      let prisma!: PrismaClient;
      const statements: OpenedCache['statements'] = [];
      const store = await openStore(
        {
          databaseUrl: `file:${dbFile}`,
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
      open.splice(open.indexOf(store), 1);
    },
    /** A connection of its own: only once the store is closed (it holds the file exclusively). */
    raw: (): Database.Database => new Database(dbFile, { timeout: 5000 }),
  };
}

/** The keys the table holds. */
export async function keysIn(prisma: PrismaClient): Promise<Set<string>> {
  const rows = await prisma.$queryRawUnsafe<{ key: string }[]>('SELECT "key" FROM "CachedResult"');
  return new Set(rows.map((r) => r.key));
}

/** A read of whole rows (with their layers). */
export const isRowRead = (q: string) => /^SELECT .*`layers`.* FROM `main`\.`CachedResult`/.test(q);
/** A read of row sizes only. */
export const isSizeRead = (q: string) => /^SELECT .*`bytes` FROM `main`\.`CachedResult`/.test(q) && !/`layers`/.test(q);
/** A multi-row upsert of cache rows. */
export const isUpsert = (q: string) => q.startsWith('INSERT INTO "CachedResult"');
/** An eviction statement. */
export const isEviction = (q: string) => q.startsWith('DELETE FROM "CachedResult" WHERE "key" IN (');
/** Rows of a multi-row upsert. */
export const rowsInUpsert = (q: string) => q.match(/\(\?, \?, \?/g)?.length ?? 0;
/** Keys bound to a `findMany({ where: { key: { in } } })`: its 64-hex-digit parameters. */
export const keyParams = (params: unknown[]) =>
  params.filter((p) => typeof p === 'string' && /^[0-9a-f]{64}$/.test(p)) as string[];

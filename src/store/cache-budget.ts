/**
 * The result cache's byte budget: what a row costs, and eviction of least recently used rows.
 *
 * The budget is counted in bytes, not rows, because a row's size depends on its problem (a big
 * maze's layers are kilobytes, a knight on 8 x 8 a few bytes). Each row stores its own size in
 * `bytes`, and SQLite triggers keep the sum in `StoreTotals.cacheBytes`, in the same transaction as
 * the insert, update or delete; so checking the budget reads one row, never the table.
 *
 * Eviction deletes rows in (`lastHitAt`, `key`) order, which the index serves directly, at most
 * `EVICT_ROWS` per statement (one transaction each, the event loop running between them), and
 * only as many of those as it takes to get back within the budget: one statement picks the oldest
 * rows, sums their sizes in order (a window function) and deletes the shortest prefix that covers
 * the excess.
 */

import { yieldToEventLoop } from './chunks.js';
import { type Dialect, placeholders } from './dialect.js';
import type { PrismaClient } from './generated/prisma/client.js';
import type { StoredResult } from './types.js';

/** Bytes counted per cache row beyond its variable columns: other columns, record header, index entries. */
export const CACHE_ROW_OVERHEAD = 256;
/** Most rows one eviction statement deletes. */
export const EVICT_ROWS = 64;

/** The stored size of a cache row: layers, canonical inputs, key, path count and a fixed overhead. */
export function cacheRowBytes(result: StoredResult): number {
  const { problem } = result;
  return (
    CACHE_ROW_OVERHEAD +
    result.layers.byteLength +
    result.key.length +
    problem.piece.length +
    (problem.betza?.length ?? 0) +
    problem.mask.length +
    problem.sources.length +
    problem.targets.length +
    (result.pathCount === undefined ? 0 : result.pathCount.toString().length)
  );
}

/** Deletes, among the `EVICT_ROWS` least recently used rows, the shortest prefix covering the excess. */
const EVICT_SQL = `DELETE FROM "CachedResult" WHERE "key" IN (
  SELECT "key" FROM (
    SELECT "key", SUM("bytes") OVER (ORDER BY "lastHitAt", "key" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS "before"
    FROM (SELECT "key", "bytes", "lastHitAt" FROM "CachedResult" ORDER BY "lastHitAt", "key" LIMIT ${EVICT_ROWS}) AS "oldest"
  ) AS "ranked"
  WHERE COALESCE("before", 0) < (SELECT "cacheBytes" FROM "StoreTotals" WHERE "id" = 1) - ?
)`;

/** Keeps the cache table within `maxBytes` (0: no limit). */
export class CacheBudget {
  readonly #prisma: PrismaClient;
  readonly #evictSql: string;
  readonly maxBytes: number;

  constructor(prisma: PrismaClient, maxBytes: number, dialect: Dialect = 'sqlite') {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0)
      throw new RangeError(`maxCacheBytes must be a non-negative integer, got ${maxBytes}`);
    this.#prisma = prisma;
    this.#evictSql = placeholders(dialect, EVICT_SQL);
    this.maxBytes = maxBytes;
  }

  /** True when a row of this size may be stored at all (it fits in the budget on its own). */
  fits(bytes: number): boolean {
    return this.maxBytes === 0 || bytes <= this.maxBytes;
  }

  /** The eviction statement's SQL and its one value, for a write without Prisma (undefined without a limit). */
  evictSql(): { sql: string; value: number } | undefined {
    return this.maxBytes === 0 ? undefined : { sql: this.#evictSql, value: this.maxBytes };
  }

  /**
   * The first eviction statement, to run in the transaction of a write (undefined without a
   * limit). It returns how many rows it deleted; `EVICT_ROWS` means `evict()` must go on.
   */
  evictStatement() {
    return this.maxBytes === 0 ? undefined : this.#prisma.$executeRawUnsafe(this.#evictSql, this.maxBytes);
  }

  /**
   * Evicts least recently used rows until the table holds at most `maxBytes`; returns how many
   * rows went. Each statement deletes at most `EVICT_ROWS` rows, in its own transaction, and the
   * event loop runs between two.
   */
  async evict(): Promise<number> {
    let evicted = 0;
    for (;;) {
      const statement = this.evictStatement();
      if (!statement) return evicted;
      // A batch transaction even for one statement: on the shared connection, a bare write
      // could land inside another request's open transaction.
      const [deleted] = await this.#prisma.$transaction([statement]);
      evicted += deleted;
      if (deleted < EVICT_ROWS) return evicted;
      await yieldToEventLoop();
    }
  }
}

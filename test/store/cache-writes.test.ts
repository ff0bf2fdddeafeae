/**
 * SQLite's writes of cache rows without Prisma (`src/store/cache-writes.ts`): through the store
 * they leave the same rows Prisma's writes leave (every column's type and text, dates in Prisma's
 * format, so rows written either way sort and evict together), they never run inside a
 * transaction Prisma holds open (the store then writes through Prisma, after it), and once the
 * connection is closed the writer steps aside rather than failing.
 */
import { describe, expect, it } from 'vitest';
import { ROW_COLUMNS } from '../../src/store/cache-reads.js';
import { SqliteRowWrites, sqliteTimestamp } from '../../src/store/cache-writes.js';
import { PrismaResultCache } from '../../src/store/result-cache.js';
import { keysIn, useCacheFixture } from '../support/result-cache-fixture.js';
import { questionOf, recordingLogger, syntheticResult } from '../support/store-fixtures.js';

/** Every column of a cache row: those a read returns, and the bookkeeping ones. */
const COLUMNS = [...ROW_COLUMNS, 'bytes', 'createdAt', 'hitCount', 'lastHitAt'];

/** Each column's SQLite type and its value (the dates as their stored text). */
const describeRow = COLUMNS.map(
  (c) => `typeof("${c}") AS "${c}:type", ${c.endsWith('At') ? `"${c}" || ''` : `"${c}"`} AS "${c}"`,
).join(', ');

describe('result cache rows written without Prisma (SQLite)', () => {
  const { openCache, closeStore, raw } = useCacheFixture();

  it('leaves the rows Prisma leaves: same types, same values, dates in the same format', async () => {
    const { store, prisma } = await openCache();
    const viaPrisma = new PrismaResultCache(prisma, { maxCacheBytes: 0, logger: recordingLogger() });
    const rows = [
      syntheticResult(1, 80, 2n ** 70n),
      syntheticResult(2, 80),
      { ...syntheticResult(3, 80), distance: null },
    ];
    const twins = [
      syntheticResult(8, 80, 2n ** 70n),
      syntheticResult(9, 80),
      { ...syntheticResult(10, 80), distance: null },
    ];
    await store.cache.putMany(rows);
    await viaPrisma.putMany(twins);

    const read = async (key: string) =>
      (
        await prisma.$queryRawUnsafe<Record<string, unknown>[]>(
          `SELECT ${describeRow} FROM "CachedResult" WHERE "key" = ?`,
          key,
        )
      )[0];
    const timestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
    for (let i = 0; i < rows.length; i++) {
      const direct = await read(rows[i].key);
      const prismas = await read(twins[i].key);
      for (const c of COLUMNS) expect(direct[`${c}:type`], c).toBe(prismas[`${c}:type`]);
      for (const c of ['piece', 'files', 'ranks', 'mask', 'distance', 'pathCount', 'hitCount'])
        expect(direct[c], c).toEqual(prismas[c]);
      for (const c of ['createdAt', 'lastHitAt']) {
        expect(direct[c], c).toMatch(timestamp);
        expect(prismas[c], c).toMatch(timestamp);
      }
    }
    // And they read back as they were written, through the store.
    expect(await store.cache.getMany([...rows, ...twins].map(questionOf))).toEqual([...rows, ...twins]);
    expect(sqliteTimestamp(new Date(Date.UTC(2026, 10, 27, 12, 0, 0, 5)))).toBe('2026-11-27T12:00:00.005+00:00');
  });

  it('never writes inside a transaction Prisma holds open: the write waits for it, through Prisma', async () => {
    const { store, prisma } = await openCache();
    const row = syntheticResult(5);
    let put: Promise<void> | undefined;
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('DELETE FROM "CachedResult" WHERE "key" = ?', 'none');
        put = store.cache.putMany([row]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await put;
    // Had it joined the transaction, the rollback would have taken the row with it.
    expect((await keysIn(prisma)).has(row.key)).toBe(true);
  });

  it('steps aside without an open connection or inside a transaction', async () => {
    const { store } = await openCache();
    await closeStore(store);
    const db = raw();
    try {
      const writes = new SqliteRowWrites(() => (db.open ? db : undefined));
      const write = { upsertSql: 'DELETE FROM "CachedResult" WHERE "key" = ?', values: ['none'] };
      expect(writes.write(write)).toBe(0);
      db.prepare('BEGIN').run();
      expect(writes.write(write)).toBeUndefined();
      db.prepare('ROLLBACK').run();
      db.close();
      expect(writes.write(write)).toBeUndefined();
    } finally {
      if (db.open) db.close();
    }
  });
});

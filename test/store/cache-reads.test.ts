/**
 * SQLite's reads of whole cache rows without Prisma (`src/store/cache-reads.ts`): on the store's
 * own connection they return what Prisma's `findMany` returns for the same keys (every column,
 * nulls, large counts as text, the bytes), they are reported like Prisma's statements, and once
 * the connection is closed the reader steps aside rather than failing.
 */
import { describe, expect, it } from 'vitest';
import { ROW_COLUMNS, SqliteRowReads } from '../../src/store/cache-reads.js';
import { isRowRead, isSizeRead, keyParams, useCacheFixture } from '../support/result-cache-fixture.js';
import { questionOf, syntheticResult } from '../support/store-fixtures.js';

describe('result cache rows read without Prisma (SQLite)', () => {
  const { openCache, closeStore, raw } = useCacheFixture();
  const select = Object.fromEntries(ROW_COLUMNS.map((c) => [c, true])) as Record<(typeof ROW_COLUMNS)[number], true>;

  it("returns, through the store, exactly the rows Prisma's findMany returns for the same keys", async () => {
    const rows = Array.from({ length: 40 }, (_, i) =>
      syntheticResult(i, 64 + i, i % 3 === 0 ? undefined : 2n ** 70n + BigInt(i)),
    );
    rows[1] = { ...rows[1], distance: null };
    const { store, prisma, statements } = await openCache();
    await store.cache.putMany(rows);
    const missing = syntheticResult(1000);
    statements.length = 0;
    const got = await store.cache.getMany([...rows, missing].map(questionOf));
    const reads = statements.filter((s) => isRowRead(s.query));
    const viaPrisma = await prisma.cachedResult.findMany({ where: { key: { in: rows.map((r) => r.key) } }, select });
    const byKey = new Map(viaPrisma.map((r) => [r.key, r]));
    expect(got[40]).toBeUndefined();
    rows.forEach((row, i) => {
      const expected = byKey.get(row.key)!;
      const g = got[i]!;
      expect(g.key).toBe(expected.key);
      expect(g.distance).toBe(expected.distance);
      expect(g.pathCount?.toString() ?? null).toBe(expected.pathCount);
      expect(g.problem).toMatchObject({ files: expected.files, ranks: expected.ranks, mask: expected.mask });
      expect(Buffer.from(g.layers).equals(Buffer.from(expected.layers))).toBe(true);
      expect(g).toEqual(row);
    });
    // The read is one statement over all the keys, reported as Prisma reports its own.
    expect(reads).toHaveLength(1);
    expect(keyParams(reads[0].params).sort()).toEqual([...rows.map((r) => r.key), missing.key].sort());
  });

  it('gives integers as numbers and bytes as Uint8Array, as Prisma does; steps aside once its connection is closed', async () => {
    const { store } = await openCache();
    const row = syntheticResult(7, 100, 5n);
    await store.cache.putMany([row]);
    await closeStore(store);
    const db = raw();
    try {
      const reads = new SqliteRowReads(() => (db.open ? db : undefined));
      db.defaultSafeIntegers(true); // as Prisma's adapter sets its connection
      const [got] = reads.read([row.key])!;
      expect(typeof got.files).toBe('number');
      expect(typeof got.distance).toBe('number');
      expect(got.pathCount).toBe('5');
      expect(got.layers).toBeInstanceOf(Uint8Array);
      expect(reads.read([])).toEqual([]);
      db.close();
      expect(reads.read([row.key])).toBeUndefined();
    } finally {
      if (db.open) db.close();
    }
  });
});

describe('the result cache at open', () => {
  const { openCache } = useCacheFixture();

  it("has Prisma plan the size lookup before the first request (it loads Prisma's query compiler)", async () => {
    const atOpen: string[] = [];
    await openCache({}, { onQuery: (e) => atOpen.push(e.query) });
    expect(atOpen.filter(isSizeRead)).toHaveLength(1);
  });
});

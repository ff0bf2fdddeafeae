/**
 * Bounded work and bounded bytes in the result cache: batches are read and written in chunks
 * bounded in rows and bytes, with the event loop running between them, and the table is kept
 * within its byte budget by evicting the least recently used rows, a bounded number per statement,
 * with running totals that always equal the rows. All of it on SQLite and on PostgreSQL (each test
 * on a fresh database of its own): the bounds are the store's, whichever database is behind it.
 */
import { describe, expect, it, vi } from 'vitest';
import { CACHE_ROW_OVERHEAD, cacheRowBytes, EVICT_ROWS } from '../../src/store/cache-budget.js';
import {
  READ_BYTES,
  READ_ROWS,
  SIZE_KEYS,
  SMALL_READ_ROWS,
  SMALL_ROW_BYTES,
  WRITE_BYTES,
  WRITE_ROWS,
} from '../../src/store/result-cache.js';
import { describeEachDatabase } from '../support/postgres.js';
import {
  isEviction,
  isRowRead,
  isSizeRead,
  isUpsert,
  keyParams,
  keysIn,
  rowsInUpsert,
  useCacheFixture,
} from '../support/result-cache-fixture.js';
import { immediateCounter, questionOf, recordingLogger, syntheticResult } from '../support/store-fixtures.js';

describeEachDatabase('result cache bounds', (database) => {
  const { openCache, closeStore } = useCacheFixture(database);

  describe('bounded work per statement', () => {
    it('reads a few hundred rows of large boards in chunks of at most READ_ROWS rows after their sizes, the event loop running between them', async () => {
      const rows = Array.from({ length: 300 }, (_, i) => syntheticResult(i, 5000));
      expect(rows[0].problem.files).toBe(64);
      const { store, statements } = await openCache();
      await store.cache.putMany(rows);
      const questions = [...rows, ...rows.slice(0, 50)].map(questionOf); // duplicates are read once
      statements.length = 0;
      const counter = immediateCounter();
      const got = await store.cache.getMany(questions);
      const turns = counter.stop();
      got.forEach((g, i) => {
        expect(g?.key).toBe(questions[i].key);
      });

      const sizeReads = statements.filter((s) => isSizeRead(s.query));
      const rowReads = statements.filter((s) => isRowRead(s.query));
      expect(sizeReads.map((s) => keyParams(s.params).length)).toEqual([SIZE_KEYS, 300 - SIZE_KEYS]);
      for (const s of rowReads) expect(keyParams(s.params).length).toBeLessThanOrEqual(READ_ROWS);
      expect(new Set(rowReads.flatMap((s) => keyParams(s.params))).size).toBe(300);
      expect(turns).toBeGreaterThanOrEqual(sizeReads.length + rowReads.length - 1);
    });

    it("reads rows of small boards whole, SMALL_READ_ROWS at a time, with no size lookup; refuses a small board's oversized row", async () => {
      const rows = Array.from({ length: 300 }, (_, i) => syntheticResult(i, 1000));
      expect(rows[0].problem.files).toBe(8);
      const logger = recordingLogger();
      const { store, statements } = await openCache({}, { logger });
      const oversized = { ...syntheticResult(999, 1000), layers: new Uint8Array(SMALL_ROW_BYTES) };
      await store.cache.putMany([...rows, oversized]);
      expect(logger.lines.some((l) => /small board larger than any encoding/.test(l.msg))).toBe(true);
      const questions = [...rows, ...rows.slice(0, 50), oversized].map(questionOf);
      statements.length = 0;
      const counter = immediateCounter();
      const got = await store.cache.getMany(questions);
      const turns = counter.stop();
      got.slice(0, 350).forEach((g, i) => {
        expect(g?.key).toBe(questions[i].key);
      });
      expect(got[350]).toBeUndefined();
      expect(statements.filter((s) => isSizeRead(s.query))).toHaveLength(0);
      const rowReads = statements.filter((s) => isRowRead(s.query));
      expect(rowReads.map((s) => keyParams(s.params).length)).toEqual([
        SMALL_READ_ROWS,
        SMALL_READ_ROWS,
        301 - 2 * SMALL_READ_ROWS,
      ]);
      expect(SMALL_READ_ROWS * SMALL_ROW_BYTES).toBeLessThanOrEqual(READ_BYTES);
      expect(turns).toBeGreaterThanOrEqual(rowReads.length - 1);
    });

    it('reads at most READ_BYTES of rows per statement (a larger row alone), and misses cost only the size lookup', async () => {
      const big = Array.from({ length: 10 }, (_, i) => syntheticResult(i, 300_000));
      const huge = syntheticResult(10, READ_BYTES + 10);
      const { store, statements } = await openCache();
      await store.cache.putMany([...big, huge]);
      const missing = Array.from({ length: 20 }, (_, i) => questionOf(syntheticResult(100 + i, 5000))); // large boards: sizes first
      statements.length = 0;
      const got = await store.cache.getMany([...big.map(questionOf), questionOf(huge), ...missing]);
      expect(got.filter((g) => g !== undefined)).toHaveLength(11);
      expect(got[10]!.layers.byteLength).toBe(READ_BYTES + 10);
      const sizeOf = new Map([...big, huge].map((r) => [r.key, cacheRowBytes(r)]));
      const rowReads = statements.filter((s) => isRowRead(s.query)).map((s) => keyParams(s.params));
      for (const keys of rowReads) {
        const bytes = keys.reduce((sum, k) => sum + sizeOf.get(k)!, 0);
        if (keys.length > 1) expect(bytes).toBeLessThanOrEqual(READ_BYTES);
      }
      expect(rowReads.flat().sort()).toEqual([...sizeOf.keys()].sort()); // no read for the misses
      expect(rowReads.length).toBe(5); // 3 + 3 + 3 + 1 of 300 kB, and the huge one alone
    });

    it('writes in transactions of at most WRITE_ROWS rows and WRITE_BYTES bytes, yielding between them', async () => {
      const { store, statements } = await openCache({ maxCacheBytes: 1 << 30 });
      const count = 3 * WRITE_ROWS + 8;
      const small = Array.from({ length: count }, (_, i) => syntheticResult(i, 1000));
      let counter = immediateCounter();
      await store.cache.putMany([...small, ...small.slice(0, 10)]);
      let turns = counter.stop();
      let upserts = statements.filter((s) => isUpsert(s.query)).map((s) => rowsInUpsert(s.query));
      expect(upserts).toEqual([WRITE_ROWS, WRITE_ROWS, WRITE_ROWS, count - 3 * WRITE_ROWS]);
      expect(statements.filter((s) => s.query === 'COMMIT')).toHaveLength(4);
      expect(turns).toBeGreaterThanOrEqual(3);

      statements.length = 0;
      const big = Array.from({ length: 7 }, (_, i) => syntheticResult(1000 + i, 200_000));
      counter = immediateCounter();
      await store.cache.putMany(big);
      turns = counter.stop();
      upserts = statements.filter((s) => isUpsert(s.query)).map((s) => rowsInUpsert(s.query));
      expect(upserts).toEqual([2, 2, 2, 1]);
      expect(2 * cacheRowBytes(big[0])).toBeLessThanOrEqual(WRITE_BYTES);
      expect(turns).toBeGreaterThanOrEqual(3);
      expect(await store.totals()).toMatchObject({ cacheRows: count + big.length });
    });
  });

  describe('byte budget', () => {
    /** Until this process's clock (which stamps writes and hits) has moved to a later millisecond. */
    const tick = async () => {
      const now = Date.now();
      await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(now), { interval: 1 });
    };

    it('evicts the least recently used rows, hits counting as use, until the bytes are within the budget', async () => {
      const rows = Array.from({ length: 12 }, (_, i) => syntheticResult(i, 500));
      const rowBytes = cacheRowBytes(rows[0]);
      expect(rows.every((r) => cacheRowBytes(r) === rowBytes)).toBe(true);
      const maxCacheBytes = 5 * rowBytes;
      const { store, prisma } = await openCache({ maxCacheBytes }, { hitFlushDelayMs: 60_000 });
      for (let i = 0; i < 5; i++) {
        await store.cache.putMany([rows[i]]);
        await tick();
      }
      // Rows 0 and 1 are the oldest but get hit; the hits are written before the next put evicts.
      expect((await store.cache.getMany([0, 1, 1].map((i) => questionOf(rows[i])))).every(Boolean)).toBe(true);
      await tick();
      await store.cache.putMany([rows[5], rows[6]]);
      expect(await keysIn(prisma)).toEqual(new Set([0, 1, 4, 5, 6].map((i) => rows[i].key)));
      const hits = await prisma.$queryRawUnsafe<{ key: string; hitCount: number }[]>(
        'SELECT "key", "hitCount" FROM "CachedResult"',
      );
      expect(Object.fromEntries(hits.map((r) => [r.key, Number(r.hitCount)]))).toEqual({
        [rows[0].key]: 1,
        [rows[1].key]: 2,
        [rows[4].key]: 0,
        [rows[5].key]: 0,
        [rows[6].key]: 0,
      });

      // A batch larger than the budget keeps the budget (and its own newest rows).
      await tick();
      await store.cache.putMany(rows.slice(7));
      expect(await keysIn(prisma)).toEqual(new Set(rows.slice(7).map((r) => r.key)));
      expect(await store.totals()).toMatchObject({ cacheRows: 5, cacheBytes: maxCacheBytes });
    });

    it('evicts only as many rows as the excess needs, counting their sizes, and never stores a row larger than the budget', async () => {
      const [a, b, c] = [0, 1, 2].map((i) => syntheticResult(i, 300));
      const d = syntheticResult(3, 460);
      const e = syntheticResult(4, 10);
      const size = cacheRowBytes(a);
      const maxCacheBytes = 3 * size + 100;
      const logger = recordingLogger();
      const { store, prisma } = await openCache({ maxCacheBytes }, { logger });
      for (const row of [a, b, c]) {
        await store.cache.putMany([row]);
        await tick();
      }
      // d is bigger than one row but smaller than two: a alone does not make room, a and b do.
      expect(cacheRowBytes(d) - 100).toBeGreaterThan(size);
      await store.cache.putMany([d]);
      expect(await keysIn(prisma)).toEqual(new Set([c.key, d.key]));
      await tick();
      await store.cache.putMany([e]);
      expect(await keysIn(prisma)).toEqual(new Set([c.key, d.key, e.key]));
      const { cacheBytes } = await store.totals();
      expect(cacheBytes).toBe(cacheRowBytes(c) + cacheRowBytes(d) + cacheRowBytes(e));
      expect(cacheBytes).toBeLessThanOrEqual(maxCacheBytes);

      const tooBig = syntheticResult(9, maxCacheBytes);
      await store.cache.putMany([tooBig]);
      expect((await keysIn(prisma)).has(tooBig.key)).toBe(false);
      expect(logger.lines.some((l) => /larger than the whole cache budget/.test(l.msg))).toBe(true);
    });

    it('evicts at most EVICT_ROWS rows per statement, the event loop running between them', async () => {
      const rows = Array.from({ length: 200 }, (_, i) => syntheticResult(i, 10));
      const unlimited = await openCache({ maxCacheBytes: 0 });
      await unlimited.store.cache.putMany(rows);
      await closeStore(unlimited.store);

      const rowBytes = cacheRowBytes(rows[0]);
      const { store, statements } = await openCache({ maxCacheBytes: 10 * rowBytes });
      const counter = immediateCounter();
      await store.cache.putMany([syntheticResult(500, 10)]);
      const turns = counter.stop();
      const evictions = statements.filter((s) => isEviction(s.query));
      expect(evictions.length).toBe(Math.ceil(191 / EVICT_ROWS));
      expect(evictions[0].query).toContain(`LIMIT ${EVICT_ROWS}`);
      expect(turns).toBeGreaterThanOrEqual(evictions.length - 1);
      expect(await store.totals()).toMatchObject({ cacheRows: 10, cacheBytes: 10 * rowBytes });
    });

    it('keeps the running totals equal to the rows, through upserts, evictions and deletes', async () => {
      const { store, prisma } = await openCache({ maxCacheBytes: 20_000 });
      for (let round = 0; round < 5; round++) {
        // Overwrites change a row's size; new rows push old ones out.
        await store.cache.putMany(
          Array.from({ length: 30 }, (_, i) => syntheticResult(i + round * 7, 100 + ((i * 53 + round * 31) % 400))),
        );
        const [sum] = await prisma.$queryRawUnsafe<{ rows: number; bytes: number }[]>(
          'SELECT COUNT(*) AS "rows", COALESCE(SUM("bytes"), 0) AS "bytes" FROM "CachedResult"',
        );
        const totals = await store.totals();
        expect({ rows: totals.cacheRows, bytes: totals.cacheBytes }).toEqual({
          rows: Number(sum.rows),
          bytes: Number(sum.bytes),
        });
        expect(totals.cacheBytes).toBeLessThanOrEqual(20_000);
      }
      expect(CACHE_ROW_OVERHEAD).toBeGreaterThan(0);
    });
  });
});

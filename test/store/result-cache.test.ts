/**
 * The result cache's contract, on SQLite and on PostgreSQL alike (each test on a fresh database
 * of its own): rows with opaque layer bytes round-trip exactly, collisions and unreadable rows
 * are misses, hits are counted, concurrent operations keep every write. Opening in WAL mode and
 * reading `file:` URLs are SQLite's alone. Chunking and the byte budget are in
 * `result-cache.bounds.test.ts`.
 */
import { join } from 'node:path';
import { ORTHODOX_MOVERS, type PathQuery, prepareQuery, solve } from '@chess-paths/engine';
import { describe, expect, it, vi } from 'vitest';
import { databaseFileFromUrl } from '../../src/store/index.js';
import type { PreparedProblem, StoredResult } from '../../src/store/types.js';
import { describeEachDatabase } from '../support/postgres.js';
import { sqlFor, useCacheFixture } from '../support/result-cache-fixture.js';
import { bytesFrom, questionOf, recordingLogger, syntheticResult } from '../support/store-fixtures.js';

function prepared(query: PathQuery): PreparedProblem {
  const { key, problem } = prepareQuery(query);
  return { key, problem };
}

/** A real question's row: its key, canonical problem and distance, and some bytes as layers. */
function realRow(query: PathQuery, pathCount?: bigint): StoredResult {
  const { key, problem } = prepareQuery(query);
  return { key, problem, distance: solve(query).distance, layers: bytesFrom(key, 97), pathCount };
}

describeEachDatabase('result cache rows', (database) => {
  const { openCache, closeStore, raw, rawQuery } = useCacheFixture(database);
  /** A statement written with `?` parameters, in the database's own placeholders. */
  const sql = (text: string) => sqlFor(database, text);

  it('returns exactly what was stored (opaque bytes, problem, distance, path count), before and after a restart', async () => {
    const board = { files: 10, ranks: 10 };
    const queries: PathQuery[] = ORTHODOX_MOVERS.flatMap((piece) => [
      { piece, from: ['a1'], to: ['h8'] },
      { piece, board, from: ['e5'], to: ['a1', 'j10'], blocked: ['f6'] },
    ]);
    // Fairy pieces keep their canonical Betza text with the piece.
    queries.push({ piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'] });
    queries.push({ piece: 'FAIRY', betza: 'fmWfcFnA2', board, from: ['e5'], to: ['a1', 'j10'] });
    const rows = queries.map((q, i) => ({
      ...realRow(q, i % 2 ? 2n ** 80n + BigInt(i) : undefined),
      layers: bytesFrom(`q${i}`, i * 37),
    }));
    // A view into a larger buffer is stored as its own bytes only.
    const backing = bytesFrom('backing', 500);
    rows[0] = { ...rows[0], layers: backing.subarray(100, 160) };
    const { store } = await openCache();
    expect(await store.cache.getMany(rows.map(questionOf))).toEqual(rows.map(() => undefined));
    await store.cache.putMany(rows);

    const check = (got: (StoredResult | undefined)[]) => {
      got.forEach((g, i) => {
        expect(g, `row ${i}`).toBeDefined();
        expect({ ...g!, layers: Buffer.from(g!.layers).toString('hex') }).toEqual({
          ...rows[i],
          layers: Buffer.from(rows[i].layers).toString('hex'),
        });
      });
    };
    check(await store.cache.getMany(rows.map(questionOf)));
    await closeStore(store);
    const reopened = await openCache();
    check(await reopened.store.cache.getMany(rows.map(questionOf)));
  });

  it('treats a fairy row of another piece as a miss (the Betza text is compared too)', async () => {
    const { store } = await openCache();
    const a = realRow({ piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'] });
    const b = prepared({ piece: 'FAIRY', betza: 'N2', from: ['a1'], to: ['h8'] });
    await store.cache.putMany([a]);
    expect(a.problem.betza).toBe('NN');
    expect(await store.cache.getMany([{ key: a.key, problem: b.problem }])).toEqual([undefined]);
    expect((await store.cache.getMany([questionOf(a)]))[0]?.problem).toEqual(a.problem);
  });

  it('treats a row whose canonical inputs differ from the question as a miss (key collision)', async () => {
    const { store, prisma } = await openCache();
    const a = realRow({ piece: 'KNIGHT', from: ['a1'], to: ['h8'] });
    const b = prepared({ piece: 'KNIGHT', from: ['a1'], to: ['h7'] });
    await store.cache.putMany([a]);
    expect(await store.cache.getMany([{ key: a.key, problem: b.problem }])).toEqual([undefined]);
    expect((await store.cache.getMany([questionOf(a)]))[0]?.key).toBe(a.key);
    // A row edited so that its stored inputs no longer match is a miss too.
    await prisma.$transaction([
      prisma.$executeRawUnsafe(
        sql('UPDATE "CachedResult" SET "targets" = ? WHERE "key" = ?'),
        b.problem.targets,
        a.key,
      ),
    ]);
    expect(await store.cache.getMany([questionOf(a)])).toEqual([undefined]);
  });

  it('treats unreadable rows as misses, logs them, and replaces them on the next put', async () => {
    const rows = [0, 1, 2, 3].map((i) => syntheticResult(i, 50, 7n));
    const logger = recordingLogger();
    const { store, prisma } = await openCache({}, { logger });
    await store.cache.putMany(rows);
    const corrupt = [
      `UPDATE "CachedResult" SET "pathCount" = 'many' WHERE "key" = ?`, // not a number
      `UPDATE "CachedResult" SET "pathCount" = '007' WHERE "key" = ?`, // not canonical decimal
      `UPDATE "CachedResult" SET "distance" = -3 WHERE "key" = ?`, // not a distance
    ];
    await prisma.$transaction(corrupt.map((text, i) => prisma.$executeRawUnsafe(sql(text), rows[i].key)));
    const got = await store.cache.getMany(rows.map(questionOf));
    expect(got.map((r) => r?.key)).toEqual([undefined, undefined, undefined, rows[3].key]);
    expect(logger.lines.filter((l) => l.level === 'warn' && /unreadable cache row/.test(l.msg))).toHaveLength(
      corrupt.length,
    );

    await store.cache.putMany(rows);
    expect((await store.cache.getMany(rows.map(questionOf))).map((r) => r?.pathCount)).toEqual([7n, 7n, 7n, 7n]);
  });

  it('stores the path count as decimal text when known and NULL otherwise', async () => {
    const { store, prisma } = await openCache();
    const known = syntheticResult(1, 10, 123456789012345678901234567890n);
    const unknown = syntheticResult(2, 10);
    await store.cache.putMany([known, unknown]);
    const stored = await prisma.$queryRawUnsafe<{ key: string; pathCount: string | null }[]>(
      'SELECT "key", "pathCount" FROM "CachedResult"',
    );
    expect(Object.fromEntries(stored.map((r) => [r.key, r.pathCount]))).toEqual({
      [known.key]: '123456789012345678901234567890',
      [unknown.key]: null,
    });
    const [a, b] = await store.cache.getMany([questionOf(known), questionOf(unknown)]);
    expect(a?.pathCount).toBe(123456789012345678901234567890n);
    expect(b?.pathCount).toBeUndefined();
  });

  it('counts hits (written later, in the background) and logs a failure to record them', async () => {
    const rows = [0, 1, 2].map((i) => syntheticResult(i));
    const first = await openCache({}, { hitFlushDelayMs: 60_000 });
    await first.store.cache.putMany(rows);
    const batch = [0, 1, 1, 2, 2, 2].map((i) => questionOf(rows[i]));
    expect((await first.store.cache.getMany(batch)).every((r) => r !== undefined)).toBe(true);
    await closeStore(first.store);
    const counts = await rawQuery<{ key: string; hitCount: number }>('SELECT "key", "hitCount" FROM "CachedResult"');
    expect(Object.fromEntries(counts.map((r) => [r.key, r.hitCount]))).toEqual({
      [rows[0].key]: 1,
      [rows[1].key]: 2,
      [rows[2].key]: 3,
    });

    const logger = recordingLogger();
    const second = await openCache({}, { logger, hitFlushDelayMs: 60_000 });
    expect((await second.store.cache.getMany([questionOf(rows[0])]))[0]).toBeDefined();
    await second.prisma.$executeRawUnsafe('DROP TABLE "CachedResult"');
    await closeStore(second.store);
    expect(logger.lines.some((l) => l.level === 'error' && /could not record cache hits/.test(l.msg))).toBe(true);
  });

  it('stops hit counts at 2^31 - 1 (an INTEGER, and what an import takes) without an error, and counts on below it', async () => {
    const MAX = 2 ** 31 - 1;
    const rows = [0, 1, 2, 3, 4].map((i) => syntheticResult(i));
    const first = await openCache();
    await first.store.cache.putMany(rows);
    await closeStore(first.store);
    // Counts an import may write, set with the store closed (on SQLite it holds the file alone).
    const start = [MAX, MAX - 1, MAX - 1, MAX - 5, 7];
    const set = 'UPDATE "CachedResult" SET "hitCount" = ? WHERE "key" = ?';
    if (database.dialect === 'sqlite') {
      const db = raw();
      try {
        for (const [i, row] of rows.entries()) db.prepare(set).run(start[i], row.key);
      } finally {
        db.close();
      }
    } else {
      for (const [i, row] of rows.entries()) await rawQuery(set, start[i], row.key);
    }
    type Counted = { key: string; hitCount: number; lastHitAt: unknown };
    const read = async () =>
      new Map(
        (await rawQuery<Counted>('SELECT "key", "hitCount", "lastHitAt" FROM "CachedResult"')).map((r) => [r.key, r]),
      );
    const before = await read();

    const logger = recordingLogger();
    const second = await openCache({}, { logger, hitFlushDelayMs: 60_000 });
    const now = Date.now();
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(now), { interval: 1 });
    // One write, with three distinct counts: 1, 3, 1, 3 and 2 hits.
    const hits = [1, 3, 1, 3, 2];
    const batch = rows.flatMap((row, i) => Array.from({ length: hits[i] }, () => questionOf(row)));
    expect((await second.store.cache.getMany(batch)).every(Boolean)).toBe(true);
    await closeStore(second.store);

    const after = await read();
    expect(rows.map((row) => Number(after.get(row.key)?.hitCount))).toEqual([MAX, MAX, MAX, MAX - 2, 9]);
    // Every row's hit is recorded (its last-hit time moves on), the capped ones' too.
    const lastHit = (counts: Map<string, Counted>, key: string) =>
      new Date(counts.get(key)?.lastHitAt as string | number | Date).getTime();
    for (const row of rows) expect(lastHit(after, row.key)).toBeGreaterThan(lastHit(before, row.key));
    expect(logger.lines.filter((l) => l.level !== 'info')).toEqual([]);
  });

  it("keeps every write when cache and analysis operations run concurrently (SQLite's one connection, PostgreSQL's pool)", async () => {
    const { store } = await openCache({}, { hitFlushDelayMs: 1 });
    const rows = Array.from({ length: 60 }, (_, i) => syntheticResult(i, 200));
    const first = await store.analyses.save({ title: 'first', queries: [], resultKeys: [] });
    const slice = (round: number) => rows.slice(round * 10, round * 10 + 10);
    const work: Promise<unknown>[] = [];
    for (let round = 0; round < 6; round++) {
      work.push(store.cache.putMany(slice(round)));
      work.push(store.cache.getMany(rows.slice(0, 30).map(questionOf)));
      work.push(store.analyses.save({ title: `t${round}`, queries: [], resultKeys: [] }));
      work.push(store.analyses.update(first.analysis.id, first.editToken, { title: `first ${round}` }));
      // A transaction that fails and rolls back: it must take nothing else with it.
      const queries = slice(round).map(() => ({ piece: 'KING' as const, from: ['a1'], to: ['b2'] }));
      work.push(store.analyses.update(first.analysis.id, first.editToken, { queries }).catch(() => 'rejected'));
      work.push(store.analyses.list({ first: 3 }));
    }
    await Promise.all(work);
    expect(await store.totals()).toMatchObject({ cacheRows: 60, analysisRows: 7 });
    await closeStore(store);
    // Counted by a connection of its own, not by the totals the triggers keep.
    const count = async (table: string) =>
      Number((await rawQuery<{ n: number | string }>(`SELECT COUNT(*) AS n FROM "${table}"`))[0].n);
    expect(await count('CachedResult')).toBe(60);
    expect(await count('Analysis')).toBe(7);
  });
});

describe('opening (SQLite)', () => {
  const { openCache, closeStore, raw, dir, setFile } = useCacheFixture();

  it('opens the database in WAL mode, creating its directory', async () => {
    setFile(join(dir(), 'a', 'b', 'c.db'));
    const { store } = await openCache();
    await closeStore(store);
    const db = raw();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });
});

describe('databaseFileFromUrl', () => {
  it('reads file: URLs, relative to the working directory', () => {
    expect(databaseFileFromUrl('file:./data/x.db', '/srv/app')).toBe('/srv/app/data/x.db');
    expect(databaseFileFromUrl('file:x.db', '/srv/app')).toBe('/srv/app/x.db');
    expect(databaseFileFromUrl('file:/var/lib/x.db', '/srv/app')).toBe('/var/lib/x.db');
    expect(databaseFileFromUrl('file:///var/lib/x.db', '/srv/app')).toBe('/var/lib/x.db');
    expect(databaseFileFromUrl('file://localhost/var/lib/x.db', '/srv/app')).toBe('/var/lib/x.db');
    expect(databaseFileFromUrl('file:./x.db?connection_limit=1', '/srv/app')).toBe('/srv/app/x.db');
    expect(databaseFileFromUrl('file:./my%20db.db', '/srv/app')).toBe('/srv/app/my db.db');
  });

  it('refuses other URLs and in-memory databases', () => {
    expect(() => databaseFileFromUrl('postgres://x/y')).toThrow(/file: URL/);
    expect(() => databaseFileFromUrl('./x.db')).toThrow(/file: URL/);
    expect(() => databaseFileFromUrl('file::memory:')).toThrow(/in-memory/);
    expect(() => databaseFileFromUrl('file:')).toThrow(/name a database file/);
    expect(() => databaseFileFromUrl('file://remote/x.db')).toThrow(/remote host/);
  });
});

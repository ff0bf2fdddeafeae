/**
 * The result cache against a real SQLite file: rows with opaque layer bytes round-trip exactly,
 * batches are read and written in bounded chunks with the event loop running between them,
 * collisions and corrupted rows are misses, hits are counted, and the table is kept within its
 * byte budget by evicting the least recently used rows, a bounded number per statement.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareQuery, solve } from '../../src/engine/index.js';
import { PIECES, type PathQuery } from '../../src/engine/types.js';
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { CACHE_ROW_OVERHEAD, EVICT_ROWS, cacheRowBytes } from '../../src/store/cache-budget.js';
import { databaseFileFromUrl, openStore, type OpenedStore, type StoreExtras } from '../../src/store/index.js';
import { READ_BYTES, READ_ROWS, SIZE_KEYS, WRITE_BYTES, WRITE_ROWS } from '../../src/store/result-cache.js';
import type { PreparedProblem, StoredResult } from '../../src/store/types.js';
import { bytesFrom, immediateCounter, questionOf, recordingLogger, syntheticResult, tempDir } from './helpers.js';

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

interface Opened {
  store: OpenedStore;
  /** The store's own connection (the only one that may read the file while it is open). */
  prisma: PrismaClient;
  /** Statements run, with their bound parameters. */
  statements: { query: string; params: unknown[] }[];
}

async function openCache(opts: { maxCacheBytes?: number } = {}, extras: StoreExtras = {}): Promise<Opened> {
  let prisma!: PrismaClient;
  const statements: Opened['statements'] = [];
  const store = await openStore(
    { databaseUrl: `file:${dbFile}`, maxCacheBytes: opts.maxCacheBytes ?? 0, maxAnalysisBytes: 1 << 20, maxAnalysesBytes: 0 },
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
}

async function closeStore(store: OpenedStore): Promise<void> {
  await store.close();
  open.splice(open.indexOf(store), 1);
}

/** A connection of its own: only once the store is closed (it holds the file exclusively). */
function raw(): Database.Database {
  return new Database(dbFile, { timeout: 5000 });
}

async function keysIn(prisma: PrismaClient): Promise<Set<string>> {
  const rows = await prisma.$queryRawUnsafe<{ key: string }[]>('SELECT "key" FROM "CachedResult"');
  return new Set(rows.map((r) => r.key));
}

const isRowRead = (q: string) => /^SELECT .*`layers`.* FROM `main`\.`CachedResult`/.test(q);
const isSizeRead = (q: string) => /^SELECT .*`bytes` FROM `main`\.`CachedResult`/.test(q) && !/`layers`/.test(q);
const isUpsert = (q: string) => q.startsWith('INSERT INTO "CachedResult"');
const isEviction = (q: string) => q.startsWith('DELETE FROM "CachedResult" WHERE "key" IN (');
const rowsInUpsert = (q: string) => q.match(/\(\?, \?, \?/g)?.length ?? 0;
/** Keys bound to a `findMany({ where: { key: { in } } })`: its 64-hex-digit parameters. */
const keyParams = (params: unknown[]) => params.filter((p) => typeof p === 'string' && /^[0-9a-f]{64}$/.test(p)) as string[];

function prepared(query: PathQuery): PreparedProblem {
  const { key, problem } = prepareQuery(query);
  return { key, problem };
}

/** A real question's row: its key, canonical problem and distance, and some bytes as layers. */
function realRow(query: PathQuery, pathCount?: bigint): StoredResult {
  const { key, problem } = prepareQuery(query);
  return { key, problem, distance: solve(query).distance, layers: bytesFrom(key, 97), pathCount };
}

describe('result cache rows', () => {
  it('returns exactly what was stored (opaque bytes, problem, distance, path count), before and after a restart', async () => {
    const board = { files: 10, ranks: 10 };
    const queries: PathQuery[] = PIECES.flatMap((piece) => [
      { piece, from: ['a1'], to: ['h8'] },
      { piece, board, from: ['e5'], to: ['a1', 'j10'], blocked: ['f6'] },
    ]);
    const rows = queries.map((q, i) => ({ ...realRow(q, i % 2 ? 2n ** 80n + BigInt(i) : undefined), layers: bytesFrom(`q${i}`, i * 37) }));
    // A view into a larger buffer is stored as its own bytes only.
    const backing = bytesFrom('backing', 500);
    rows[0] = { ...rows[0], layers: backing.subarray(100, 160) };
    const { store } = await openCache();
    expect(await store.cache.getMany(rows.map(questionOf))).toEqual(rows.map(() => undefined));
    await store.cache.putMany(rows);

    const check = (got: (StoredResult | undefined)[]) => {
      got.forEach((g, i) => {
        expect(g, `row ${i}`).toBeDefined();
        expect({ ...g!, layers: Buffer.from(g!.layers).toString('hex') }).toEqual({ ...rows[i], layers: Buffer.from(rows[i].layers).toString('hex') });
      });
    };
    check(await store.cache.getMany(rows.map(questionOf)));
    await closeStore(store);
    const reopened = await openCache();
    check(await reopened.store.cache.getMany(rows.map(questionOf)));
  });

  it('treats a row whose canonical inputs differ from the question as a miss (key collision)', async () => {
    const { store, prisma } = await openCache();
    const a = realRow({ piece: 'KNIGHT', from: ['a1'], to: ['h8'] });
    const b = prepared({ piece: 'KNIGHT', from: ['a1'], to: ['h7'] });
    await store.cache.putMany([a]);
    expect(await store.cache.getMany([{ key: a.key, problem: b.problem }])).toEqual([undefined]);
    expect((await store.cache.getMany([questionOf(a)]))[0]?.key).toBe(a.key);
    // A row edited so that its stored inputs no longer match is a miss too.
    await prisma.$transaction([prisma.$executeRawUnsafe('UPDATE "CachedResult" SET "targets" = ? WHERE "key" = ?', b.problem.targets, a.key)]);
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
    await prisma.$transaction(corrupt.map((sql, i) => prisma.$executeRawUnsafe(sql, rows[i].key)));
    const got = await store.cache.getMany(rows.map(questionOf));
    expect(got.map((r) => r?.key)).toEqual([undefined, undefined, undefined, rows[3].key]);
    expect(logger.lines.filter((l) => l.level === 'warn' && /unreadable cache row/.test(l.msg))).toHaveLength(corrupt.length);

    await store.cache.putMany(rows);
    expect((await store.cache.getMany(rows.map(questionOf))).map((r) => r?.pathCount)).toEqual([7n, 7n, 7n, 7n]);
  });

  it('stores the path count as decimal text when known and NULL otherwise', async () => {
    const { store, prisma } = await openCache();
    const known = syntheticResult(1, 10, 123456789012345678901234567890n);
    const unknown = syntheticResult(2, 10);
    await store.cache.putMany([known, unknown]);
    const stored = await prisma.$queryRawUnsafe<{ key: string; pathCount: string | null }[]>('SELECT "key", "pathCount" FROM "CachedResult"');
    expect(Object.fromEntries(stored.map((r) => [r.key, r.pathCount]))).toEqual({ [known.key]: '123456789012345678901234567890', [unknown.key]: null });
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
    const db = raw();
    const counts = db.prepare('SELECT "key", "hitCount" FROM "CachedResult"').all() as { key: string; hitCount: number }[];
    db.close();
    expect(Object.fromEntries(counts.map((r) => [r.key, r.hitCount]))).toEqual({ [rows[0].key]: 1, [rows[1].key]: 2, [rows[2].key]: 3 });

    const logger = recordingLogger();
    const second = await openCache({}, { logger, hitFlushDelayMs: 60_000 });
    expect((await second.store.cache.getMany([questionOf(rows[0])]))[0]).toBeDefined();
    await second.prisma.$executeRawUnsafe('DROP TABLE "CachedResult"');
    await closeStore(second.store);
    expect(logger.lines.some((l) => l.level === 'error' && /could not record cache hits/.test(l.msg))).toBe(true);
  });

  it('keeps every write when cache and analysis operations run concurrently on the one connection', async () => {
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
    const db = raw();
    expect(db.prepare('SELECT COUNT(*) FROM "CachedResult"').pluck().get()).toBe(60);
    expect(db.prepare('SELECT COUNT(*) FROM "Analysis"').pluck().get()).toBe(7);
    db.close();
  });
});

describe('bounded work per statement', () => {
  it('reads a few hundred rows in chunks of at most READ_ROWS rows, the event loop running between them', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => syntheticResult(i, 1000));
    const { store, statements } = await openCache();
    await store.cache.putMany(rows);
    const questions = [...rows, ...rows.slice(0, 50)].map(questionOf); // duplicates are read once
    statements.length = 0;
    const counter = immediateCounter();
    const got = await store.cache.getMany(questions);
    const turns = counter.stop();
    got.forEach((g, i) => expect(g?.key).toBe(questions[i].key));

    const sizeReads = statements.filter((s) => isSizeRead(s.query));
    const rowReads = statements.filter((s) => isRowRead(s.query));
    expect(sizeReads.map((s) => keyParams(s.params).length)).toEqual([SIZE_KEYS, 300 - SIZE_KEYS]);
    expect(rowReads.length).toBe(Math.ceil(SIZE_KEYS / READ_ROWS) + Math.ceil((300 - SIZE_KEYS) / READ_ROWS));
    for (const s of rowReads) expect(keyParams(s.params).length).toBeLessThanOrEqual(READ_ROWS);
    expect(new Set(rowReads.flatMap((s) => keyParams(s.params))).size).toBe(300);
    expect(turns).toBeGreaterThanOrEqual(sizeReads.length + rowReads.length - 1);
  });

  it('reads at most READ_BYTES of rows per statement (a larger row alone), and misses cost only the size lookup', async () => {
    const big = Array.from({ length: 10 }, (_, i) => syntheticResult(i, 300_000));
    const huge = syntheticResult(10, READ_BYTES + 10);
    const { store, statements } = await openCache();
    await store.cache.putMany([...big, huge]);
    const missing = Array.from({ length: 20 }, (_, i) => questionOf(syntheticResult(100 + i)));
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
    const small = Array.from({ length: 200 }, (_, i) => syntheticResult(i, 1000));
    let counter = immediateCounter();
    await store.cache.putMany([...small, ...small.slice(0, 10)]);
    let turns = counter.stop();
    let upserts = statements.filter((s) => isUpsert(s.query)).map((s) => rowsInUpsert(s.query));
    expect(upserts).toEqual([WRITE_ROWS, WRITE_ROWS, WRITE_ROWS, 200 - 3 * WRITE_ROWS]);
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
    expect(await store.totals()).toMatchObject({ cacheRows: 207 });
  });
});

describe('byte budget', () => {
  const tick = () => new Promise((r) => setTimeout(r, 5));

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
    const hits = await prisma.$queryRawUnsafe<{ key: string; hitCount: number }[]>('SELECT "key", "hitCount" FROM "CachedResult"');
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
      await store.cache.putMany(Array.from({ length: 30 }, (_, i) => syntheticResult(i + round * 7, 100 + ((i * 53 + round * 31) % 400))));
      const [sum] = await prisma.$queryRawUnsafe<{ rows: number; bytes: number }[]>('SELECT COUNT(*) AS "rows", COALESCE(SUM("bytes"), 0) AS "bytes" FROM "CachedResult"');
      const totals = await store.totals();
      expect({ rows: totals.cacheRows, bytes: totals.cacheBytes }).toEqual({ rows: Number(sum.rows), bytes: Number(sum.bytes) });
      expect(totals.cacheBytes).toBeLessThanOrEqual(20_000);
    }
    expect(CACHE_ROW_OVERHEAD).toBeGreaterThan(0);
  });
});

describe('opening', () => {
  it('opens the database in WAL mode, creating its directory', async () => {
    dbFile = join(dir, 'a', 'b', 'c.db');
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

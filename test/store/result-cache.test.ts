/**
 * The result cache against a real SQLite file: round trips identical to a fresh solve for every
 * piece and several board sizes, a batch of 100 questions costing one read and one write
 * transaction, collision safety, corrupted rows as misses, hit counting, LRU eviction of rows.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareQuery, solve, squareName } from '../../src/engine/index.js';
import { PIECES, type Board, type PathQuery, type PathResult, type SquareSet } from '../../src/engine/types.js';
import { databaseFileFromUrl, openStore, type Store, type StoreExtras } from '../../src/store/index.js';
import { decodeLayers, encodeLayers } from '../../src/store/result-cache.js';
import type { PreparedProblem } from '../../src/store/types.js';
import { recordingLogger, tempDir } from './helpers.js';

let dir: string;
let cleanup: () => void;
let dbFile: string;
const open: Store[] = [];

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  dbFile = join(dir, 'cache.db');
});
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
  cleanup();
});

async function openCache(
  opts: { lruSize?: number; maxCacheRows?: number } = {},
  extras: StoreExtras = {},
): Promise<Store> {
  const store = await openStore(
    { databaseUrl: `file:${dbFile}`, lruSize: opts.lruSize ?? 0, maxCacheRows: opts.maxCacheRows ?? 100_000 },
    { logger: recordingLogger(), ...extras },
  );
  open.push(store);
  return store;
}

async function closeStore(store: Store): Promise<void> {
  await store.close();
  open.splice(open.indexOf(store), 1);
}

function raw(): Database.Database {
  return new Database(dbFile, { timeout: 5000 });
}

function set(s: SquareSet) {
  return { bitboard: s.bitboard, squares: s.squares, count: s.count, indices: s.indices };
}

/** Every field of a result (but `cached`), with a few pages of `paths` walked by cursor. */
function snapshot(r: PathResult) {
  const pages = [];
  let after: string | null = null;
  for (let i = 0; i < 3; i++) {
    const page = r.paths({ first: 2, after });
    pages.push({
      edges: page.edges.map((e) => ({ cursor: e.cursor, squares: e.node.squares })),
      pageInfo: page.pageInfo,
      totalCount: page.totalCount,
    });
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  return {
    key: r.key,
    piece: r.piece,
    board: { files: r.board.files, ranks: r.board.ranks },
    mask: r.mask,
    sources: set(r.sources),
    targets: set(r.targets),
    reachable: r.reachable,
    distance: r.distance,
    layers: r.layers.map(set),
    squares: set(r.squares),
    pathCount: r.pathCount,
    path: r.path ? r.path.squares : null,
    firstPage: r.paths().edges.length,
    pages,
    distances: r.distances,
    problem: { ...r.problem },
  };
}

function name(index: number, board: Board): string {
  return squareName(index, board);
}

/** A spread of queries on one board: corners, centre, blocked squares, unreachable targets. */
function queriesOn(board: Board): PathQuery[] {
  const n = board.files * board.ranks;
  const last = n - 1;
  const mid = Math.floor(n / 2);
  const out: PathQuery[] = [];
  for (const piece of PIECES) {
    out.push({ piece, board, from: [name(0, board)], to: [name(last, board)] });
    out.push({ piece, board, from: [name(mid, board)], to: [name(0, board), name(last, board)] });
    out.push({ piece, board, from: [name(last, board)], to: [name(0, board)] });
    if (n > 4) {
      const from = [name(1, board), name(board.files, board)];
      const to = [name(last - 1, board)];
      const blocked = [name(mid, board), name(Math.min(last, mid + 1), board)].filter(
        (s) => !from.includes(s) && !to.includes(s),
      );
      out.push({ piece, board, from, to, blocked });
    }
  }
  return out;
}

const BOARDS: Board[] = [
  { files: 8, ranks: 8 },
  { files: 1, ranks: 1 },
  { files: 3, ranks: 3 }, // odd number of hex digits
  { files: 5, ranks: 2 },
  { files: 2, ranks: 7 },
  { files: 10, ranks: 10 },
  { files: 13, ranks: 9 },
  { files: 26, ranks: 26 },
];

function prepared(query: PathQuery): PreparedProblem {
  const { key, problem } = prepareQuery(query);
  return { key, problem };
}

describe('layer encoding', () => {
  it('packs bitboards into bytes and back, for even and odd digit counts', () => {
    expect(encodeLayers(['0x1f', '0x80'], 2, 4)).toEqual(new Uint8Array([0x1f, 0x80]));
    expect(encodeLayers(['0x1ff', '0x001'], 3, 3)).toEqual(new Uint8Array([0x01, 0xff, 0x00, 0x01]));
    expect(decodeLayers(new Uint8Array([0x01, 0xff, 0x00, 0x01]), 2, 3, 3)).toEqual(['0x1ff', '0x001']);
    expect(() => decodeLayers(new Uint8Array([0x11, 0xff]), 1, 3, 3)).toThrow(/beyond the board/);
    expect(() => decodeLayers(new Uint8Array([0x01, 0xff, 0x00]), 2, 3, 3)).toThrow(/expected 2 x 2/);
    expect(() => encodeLayers(['0x1f'], 3, 3)).toThrow(/not a 3 x 3 bitboard/);
    expect(decodeLayers(new Uint8Array([]), 0, 8, 8)).toEqual([]);
  });
});

describe('result cache', () => {
  it('serves results identical, field for field, to a fresh solve: every piece, several boards', async () => {
    const queries = BOARDS.flatMap(queriesOn);
    const problems = queries.map(prepared);
    const store = await openCache({ lruSize: 1000 });
    expect(await store.cache.getMany(problems)).toEqual(problems.map(() => undefined));
    await store.cache.putMany(queries.map((q) => solve(q)));

    // From the LRU, then from the table after a restart (empty LRU).
    const fromLru = await store.cache.getMany(problems);
    await closeStore(store);
    const reopened = await openCache({ lruSize: 0 });
    const fromTable = await reopened.cache.getMany(problems);

    let reachable = 0;
    queries.forEach((query, i) => {
      const fresh = solve(query);
      if (fresh.reachable) reachable++;
      for (const [label, got] of [['lru', fromLru[i]], ['table', fromTable[i]]] as const) {
        expect(got, `${label} ${JSON.stringify(query)}`).toBeDefined();
        expect(got!.cached).toBe(true);
        expect(snapshot(got!), `${label} ${JSON.stringify(query)}`).toEqual(snapshot(fresh));
      }
    });
    expect(reachable).toBeGreaterThan(queries.length / 3);
    expect(reachable).toBeLessThan(queries.length);
  });

  it('answers a batch of 100 questions with duplicates in one read, and stores the misses in one write transaction', async () => {
    const statements: string[] = [];
    const store = await openCache({ lruSize: 0 }, { onQuery: (e) => statements.push(e.query) });
    const board = { files: 8, ranks: 8 };
    const pool: PathQuery[] = [];
    for (let i = 0; i < 40; i++) {
      pool.push({ piece: PIECES[i % PIECES.length], from: [name((i * 7) % 64, board)], to: [name((i * 13 + 5) % 64, board)] });
    }
    const batch = Array.from({ length: 100 }, (_, i) => pool[(i * 17) % pool.length]);
    const problems = batch.map(prepared);
    const unique = new Set(problems.map((p) => p.key)).size;
    expect(unique).toBeLessThan(100);

    statements.length = 0;
    const cold = await store.cache.getMany(problems);
    expect(cold.every((r) => r === undefined)).toBe(true);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^SELECT .*FROM `main`\.`CachedResult`/);

    statements.length = 0;
    await store.cache.putMany(batch.map((q) => solve(q)));
    expect(statements.filter((s) => s === 'COMMIT')).toHaveLength(1);
    expect(statements.at(-1)).toBe('COMMIT');
    expect(statements.filter((s) => /^SELECT/.test(s) && !/CachedResult/.test(s))).toEqual([]);
    const db = raw();
    expect(db.prepare('SELECT COUNT(*) FROM "CachedResult"').pluck().get()).toBe(unique);
    db.close();
    await closeStore(store);

    // After a restart: one read serves all 100; hit counts are written later, in one transaction.
    const warmStatements: string[] = [];
    const warm = await openCache({ lruSize: 0 }, { onQuery: (e) => warmStatements.push(e.query), hitFlushDelayMs: 60_000 });
    warmStatements.length = 0;
    const hits = await warm.cache.getMany(problems);
    expect(hits.every((r) => r?.cached === true)).toBe(true);
    hits.forEach((r, i) => expect(r!.key).toBe(problems[i].key));
    expect(warmStatements).toHaveLength(1);
    await closeStore(warm);
    expect(warmStatements.filter((s) => s === 'COMMIT')).toHaveLength(1);
    expect(warmStatements.filter((s) => /^UPDATE/.test(s)).length).toBeGreaterThanOrEqual(1);

    const counts = raw();
    const total = counts.prepare('SELECT SUM("hitCount") FROM "CachedResult"').pluck().get();
    counts.close();
    expect(total).toBe(100);
  });

  it('serves hot keys from the LRU without touching the database', async () => {
    const statements: string[] = [];
    const store = await openCache({ lruSize: 10 }, { onQuery: (e) => statements.push(e.query), hitFlushDelayMs: 60_000 });
    const queries: PathQuery[] = [
      { piece: 'KNIGHT', from: ['a1'], to: ['h8'] },
      { piece: 'BISHOP', from: ['c1'], to: ['h6'] },
    ];
    await store.cache.putMany(queries.map((q) => solve(q)));
    statements.length = 0;
    const got = await store.cache.getMany(queries.map(prepared));
    expect(got.map((r) => r?.cached)).toEqual([true, true]);
    expect(statements).toEqual([]);
  });

  it('treats a row whose canonical inputs differ from the question as a miss (key collision)', async () => {
    const store = await openCache({ lruSize: 10 });
    const a = solve({ piece: 'KNIGHT', from: ['a1'], to: ['h8'] });
    const b = prepared({ piece: 'KNIGHT', from: ['a1'], to: ['h7'] });
    await store.cache.putMany([a]);
    // The same key with another problem: neither the LRU nor the table may answer it.
    const collision = { key: a.key, problem: b.problem };
    expect(await store.cache.getMany([collision])).toEqual([undefined]);
    await closeStore(store);
    const reopened = await openCache({ lruSize: 10 });
    expect(await reopened.cache.getMany([collision])).toEqual([undefined]);
    // The real problem still hits.
    expect((await reopened.cache.getMany([prepared({ piece: 'KNIGHT', from: ['a1'], to: ['h8'] })]))[0]?.cached).toBe(true);

    // A row edited so that its stored inputs no longer match is a miss too.
    const db = raw();
    db.prepare('UPDATE "CachedResult" SET "targets" = ? WHERE "key" = ?').run(b.problem.targets, a.key);
    db.close();
    const third = await openCache({ lruSize: 0 });
    expect(await third.cache.getMany([prepared({ piece: 'KNIGHT', from: ['a1'], to: ['h8'] })])).toEqual([undefined]);
  });

  it('treats corrupted rows as misses, logs them, and replaces them on the next put', async () => {
    const queries: PathQuery[] = [
      { piece: 'KNIGHT', from: ['a1'], to: ['h8'] },
      { piece: 'QUEEN', from: ['a1'], to: ['h7'], board: { files: 9, ranks: 9 } },
      { piece: 'ROOK', from: ['a1'], to: ['c3'], board: { files: 3, ranks: 3 } },
      { piece: 'KING', from: ['a1'], to: ['e5'] },
      { piece: 'BISHOP', from: ['a1'], to: ['h8'] },
      { piece: 'WHITE_PAWN', from: ['a2'], to: ['a5'] },
    ];
    const problems = queries.map(prepared);
    const store = await openCache();
    await store.cache.putMany(queries.map((q) => solve(q)));
    await closeStore(store);

    const db = raw();
    const corrupt = [
      `UPDATE "CachedResult" SET "layers" = X'00' WHERE "key" = ?`, // wrong length
      `UPDATE "CachedResult" SET "pathCount" = 'many' WHERE "key" = ?`, // not a number
      `UPDATE "CachedResult" SET "layers" = zeroblob(length("layers")) WHERE "key" = ?`, // empty layers
      `UPDATE "CachedResult" SET "distance" = "distance" + 1 WHERE "key" = ?`, // distance disagrees
      `UPDATE "CachedResult" SET "layerCount" = "layerCount" - 1, "layers" = substr("layers", 1, length("layers") - length("layers") / "layerCount") WHERE "key" = ?`, // a layer lost
    ];
    corrupt.forEach((sql, i) => db.prepare(sql).run(problems[i].key));
    db.close();

    const logger = recordingLogger();
    const reopened = await openCache({ lruSize: 10 }, { logger });
    const got = await reopened.cache.getMany(problems);
    expect(got.map((r) => r?.cached)).toEqual([undefined, undefined, undefined, undefined, undefined, true]);
    expect(logger.lines.filter((l) => l.level === 'warn')).toHaveLength(corrupt.length);

    await reopened.cache.putMany(queries.map((q) => solve(q)));
    await closeStore(reopened);
    const third = await openCache();
    const again = await third.cache.getMany(problems);
    again.forEach((r, i) => expect(snapshot(r!)).toEqual(snapshot(solve(queries[i]))));
  });

  it('counts hits and evicts the least recently used rows beyond maxCacheRows', async () => {
    const maxCacheRows = 5;
    const queries: PathQuery[] = Array.from({ length: 12 }, (_, i) => ({
      piece: 'KING' as const,
      from: ['a1'],
      to: [name(i + 1, { files: 8, ranks: 8 })],
    }));
    const problems = queries.map(prepared);
    const tick = () => new Promise((r) => setTimeout(r, 5));

    const store = await openCache({ lruSize: 0, maxCacheRows }, { hitFlushDelayMs: 60_000 });
    for (let i = 0; i < 5; i++) {
      await store.cache.putMany([solve(queries[i])]);
      await tick();
    }
    // Rows 0 and 1 are the oldest but get hit; the hits are written with the next put.
    expect((await store.cache.getMany([problems[0], problems[1], problems[1]])).map((r) => r?.cached)).toEqual([true, true, true]);
    await tick();
    await store.cache.putMany([solve(queries[5]), solve(queries[6])]);

    const db = raw();
    const keys = () => new Set(db.prepare('SELECT "key" FROM "CachedResult"').pluck().all() as string[]);
    expect(keys()).toEqual(new Set([0, 1, 4, 5, 6].map((i) => problems[i].key)));
    const hitCounts = db.prepare('SELECT "key", "hitCount" FROM "CachedResult"').all() as { key: string; hitCount: number }[];
    expect(Object.fromEntries(hitCounts.map((r) => [r.key, r.hitCount]))).toEqual({
      [problems[0].key]: 1,
      [problems[1].key]: 2,
      [problems[4].key]: 0,
      [problems[5].key]: 0,
      [problems[6].key]: 0,
    });

    // A batch larger than the limit keeps the limit.
    await tick();
    await store.cache.putMany(queries.slice(7).map((q) => solve(q)));
    expect(keys().size).toBe(maxCacheRows);
    db.close();
  });

  it('logs a failure to record hits instead of losing it silently', async () => {
    const logger = recordingLogger();
    const store = await openCache({ lruSize: 0 }, { logger, hitFlushDelayMs: 60_000 });
    const query: PathQuery = { piece: 'ROOK', from: ['a1'], to: ['h8'] };
    await store.cache.putMany([solve(query)]);
    expect((await store.cache.getMany([prepared(query)]))[0]?.cached).toBe(true);
    const db = raw();
    db.exec('DROP TABLE "CachedResult"');
    db.close();
    await closeStore(store);
    expect(logger.lines.some((l) => l.level === 'error' && /could not record cache hits/.test(l.msg))).toBe(true);
  });

  it('skips results that came from the cache and reports health', async () => {
    const statements: string[] = [];
    const store = await openCache({ lruSize: 0 }, { onQuery: (e) => statements.push(e.query), hitFlushDelayMs: 60_000 });
    const query: PathQuery = { piece: 'BISHOP', from: ['a1'], to: ['h8'] };
    await store.cache.putMany([solve(query)]);
    const [hit] = await store.cache.getMany([prepared(query)]);
    expect(hit?.cached).toBe(true);
    statements.length = 0;
    await store.cache.putMany([hit!]);
    expect(statements).toEqual([]);
    expect(await store.healthy()).toBe(true);
    await closeStore(store);
    expect(await store.healthy()).toBe(false);
  });

  it('keeps every write when cache and analysis operations run concurrently on the one connection', async () => {
    const store = await openCache({ lruSize: 0 }, { hitFlushDelayMs: 1 });
    const board = { files: 8, ranks: 8 };
    const queries = Array.from({ length: 60 }, (_, i) => ({
      piece: PIECES[i % PIECES.length],
      from: [name(i, board)],
      to: [name(63 - i, board)],
    }));
    const first = await store.analyses.save({ title: 'first', queries: [], resultKeys: [] });
    const work: Promise<unknown>[] = [];
    for (let round = 0; round < 6; round++) {
      const slice = queries.slice(round * 10, round * 10 + 10);
      work.push(store.cache.putMany(slice.map((q) => solve(q))));
      work.push(store.cache.getMany(queries.slice(0, 30).map(prepared)));
      work.push(store.analyses.save({ title: `t${round}`, queries: [], resultKeys: [] }));
      work.push(store.analyses.update(first.analysis.id, first.editToken, { title: `first ${round}` }));
      // A transaction that fails and rolls back: it must take nothing else with it.
      work.push(store.analyses.update(first.analysis.id, first.editToken, { queries: slice }).catch(() => 'rejected'));
      work.push(store.analyses.list({ first: 3 }));
    }
    await Promise.all(work);
    await closeStore(store);
    const db = raw();
    expect(db.prepare('SELECT COUNT(*) FROM "CachedResult"').pluck().get()).toBe(60);
    expect(db.prepare('SELECT COUNT(*) FROM "Analysis"').pluck().get()).toBe(7);
    db.close();
  });

  it('stores the path count only when it is already known, and never computes it to store it', async () => {
    const store = await openCache({ lruSize: 0 });
    const unread = solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] });
    const counted = solve({ piece: 'QUEEN', from: ['a1'], to: ['h7'] });
    const expected = counted.pathCount; // read: now known
    await store.cache.putMany([unread, counted]);
    expect(unread.knownPathCount).toBeUndefined(); // storing did not count the paths
    const db = raw();
    const stored = (key: string) => db.prepare('SELECT "pathCount" FROM "CachedResult" WHERE "key" = ?').pluck().get(key);
    expect(stored(unread.key)).toBeNull();
    expect(stored(counted.key)).toBe(expected.toString());
    db.close();

    const [a, b] = await store.cache.getMany([prepared({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] }), prepared({ piece: 'QUEEN', from: ['a1'], to: ['h7'] })]);
    expect(a?.cached).toBe(true);
    expect(a?.knownPathCount).toBeUndefined();
    expect(a?.pathCount).toBe(8n); // counted on read, when asked
    expect(b?.knownPathCount).toBe(expected);
  });

  it('opens the database in WAL mode, creating its directory', async () => {
    dbFile = join(dir, 'a', 'b', 'c.db');
    await openCache();
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

/**
 * shortestPaths and shortestPathsBatch over real HTTP: the seed's worked example (layers and the
 * ASCII diagram), the other PathResult fields, the SVG picture, batching and deduplication
 * through the per-request DataLoader (observed in /metrics), the persistent cache behind it, and
 * lazy fields staying lazy (observed by wrapping the engine).
 */

import * as engine from '@chess-paths/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWellFormedXml } from '../../../../packages/engine/test/support/xml.js';
import type { EngineApi } from '../../../../src/graphql/work/engine-api.js';
import { SEED_DIAGRAM, SEED_QUERY, startTestServer, type TestServer } from '../../../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe('the seed example', () => {
  it('answers distance 4 with the seed layers and the seed diagram', async () => {
    const { status, body } = await t.gql(`{
      shortestPaths(query: ${SEED_QUERY}) {
        piece board { files ranks } reachable distance
        layers { squares count bitboard }
        overlay { ascii asciiLines }
      }
    }`);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const r = body.data.shortestPaths;
    expect(r).toMatchObject({ piece: 'KING', board: { files: 8, ranks: 8 }, reachable: true, distance: 4 });
    expect(r.layers.map((l: { squares: string[] }) => l.squares)).toEqual([
      ['e4'],
      ['d3', 'd4', 'e5', 'f5'],
      ['c2', 'c3', 'f6', 'g6'],
      ['b1', 'b2', 'g7', 'h7'],
      ['a1', 'h8'],
    ]);
    expect(r.layers[0]).toMatchObject({ count: 1, bitboard: '0x0000000010000000' });
    expect(r.overlay.ascii).toBe(SEED_DIAGRAM);
    expect(r.overlay.asciiLines).toEqual(SEED_DIAGRAM.split('\n'));
  });

  it('gives the other fields: key, mask, sources, targets, squares, pathCount, path, paths, distances', async () => {
    const { body } = await t.gql(`{
      shortestPaths(query: ${SEED_QUERY}) {
        key mask
        sources { squares } targets { squares } squares { count }
        pathCount path { squares }
        paths(first: 3) { totalCount edges { cursor node { squares } } pageInfo { hasNextPage endCursor } }
        distances
      }
    }`);
    expect(body.errors).toBeUndefined();
    const r = body.data.shortestPaths;
    expect(r.key).toMatch(/^[0-9a-f]{64}$/);
    expect(r.mask).toBe('0xffffffffffffffff');
    expect(r.sources.squares).toEqual(['e4']);
    expect(r.targets.squares).toEqual(['a1', 'h8']);
    expect(r.squares.count).toBe(15);
    expect(typeof r.pathCount).toBe('string');
    expect(BigInt(r.pathCount)).toBeGreaterThan(0n);
    expect(r.path.squares).toHaveLength(5);
    expect(r.path.squares[0]).toBe('e4');
    expect(r.paths.totalCount).toBe(r.pathCount);
    expect(r.paths.edges).toHaveLength(3);
    expect(r.paths.edges[0].node.squares).toEqual(r.path.squares);
    expect(r.paths.pageInfo.hasNextPage).toBe(true);
    expect(r.paths.pageInfo.endCursor).toBe(r.paths.edges[2].cursor);
    expect(r.distances).toHaveLength(64);
    expect(r.distances[28]).toBe(0);
    expect(r.distances[0]).toBe(4);

    const next = await t.gql(
      `query($after: String) { shortestPaths(query: ${SEED_QUERY}) { paths(first: 1000, after: $after) { edges { node { squares } } pageInfo { hasNextPage } } } }`,
      { after: r.paths.pageInfo.endCursor },
    );
    expect(next.body.errors).toBeUndefined();
    const rest = next.body.data.shortestPaths.paths;
    expect(rest.edges.length + 3).toBe(Number(r.pathCount));
    expect(rest.pageInfo.hasNextPage).toBe(false);
  });

  it('draws a standalone, well-formed SVG board', async () => {
    const { body } = await t.gql(`{ shortestPaths(query: ${SEED_QUERY}) { overlay { svg } } }`);
    const svg: string = body.data.shortestPaths.overlay.svg;
    expect(checkWellFormedXml(svg)).toBe('svg');
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg).not.toMatch(/href=|url\(/); // nothing external
    // 15 path squares, each labelled with its step; 8 file letters and 8 rank numbers.
    expect(svg.match(/<g class="steps"[\s\S]*?<\/g>/)?.[0].match(/<circle /g)).toHaveLength(15);
    expect(svg).toContain('>4</text>');
    expect(svg).toMatch(/class="sources"[\s\S]*<rect[\s\S]*class="targets"/);
    expect(svg).toContain('>h</text>');
  });

  it('shades obstacles in the SVG and draws nothing for an unreachable ASCII overlay', async () => {
    const { body } = await t.gql(`{
      a: shortestPaths(query: { piece: ROOK, from: ["a1"], to: ["a8"], blocked: ["a4"] }) { distance overlay { svg } }
      b: shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"], blocked: ["b1", "b2", "a2"] }) { reachable distance layers { count } pathCount path { squares } overlay { ascii asciiLines svg } }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.a.distance).toBe(3);
    expect(body.data.a.overlay.svg).toMatch(/class="obstacles"[^>]*>\n<rect /);
    expect(body.data.b).toMatchObject({ reachable: false, distance: null, layers: [], pathCount: '0', path: null });
    expect(body.data.b.overlay.ascii).toBe('');
    expect(body.data.b.overlay.asciiLines).toEqual([]);
    expect(body.data.b.overlay.svg).toContain('>unreachable</text>');
    expect(checkWellFormedXml(body.data.b.overlay.svg)).toBe('svg');
  });

  it('serves a question asked twice from the persistent cache from its third ask', async () => {
    const query = `{ shortestPaths(query: { piece: KNIGHT, from: ["b1"], to: ["c3", "d4"] }) { distance cached key } }`;
    const deferred = await t.metric('chess_paths_cache_writes_deferred_total');
    const skipped = await t.metric('chess_paths_cache_lookups_skipped_total');
    const first = await t.gql(query);
    expect(first.body.data.shortestPaths).toMatchObject({ distance: 1, cached: false });
    await t.server.settle();
    // Asked once and cheap to solve again: not written; no row was ever written, so not looked up.
    expect(await t.metric('chess_paths_cache_writes_deferred_total')).toBe(deferred + 1);
    expect(await t.metric('chess_paths_cache_lookups_skipped_total')).toBe(skipped + 1);
    const second = await t.gql(query);
    expect(second.body.data.shortestPaths).toMatchObject({ distance: 1, cached: false });
    expect(await t.metric('chess_paths_cache_lookups_skipped_total')).toBe(skipped + 2);
    expect(await t.metric('chess_paths_cache_writes_deferred_total')).toBe(deferred + 1);
    await t.server.settle(); // its second ask: written after the response
    const hitsBefore = await t.metric('chess_paths_cache_hits_total');
    const third = await t.gql(query);
    expect(third.body.data.shortestPaths).toMatchObject({
      distance: 1,
      cached: true,
      key: first.body.data.shortestPaths.key,
    });
    expect(await t.metric('chess_paths_cache_hits_total')).toBe(hitsBefore + 1);
    // From then on the restored result is kept in memory, ready to serve.
    const memoBefore = await t.metric('chess_paths_memo_hits_total');
    const fourth = await t.gql(query);
    expect(fourth.body.data.shortestPaths).toMatchObject({ distance: 1, cached: true });
    expect(await t.metric('chess_paths_memo_hits_total')).toBe(memoBefore + 1);
    expect(await t.metric('chess_paths_cache_hits_total')).toBe(hitsBefore + 1);
  });

  it('answers a question asked again before its result is written from the cache, writing it first', async () => {
    // Gathering for ten minutes once results keep coming (after a first write, made at once): only
    // the question asked again can have its result written in time.
    const slow = await startTestServer({ env: { CACHE_WRITE_GATHER_MS: '600000' } });
    try {
      // A first write (a question's second ask), made at once.
      const rook = `{ shortestPaths(query: { piece: ROOK, from: ["a1"], to: ["a8"] }) { distance } }`;
      await slow.gql(rook);
      await slow.gql(rook);
      await slow.server.settle();
      const query = `{ shortestPaths(query: { piece: BISHOP, from: ["c1"], to: ["h6"] }) { distance cached } }`;
      expect((await slow.gql(query)).body.data.shortestPaths).toEqual({ distance: 1, cached: false });
      // The second ask queues the result; the third finds it queued, has it written, reads it back.
      expect((await slow.gql(query)).body.data.shortestPaths).toEqual({ distance: 1, cached: false });
      expect((await slow.gql(query)).body.data.shortestPaths).toEqual({ distance: 1, cached: true });
      expect(await slow.metric('chess_paths_cache_hits_total')).toBe(1);
      expect(await slow.metric('chess_paths_engine_solves_total')).toBe(4);
    } finally {
      await slow.close();
    }
  });

  it('works on other board sizes', async () => {
    const { body } = await t.gql(`{
      shortestPaths(query: { piece: KNIGHT, board: { files: 30, ranks: 12 }, from: ["a1"], to: ["ad12"] }) {
        distance layers { count } overlay { ascii }
      }
    }`);
    expect(body.errors).toBeUndefined();
    const r = body.data.shortestPaths;
    expect(r.distance).toBeGreaterThan(0);
    const lines = r.overlay.ascii.split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[0]).toHaveLength((r.distance + 1) * (30 * 2 - 1) + r.distance * 3);
    expect(lines[11].startsWith('1 ')).toBe(true); // a1 in layer 0, bottom-left
    expect(lines[0].endsWith(' 1')).toBe(true); // ad12 in the last layer, top-right
  });
});

describe('batching through the per-request DataLoader', () => {
  it('solves each distinct question once, with duplicates and equivalent inputs', async () => {
    const solves = await t.metric('chess_paths_engine_solves_total');
    const batches = await t.metric('chess_paths_loader_batch_size_count');
    const queries = [
      { piece: 'QUEEN', from: ['c1'], to: ['h6', 'a5'] },
      { piece: 'QUEEN', from: ['c1'], to: ['h6', 'a5'] }, // duplicate
      { piece: 'QUEEN', from: ['C1'], to: ['a5', 'h6', 'a5'] }, // same problem, other spelling
      { piece: 'BISHOP', from: ['c1'], to: ['h6'] },
      { piece: 'QUEEN', from: ['c1'], to: ['h6', 'a5'], mask: '0xffffffffffffffff' }, // same again
    ];
    const { body } = await t.gql(
      `query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { key distance cached } }`,
      { q: queries },
    );
    expect(body.errors).toBeUndefined();
    const results = body.data.shortestPathsBatch;
    expect(results).toHaveLength(5);
    const keys = new Set(results.map((r: { key: string }) => r.key));
    expect(keys.size).toBe(2);
    expect(results[0].key).toBe(results[4].key);
    expect(await t.metric('chess_paths_engine_solves_total')).toBe(solves + 2);
    expect(await t.metric('chess_paths_loader_batch_size_count')).toBe(batches + 1);
  });

  it('puts aliases, batch lists and Position.paths of one request into one batch', async () => {
    const solves = await t.metric('chess_paths_engine_solves_total');
    const batches = await t.metric('chess_paths_loader_batch_size_count');
    const { body } = await t.gql(`{
      a: shortestPaths(query: { piece: ROOK, from: ["h1"], to: ["a8"] }) { distance }
      b: shortestPaths(query: { piece: ROOK, from: ["h1"], to: ["a8"] }) { distance }
      c: shortestPathsBatch(queries: [{ piece: ROOK, from: ["h1"], to: ["a8"] }, { piece: ROOK, from: ["h2"], to: ["a7"] }]) { distance }
      p: position(fen: "8/8/8/8/8/8/8/7R w - - 0 1") { paths(from: "h1", to: ["a8"]) { distance key } }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.a.distance).toBe(2);
    expect(body.data.p.paths.distance).toBe(2);
    // a, b, c[0] and p are the same problem; c[1] is another: two solves in one batch.
    expect(await t.metric('chess_paths_engine_solves_total')).toBe(solves + 2);
    expect(await t.metric('chess_paths_loader_batch_size_count')).toBe(batches + 1);
  });

  it('answers a batch of 500 queries (the default limit)', async () => {
    const squares = Array.from({ length: 64 }, (_, i) => `${'abcdefgh'[i % 8]}${Math.floor(i / 8) + 1}`);
    const queries = Array.from({ length: 500 }, (_, i) => ({
      piece: (['KING', 'KNIGHT', 'QUEEN', 'ROOK', 'BISHOP'] as const)[i % 5],
      from: [squares[i % 64]],
      to: [squares[(i * 7 + 3) % 64]],
    }));
    const { body } = await t.gql(`query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }`, {
      q: queries,
    });
    expect(body.errors).toBeUndefined();
    expect(body.data.shortestPathsBatch).toHaveLength(500);
  });
});

describe('lazy fields', () => {
  it('computes no path count, path list or distance map for a query asking only distance', async () => {
    const reads: string[] = [];
    const watched: EngineApi = {
      ...engine,
      solveBatch(items) {
        return engine.solveBatch(items).map(
          (result) =>
            new Proxy(result, {
              get(target, prop, receiver) {
                if (typeof prop === 'string') reads.push(prop);
                return Reflect.get(target, prop, receiver);
              },
            }),
        );
      },
    };
    const lazy = await startTestServer({ database: false, deps: { engine: watched } });
    try {
      const { body } = await lazy.gql(`{ shortestPaths(query: ${SEED_QUERY}) { distance } }`);
      expect(body.data.shortestPaths.distance).toBe(4);
      expect(reads).toContain('distance');
      for (const field of ['pathCount', 'path', 'paths', 'distances', 'squares', 'layers']) {
        expect(reads, `${field} was read`).not.toContain(field);
      }
      reads.length = 0;
      await lazy.gql(`{ shortestPaths(query: ${SEED_QUERY}) { distance overlay { ascii } } }`);
      expect(reads).toContain('layers');
      expect(reads).not.toContain('pathCount');
      expect(reads).not.toContain('paths');
    } finally {
      await lazy.close();
    }
  });
});

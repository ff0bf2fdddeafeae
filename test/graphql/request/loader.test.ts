/**
 * Engine work of a request over real HTTP: every small miss of a request goes to the engine's
 * `solveBatch` in one call (observed by wrapping the engine), heavy problems go to the worker
 * threads so that other requests are answered meanwhile, and the per-request budget (ENGINE_BUDGET_MS) cuts off
 * both eager solving and lazy fields with ENGINE_BUDGET_EXCEEDED.
 */

import * as engine from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import { mazeQuery } from '../../../packages/engine/test/support/maze.js';
import type { EngineApi, Prepared } from '../../../src/graphql/work/engine-api.js';
import { SEED_QUERY, startTestServer, type TestServer } from '../../support/test-server.js';

const BATCH = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }';
const SEED = `{ shortestPaths(query: ${SEED_QUERY}) { distance } }`;

/** An engine that records the size of every `solveBatch` call. */
function countingEngine(): { engine: EngineApi; calls: number[] } {
  const calls: number[] = [];
  return {
    calls,
    engine: {
      ...engine,
      solveBatch(items: readonly Prepared[]) {
        calls.push(items.length);
        return engine.solveBatch(items);
      },
    },
  };
}

/**
 * Resolves at the `count`th call of `method` of one of the server's metrics from now on: the
 * server reached that point of a request (the loader started a batch, a result came from the memo).
 */
function whenServer(t: TestServer, metric: 'batchSize' | 'memoHits', count = 1): Promise<void> {
  const target = t.server.metrics[metric] as unknown as Record<string, (...args: unknown[]) => unknown>;
  const method = metric === 'batchSize' ? 'observe' : 'inc';
  const original = target[method];
  let calls = 0;
  return new Promise((resolve) => {
    target[method] = function (this: unknown, ...args: unknown[]) {
      if (++calls === count) {
        target[method] = original;
        resolve();
      }
      return original.apply(this, args);
    };
  });
}

const square = (i: number) => engine.squareName(i, { files: 8, ranks: 8 });

/** `n` (up to 4,032) distinct 8 x 8 questions; another `salt` gives other pieces. */
function smallQueries(n: number, salt = 0) {
  return Array.from({ length: n }, (_, i) => ({
    piece: (['KING', 'KNIGHT', 'QUEEN', 'ROOK', 'BISHOP'] as const)[(Math.floor(i / 64) + salt) % 5],
    from: [square(i % 64)],
    to: [square((i + 1 + Math.floor(i / 64)) % 64)],
  }));
}

describe('one engine call per batch', () => {
  it('hands every miss of a request (aliases, batch lists, positions) to one solveBatch call', async () => {
    const { engine: counting, calls } = countingEngine();
    const t = await startTestServer({ deps: { engine: counting } });
    try {
      const queries = smallQueries(100);
      const { body } = await t.gql(
        `query($q: [PathQuery!]!) {
          a: shortestPaths(query: { piece: ROOK, from: ["h1"], to: ["a8"] }) { distance }
          b: shortestPaths(query: { piece: ROOK, from: ["h1"], to: ["a8"] }) { distance }
          list: shortestPathsBatch(queries: $q) { key distance cached }
          again: shortestPathsBatch(queries: $q) { key }
          p: position(fen: "8/8/8/8/8/8/8/6NR w - - 0 1") { paths(from: "g1", to: ["e2"]) { distance } }
        }`,
        { q: queries },
      );
      expect(body.errors).toBeUndefined();
      expect(body.data.list).toHaveLength(100);
      expect(new Set(body.data.list.map((r: { key: string }) => r.key)).size).toBe(100);
      // 100 distinct list questions + the rook + the knight of the position: one call.
      expect(calls).toEqual([102]);
      expect(await t.metric('chess_paths_engine_solves_total')).toBe(102);
      expect(await t.metric('chess_paths_loader_batch_size_count')).toBe(1);

      // Asked a second time: solved again (one call), and written; from then on nothing reaches the engine.
      const second = await t.gql(BATCH, { q: queries });
      expect(second.body.errors).toBeUndefined();
      expect(calls).toEqual([102, 100]);
      await t.server.settle();
      const third = await t.gql(BATCH, { q: queries });
      expect(third.body.errors).toBeUndefined();
      expect(calls).toEqual([102, 100]);
    } finally {
      await t.close();
    }
  });

  it('answers a batch of 500 small questions in one call on the main thread, and hands a heavy batch to the workers', async () => {
    const { engine: counting, calls } = countingEngine();
    const t = await startTestServer({ database: false, env: { ENGINE_BUDGET_MS: '0' }, deps: { engine: counting } });
    try {
      const small = await t.gql(BATCH, { q: smallQueries(500, 1) });
      expect(small.body.errors).toBeUndefined();
      expect(calls).toEqual([500]);

      calls.length = 0;
      const heavy = await t.gql(BATCH, { q: Array.from({ length: 200 }, (_, i) => mazeQuery(i)) });
      expect(heavy.body.errors).toBeUndefined();
      expect(heavy.body.data.shortestPathsBatch.every((r: { distance: number }) => r.distance > 500)).toBe(true);
      // 64 x 64 problems are solved on the worker threads, not by this thread's engine.
      expect(calls).toEqual([]);
      expect(await t.metric('chess_paths_engine_solves_total')).toBe(700);
    } finally {
      await t.close();
    }
  });
});

describe('a long list prepared in slices', () => {
  it('still joins the one loader batch of its request', async () => {
    const t = await startTestServer({ database: false, env: { ENGINE_BUDGET_MS: '0' } });
    try {
      // 400 large questions take tens of milliseconds to prepare (validate, hash): sliced.
      const { body } = await t.gql(
        `query($q: [PathQuery!]!) { seed: shortestPaths(query: ${SEED_QUERY}) { distance } list: shortestPathsBatch(queries: $q) { distance } }`,
        { q: Array.from({ length: 400 }, (_, i) => mazeQuery(i)) },
      );
      expect(body.errors).toBeUndefined();
      expect(body.data.list).toHaveLength(400);
      expect(await t.metric('chess_paths_loader_batch_size_count')).toBe(1);
      expect(await t.metric('chess_paths_loader_batch_size_sum')).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('the engine budget (ENGINE_BUDGET_MS)', () => {
  it('cuts off a request whose solving goes over it, with ENGINE_BUDGET_EXCEEDED naming the budget', async () => {
    const t = await startTestServer({ database: false, env: { ENGINE_BUDGET_MS: '5' } });
    try {
      const { status, body } = await t.gql(BATCH, { q: Array.from({ length: 300 }, (_, i) => mazeQuery(i)) });
      expect(status).toBe(200);
      // Errors are local: every question the budget cut off is null with its own error.
      const items = body.data.shortestPathsBatch as unknown[];
      expect(items).toHaveLength(300);
      expect(body.errors!.length).toBeGreaterThan(0);
      expect(items.filter((item) => item === null)).toHaveLength(body.errors!.length);
      for (const error of body.errors!) {
        expect(error.extensions).toEqual({ code: 'ENGINE_BUDGET_EXCEEDED', limit: 'ENGINE_BUDGET_MS', max: 5 });
        expect(error.message).toMatch(
          /^Engine time budget of 5 ms per request \(ENGINE_BUDGET_MS\) exceeded: \d+ ms of engine work spent/,
        );
        expect(error.path).toEqual(['shortestPathsBatch', expect.any(Number)]);
      }
      expect(JSON.stringify(body)).not.toMatch(/stacktrace/);
      // Cut off early: far fewer than 300 problems were solved.
      expect(await t.metric('chess_paths_engine_solves_total')).toBeLessThan(300);
      expect(await t.metric('chess_paths_graphql_errors_total', { code: 'ENGINE_BUDGET_EXCEEDED' })).toBe(
        body.errors!.length,
      );
      // A small request on the same server is within the budget.
      expect((await t.gql(SEED)).body).toEqual({ data: { shortestPaths: { distance: 4 } } });
    } finally {
      await t.close();
    }
  });

  it('counts lazy fields (pathCount) against it', async () => {
    const t = await startTestServer({ database: false, env: { ENGINE_BUDGET_MS: '40' } });
    try {
      const queries = Array.from({ length: 300 }, (_, i) => mazeQuery(i, 32));
      // Solving fits, a few at a time (and the results are then kept in the memo). On a busy
      // machine a slice may go over 40 ms: what it solved is kept, and asking again finishes it.
      for (let i = 0; i < queries.length; i += 30) {
        let solved = await t.gql(BATCH, { q: queries.slice(i, i + 30) });
        for (let again = 0; again < 20 && solved.body.errors; again++) {
          expect(solved.body.errors.every((e) => e.extensions?.code === 'ENGINE_BUDGET_EXCEEDED')).toBe(true);
          solved = await t.gql(BATCH, { q: queries.slice(i, i + 30) });
        }
        expect(solved.body.errors).toBeUndefined();
      }
      const solves = await t.metric('chess_paths_engine_solves_total');
      // ...counting paths through 500 layers and mapping distances, 300 times, does not. On a
      // loaded machine the preparation of the 300 questions (charged too, by the clock) may
      // spend the budget before any count starts, cutting off items, not their fields: asked
      // again (prepared questions are then remembered) until a lazy field is what the budget cut.
      const LAZY = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance pathCount distances } }';
      const lazyCut = (e: { path?: readonly (string | number)[] }) =>
        /^(pathCount|distances)$/.test(String(e.path?.[2]));
      let { body } = await t.gql(LAZY, { q: queries });
      for (let again = 0; again < 20 && !body.errors?.some(lazyCut); again++)
        ({ body } = await t.gql(LAZY, { q: queries }));
      expect(await t.metric('chess_paths_engine_solves_total')).toBe(solves); // nothing solved: lazy work only
      expect(body.errors?.some(lazyCut), JSON.stringify(body.errors?.slice(0, 3))).toBe(true);
      // Errors are local: each item whose count the budget cut off is null, with its own error.
      const items = body.data.shortestPathsBatch as unknown[];
      expect(items).toHaveLength(300);
      expect(items.filter((item) => item === null)).toHaveLength(body.errors!.length);
      for (const error of body.errors!) {
        expect(error.extensions?.code).toBe('ENGINE_BUDGET_EXCEEDED');
        expect(error.path).toEqual(
          lazyCut(error)
            ? ['shortestPathsBatch', expect.any(Number), error.path![2]]
            : ['shortestPathsBatch', expect.any(Number)],
        );
        expect(items[error.path![1] as number]).toBeNull();
        expect(Number(/(\d+) ms of engine work/.exec(error.message)?.[1])).toBeGreaterThanOrEqual(40);
      }
      // Each count is cheap: a few in a request fit.
      const few = await t.gql('query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { pathCount } }', {
        q: queries.slice(0, 3),
      });
      expect(few.body.errors).toBeUndefined();
      expect(few.body.data.shortestPathsBatch).toHaveLength(3);
    } finally {
      await t.close();
    }
  });
});

describe('other requests meanwhile', () => {
  it('answers a small request while a heavy batch is being solved', async () => {
    const t = await startTestServer({ database: false, env: { ENGINE_BUDGET_MS: '0' } });
    try {
      const finished: string[] = [];
      const started = performance.now();
      const solving = whenServer(t, 'batchSize');
      const heavy = t.gql(BATCH, { q: Array.from({ length: 500 }, (_, i) => mazeQuery(i)) }).then((r) => {
        finished.push('heavy');
        return { r, ms: performance.now() - started };
      });
      // Once the server has begun the heavy batch (prepared, handed to the loader), the small one.
      await solving;
      const small = await t.gql(SEED);
      finished.push('small');
      const { r, ms } = await heavy;
      expect(r.body.errors).toBeUndefined();
      expect(small.body.data.shortestPaths.distance).toBe(4);
      expect(ms).toBeGreaterThan(100); // the heavy one really was heavy
      // Sent after the heavy batch began, answered before it ended.
      expect(finished).toEqual(['small', 'heavy']);
    } finally {
      await t.close();
    }
  });

  it('answers a small request while a heavy request computes lazy fields', async () => {
    const t = await startTestServer({ database: false, env: { ENGINE_BUDGET_MS: '0' } });
    try {
      const queries = Array.from({ length: 300 }, (_, i) => mazeQuery(i, 32));
      await t.gql(BATCH, { q: queries }); // solved and memoised: what remains is lazy work
      const finished: string[] = [];
      const started = performance.now();
      // The 300th result from the memo: the heavy request's lazy fields come next.
      const lazy = whenServer(t, 'memoHits', 300);
      const heavy = t
        .gql('query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { pathCount } }', { q: queries })
        .then((r) => {
          finished.push('heavy');
          return { r, ms: performance.now() - started };
        });
      await lazy;
      const small = await t.gql(SEED);
      finished.push('small');
      const { r, ms } = await heavy;
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.shortestPathsBatch.every((x: { pathCount: string }) => BigInt(x.pathCount) >= 1n)).toBe(true);
      expect(small.body.data.shortestPaths.distance).toBe(4);
      expect(ms).toBeGreaterThan(100);
      expect(finished).toEqual(['small', 'heavy']);
    } finally {
      await t.close();
    }
  });
});

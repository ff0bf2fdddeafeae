/**
 * Answers solved on the worker threads, through a real server over HTTP, against the independent
 * reference BFS (test/support/reference-bfs.ts). Boards of 33..64 squares per side are over
 * INLINE_WEIGHT, so every question below is solved on the pool (the main thread's engine is
 * wrapped and must never be called), and read back from the persistent cache (decoded and checked)
 * once the cache writer has stored it.
 */

import * as engine from '@chess-paths/engine';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseArbitrary, type GeneratedCase } from '../../../packages/engine/test/support/engine-harness.js';
import {
  type ReferenceAnswer,
  referenceSolve,
  referenceSquareName,
} from '../../../packages/engine/test/support/reference-bfs.js';
import type { EngineApi, Prepared } from '../../../src/graphql/work/engine-api.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const FIELDS = 'key distance reachable cached layers { squares }';
const BATCH = `query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { ${FIELDS} } }`;
const COUNTS = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance pathCount cached } }';

interface Answer {
  key: string;
  distance: number | null;
  reachable: boolean;
  cached: boolean;
  layers: { squares: string[] }[];
}

const mainThreadCalls: number[] = [];
const counting: EngineApi = {
  ...engine,
  solveBatch(items: readonly Prepared[]) {
    mainThreadCalls.push(items.length);
    return engine.solveBatch(items);
  },
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { ENGINE_BUDGET_MS: '0' }, deps: { engine: counting } });
});
afterAll(async () => {
  await t?.close();
});

const largeBoards = fc.record({ files: fc.integer({ min: 33, max: 64 }), ranks: fc.integer({ min: 33, max: 64 }) });

function expectMatches(answer: Answer, c: GeneratedCase, ref: ReferenceAnswer, label: string): void {
  const board = { files: c.problem.files, ranks: c.problem.ranks };
  expect(answer.distance, `${label} distance`).toBe(ref.distance);
  expect(answer.reachable, `${label} reachable`).toBe(ref.reachable);
  expect(answer.layers.length, `${label} layer count`).toBe(ref.layers.length);
  ref.layers.forEach((layer, k) => {
    expect(answer.layers[k].squares, `${label} layer ${k}`).toEqual(layer.map((v) => referenceSquareName(v, board)));
  });
}

describe('answers solved on the worker pool equal the reference BFS', () => {
  it('fresh and read back from the cache, on random boards of 33..64 per side (with path counts)', async () => {
    let questions = 0;
    let reachable = 0;
    let counted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(caseArbitrary(largeBoards), { minLength: 8, maxLength: 12 }), async (cases) => {
        const queries = cases.map((c) => c.query);
        const refs = cases.map((c) => referenceSolve(c.problem));
        questions += cases.length;
        reachable += refs.filter((r) => r.reachable).length;

        const fresh = await t.gql(BATCH, { q: queries });
        expect(fresh.status).toBe(200);
        expect(fresh.body.errors).toBeUndefined();
        const freshAnswers: Answer[] = fresh.body.data.shortestPathsBatch;
        freshAnswers.forEach((a, i) => {
          expect(a.cached, `fresh ${i}`).toBe(false);
          expectMatches(a, cases[i], refs[i], `fresh ${i}`);
        });

        // Stored by the cache writer, then read back (decoded, checked) from the store.
        await t.server.settle();
        const again = await t.gql(BATCH, { q: queries });
        expect(again.status).toBe(200);
        expect(again.body.errors).toBeUndefined();
        const cachedAnswers: Answer[] = again.body.data.shortestPathsBatch;
        cachedAnswers.forEach((a, i) => {
          expect(a.cached, `cached ${i}`).toBe(true);
          expect(a.key, `cached ${i} key`).toBe(freshAnswers[i].key);
          expectMatches(a, cases[i], refs[i], `cached ${i}`);
        });

        // Path counts (computed on the pool from the cached results) for the first few.
        const few = cases.slice(0, 4);
        const counts = await t.gql(COUNTS, { q: few.map((c) => c.query) });
        expect(counts.body.errors).toBeUndefined();
        counts.body.data.shortestPathsBatch.forEach(
          (a: { distance: number | null; pathCount: string; cached: boolean }, i: number) => {
            expect(a.cached).toBe(true);
            expect(a.distance).toBe(refs[i].distance);
            expect(BigInt(a.pathCount), `pathCount ${i}`).toBe(refs[i].pathCount);
            if (refs[i].reachable) counted++;
          },
        );
      }),
      { numRuns: 5 },
    );
    console.log(
      `${questions} questions on boards 33..64 per side, ${reachable} reachable, ${counted} reachable path counts compared`,
    );
    expect(questions).toBeGreaterThanOrEqual(40);
    expect(reachable).toBeGreaterThan(questions * 0.25);
    expect(counted).toBeGreaterThan(3);
    // Every one of them was solved on the workers: the main thread's engine was never called.
    expect(mainThreadCalls).toEqual([]);
    expect(await t.metric('chess_paths_engine_solves_total')).toBeGreaterThanOrEqual(questions - 5);
  });

  it('a long maze (distance ~2,000 on 64 x 64) fresh and from the cache', async () => {
    const side = 64;
    const passable: boolean[] = [];
    for (let r = 0; r < side; r++)
      for (let f = 0; f < side; f++) passable.push(r % 2 === 0 || f === ((r >> 1) % 2 === 0 ? side - 1 : 0));
    const board = { files: side, ranks: side };
    const end = 62 * side + side - 1;
    let mask = 0n;
    passable.forEach((on, i) => {
      if (on) mask |= 1n << BigInt(i);
    });
    const query = {
      piece: 'KING',
      board,
      from: ['a1'],
      to: [referenceSquareName(end, board)],
      mask: `0x${mask.toString(16).padStart(1024, '0')}`,
    };
    const ref = referenceSolve({ piece: 'KING', files: side, ranks: side, passable, sources: [0], targets: [end] });
    expect(ref.distance).toBeGreaterThan(1900);
    const c = {
      query,
      problem: { piece: 'KING', files: side, ranks: side, passable, sources: [0], targets: [end] },
    } as unknown as GeneratedCase;
    const fresh = await t.gql(BATCH, { q: [query] });
    expect(fresh.body.errors).toBeUndefined();
    expect(fresh.body.data.shortestPathsBatch[0].cached).toBe(false);
    expectMatches(fresh.body.data.shortestPathsBatch[0], c, ref, 'fresh maze');
    await t.server.settle();
    const again = await t.gql(`query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { ${FIELDS} pathCount } }`, {
      q: [query],
    });
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.shortestPathsBatch[0].cached).toBe(true);
    expectMatches(again.body.data.shortestPathsBatch[0], c, ref, 'cached maze');
    expect(BigInt(again.body.data.shortestPathsBatch[0].pathCount)).toBe(ref.pathCount);
    expect(mainThreadCalls).toEqual([]);
  });
});

/**
 * The riders' WebAssembly kernel (`rides-wasm.ts`): the rook, the bishop and the queen on every
 * board but 8 x 8, the fairy pieces whose moves are leaps and rides (to the edge or limited),
 * and the distance maps it fills. WebAssembly must run in Node (a build that silently fell back
 * would pass every other test); it must match the reference BFS on boards whose ranks cut units
 * anywhere (1 file to 256, shifts shorter and longer than a unit, ranks of one square, boards
 * of one rank), with board sizes alternating between questions (the module lays its memory out
 * again for each), masks, several sources and targets, and across the largest boards; the fairy
 * pieces must match the fairy reference; solve must give the same result on it and on the
 * JavaScript fill; and where WebAssembly is refused the engine falls back and still answers.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RIDES_WASM } from '../../src/generated/rides-wasm.js';
import { solve } from '../../src/index.js';
import { wasmRidesAvailable } from '../../src/kernels/rides-wasm.js';
import { decodeBase64Url } from '../../src/util/base64url.js';
import {
  buildCase,
  caseArbitrary,
  expectResultMatchesReference,
  recipeArbitrary,
  snapshotResult,
} from '../support/engine-harness.js';
import { expectMatchesReference, fairyCase, fairyQuestion, seededRandom } from '../support/fairy-cases.js';
import { referenceFormatHex, referenceSolve, referenceSquareName } from '../support/reference-bfs.js';

const sliders = fc.constantFrom('ROOK', 'BISHOP', 'QUEEN');

const sliderCases = (boards: fc.Arbitrary<{ files: number; ranks: number }>) =>
  fc
    .tuple(recipeArbitrary(boards), fc.integer({ min: 0, max: 50 }), sliders)
    .map(([recipe, density, piece]) => buildCase({ ...recipe, piece, density }));

/** Widths around a unit's 64 squares and a word's 32, narrow and wide, and ranks of every kind. */
const boards = fc.oneof(
  fc.record({ files: fc.integer({ min: 1, max: 70 }), ranks: fc.integer({ min: 1, max: 40 }) }),
  fc.constantFrom(
    { files: 1, ranks: 200 },
    { files: 200, ranks: 1 },
    { files: 9, ranks: 10 },
    { files: 63, ranks: 64 },
    { files: 64, ranks: 64 },
    { files: 65, ranks: 33 },
    { files: 100, ranks: 100 },
    { files: 127, ranks: 20 },
    { files: 128, ranks: 128 },
    { files: 200, ranks: 3 },
    { files: 256, ranks: 17 },
  ),
);

describe("the riders' WebAssembly kernel", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('runs on WebAssembly in Node', () => {
    expect(wasmRidesAvailable()).toBe(true);
  });

  it('matches the reference BFS on boards of every width, sizes changing between questions', () => {
    let reachable = 0;
    let far = 0;
    fc.assert(
      fc.property(sliderCases(boards), ({ query, problem }) => {
        const answer = referenceSolve(problem);
        if (answer.reachable) reachable++;
        if ((answer.distance ?? 0) > 2) far++;
        expectResultMatchesReference(solve(query), problem, answer, { pageSize: 2, pageCount: 2 });
      }),
      { numRuns: 400 },
    );
    expect(reachable).toBeGreaterThan(150);
    expect(far).toBeGreaterThan(20);
  });

  it('matches the reference BFS across 256 x 256 and 250 x 190 with 30 % obstacles (long paths)', () => {
    // Seeded, so that every run crosses the same boards: one edge to the other (a square of the
    // source's colour, for the bishop), dozens of moves.
    const random = seededRandom(20261129);
    let far = 0;
    let reachable = 0;
    for (const [files, ranks] of [
      [256, 256],
      [250, 190],
      [256, 256],
    ]) {
      const board = { files, ranks };
      const passable = Array.from({ length: files * ranks }, () => random() >= 0.3);
      const from = passable.indexOf(true);
      const colour = (i: number) => ((i % files) + Math.floor(i / files)) & 1;
      let to = passable.length - 1;
      while (!passable[to] || colour(to) !== colour(from)) to--;
      for (const piece of ['ROOK', 'BISHOP', 'QUEEN'] as const) {
        const problem = { piece, files, ranks, passable, sources: [from], targets: [to] };
        const query = {
          piece,
          board,
          from: [referenceSquareName(from, board)],
          to: [referenceSquareName(to, board)],
          mask: referenceFormatHex(passable, board),
        };
        const answer = referenceSolve(problem);
        if (answer.reachable) reachable++;
        if ((answer.distance ?? 0) > 10) far++;
        expectResultMatchesReference(solve(query), problem, answer, { pageSize: 2, pageCount: 1 });
      }
    }
    expect(reachable).toBeGreaterThanOrEqual(6);
    expect(far).toBeGreaterThanOrEqual(6);
  });

  it('matches the fairy reference for random pieces (leaps, lame leaps, rides to the edge) on boards past 8 words', () => {
    fc.assert(
      fc.property(fairyCase(70, 12), (fairy) => expectMatchesReference(solve(fairy.query), fairy)),
      { numRuns: 80 },
    );
  });

  it('rides a nightrider, leaps an amazon and a lame horse across 100 x 100 as the fairy reference does', () => {
    const board = { files: 100, ranks: 100 };
    let state = 7;
    const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const betza of ['NN', 'QN', 'nN', 'WWnD', 'fRbB']) {
      const passable = Array.from({ length: 100 * 100 }, () => random() >= 0.2);
      const fairy = fairyQuestion(betza, board, passable, [5050, 17], [9999, 312]);
      expectMatchesReference(solve(fairy.query), fairy);
    }
  });

  it('rides limited short of the edge (W3F2, N3, fW5bF2, W2F, D3) across 100 x 100 as the fairy reference does', () => {
    const board = { files: 100, ranks: 100 };
    const random = seededRandom(31);
    for (const betza of ['W3F2', 'N3', 'fW5bF2', 'W2F', 'D3']) {
      const passable = Array.from({ length: 100 * 100 }, () => random() >= 0.15);
      const fairy = fairyQuestion(betza, board, passable, [4321, 12], [9876, 250]);
      expectMatchesReference(solve(fairy.query), fairy);
    }
  });

  it('solve gives the same result, field by field, on it and on the JavaScript fill', () => {
    fc.assert(
      fc.property(sliderCases(boards), ({ query }) => {
        expect(snapshotResult(solve(query), 2, 2)).toEqual(
          snapshotResult(solve(query, { kernel: 'javascript' }), 2, 2),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('falls back to JavaScript where WebAssembly cannot be compiled, and still answers', async () => {
    vi.stubGlobal('WebAssembly', {
      Module: () => {
        throw new Error('WebAssembly.Module(): Refused to compile');
      },
    });
    vi.resetModules();
    const loader = await import('../../src/kernels/rides-wasm.js');
    const engine = await import('../../src/index.js');
    expect(loader.wasmRidesAvailable()).toBe(false);
    const board = { files: 100, ranks: 100 };
    for (const piece of ['ROOK', 'BISHOP', 'QUEEN'] as const) {
      const result = engine.solve({ piece, board, from: ['a1'], to: ['cv99'] });
      const answer = referenceSolve({
        piece,
        ...board,
        passable: Array(100 * 100).fill(true),
        sources: [0],
        targets: [98 * 100 + 99],
      });
      expect(result.distance).toBe(answer.distance);
      expect(result.layers.map((layer) => layer.count)).toEqual(answer.layers.map((layer) => layer.length));
      expect(result.distances).toEqual(answer.distances);
    }
    // Every piece's distance map on the JavaScript fill, which only such runtimes reach now.
    fc.assert(
      fc.property(caseArbitrary(), ({ query, problem }) => {
        expect(engine.solve(query).distances).toEqual(referenceSolve(problem).distances);
      }),
      { numRuns: 60 },
    );
  });

  it('stays under 4 kB, which browsers compile synchronously on the main thread of a page', () => {
    expect(decodeBase64Url(RIDES_WASM).length).toBeLessThan(4096);
  });
});

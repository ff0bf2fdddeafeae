/**
 * The kernels of the king and the knight on boards whose files are a multiple of 64: the
 * WebAssembly build (`knight-wide-wasm.ts`) and the JavaScript ones (`knight-wide.ts`, the king
 * of `leapers.ts`). WebAssembly must run
 * in Node (a build that silently fell back would pass every other test); both must match the
 * reference BFS, on every width the unit fill takes and with board sizes alternating between
 * questions (the module lays its memory out again for each), with its steps pushed, pulled or
 * chosen (each way forced in turn, on 64, 128 and 256 files, masks, several sources and
 * targets, forward and backward); solve must give the same result on either; and where
 * WebAssembly is refused the engine falls back and still answers.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KNIGHT_WIDE_WASM } from '../../src/generated/knight-wide-wasm.js';
import { solve } from '../../src/index.js';
import { setWideKnightSteps, wasmWideKnightAvailable } from '../../src/kernels/knight-wide-wasm.js';
import { decodeBase64Url } from '../../src/util/base64url.js';
import { buildCase, expectResultMatchesReference, recipeArbitrary, snapshotResult } from '../support/engine-harness.js';
import { mazeQuery } from '../support/maze.js';
import { referenceParseHex, referenceParseSquare, referenceSolve } from '../support/reference-bfs.js';

const wideBoards = fc.constantFrom(
  { files: 64, ranks: 64 },
  { files: 64, ranks: 1 },
  { files: 64, ranks: 5 },
  { files: 128, ranks: 40 },
  { files: 192, ranks: 9 },
  { files: 256, ranks: 3 },
);

const knightCases = (boards: fc.Arbitrary<{ files: number; ranks: number }>) =>
  fc
    .tuple(recipeArbitrary(boards), fc.integer({ min: 0, max: 45 }), fc.constantFrom('KNIGHT', 'KING', 'KNIGHT'))
    .map(([recipe, density, piece]) => buildCase({ ...recipe, piece, density }));

describe('the wide king and knight kernels', () => {
  afterEach(() => {
    setWideKnightSteps('auto');
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('runs on WebAssembly in Node', () => {
    expect(wasmWideKnightAvailable()).toBe(true);
  });

  it('each kernel matches the reference BFS, with board sizes changing between questions', () => {
    let reachable = 0;
    fc.assert(
      fc.property(knightCases(wideBoards), ({ query, problem }) => {
        const answer = referenceSolve(problem);
        if (answer.reachable) reachable++;
        expectResultMatchesReference(solve(query), problem, answer, { pageSize: 2, pageCount: 2 });
        expectResultMatchesReference(solve(query, { kernel: 'javascript' }), problem, answer, {
          pageSize: 2,
          pageCount: 1,
        });
      }),
      { numRuns: 300 },
    );
    expect(reachable).toBeGreaterThan(100);
  });

  it('matches the reference BFS with every step pushed, every step pulled, or each chosen', () => {
    // Large boards with few obstacles make a knight's frontier fill whole ranks (pulled when
    // chosen); dense obstacles and kings keep frontiers thin (pushed).
    const boards = fc.constantFrom(
      { files: 64, ranks: 64 },
      { files: 64, ranks: 23 },
      { files: 128, ranks: 128 },
      { files: 128, ranks: 17 },
      { files: 256, ranks: 256 },
      { files: 256, ranks: 12 },
    );
    let reachable = 0;
    fc.assert(
      fc.property(knightCases(boards), fc.constantFrom('push', 'pull', 'auto'), ({ query, problem }, steps) => {
        const answer = referenceSolve(problem);
        if (answer.reachable && (answer.distance ?? 0) > 1) reachable++;
        setWideKnightSteps(steps as 'push' | 'pull' | 'auto');
        expectResultMatchesReference(solve(query), problem, answer, { pageSize: 2, pageCount: 1 });
      }),
      { numRuns: 90 },
    );
    expect(reachable).toBeGreaterThan(20);
  });

  it('crosses mazes with every step pushed or pulled', () => {
    for (const steps of ['push', 'pull'] as const) {
      setWideKnightSteps(steps);
      for (const [i, piece] of [
        [5, 'KING'],
        [40, 'KNIGHT'],
      ] as const) {
        const query = { ...mazeQuery(i, 64), piece };
        const board = { files: 64, ranks: 64 };
        const problem = {
          piece,
          ...board,
          passable: referenceParseHex(query.mask, board) ?? [],
          sources: query.from.map((name) => referenceParseSquare(name, board) ?? -1),
          targets: query.to.map((name) => referenceParseSquare(name, board) ?? -1),
        };
        expectResultMatchesReference(solve(query), problem, referenceSolve(problem), { pageSize: 2, pageCount: 1 });
      }
    }
  });

  it('solve gives the same result, field by field, on either kernel, on 256 x 256 too', () => {
    const boards = fc.constantFrom({ files: 256, ranks: 256 }, { files: 128, ranks: 128 }, { files: 64, ranks: 64 });
    fc.assert(
      fc.property(knightCases(boards), ({ query }) => {
        expect(snapshotResult(solve(query), 2, 2)).toEqual(
          snapshotResult(solve(query, { kernel: 'javascript' }), 2, 2),
        );
      }),
      { numRuns: 30 },
    );
  });

  it('crosses serpentine mazes, hundreds of moves, on either kernel', () => {
    for (const [i, side, piece] of [
      [3, 64, 'KNIGHT'],
      [250, 64, 'KNIGHT'],
      [11, 128, 'KNIGHT'],
      [7, 64, 'KING'],
      [250, 64, 'KING'],
    ] as const) {
      const query = { ...mazeQuery(i, side), piece };
      const board = { files: side, ranks: side };
      const problem = {
        piece,
        ...board,
        passable: referenceParseHex(query.mask, board) ?? [],
        sources: query.from.map((name) => referenceParseSquare(name, board) ?? -1),
        targets: query.to.map((name) => referenceParseSquare(name, board) ?? -1),
      };
      const answer = referenceSolve(problem);
      expect(answer.reachable).toBe(true);
      for (const kernel of ['auto', 'javascript'] as const) {
        expectResultMatchesReference(solve(query, { kernel }), problem, answer, { pageSize: 2, pageCount: 1 });
      }
    }
  });

  it('falls back to JavaScript where WebAssembly cannot be compiled, and still answers', async () => {
    vi.stubGlobal('WebAssembly', {
      Module: () => {
        throw new Error('WebAssembly.Module(): Refused to compile');
      },
    });
    vi.resetModules();
    const loader = await import('../../src/kernels/knight-wide-wasm.js');
    const engine = await import('../../src/index.js');
    expect(loader.wasmWideKnightAvailable()).toBe(false);
    const board = { files: 64, ranks: 64 };
    for (const piece of ['KNIGHT', 'KING'] as const) {
      const result = engine.solve({ piece, board, from: ['a1'], to: ['bl64'] });
      const answer = referenceSolve({
        piece,
        ...board,
        passable: Array(64 * 64).fill(true),
        sources: [0],
        targets: [64 * 64 - 1],
      });
      expect(result.distance).toBe(answer.distance);
      expect(result.layers.map((layer) => layer.count)).toEqual(answer.layers.map((layer) => layer.length));
      expect(result.distances).toEqual(answer.distances);
    }
  });

  it('stays under 4 kB, which browsers compile synchronously on the main thread of a page', () => {
    expect(decodeBase64Url(KNIGHT_WIDE_WASM).length).toBeLessThan(4096);
  });
});

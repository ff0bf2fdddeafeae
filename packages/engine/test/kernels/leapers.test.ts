/**
 * The king's and knight's kernels (`leapers.ts`, per 32-bit word; `knight-wide.ts`, the knight
 * per 64-bit unit) against the reference BFS: board widths on both sides of every word and unit
 * boundary (31, 32, 33, 63, 64, 65, 96, 128), so that moves carry across words, units and rank
 * ends; sparse and dense obstacles; several sources and targets; and mazes with long distances.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solve } from '../../src/index.js';
import { buildCase, expectResultMatchesReference, recipeArbitrary } from '../support/engine-harness.js';
import { mazeQuery } from '../support/maze.js';
import {
  type ReferenceProblem,
  referenceParseHex,
  referenceParseSquare,
  referenceSolve,
} from '../support/reference-bfs.js';

const leaperCases = (boards: fc.Arbitrary<{ files: number; ranks: number }>) =>
  fc
    .tuple(
      recipeArbitrary(boards),
      fc.constantFrom('KING' as const, 'KNIGHT' as const),
      fc.integer({ min: 0, max: 40 }),
    )
    .map(([recipe, piece, density]) => buildCase({ ...recipe, piece, density }));

describe('king and knight kernels agree with the reference BFS', () => {
  it('on widths around word and unit boundaries', () => {
    const boards = fc.record({
      files: fc.constantFrom(31, 32, 33, 63, 64, 65, 96, 128),
      ranks: fc.integer({ min: 1, max: 40 }),
    });
    let reachable = 0;
    let runs = 0;
    fc.assert(
      fc.property(leaperCases(boards), ({ query, problem }) => {
        const answer = referenceSolve(problem);
        runs += 1;
        if (answer.reachable) reachable += 1;
        expectResultMatchesReference(solve(query), problem, answer, { pageSize: 3, pageCount: 2 });
      }),
      { numRuns: 400 },
    );
    expect(reachable / runs).toBeGreaterThan(0.3);
  });

  it('on 64 x 64 and 128 x 128 boards, where the knight uses 64-bit units', () => {
    const boards = fc.constantFrom({ files: 64, ranks: 64 }, { files: 128, ranks: 128 }, { files: 64, ranks: 3 });
    fc.assert(
      fc.property(leaperCases(boards), ({ query, problem }) => {
        expectResultMatchesReference(solve(query), problem, referenceSolve(problem), { pageSize: 2, pageCount: 2 });
      }),
      { numRuns: 120 },
    );
  });

  it('on serpentine mazes, distances in the hundreds and thousands', () => {
    for (const [i, side] of [
      [0, 32],
      [7, 32],
      [3, 64],
      [250, 64],
    ] as const) {
      const query = mazeQuery(i, side);
      const board = { files: side, ranks: side };
      for (const piece of ['KING', 'KNIGHT'] as const) {
        const problem: ReferenceProblem = {
          piece,
          ...board,
          passable: referenceParseHex(query.mask, board) ?? [],
          sources: query.from.map((name) => referenceParseSquare(name, board) ?? -1),
          targets: query.to.map((name) => referenceParseSquare(name, board) ?? -1),
        };
        const answer = referenceSolve(problem);
        if (piece === 'KING') expect(answer.distance).toBeGreaterThan(200);
        expectResultMatchesReference(solve({ ...query, piece }), problem, answer, { pageSize: 2, pageCount: 1 });
      }
    }
  });
});

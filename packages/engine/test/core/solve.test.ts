/**
 * Property tests of the engine's `solve` against the independent reference BFS (reference-bfs.ts):
 * thousands of random queries (all seven pieces, boards 1 x 1 to 40 x 40 biased toward small boards
 * and 8 x 8, a few 256 x 256, 0-60 % obstacles given as mask text and/or blocked names, 1-4 sources
 * and targets, some of them impassable) must agree on every field, including the first pages of
 * `paths` walked by cursor. Further properties: the 8 x 8 fast path and the general word-array
 * representation agree; `restoreResult` rebuilds the same answer from the layer bitboards;
 * `prepareQuery` keys equal exactly when the canonical problems are equal; `solveBatch` equals
 * solving one query at a time, in input order.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareQuery, restoreResult, solve, solveBatch } from '../../src/index.js';
import {
  buildCase,
  type CaseRecipe,
  caseArbitrary,
  expectResultMatchesReference,
  recipeArbitrary,
  referenceCanonical,
  snapshotResult,
} from '../support/engine-harness.js';
import { referenceSolve } from '../support/reference-bfs.js';

describe('solve agrees with the reference BFS', () => {
  it('on random queries, boards up to 40 x 40', () => {
    let reachableCount = 0;
    let runs = 0;
    fc.assert(
      fc.property(caseArbitrary(), fc.integer({ min: 1, max: 7 }), ({ query, problem }, pageSize) => {
        const answer = referenceSolve(problem);
        const result = solve(query);
        runs += 1;
        if (answer.reachable) reachableCount += 1;
        expect(result.cached).toBe(false);
        expectResultMatchesReference(result, problem, answer, { pageSize, pageCount: 3 });
      }),
      { numRuns: 6000 },
    );
    // The property only means something if a fair share of the queries have paths.
    expect(reachableCount / runs).toBeGreaterThan(0.2);
  });

  it('on dense-obstacle small boards, where most paths are blocked', () => {
    const smallBoards = fc.record({ files: fc.integer({ min: 1, max: 6 }), ranks: fc.integer({ min: 1, max: 6 }) });
    fc.assert(
      fc.property(
        recipeArbitrary(smallBoards).map(
          (recipe): CaseRecipe => ({
            ...recipe,
            density: 30 + (recipe.density % 31),
            obstacleStyle: recipe.obstacleStyle === 'none' ? 'both' : recipe.obstacleStyle,
          }),
        ),
        ({ ...recipe }) => {
          const { query, problem } = buildCase(recipe);
          expectResultMatchesReference(solve(query), problem, referenceSolve(problem), { pageSize: 2, pageCount: 3 });
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('on a few 256 x 256 boards', () => {
    const hugeBoard = fc.constant({ files: 256, ranks: 256 });
    fc.assert(
      fc.property(caseArbitrary(hugeBoard), ({ query, problem }) => {
        expectResultMatchesReference(solve(query), problem, referenceSolve(problem), { pageSize: 4, pageCount: 2 });
      }),
      { numRuns: 10 },
    );
  }, 120_000);

  it('on 256 x 1 and 1 x 256 strips', () => {
    const strips = fc.constantFrom({ files: 256, ranks: 1 }, { files: 1, ranks: 256 }, { files: 255, ranks: 2 });
    fc.assert(
      fc.property(caseArbitrary(strips), ({ query, problem }) => {
        expectResultMatchesReference(solve(query), problem, referenceSolve(problem), { pageSize: 3, pageCount: 2 });
      }),
      { numRuns: 60 },
    );
  });
});

describe('representations, restore, keys and batches', () => {
  it('on 8 x 8 the fast path and the general word-array representation agree on every field', () => {
    fc.assert(
      fc.property(
        caseArbitrary(fc.constant({ files: 8, ranks: 8 })),
        fc.integer({ min: 1, max: 5 }),
        ({ query }, pageSize) => {
          const fast = snapshotResult(solve(query), pageSize, 3);
          const general = snapshotResult(solve(query, { representation: 'general' }), pageSize, 3);
          expect(general).toEqual(fast);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('the general representation also matches the reference on 8 x 8', () => {
    fc.assert(
      fc.property(caseArbitrary(fc.constant({ files: 8, ranks: 8 })), ({ query, problem }) => {
        const result = solve(query, { representation: 'general' });
        expectResultMatchesReference(result, problem, referenceSolve(problem), { pageSize: 4, pageCount: 2 });
      }),
      { numRuns: 300 },
    );
  });

  it('restoreResult rebuilds the same answer from the layer bitboards, marked cached', () => {
    fc.assert(
      fc.property(
        caseArbitrary(),
        fc.boolean(),
        fc.integer({ min: 1, max: 5 }),
        ({ query, problem }, passCount, pageSize) => {
          const solved = solve(query);
          const layers = solved.layers.map((layer) => layer.bitboard);
          const restored = passCount
            ? restoreResult(solved.problem, layers, solved.pathCount)
            : restoreResult(solved.problem, layers);
          expect(restored.cached).toBe(true);
          expect(snapshotResult(restored, pageSize, 3)).toEqual({
            ...snapshotResult(solved, pageSize, 3),
            cached: true,
          });
          // And the restored answer is still right, cursors included.
          expectResultMatchesReference(restored, problem, referenceSolve(problem), { pageSize, pageCount: 2 });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('prepareQuery matches solve: same key and problem', () => {
    fc.assert(
      fc.property(caseArbitrary(), ({ query }) => {
        const prepared = prepareQuery(query);
        const solved = solve(query);
        expect(prepared.key).toBe(solved.key);
        expect(prepared.problem).toEqual(solved.problem);
      }),
      { numRuns: 300 },
    );
  });

  it('equivalent spellings of one problem share a key', () => {
    fc.assert(
      fc.property(recipeArbitrary(), fc.nat(), (recipe, variantSeed) => {
        const base = buildCase(recipe);
        const baseKey = prepareQuery(base.query).key;
        // Same obstacles via mask / blocked / both, other name and hex spellings.
        const styles = ['mask', 'blocked', 'both'] as const;
        const variantRecipe: CaseRecipe = {
          ...recipe,
          obstacleStyle: recipe.obstacleStyle === 'none' ? 'none' : styles[variantSeed % 3],
          nameStyle: (['lower', 'upper', 'mixed'] as const)[(variantSeed >> 2) % 3],
          hexStyle: (['canonical', 'trimmed', 'upper'] as const)[(variantSeed >> 4) % 3],
          omitStandardBoard: !recipe.omitStandardBoard,
        };
        const variant = buildCase(variantRecipe);
        expect(referenceCanonical(variant.problem)).toBe(referenceCanonical(base.problem));
        expect(prepareQuery(variant.query).key).toBe(baseKey);
        // Sources and targets repeated and reordered.
        const shuffled = {
          ...base.query,
          from: [...base.query.from].reverse().concat(base.query.from[0]),
          to: [base.query.to.at(-1)!, ...base.query.to],
        };
        expect(prepareQuery(shuffled).key).toBe(baseKey);
        // Impassable sources and targets are dropped before the key is made.
        const impassable = base.problem.passable.findIndex((open) => !open);
        if (impassable >= 0) {
          const withBlockedEnds = buildCase({
            ...recipe,
            sourcePicks: [...recipe.sourcePicks, impassable],
            targetPicks: [impassable, ...recipe.targetPicks],
          });
          if (!recipe.alignFirstTarget) expect(prepareQuery(withBlockedEnds.query).key).toBe(baseKey);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a blocked list and the equivalent mask give the same key (hand-written)', () => {
    const byBlocked = prepareQuery({ piece: 'ROOK', from: ['a1'], to: ['h8'], blocked: ['d1', 'A4', 'd1'] });
    // d1 = bit 3, a4 = bit 24: the mask is every bit of 64 except those two.
    const mask = ((1n << 64n) - 1n) & ~((1n << 3n) | (1n << 24n));
    const byMask = prepareQuery({
      piece: 'ROOK',
      from: ['A1', 'a1'],
      to: ['H8'],
      mask: `0x${mask.toString(16).toUpperCase()}`,
      board: { files: 8, ranks: 8 },
    });
    expect(byMask.key).toBe(byBlocked.key);
    expect(byMask.problem).toEqual(byBlocked.problem);
    const onlyD1 = prepareQuery({ piece: 'ROOK', from: ['a1'], to: ['h8'], blocked: ['d1'] });
    expect(onlyD1.key).not.toBe(byBlocked.key);
  });

  it('different canonical problems get different keys; equal ones the same key', () => {
    fc.assert(
      fc.property(caseArbitrary(), caseArbitrary(), (first, second) => {
        const sameProblem = referenceCanonical(first.problem) === referenceCanonical(second.problem);
        expect(prepareQuery(first.query).key === prepareQuery(second.query).key).toBe(sameProblem);
      }),
      { numRuns: 400 },
    );
    const base = { piece: 'KING' as const, from: ['a1'], to: ['c3'] };
    const keys = [
      prepareQuery(base).key,
      prepareQuery({ ...base, piece: 'QUEEN' }).key,
      prepareQuery({ ...base, from: ['c3'], to: ['a1'] }).key,
      prepareQuery({ ...base, board: { files: 9, ranks: 8 } }).key,
      prepareQuery({ ...base, board: { files: 8, ranks: 9 } }).key,
      prepareQuery({ ...base, blocked: ['b2'] }).key,
      prepareQuery({ ...base, to: ['c3', 'd4'] }).key,
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('solveBatch returns, in input order, what solve returns for each query', () => {
    fc.assert(
      fc.property(fc.array(caseArbitrary(), { minLength: 0, maxLength: 6 }), (cases) => {
        const queries = cases.map((generated) => generated.query);
        const batch = solveBatch(queries);
        expect(batch).toHaveLength(queries.length);
        batch.forEach((result, i) => {
          expect(snapshotResult(result, 3, 2), `batch[${i}]`).toEqual(snapshotResult(solve(queries[i]), 3, 2));
        });
      }),
      { numRuns: 150 },
    );
  });
});

/**
 * Random fairy questions and the comparison of a fairy answer with the independent fairy
 * reference (reference-betza.ts), every field: shared by the fairy solve tests.
 */

import fc from 'fast-check';
import { expect } from 'vitest';
import { readBetza } from '../../src/betza/betza.js';
import type { PathQuery, PathResult } from '../../src/types.js';
import { betzaText } from './betza-texts.js';
import { expectPagesMatchReference, expectSquareSet } from './engine-harness.js';
import { referenceFairySolve } from './reference-betza.js';
import { referenceFormatHex, referenceSquareName } from './reference-bfs.js';

/** A fairy question in both forms: the engine's query and the reference's problem. */
export interface FairyCase {
  readonly query: PathQuery;
  readonly problem: Parameters<typeof referenceFairySolve>[0];
}

/** The same sequence of numbers in [0, 1) for the same seed (a linear congruential generator). */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The question of `betza` from `from` to `to` (square indices) on `board` with `passable` squares. */
export function fairyQuestion(
  betza: string,
  board: { files: number; ranks: number },
  passable: boolean[],
  from: number[],
  to: number[],
): FairyCase {
  const name = (i: number) => referenceSquareName(i, board);
  return {
    query: {
      piece: 'FAIRY',
      betza,
      board,
      mask: referenceFormatHex(passable, board),
      from: from.map(name),
      to: to.map(name),
    },
    problem: { betza, files: board.files, ranks: board.ranks, passable, sources: from, targets: to },
  };
}

/** Texts the reader accepts (the grammar's arbitrary makes a few it refuses). */
const pieceText = betzaText(3).filter((text) => {
  try {
    readBetza(text);
    return true;
  } catch {
    return false;
  }
});

/** A random question on a board of `minSide` to `maxSide` squares a side, some of it blocked. */
export const fairyCase = (maxSide: number, minSide = 1): fc.Arbitrary<FairyCase> =>
  fc
    .record({
      betza: pieceText,
      files: fc.integer({ min: minSide, max: maxSide }),
      ranks: fc.integer({ min: minSide, max: maxSide }),
      seed: fc.integer({ min: 0, max: 2 ** 30 }),
      sources: fc.integer({ min: 1, max: 3 }),
      targets: fc.integer({ min: 0, max: 3 }),
      density: fc.constantFrom(0, 0.1, 0.25, 0.4),
    })
    .map(({ betza, files, ranks, seed, sources, targets, density }) => {
      const random = seededRandom(seed);
      const n = files * ranks;
      const passable = Array.from({ length: n }, () => random() >= density);
      const pick = (count: number) => Array.from({ length: count }, () => Math.floor(random() * n));
      return fairyQuestion(betza, { files, ranks }, passable, pick(sources), pick(targets));
    });

/** Every field of `result` against the reference's answer. */
export function expectMatchesReference(result: PathResult, fairy: FairyCase): void {
  const { problem } = fairy;
  const board = { files: problem.files, ranks: problem.ranks };
  const answer = referenceFairySolve(problem);
  const piece = readBetza(problem.betza);
  expect(result.piece).toBe(piece.orthodox ?? 'FAIRY');
  expect(result.betza).toBe(piece.betza);
  expect(result.mask).toBe(referenceFormatHex(problem.passable, board));
  expectSquareSet(result.sources, answer.sources, board, 'sources');
  expectSquareSet(result.targets, answer.targets, board, 'targets');
  expect(result.reachable, 'reachable').toBe(answer.reachable);
  expect(result.distance, 'distance').toBe(answer.distance);
  expect(result.layers.length, 'layers.length').toBe(answer.layers.length);
  answer.layers.forEach((layer, k) => {
    expectSquareSet(result.layers[k], layer, board, `layers[${k}]`);
  });
  expectSquareSet(result.squares, answer.squares, board, 'squares');
  expect(result.pathCount, 'pathCount').toBe(answer.pathCount);
  expect(result.path?.squares ?? null, 'path').toEqual(
    answer.path === null ? null : answer.path.map((i) => referenceSquareName(i, board)),
  );
  expectPagesMatchReference(result, answer, board, 3, 2);
  expect(result.distances, 'distances').toEqual(answer.distances);
}

/**
 * `countPaths` counts in doubles while every count is below 2^53 and in BigInt from the first
 * layer past it. The property tests of `solve` rarely reach such counts; these questions do, on
 * each side of the switch: counts that all fit, a sum of the last layer that does not while each
 * of its counts does, and layers past 2^53 themselves. Each count is checked against the
 * reference BFS.
 */

import { describe, expect, it } from 'vitest';
import { solve } from '../../src/index.js';
import { referenceOpenBoard, referenceSolve, referenceSquareName } from '../support/reference-bfs.js';

const board = { files: 64, ranks: 64 };
const LIMIT = BigInt(Number.MAX_SAFE_INTEGER);

/** A king from the middle of rank 1 to every square of rank `rank` (1-based) of an open 64 x 64 board. */
function kingToRank(rank: number) {
  const source = 31;
  const targets = Array.from({ length: 64 }, (_, f) => (rank - 1) * 64 + f);
  const expected = referenceSolve({
    piece: 'KING',
    ...board,
    passable: referenceOpenBoard(board),
    sources: [source],
    targets,
  });
  const result = solve({
    piece: 'KING',
    board,
    from: [referenceSquareName(source, board)],
    to: targets.map((t) => referenceSquareName(t, board)),
  });
  return { expected, result };
}

describe('countPaths', () => {
  it('agrees with the reference on each side of 2^53', () => {
    const regimes = new Set<string>();
    for (let rank = 30; rank <= 42; rank++) {
      const { expected, result } = kingToRank(rank);
      expect(result.pathCount, `rank ${rank}`).toBe(expected.pathCount);
      // Every shortest path to the rank climbs one rank a move: the paths into each square of
      // the rank, rank by rank (the largest count of one square of the last layer).
      let counts: bigint[] = Array.from({ length: 64 }, (_, f) => (f === 31 ? 1n : 0n));
      for (let r = 1; r < rank; r++)
        counts = counts.map((_, f) => (counts[f - 1] ?? 0n) + counts[f] + (counts[f + 1] ?? 0n));
      const largest = counts.reduce((max, c) => (c > max ? c : max), 0n as bigint);
      expect(
        counts.reduce((sum, c) => sum + c, 0n),
        `rank ${rank}, climbing`,
      ).toBe(expected.pathCount);
      regimes.add(expected.pathCount <= LIMIT ? 'all fit' : largest <= LIMIT ? 'the sum does not' : 'a layer does not');
    }
    expect([...regimes].sort()).toEqual(['a layer does not', 'all fit', 'the sum does not']);
  });

  it('counts one path through a corridor, and none when no target is reachable', () => {
    const corridor = solve({ piece: 'ROOK', mask: '0x00000000000000ff', from: ['a1'], to: ['h1'] });
    expect(corridor.pathCount).toBe(1n);
    const walled = solve({ piece: 'KING', mask: '0xffffffffff00ffff', from: ['a1'], to: ['h8'] });
    expect(walled.pathCount).toBe(0n);
  });
});

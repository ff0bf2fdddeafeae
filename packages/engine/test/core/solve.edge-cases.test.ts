/**
 * Named edge cases of the path contract, each checked twice: against explicit hand-derived values
 * (so the case documents itself) and field by field against the reference BFS. Covers distance 0,
 * every kind of unreachable query, pawns on their last rank and short boards, 1 x N and N x 1
 * boards, boards wider than 26 files, path counts above 2^64, the worked example of the contract,
 * sliders stopping before blocked squares, and rays passing over squares that are not on the path.
 */
import { describe, expect, it } from 'vitest';
import { solve } from '../../src/index.js';
import type { PathQuery, PathResult } from '../../src/types.js';
import { expectResultMatchesReference, referenceProblemOfQuery } from '../support/engine-harness.js';
import { referenceSolve } from '../support/reference-bfs.js';

/** Solves with the engine, checks every field against the reference, returns the engine result. */
function solveChecked(query: PathQuery, pageSize = 3): PathResult {
  const problem = referenceProblemOfQuery(query);
  const result = solve(query);
  expectResultMatchesReference(result, problem, referenceSolve(problem), { pageSize, pageCount: 3 });
  return result;
}

/** Every path of a result, by walking pages of `pageSize`. */
function allPaths(result: PathResult, pageSize: number): string[][] {
  const paths: string[][] = [];
  let after: string | null = null;
  for (;;) {
    const page = result.paths({ first: pageSize, after });
    paths.push(...page.edges.map((edge) => edge.node.squares));
    if (!page.pageInfo.hasNextPage) return paths;
    after = page.pageInfo.endCursor;
  }
}

function expectUnreachable(result: PathResult): void {
  expect(result.reachable).toBe(false);
  expect(result.distance).toBeNull();
  expect(result.layers).toEqual([]);
  expect(result.squares.count).toBe(0);
  expect(result.pathCount).toBe(0n);
  expect(result.path).toBeNull();
  const page = result.paths({ first: 5 });
  expect(page.edges).toEqual([]);
  expect(page.pageInfo.hasNextPage).toBe(false);
  expect(page.pageInfo.endCursor).toBeNull();
  expect(page.totalCount).toBe(0n);
}

describe('the worked example of the contract', () => {
  it('KING e4 -> {a1, h8} on 8 x 8: D = 4 and the five layers', () => {
    const result = solveChecked({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] });
    expect(result.reachable).toBe(true);
    expect(result.distance).toBe(4);
    expect(result.layers.map((layer) => layer.squares)).toEqual([
      ['e4'],
      ['d3', 'd4', 'e5', 'f5'],
      ['c2', 'c3', 'f6', 'g6'],
      ['b1', 'b2', 'g7', 'h7'],
      ['a1', 'h8'],
    ]);
    expect(result.layers[0].bitboard).toBe('0x0000000010000000');
    expect(result.pathCount).toBe(8n);
    expect(result.path?.squares).toEqual(['e4', 'd3', 'c2', 'b1', 'a1']);
    expect(allPaths(result, 3).map((path) => path.join('-'))).toEqual([
      'e4-d3-c2-b1-a1',
      'e4-d3-c2-b2-a1',
      'e4-d3-c3-b2-a1',
      'e4-d4-c3-b2-a1',
      'e4-e5-f6-g7-h8',
      'e4-f5-f6-g7-h8',
      'e4-f5-g6-g7-h8',
      'e4-f5-g6-h7-h8',
    ]);
    expect(result.distances).toHaveLength(64);
    expect(result.distances[28]).toBe(0);
  });
});

describe('distance 0', () => {
  it("S' ∩ T' nonempty: one layer S' ∩ T', one path per common square", () => {
    const result = solveChecked({ piece: 'KING', from: ['c3', 'a1', 'h8'], to: ['h8', 'C3', 'b2'] });
    expect(result.distance).toBe(0);
    expect(result.layers.map((layer) => layer.squares)).toEqual([['c3', 'h8']]);
    expect(result.squares.squares).toEqual(['c3', 'h8']);
    expect(result.pathCount).toBe(2n);
    expect(result.path?.squares).toEqual(['c3']);
    expect(allPaths(result, 1)).toEqual([['c3'], ['h8']]);
  });

  it('a blocked common square is dropped; the others still give distance 0', () => {
    const result = solveChecked({ piece: 'ROOK', from: ['c3', 'h8'], to: ['h8', 'c3'], blocked: ['c3'] });
    expect(result.distance).toBe(0);
    expect(result.layers.map((layer) => layer.squares)).toEqual([['h8']]);
    expect(result.pathCount).toBe(1n);
  });

  it('every piece on 1 x 1, from a1 to a1', () => {
    for (const piece of ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'KNIGHT', 'WHITE_PAWN', 'BLACK_PAWN'] as const) {
      const result = solveChecked({ piece, from: ['a1'], to: ['a1'], board: { files: 1, ranks: 1 } });
      expect(result.distance).toBe(0);
      expect(result.pathCount).toBe(1n);
      expect(result.mask).toBe('0x1');
      expect(result.distances).toEqual([0]);
    }
  });
});

describe('unreachable queries', () => {
  it('a bishop cannot reach the other colour', () => {
    const result = solveChecked({ piece: 'BISHOP', from: ['a1'], to: ['a2', 'h1'] });
    expectUnreachable(result);
    expect(result.distances[0]).toBe(0);
    expect(result.distances[1]).toBeNull();
  });

  it('a knight in the centre of 3 x 3 has no move', () => {
    const result = solveChecked({
      piece: 'KNIGHT',
      from: ['b2'],
      to: ['a1', 'c3', 'a2'],
      board: { files: 3, ranks: 3 },
    });
    expectUnreachable(result);
    expect(result.distances).toEqual([null, null, null, null, 0, null, null, null, null]);
  });

  it('an empty from list', () => {
    const result = solveChecked({ piece: 'KING', from: [], to: ['a1'] });
    expectUnreachable(result);
    expect(result.sources.count).toBe(0);
    expect(result.distances.every((d) => d === null)).toBe(true);
  });

  it('an empty to list', () => {
    const result = solveChecked({ piece: 'KING', from: ['a1'], to: [] });
    expectUnreachable(result);
    expect(result.targets.count).toBe(0);
    // Distances still cover the whole board from S'.
    expect(result.distances[63]).toBe(7);
  });

  it('all sources blocked (by name and by mask)', () => {
    expectUnreachable(solveChecked({ piece: 'QUEEN', from: ['a1', 'b1'], to: ['h8'], blocked: ['a1', 'b1'] }));
    expectUnreachable(solveChecked({ piece: 'QUEEN', from: ['a1'], to: ['h8'], mask: '0xfffffffffffffffe' }));
  });

  it('all targets blocked', () => {
    const result = solveChecked({ piece: 'KING', from: ['a1'], to: ['h8'], blocked: ['h8'] });
    expectUnreachable(result);
    expect(result.targets.count).toBe(0);
  });

  it('a wall of blocked squares cuts the board', () => {
    const wall = ['a4', 'b4', 'c4', 'd4', 'e4', 'f4', 'g4', 'h4'];
    for (const piece of ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'WHITE_PAWN'] as const) {
      expectUnreachable(solveChecked({ piece, from: ['e2'], to: ['e6'], blocked: wall }));
    }
    // A knight jumps over the wall (but not via d4/f4, so it needs four moves instead of two).
    expect(solveChecked({ piece: 'KNIGHT', from: ['e2'], to: ['e6'], blocked: wall }).distance).toBe(4);
    expect(solveChecked({ piece: 'KNIGHT', from: ['e2'], to: ['e6'] }).distance).toBe(2);
  });
});

describe('pawns', () => {
  it('a pawn on its last rank has no move', () => {
    expectUnreachable(solveChecked({ piece: 'WHITE_PAWN', from: ['e8'], to: ['e7', 'd8', 'f8'] }));
    expectUnreachable(solveChecked({ piece: 'BLACK_PAWN', from: ['e1'], to: ['e2', 'd1', 'f1'] }));
    const stays = solveChecked({ piece: 'WHITE_PAWN', from: ['e8'], to: ['e8'] });
    expect(stays.distance).toBe(0);
  });

  it('double step only from rank index 1 (white) / ranks-2 (black), both squares passable', () => {
    expect(solveChecked({ piece: 'WHITE_PAWN', from: ['e2'], to: ['e4'] }).distance).toBe(1);
    expect(solveChecked({ piece: 'WHITE_PAWN', from: ['e3'], to: ['e5'] }).distance).toBe(2);
    expectUnreachable(solveChecked({ piece: 'WHITE_PAWN', from: ['e2'], to: ['e4'], blocked: ['e3'] }));
    expect(solveChecked({ piece: 'BLACK_PAWN', from: ['e7'], to: ['e5'] }).distance).toBe(1);
    expect(solveChecked({ piece: 'BLACK_PAWN', from: ['e6'], to: ['e4'] }).distance).toBe(2);
    expectUnreachable(solveChecked({ piece: 'BLACK_PAWN', from: ['e7'], to: ['e5'], blocked: ['e6'] }));
    // On 10 ranks the black double-step rank is rank index 8 (rank 9).
    expect(
      solveChecked({ piece: 'BLACK_PAWN', from: ['c9'], to: ['c7'], board: { files: 5, ranks: 10 } }).distance,
    ).toBe(1);
    expect(
      solveChecked({ piece: 'BLACK_PAWN', from: ['c8'], to: ['c6'], board: { files: 5, ranks: 10 } }).distance,
    ).toBe(2);
  });

  it('white pawn e2 -> e5: the single step e3 is not on a shortest path', () => {
    const result = solveChecked({ piece: 'WHITE_PAWN', from: ['e2'], to: ['e5'] });
    expect(result.layers.map((layer) => layer.squares)).toEqual([['e2'], ['e4'], ['e5']]);
    expect(result.distances[20]).toBe(1); // e3
  });

  it('backward fills use the reverse move: several sources, only some start a shortest path', () => {
    const result = solveChecked({ piece: 'WHITE_PAWN', from: ['e2', 'e3', 'd2'], to: ['e4', 'd5'] });
    expect(result.distance).toBe(1);
    expect(result.layers.map((layer) => layer.squares)).toEqual([['e2', 'e3'], ['e4']]);
    expect(result.pathCount).toBe(2n);
  });

  it('the double step needs its landing square on the board (3 and 2 ranks)', () => {
    const three = { files: 4, ranks: 3 };
    expect(solveChecked({ piece: 'WHITE_PAWN', from: ['b2'], to: ['b3'], board: three }).distance).toBe(1);
    expect(solveChecked({ piece: 'BLACK_PAWN', from: ['b2'], to: ['b1'], board: three }).distance).toBe(1);
    const two = { files: 4, ranks: 2 };
    expectUnreachable(solveChecked({ piece: 'WHITE_PAWN', from: ['b2'], to: ['b1'], board: two }));
    expect(solveChecked({ piece: 'WHITE_PAWN', from: ['b1'], to: ['b2'], board: two }).distance).toBe(1);
    expectUnreachable(solveChecked({ piece: 'BLACK_PAWN', from: ['b1'], to: ['b2'], board: two }));
  });
});

describe('1 x N and N x 1 boards', () => {
  it('one file, eight ranks', () => {
    const board = { files: 1, ranks: 8 };
    expect(solveChecked({ piece: 'ROOK', from: ['a1'], to: ['a8'], board }).pathCount).toBe(1n);
    expect(solveChecked({ piece: 'ROOK', from: ['a1'], to: ['a8'], board }).distance).toBe(1);
    const king = solveChecked({ piece: 'KING', from: ['a1'], to: ['a8'], board });
    expect(king.distance).toBe(7);
    expect(king.pathCount).toBe(1n);
    expect(king.layers).toHaveLength(8);
    expectUnreachable(solveChecked({ piece: 'KNIGHT', from: ['a1'], to: ['a3'], board }));
    expectUnreachable(solveChecked({ piece: 'BISHOP', from: ['a1'], to: ['a2'], board }));
    expect(solveChecked({ piece: 'WHITE_PAWN', from: ['a2'], to: ['a8'], board }).distance).toBe(5);
    expect(solveChecked({ piece: 'BLACK_PAWN', from: ['a7'], to: ['a1'], board }).distance).toBe(5);
    expect(solveChecked({ piece: 'QUEEN', from: ['a3'], to: ['a1', 'a8'], board }).pathCount).toBe(2n);
    // A rook ray stops before a blocked square.
    expect(solveChecked({ piece: 'ROOK', from: ['a1'], to: ['a8'], board, blocked: ['a5'] }).reachable).toBe(false);
  });

  it('eight files, one rank', () => {
    const board = { files: 8, ranks: 1 };
    expect(solveChecked({ piece: 'ROOK', from: ['a1'], to: ['h1'], board }).distance).toBe(1);
    expect(solveChecked({ piece: 'KING', from: ['a1'], to: ['h1'], board }).distance).toBe(7);
    expectUnreachable(solveChecked({ piece: 'WHITE_PAWN', from: ['c1'], to: ['d1'], board }));
    expectUnreachable(solveChecked({ piece: 'BLACK_PAWN', from: ['c1'], to: ['d1'], board }));
    expectUnreachable(solveChecked({ piece: 'KNIGHT', from: ['a1'], to: ['c1'], board }));
    expect(
      solveChecked({ piece: 'QUEEN', from: ['c1'], to: ['a1', 'h1'], board, blocked: ['b1'] }).path?.squares,
    ).toEqual(['c1', 'h1']);
  });

  it('long strips: 1 x 256 and 256 x 1', () => {
    const tall = solveChecked({ piece: 'KING', from: ['a1'], to: ['a256'], board: { files: 1, ranks: 256 } });
    expect(tall.distance).toBe(255);
    expect(tall.pathCount).toBe(1n);
    const wide = solveChecked({ piece: 'ROOK', from: ['a1'], to: ['iv1'], board: { files: 256, ranks: 1 } });
    expect(wide.distance).toBe(1);
    expect(wide.mask).toBe(`0x${'f'.repeat(64)}`);
  });
});

describe('boards wider than 26 files', () => {
  it('names files aa, ab, ... and ranks above 9', () => {
    const board = { files: 30, ranks: 30 };
    const rook = solveChecked({ piece: 'ROOK', from: ['a1'], to: ['AD30'], board });
    expect(rook.distance).toBe(2);
    expect(rook.pathCount).toBe(2n);
    expect(rook.path?.squares).toEqual(['a1', 'ad1', 'ad30']);
    expect(rook.targets.squares).toEqual(['ad30']);
    const king = solveChecked({ piece: 'KING', from: ['aa27'], to: ['ad30', 'z26'], board });
    expect(king.distance).toBe(1);
    expect(king.sources.indices).toEqual([26 * 30 + 26]);
    expect(king.path?.squares).toEqual(['aa27', 'z26']);
  });

  it('files beyond az on a 60 x 3 board', () => {
    const board = { files: 60, ranks: 3 };
    const knight = solveChecked({ piece: 'KNIGHT', from: ['a1'], to: ['bh3'], board });
    expect(knight.targets.indices).toEqual([2 * 60 + 59]);
    const bishop = solveChecked({ piece: 'BISHOP', from: ['az1'], to: ['bb3', 'ay2'], board });
    expect(bishop.path?.squares).toEqual(['az1', 'ay2']);
  });
});

describe('path counts beyond 64 bits', () => {
  it('KING on an open 64 x 64 board from a1 to bl1', () => {
    const result = solveChecked({ piece: 'KING', from: ['a1'], to: ['bl1'], board: { files: 64, ranks: 64 } });
    expect(result.distance).toBe(63);
    expect(result.pathCount > 2n ** 64n).toBe(true);
    // Motzkin number M_63: walks of 63 steps of -1/0/+1 rank that start and end on rank 1 and
    // never go below it (rank 64 is out of reach within 63 steps).
    expect(result.pathCount).toBe(motzkin(63));
  });

  it('KING on an open 256 x 256 board from a1 to iv1 and to iv200', () => {
    const result = solveChecked({
      piece: 'KING',
      from: ['a1'],
      to: ['iv1', 'iv200'],
      board: { files: 256, ranks: 256 },
    });
    expect(result.distance).toBe(255);
    expect(result.pathCount > 2n ** 128n).toBe(true);
  }, 60_000);
});

/** Motzkin numbers by their recurrence (n+2) M_n = (2n+1) M_{n-1} + 3(n-1) M_{n-2}. */
function motzkin(n: number): bigint {
  let previous = 1n; // M_0
  let current = 1n; // M_1
  if (n === 0) return previous;
  for (let k = 2n; k <= BigInt(n); k++) {
    const next = ((2n * k + 1n) * current + 3n * (k - 1n) * previous) / (k + 2n);
    previous = current;
    current = next;
  }
  return current;
}

describe('sliders and blocked squares', () => {
  it('a rook stops before a blocked square', () => {
    const result = solveChecked({ piece: 'ROOK', from: ['a1'], to: ['h1'], blocked: ['d1'] });
    expect(result.distance).toBe(3);
    expect(result.squares.squares).not.toContain('d1');
    expect(result.distances[2]).toBe(1); // c1
    expect(result.distances[3]).toBeNull(); // d1, blocked
    expect(result.distances[4]).toBe(3); // e1: around, then down the e file or along rank 1
  });

  it('a queen stops before a blocked square on every ray', () => {
    const result = solveChecked({ piece: 'QUEEN', from: ['d4'], to: ['h8', 'a1', 'h4'], blocked: ['f6', 'b2', 'g4'] });
    expect(result.distance).toBe(2);
    expect(result.distances[63]).toBe(2); // h8 behind f6
  });

  it('a bishop ray passes over squares that are not part of the path', () => {
    const result = solveChecked({ piece: 'BISHOP', from: ['a1'], to: ['h8'] });
    expect(result.distance).toBe(1);
    expect(result.layers.map((layer) => layer.squares)).toEqual([['a1'], ['h8']]);
    expect(result.squares.squares).toEqual(['a1', 'h8']);
    expect(result.path?.squares).toEqual(['a1', 'h8']);
    expect(result.pathCount).toBe(1n);
  });

  it('a blocked square on the diagonal forces a detour (mask or blocked name alike)', () => {
    const withoutE5 = `0x${(((1n << 64n) - 1n) ^ (1n << 36n)).toString(16)}`; // e5 = bit 36
    const byMask = solveChecked({ piece: 'BISHOP', from: ['a1'], to: ['h8'], mask: withoutE5 });
    const byName = solveChecked({ piece: 'BISHOP', from: ['a1'], to: ['h8'], blocked: ['e5'] });
    // h8 is entered only from f6/g7; those are reached over the d8-h4 diagonal: five moves.
    expect(byMask.distance).toBe(5);
    expect(byName.distance).toBe(5);
    expect(byMask.mask).toBe(withoutE5);
    expect(byName.mask).toBe(withoutE5);
  });

  it('two sliding moves with the same start and landing are one move', () => {
    expect(solveChecked({ piece: 'QUEEN', from: ['a1'], to: ['h8'] }).pathCount).toBe(1n);
    expect(solveChecked({ piece: 'ROOK', from: ['a1'], to: ['a8', 'h1'] }).pathCount).toBe(2n);
    expect(solveChecked({ piece: 'QUEEN', from: ['a1'], to: ['b3'] }).pathCount).toBe(
      referenceSolve(referenceProblemOfQuery({ piece: 'QUEEN', from: ['a1'], to: ['b3'] })).pathCount,
    );
  });
});

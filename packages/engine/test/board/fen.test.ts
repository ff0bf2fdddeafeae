/**
 * FEN positions: standard 8 x 8 FENs parse into pieces, side to move and occupied squares; larger
 * boards use the same syntax with `ranks` rank fields and run lengths above 8; malformed FENs are
 * rejected with an InputError. A query with `fen` must block the occupied squares except its own
 * from/to squares (passable = mask - blocked - (occupied - from - to)); the expected masks here
 * are computed by hand from the listed squares, and the answers are compared with the reference.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { parseFen, solve } from '../../src/index.js';
import type { PathQuery } from '../../src/types.js';
import { expectResultMatchesReference } from '../support/engine-harness.js';
import {
  type ReferenceBoard,
  type ReferencePiece,
  referenceFormatHex,
  referenceParseSquare,
  referenceSolve,
} from '../support/reference-bfs.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const EIGHT = { files: 8, ranks: 8 };

const indexOf = (name: string, board: ReferenceBoard = EIGHT): number => {
  const index = referenceParseSquare(name, board);
  if (index === null) throw new Error(`bad square ${name}`);
  return index;
};

/** Squares of whole ranks (1-based), as indices. */
const ranksOf = (board: ReferenceBoard, ...ranks: number[]) =>
  ranks.flatMap((rank) => Array.from({ length: board.files }, (_, file) => (rank - 1) * board.files + file));

const sortPieces = (pieces: { square: string; role: string; color: string }[]) =>
  [...pieces]
    .map(({ square, role, color }) => ({ square, role, color }))
    .sort((a, b) => a.square.localeCompare(b.square));

function expectFenRejected(fen: string, board?: { files: number; ranks: number }): void {
  expect(() => (board ? parseFen(fen, board) : parseFen(fen)), fen).toThrow(InputError);
}

/**
 * Solves a FEN query and checks it against the reference, with passable squares computed by hand:
 * every square, minus `blocked`, minus the occupied squares except from/to.
 */
function solveFenChecked(query: PathQuery, occupied: readonly number[]) {
  const board = { files: query.board?.files ?? 8, ranks: query.board?.ranks ?? 8 };
  const passable = new Array<boolean>(board.files * board.ranks).fill(true);
  const exempt = new Set([...query.from, ...query.to].map((name) => indexOf(name, board)));
  for (const square of occupied) if (!exempt.has(square)) passable[square] = false;
  for (const name of query.blocked ?? []) passable[indexOf(name, board)] = false;
  const problem = {
    piece: query.piece as ReferencePiece,
    ...board,
    passable,
    sources: query.from.map((name) => indexOf(name, board)),
    targets: query.to.map((name) => indexOf(name, board)),
  };
  const result = solve(query);
  expect(result.mask).toBe(referenceFormatHex(passable, board));
  expectResultMatchesReference(result, problem, referenceSolve(problem));
  return result;
}

describe('parseFen', () => {
  it('parses the start position: 32 pieces, white to move', () => {
    const position = parseFen(START);
    expect(position.board).toEqual(EIGHT);
    expect(position.turn).toBe('WHITE');
    expect(position.pieces).toHaveLength(32);
    expect(position.occupied.bitboard).toBe('0xffff00000000ffff');
    expect(position.occupied.count).toBe(32);
    const back = ['ROOK', 'KNIGHT', 'BISHOP', 'QUEEN', 'KING', 'BISHOP', 'KNIGHT', 'ROOK'];
    const files = 'abcdefgh';
    const expected = [
      ...[...files].map((file, i) => ({ square: `${file}1`, role: back[i], color: 'WHITE' })),
      ...[...files].map((file) => ({ square: `${file}2`, role: 'PAWN', color: 'WHITE' })),
      ...[...files].map((file) => ({ square: `${file}7`, role: 'PAWN', color: 'BLACK' })),
      ...[...files].map((file, i) => ({ square: `${file}8`, role: back[i], color: 'BLACK' })),
    ];
    expect(sortPieces(position.pieces)).toEqual(sortPieces(expected));
  });

  it('writes the FEN in full, one space apart: absent fields get their defaults', () => {
    expect(parseFen('8/8/8/8/4K3/8/8/8').fen).toBe('8/8/8/8/4K3/8/8/8 w - - 0 1');
    expect(parseFen('  8/8/8/8/4K3/8/8/8   b ').fen).toBe('8/8/8/8/4K3/8/8/8 b - - 0 1');
    const full = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1';
    expect(parseFen(full).fen).toBe(full);
  });

  it('turn b is BLACK; a moved pawn moves its occupied square', () => {
    const position = parseFen('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1');
    expect(position.turn).toBe('BLACK');
    expect(position.occupied.squares).toContain('e4');
    expect(position.occupied.squares).not.toContain('e2');
    expect(position.pieces.find((piece) => piece.square === 'e4')).toMatchObject({ role: 'PAWN', color: 'WHITE' });
  });

  it('a sparse middlegame position', () => {
    const position = parseFen('8/5k2/8/3Pp3/8/8/1K6/7R w - e6 0 40');
    expect(sortPieces(position.pieces)).toEqual(
      sortPieces([
        { square: 'f7', role: 'KING', color: 'BLACK' },
        { square: 'd5', role: 'PAWN', color: 'WHITE' },
        { square: 'e5', role: 'PAWN', color: 'BLACK' },
        { square: 'b2', role: 'KING', color: 'WHITE' },
        { square: 'h1', role: 'ROOK', color: 'WHITE' },
      ]),
    );
    expect(position.occupied.indices).toEqual(
      ['h1', 'b2', 'd5', 'e5', 'f7'].map((name) => indexOf(name)).sort((a, b) => a - b),
    );
  });

  it('a 10 x 10 FEN with run length 10', () => {
    const board = { files: 10, ranks: 10 };
    const position = parseFen('r8k/10/10/10/4Q5/10/10/10/pppppppppp/R8K w - - 0 1', board);
    expect(position.board).toEqual(board);
    expect(position.turn).toBe('WHITE');
    expect(position.pieces).toHaveLength(15);
    expect(sortPieces(position.pieces.filter((piece) => piece.role !== 'PAWN'))).toEqual(
      sortPieces([
        { square: 'a10', role: 'ROOK', color: 'BLACK' },
        { square: 'j10', role: 'KING', color: 'BLACK' },
        { square: 'e6', role: 'QUEEN', color: 'WHITE' },
        { square: 'a1', role: 'ROOK', color: 'WHITE' },
        { square: 'j1', role: 'KING', color: 'WHITE' },
      ]),
    );
    const expectedOccupied = [
      ...['a1', 'j1', 'e6', 'a10', 'j10'].map((name) => indexOf(name, board)),
      ...ranksOf(board, 2),
    ].sort((a, b) => a - b);
    expect(position.occupied.indices).toEqual(expectedOccupied);
    expect(position.occupied.bitboard).toBe(referenceFormatHex(expectedOccupied, board));
  });

  it('a 12 x 9 FEN with run lengths 11 and 12', () => {
    const board = { files: 12, ranks: 9 };
    const position = parseFen('11k/12/12/12/12/12/12/12/K11 b - - 0 1', board);
    expect(position.turn).toBe('BLACK');
    expect(position.occupied.squares).toEqual(['a1', 'l9']);
  });

  it('rejects a wrong number of ranks', () => {
    expectFenRejected('8/8/8/8/8/8/8 w - - 0 1');
    expectFenRejected('8/8/8/8/8/8/8/8/8 w - - 0 1');
    expectFenRejected('10/10/10/10/10/10/10/10 w - - 0 1', { files: 10, ranks: 10 });
  });

  it('rejects rank fields that are too short or too long', () => {
    expectFenRejected('9/8/8/8/8/8/8/8 w - - 0 1');
    expectFenRejected('7/8/8/8/8/8/8/8 w - - 0 1');
    expectFenRejected('rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expectFenRejected('rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expectFenRejected('44/8/8/8/8/8/8/8 w - - 0 1');
    // A 10 x 10 FEN read as 8 x 8.
    expectFenRejected('r8k/10/10/10/4Q5/10/10/10/pppppppppp/R8K w - - 0 1');
    expectFenRejected('11/10/10/10/10/10/10/10/10/10 w - - 0 1', { files: 10, ranks: 10 });
  });

  it('rejects unknown piece letters', () => {
    expectFenRejected('rnbqkbnx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expectFenRejected('8/8/8/8/8/8/8/7Z w - - 0 1');
    expectFenRejected('8/8/8/8/8/8/8/7* w - - 0 1');
  });

  it('an invalid FEN inside a query is an InputError', () => {
    expect(() => solve({ piece: 'KING', from: ['a1'], to: ['h8'], fen: '9/8/8/8/8/8/8/8 w - - 0 1' })).toThrow(
      InputError,
    );
  });
});

describe('queries with a fen', () => {
  it("occupied squares block except the query's own from and to squares (start position)", () => {
    const occupied = ranksOf(EIGHT, 1, 2, 7, 8);
    const rook = solveFenChecked({ piece: 'ROOK', from: ['a1'], to: ['a8'], fen: START }, occupied);
    // Passable: ranks 3-6 plus a1 and a8.
    const expectedMask = ((0xffffffffn << 16n) & ((1n << 48n) - 1n)) | 1n | (1n << 56n);
    expect(rook.mask).toBe(`0x${expectedMask.toString(16).padStart(16, '0')}`);
    expect(rook.reachable).toBe(false); // a2 and a7 are in the way
    const knight = solveFenChecked({ piece: 'KNIGHT', from: ['g1'], to: ['e4', 'f5'], fen: START }, occupied);
    // g1-f3-d4-f5 or g1-f3-g5-e4: three moves (e2 is occupied).
    expect(knight.distance).toBe(3);
  });

  it('a piece on a target is captured; other pieces block', () => {
    const fen = '8/5k2/8/3Pp3/8/8/1K6/7R w - e6 0 40';
    const occupied = ['h1', 'b2', 'd5', 'e5', 'f7'].map((name) => indexOf(name));
    const rook = solveFenChecked({ piece: 'ROOK', from: ['h1'], to: ['f7'], fen }, occupied);
    expect(rook.distance).toBe(2);
    const king = solveFenChecked({ piece: 'KING', from: ['b2'], to: ['e5', 'd6'], fen }, occupied);
    expect(king.targets.squares).toEqual(['e5', 'd6']);
    expect(king.distance).toBe(3);
  });

  it('fen, mask and blocked combine; a blocked from square stays blocked', () => {
    const occupied = ranksOf(EIGHT, 1, 2, 7, 8);
    const result = solveFenChecked(
      { piece: 'QUEEN', from: ['d1', 'e1'], to: ['d8'], fen: START, blocked: ['e1', 'd5'] },
      occupied,
    );
    expect(result.sources.squares).toEqual(['d1']);
    const withMask = solve({ piece: 'KING', from: ['e1'], to: ['e8'], fen: START, mask: '0xffffffffff7fffff' });
    // Bit 23 (h3) removed by the mask on top of the position.
    const manual = ((0xffffffffn << 16n) & ((1n << 48n) - 1n) & ~(1n << 23n)) | (1n << 4n) | (1n << 60n);
    expect(withMask.mask).toBe(`0x${manual.toString(16).padStart(16, '0')}`);
  });

  it('a 10 x 10 position', () => {
    const board = { files: 10, ranks: 10 };
    const fen = 'r8k/10/10/10/4Q5/10/10/10/pppppppppp/R8K w - - 0 1';
    const occupied = [...['a1', 'j1', 'e6', 'a10', 'j10'].map((name) => indexOf(name, board)), ...ranksOf(board, 2)];
    const queen = solveFenChecked({ piece: 'QUEEN', from: ['e6'], to: ['a10', 'j1'], fen, board }, occupied);
    expect(queen.distance).toBe(1);
    const king = solveFenChecked({ piece: 'KING', from: ['a1'], to: ['j10'], fen, board }, occupied);
    expect(king.reachable).toBe(false); // the pawn rank walls the king in
  });
});

/**
 * How each piece moves, described once as data: leapers (king, knight) as (file, rank) jumps,
 * sliders as unit directions repeated up to the edge or the first square that is not passable,
 * pawns as a single step plus a double step from their home rank. The setwise fills
 * (`fill.ts`, `fill64.ts`) and the square-by-square walks used for counting and enumeration
 * (`forEachMove`) read the same tables, so they cannot disagree about a move.
 */
import type { Piece } from './types.js';

/** A (file, rank) offset. */
export type Jump = readonly [df: number, dr: number];

const KING_JUMPS: readonly Jump[] = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];
const KNIGHT_JUMPS: readonly Jump[] = [
  [1, 2],
  [2, 1],
  [2, -1],
  [1, -2],
  [-1, -2],
  [-2, -1],
  [-2, 1],
  [-1, 2],
];
const ROOK_DIRECTIONS: readonly Jump[] = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];
const BISHOP_DIRECTIONS: readonly Jump[] = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];
const QUEEN_DIRECTIONS: readonly Jump[] = [...ROOK_DIRECTIONS, ...BISHOP_DIRECTIONS];

/** How a piece moves, in one of three shapes. */
export type MoveKind =
  | { kind: 'leaper'; jumps: readonly Jump[] }
  | { kind: 'slider'; directions: readonly Jump[] }
  | { kind: 'pawn'; forward: 1 | -1 };

/** The move table of a piece. */
export function moveKind(piece: Piece): MoveKind {
  switch (piece) {
    case 'KING':
      return { kind: 'leaper', jumps: KING_JUMPS };
    case 'KNIGHT':
      return { kind: 'leaper', jumps: KNIGHT_JUMPS };
    case 'ROOK':
      return { kind: 'slider', directions: ROOK_DIRECTIONS };
    case 'BISHOP':
      return { kind: 'slider', directions: BISHOP_DIRECTIONS };
    case 'QUEEN':
      return { kind: 'slider', directions: QUEEN_DIRECTIONS };
    case 'WHITE_PAWN':
      return { kind: 'pawn', forward: 1 };
    case 'BLACK_PAWN':
      return { kind: 'pawn', forward: -1 };
  }
}

/** Rank index from which a pawn may make its double step. */
export function pawnHomeRank(forward: 1 | -1, ranks: number): number {
  return forward === 1 ? 1 : ranks - 2;
}

function isSet(words: ArrayLike<number>, i: number): boolean {
  return ((words[i >>> 5] >>> (i & 31)) & 1) === 1;
}

/**
 * Calls `visit(v)` for every legal move u -> v of `piece` on a `files` x `ranks` board whose
 * passable squares are `passable`. Each landing square is visited once.
 */
export function forEachMove(
  piece: Piece,
  files: number,
  ranks: number,
  passable: ArrayLike<number>,
  u: number,
  visit: (v: number) => void,
): void {
  const moves = moveKind(piece);
  const f = u % files;
  const r = (u - f) / files;
  if (moves.kind === 'leaper') {
    for (const [df, dr] of moves.jumps) {
      const nf = f + df;
      const nr = r + dr;
      if (nf < 0 || nf >= files || nr < 0 || nr >= ranks) continue;
      const v = nr * files + nf;
      if (isSet(passable, v)) visit(v);
    }
  } else if (moves.kind === 'slider') {
    for (const [df, dr] of moves.directions) {
      let nf = f + df;
      let nr = r + dr;
      while (nf >= 0 && nf < files && nr >= 0 && nr < ranks) {
        const v = nr * files + nf;
        if (!isSet(passable, v)) break;
        visit(v);
        nf += df;
        nr += dr;
      }
    }
  } else {
    const nr = r + moves.forward;
    if (nr < 0 || nr >= ranks) return;
    const one = nr * files + f;
    if (!isSet(passable, one)) return;
    visit(one);
    const nr2 = nr + moves.forward;
    if (r !== pawnHomeRank(moves.forward, ranks) || nr2 < 0 || nr2 >= ranks) return;
    const two = nr2 * files + f;
    if (isSet(passable, two)) visit(two);
  }
}

/**
 * How each piece moves, described once as data: leapers (king, knight) as (file, rank) jumps,
 * sliders as unit directions repeated up to the edge or the first square that is not passable,
 * pawns as a single step plus a double step from their home rank, and fairy pieces as the rays
 * of their Betza text (`betza.ts`). The setwise fills (`fill.ts`, `fill64.ts`, `fairy-fill.ts`)
 * and the square-by-square walks used for counting and enumeration (`forEachMove`) read the
 * same tables, so they cannot disagree about a move.
 */
import type { FairyPiece, FairyRay, HopRay } from '../betza/betza.js';
import { forEachHop } from '../fairy/fairy-hops.js';
import type { OrthodoxMover } from '../types.js';

/** What moves: an orthodox piece by its name, or a fairy piece by its rays. */
export type Mover = OrthodoxMover | FairyPiece;

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
export function moveKind(piece: OrthodoxMover): MoveKind {
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
 * Calls `visit(v)` for every legal move u -> v of `mover` on a `files` x `ranks` board whose
 * passable squares are `passable`. Each landing square is visited once.
 */
export function forEachMove(
  mover: Mover,
  files: number,
  ranks: number,
  passable: ArrayLike<number>,
  u: number,
  visit: (v: number) => void,
): void {
  if (typeof mover !== 'string') {
    forEachFairyMove(mover.rays, mover.hops, files, ranks, passable, u, visit);
    return;
  }
  const moves = moveKind(mover);
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

/** Landings already visited by the current `forEachFairyMove`: `visitedAt[v] === visitStamp`. */
let visitedAt = new Int32Array(64);
let visitStamp = 0;

/**
 * `forEachMove` of a fairy piece: each ray leaps from u while the squares the leap passes over
 * (when lame) and the landing are on the board and passable, up to its `max` leaps. Two rays
 * may land on one square (a wazir's second step and a dabbaba's leap); it is one move. Hops
 * (`fairy-hops.ts`) are moves of the same list.
 */
function forEachFairyMove(
  rays: readonly FairyRay[],
  hops: readonly HopRay[],
  files: number,
  ranks: number,
  passable: ArrayLike<number>,
  u: number,
  visit: (v: number) => void,
): void {
  const n = files * ranks;
  if (visitedAt.length < n) visitedAt = new Int32Array(n);
  if (++visitStamp === 0x7fffffff) {
    visitedAt.fill(0);
    visitStamp = 1;
  }
  const stamp = visitStamp;
  const f0 = u % files;
  const r0 = (u - f0) / files;
  for (const { dx, dy, max, lame } of rays) {
    let f = f0;
    let r = r0;
    for (let j = 0; j < max; j++) {
      // The squares a lame leap passes over lie between its start and its landing: on the board
      // whenever the landing is.
      const nf = f + dx;
      const nr = r + dy;
      if (nf < 0 || nf >= files || nr < 0 || nr >= ranks) break;
      let open = true;
      for (const [px, py] of lame) {
        if (!isSet(passable, (r + py) * files + f + px)) {
          open = false;
          break;
        }
      }
      const v = nr * files + nf;
      if (!open || !isSet(passable, v)) break;
      if (visitedAt[v] !== stamp) {
        visitedAt[v] = stamp;
        visit(v);
      }
      f = nf;
      r = nr;
    }
  }
  if (hops.length > 0)
    forEachHop(hops, files, ranks, passable, u, false, (v) => {
      if (visitedAt[v] !== stamp) {
        visitedAt[v] = stamp;
        visit(v);
      }
    });
}

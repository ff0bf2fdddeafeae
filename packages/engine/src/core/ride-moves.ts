/**
 * A piece's moves as the rides kernel takes them (`kernels/rides-wasm.ts`): each a shift of the
 * board's square order from the squares of its guard, made once (a leap), or repeated while it
 * lands on passable squares (a ride), up to a limit or to the edge. The orthodox sliders' are kept per board; a fairy piece's
 * are kept with its shifts (`fairy-fill.ts`), whose guards they share, so that a lame leap's
 * guard, refilled for each passable set, is the one the kernel reads.
 */

import type { FairyPiece } from '../betza/betza.js';
import type { Geometry } from '../board/geometry.js';
import type { FairyShifts, RideShift } from '../fairy/fairy-fill.js';
import { leapsOnBoard } from '../fairy/fairy-rides.js';
import { type RideMove, ridesFit, wasmRidesAvailable } from '../kernels/rides-wasm.js';
import type { OrthodoxMover } from '../types.js';
import { type Mover, moveKind } from './moves.js';

/** A piece's moves for the kernel, forward and reversed (null: the forward ones, reversed by symmetry). */
export interface Rides {
  readonly forward: RideMove[];
  readonly backward: RideMove[] | null;
}

/**
 * The moves of `piece` (with `fairy`, its shifts for the solve under way) for the rides kernel,
 * or null where the kernel is not for it: WebAssembly refused here, a king, a knight (unless
 * `leapers`) or a pawn, a fairy piece that hops.
 */
export function ridesOf(geo: Geometry, piece: Mover, fairy: FairyShifts | null, leapers = false): Rides | null {
  if (!wasmRidesAvailable()) return null;
  if (fairy !== null) return fairyRides(geo, fairy);
  if (typeof piece !== 'string') return null;
  const moves = moveKind(piece);
  if (moves.kind === 'slider') return { forward: orthodoxMoves(geo, piece, moves.directions, 0), backward: null };
  // The king's and the knight's solves have kernels of their own; with `leapers`, they take this one.
  if (moves.kind === 'leaper' && leapers) return { forward: orthodoxMoves(geo, piece, moves.jumps, 1), backward: null };
  return null;
}

/** Per board, the orthodox pieces' moves by piece: five lists at most, living as long as the geometry. */
const orthodox = new WeakMap<Geometry, Map<OrthodoxMover, RideMove[]>>();

/** A slider's `directions` (files, ranks) on `geo` as rides. */
/** The moves (files, ranks) of an orthodox piece on `geo`, as rides (`limit` 0) or leaps (1). */
function orthodoxMoves(
  geo: Geometry,
  piece: OrthodoxMover,
  directions: readonly (readonly [number, number])[],
  limit: 0 | 1,
): RideMove[] {
  let byPiece = orthodox.get(geo);
  if (byPiece === undefined) {
    byPiece = new Map();
    orthodox.set(geo, byPiece);
  }
  let moves = byPiece.get(piece);
  if (moves === undefined) {
    moves = directions.map(([df, dr]) => ({
      delta: dr * geo.files + df,
      guard: df > 0 ? geo.notEastFiles[df - 1] : df < 0 ? geo.notWestFiles[-df - 1] : geo.all,
      limit,
    }));
    byPiece.set(piece, moves);
  }
  return moves;
}

/** A fairy piece's moves, forward and reversed; null where the kernel takes them not. */
const fairies = new WeakMap<FairyShifts, Rides | null>();

/**
 * The moves of a fairy piece (its shifts on `geo`): each ray a leap, a ride of at most its
 * limit, or a ride as far as the board allows. Null for a piece that hops, which the general
 * fill takes.
 */
function fairyRides(geo: Geometry, fairy: FairyShifts): Rides | null {
  let moves = fairies.get(fairy);
  if (moves === undefined) {
    // A ray with a chain rides to the edge; any other stops after `max` leaps, or as many as fit.
    const asMoves = (rays: readonly RideShift[]) =>
      rays.map((s) => ({
        delta: s.delta,
        guard: s.guard,
        limit: s.chain !== null ? 0 : Math.max(1, Math.min(s.max, leapsOnBoard(geo, s.dx, s.dy))),
      }));
    moves = fairy.hops.length === 0 ? { forward: asMoves(fairy.forward), backward: asMoves(fairy.reverse) } : null;
    if (moves !== null && !ridesFit(moves.forward, moves.backward)) moves = null;
    fairies.set(fairy, moves);
  }
  return moves;
}

/** Per piece, the last board `ridesBeatSmallFill` decided for (a service asks about the same few). */
const lastDecided = new WeakMap<FairyPiece, { geo: Geometry; rides: boolean }>();

/**
 * Whether a fairy piece on a board of 4 to 8 words (97 to 256 squares), which the small boards'
 * fill takes, is faster in the rides kernel: when it rides to the board's edge somewhere and never
 * hops. Measured against the small boards' fill on 10 x 10 to 16 x 16: 1.2-1.8x for `QN`, `NN`,
 * `WW`; leapers and limited rides were faster on the small boards' fill (0.5-0.9), and so was
 * every piece up to 3 words (9 x 10: 0.95-1.0; 8 x 8 has its own fill).
 */
export function ridesBeatSmallFill(geo: Geometry, piece: FairyPiece): boolean {
  if (geo.words < 4 || piece.hops.length > 0 || !wasmRidesAvailable()) return false;
  const last = lastDecided.get(piece);
  if (last?.geo === geo) return last.rides;
  const rides = piece.rays.some((r) => {
    const leaps = leapsOnBoard(geo, r.dx, r.dy);
    return leaps > 1 && r.max >= leaps;
  });
  lastDecided.set(piece, { geo, rides });
  return rides;
}

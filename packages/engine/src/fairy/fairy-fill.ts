/**
 * The shifts of a fairy piece for the general fill (`fill.ts`): every ray of its Betza text as a
 * shift by the leap, guarded by the squares a leap may start from, repeated up to the ray's
 * leaps. A ride is then what a slider's ray is (a shift repeated until nothing passable is left),
 * stopped after `max` leaps; a leaper is a ride of one leap. Never a square-by-square search.
 *
 * Where a leap may start is the one thing that differs from the orthodox pieces' shifts: its
 * landing's file must be on the board (a shift by dx must not wrap onto the next rank), and, for
 * a lame leap, every square it passes over must be passable. Both are a set of start squares:
 * the files part depends only on the board and is kept per board; the lame part is the passable
 * set shifted back by each passed-over offset, made once per solve (the passable set is fixed
 * for a solve). The backward fill walks each ray backwards: the reverse of a leap by d that
 * passes over p (offsets from its start) is a leap by -d that passes over p - d.
 */

import type { FairyPiece, HopRay } from '../betza/betza.js';
import type { Geometry } from '../board/geometry.js';
import { heldBytes, keptTables } from '../util/memory.js';
import { type DenseHop, denseHops, refreshDenseHops } from './fairy-hops.js';
import { andShifted, leapsOnBoard, newRideChain, type RideChain } from './fairy-rides.js';

/** One ray on one board: shift by `delta` squares from the squares of `guard`, `max` times at most. */
export interface RideShift {
  /** The leap: `dx` files and `dy` ranks, `delta` = dy * files + dx squares. */
  readonly dx: number;
  readonly dy: number;
  readonly delta: number;
  readonly guard: Int32Array;
  readonly max: number;
  /**
   * For a ride whose limit reaches the board's edge (more leaps would leave the board): its
   * doubling chain (`fairy-rides.ts`), made per solve on first use. Null for leapers and
   * shorter rides, which go leap by leap.
   */
  readonly chain: RideChain | null;
}

/** A fairy piece's shifts on one board and passable set: forward, and for the backward fill. */
export interface FairyShifts {
  readonly forward: readonly RideShift[];
  readonly reverse: readonly RideShift[];
  /** The piece's hopper rays (`fairy-hops.ts`), and the board's sides. */
  readonly hops: readonly HopRay[];
  /** The hops set-wise, forward and reversed, refreshed per solve. */
  readonly hopsForward: readonly DenseHop[];
  readonly hopsReverse: readonly DenseHop[];
  readonly files: number;
  readonly ranks: number;
  /** True when some ray has a chain (the fill may then ride by doubling). */
  readonly chains: boolean;
  /** Counts the solves these shifts served: a chain made in another solve is stale. */
  epoch: number;
  /** The solve the hurdles were refreshed for (`refreshHops`); -1 before the first. */
  hopEpoch: number;
  /** The solves the dense hops forward and reversed were refreshed for; -1 before the first. */
  hopEpochForward: number;
  hopEpochReverse: number;
}

/**
 * Per board: the start squares of a leap by dx files (its landing's file on the board). Bounded
 * by construction: one per dx, |dx| < 256, living as long as the geometry; the shifts that use
 * them count them in their size.
 */
const fileGuards = new WeakMap<Geometry, Map<number, Int32Array>>();

/** The squares whose file f has 0 <= f + dx < files. */
function fileGuard(geo: Geometry, dx: number): Int32Array {
  let byDx = fileGuards.get(geo);
  if (byDx === undefined) {
    byDx = new Map();
    fileGuards.set(geo, byDx);
  }
  let guard = byDx.get(dx);
  if (guard === undefined) {
    guard = new Int32Array(geo.words);
    const { files, n } = geo;
    for (let i = 0; i < n; i++) {
      const f = (i % files) + dx;
      if (f >= 0 && f < files) guard[i >>> 5] |= 1 << (i & 31);
    }
    byDx.set(dx, guard);
  }
  return guard;
}

/** A lame ray's guard, refilled for each passable set: the file guard less the lame squares' starts. */
interface LameGuard {
  readonly guard: Int32Array;
  /** The ray's file guard, which the guard starts from. */
  readonly files: Int32Array;
  /** Each passed-over square's offset from the leap's start, in squares. */
  readonly offsets: readonly number[];
}

/** A piece's shifts on one board, made once; the lame rays' guards are refilled per solve. */
interface BoardShifts extends FairyShifts {
  readonly lameGuards: readonly LameGuard[];
  /** The squares of the board not passable (hurdles), refilled per solve when the piece hops. */
  readonly closed: Int32Array;
  readonly all: Int32Array;
}

/**
 * Each piece's shifts per board, in the `boards` cache (`memory.ts`), by canonical text and size
 * (equal pieces have equal canonical rays).
 */
const shiftsByPiece = keptTables<BoardShifts>('boards', 'shifts');

/** The shifts of `piece` on `geo`, made on first use and kept while they fit. */
function boardShifts(geo: Geometry, piece: FairyPiece): BoardShifts {
  const id = `${piece.betza}@${geo.files}x${geo.ranks}`;
  let shifts = shiftsByPiece.get(id);
  if (shifts === undefined) {
    const lameGuards: LameGuard[] = [];
    const shift = (dx: number, dy: number, lame: readonly (readonly [number, number])[], max: number): RideShift => {
      let guard = fileGuard(geo, dx);
      if (lame.length > 0) {
        const files = guard;
        guard = new Int32Array(geo.words);
        lameGuards.push({ guard, files, offsets: lame.map(([px, py]) => py * geo.files + px) });
      }
      const leaps = leapsOnBoard(geo, dx, dy);
      const chain = max > 1 && leaps > 1 && max >= leaps ? newRideChain(geo.words, leaps) : null;
      return { dx, dy, delta: dy * geo.files + dx, guard, max, chain };
    };
    const forward: RideShift[] = [];
    const reverse: RideShift[] = [];
    for (const { dx, dy, max, lame } of piece.rays) {
      forward.push(shift(dx, dy, lame, max));
      reverse.push(
        shift(
          -dx,
          -dy,
          lame.map(([px, py]) => [px - dx, py - dy] as const),
          max,
        ),
      );
    }
    const chains = forward.some((s) => s.chain !== null);
    const leaps = (dx: number, dy: number) => leapsOnBoard(geo, dx, dy);
    const guardOf = (dx: number) => fileGuard(geo, dx);
    const hopsForward = denseHops(piece.hops, false, geo.words, leaps, guardOf, geo.files);
    const hopsReverse = denseHops(piece.hops, true, geo.words, leaps, guardOf, geo.files);
    const hopping = piece.hops.length > 0;
    shifts = {
      forward,
      reverse,
      lameGuards,
      chains,
      hops: piece.hops,
      hopsForward,
      hopsReverse,
      closed: new Int32Array(hopping ? geo.words : 0),
      all: hopping ? fileGuard(geo, 0) : new Int32Array(0),
      files: geo.files,
      ranks: geo.ranks,
      epoch: 0,
      hopEpoch: -1,
      hopEpochForward: -1,
      hopEpochReverse: -1,
    };
    shiftsByPiece.set(id, shifts, heldBytes(shifts));
  }
  return shifts;
}

/**
 * The shifts of `piece` on `geo` with passable set `passable`. They are kept per piece and board
 * and the lame guards refilled in place, so they hold until the next call for the same piece and
 * board: the fills, which are not re-entrant either, use them for one solve at a time.
 */
export function fairyShifts(geo: Geometry, piece: FairyPiece, passable: Int32Array): FairyShifts {
  const shifts = boardShifts(geo, piece);
  shifts.epoch++;
  for (const { guard, files, offsets } of shifts.lameGuards) {
    // A start u may leap when u + offset is passable, for every offset: P shifted back.
    andShifted(guard, files, passable, -offsets[0]);
    for (let i = 1; i < offsets.length; i++) andShifted(guard, guard, passable, -offsets[i]);
  }
  return shifts;
}

/**
 * Makes the hops' set-wise tables of `shifts` (forward, or `reverse`) fit `passable`, once per
 * solve and direction, on a dense step's first need: a solve may never hop set-wise backward.
 */
export function refreshHops(fairy: FairyShifts, passable: Int32Array, reverse: boolean): void {
  const shifts = fairy as BoardShifts;
  const { closed, all, epoch } = shifts;
  if (shifts.hopEpoch !== epoch) {
    shifts.hopEpoch = epoch;
    for (let w = 0; w < closed.length; w++) closed[w] = all[w] & ~passable[w];
  }
  if (reverse ? shifts.hopEpochReverse === epoch : shifts.hopEpochForward === epoch) return;
  if (reverse) shifts.hopEpochReverse = epoch;
  else shifts.hopEpochForward = epoch;
  refreshDenseHops(reverse ? shifts.hopsReverse : shifts.hopsForward, passable, closed);
}

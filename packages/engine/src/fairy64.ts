/**
 * Fairy pieces on the 8 x 8 board: the fill on two 32-bit halves (a1..h4, a5..h8), as the
 * orthodox pieces' kernel (`fill64.ts`) does. On a board this small the general fill's lists and
 * objects cost more than the fill itself, so a question costs what an orthodox one costs, a few
 * shifts a ray and a step. A ray is a shift by its leap from the squares it may leave (the
 * landing's file on the board and, for a lame leap, the squares passed over passable), repeated
 * for a ride; the backward fill takes the reversed rays. It leaves its layers where
 * `StandardSolution` reads them.
 *
 * Hoppers hop set-wise here too (`fairy64-hops.ts`). With a hopper's single target, the squares
 * one move before it are found first, as on other small boards (`fairy-small.ts`).
 */

import type { FairyPiece } from './betza.js';
import { type Hop64, hop64, hopHalves, hopStep64, resetHurdles } from './fairy64-hops.js';

/** One ray on 8 x 8: shift by `delta` from the squares of the guard, `max` leaps at most. */
interface Ray64 {
  readonly delta: number;
  readonly max: number;
  /** The squares whose landing is on the board (its file), halves. */
  readonly filesLo: number;
  readonly filesHi: number;
  /** For a lame leap: each passed-over square's offset from the start. */
  readonly lame: readonly number[];
}

/** A piece's rays and hops on 8 x 8, forward and reversed. */
interface Rays64 {
  readonly forward: readonly Ray64[];
  readonly reverse: readonly Ray64[];
  readonly hopsForward: readonly Hop64[];
  readonly hopsReverse: readonly Hop64[];
}

/** Each piece's rays on 8 x 8, living as long as the piece (whose size in the `betza` cache counts them). */
const raysByPiece = new WeakMap<FairyPiece, Rays64>();

/** The squares of the board whose file f has 0 <= f + dx < 8, as halves. */
function filesOf(dx: number): [number, number] {
  let byte = 0;
  for (let f = 0; f < 8; f++) if (f + dx >= 0 && f + dx < 8) byte |= 1 << f;
  const half = byte * 0x01010101;
  return [half | 0, half | 0];
}

function ray64(dx: number, dy: number, max: number, lame: readonly (readonly [number, number])[]): Ray64 {
  const [filesLo, filesHi] = filesOf(dx);
  return { delta: dy * 8 + dx, max: Math.min(max, 7), filesLo, filesHi, lame: lame.map(([px, py]) => py * 8 + px) };
}

function rays64(piece: FairyPiece): Rays64 {
  let rays = raysByPiece.get(piece);
  if (rays === undefined) {
    rays = {
      forward: piece.rays.map(({ dx, dy, max, lame }) => ray64(dx, dy, max, lame)),
      reverse: piece.rays.map(({ dx, dy, max, lame }) =>
        ray64(
          -dx,
          -dy,
          max,
          lame.map(([px, py]) => [px - dx, py - dy] as const),
        ),
      ),
      hopsForward: piece.hops.map((h) => hop64(h, false)),
      hopsReverse: piece.hops.map((h) => hop64(h, true)),
    };
    raysByPiece.set(piece, rays);
  }
  return rays;
}

// The halves of the last shift: two module fields rather than an array per shift.
let shiftedLo = 0;
let shiftedHi = 0;

/** (lo, hi) shifted by `d` squares toward a8 (d > 0) or a1 (d < 0), into shiftedLo/shiftedHi. */
function shift(lo: number, hi: number, d: number): void {
  if (d >= 64 || d <= -64) {
    shiftedLo = 0;
    shiftedHi = 0;
  } else if (d >= 32) {
    shiftedHi = lo << (d - 32);
    shiftedLo = 0;
  } else if (d > 0) {
    shiftedHi = (hi << d) | (lo >>> (32 - d));
    shiftedLo = lo << d;
  } else if (d === 0) {
    shiftedLo = lo;
    shiftedHi = hi;
  } else if (d > -32) {
    const e = -d;
    shiftedLo = (lo >>> e) | (hi << (32 - e));
    shiftedHi = hi >>> e;
  } else {
    shiftedLo = hi >>> (-d - 32);
    shiftedHi = 0;
  }
}

/** The fill's scratch: per ray the guard of this solve (files, less the lame starts). */
const guardsLo = new Int32Array(160); // at most 9 atoms x 8 leaps x plain and lame rays
const guardsHi = new Int32Array(160);
let stepLo = 0;
let stepHi = 0;

/** Sets each ray's guard for the passable set (pLo, pHi). */
function setGuards(rays: readonly Ray64[], pLo: number, pHi: number): void {
  for (let i = 0; i < rays.length; i++) {
    const { filesLo, filesHi, lame } = rays[i];
    let gLo = filesLo;
    let gHi = filesHi;
    for (const offset of lame) {
      // A start u may leap when u + offset is passable: the passable set shifted back.
      shift(pLo, pHi, -offset);
      gLo &= shiftedLo;
      gHi &= shiftedHi;
    }
    guardsLo[i] = gLo;
    guardsHi[i] = gHi;
  }
}

/** One move of every ray from (fLo, fHi) onto passable squares, into stepLo/stepHi. */
function step(rays: readonly Ray64[], fLo: number, fHi: number, pLo: number, pHi: number): void {
  let outLo = 0;
  let outHi = 0;
  for (let i = 0; i < rays.length; i++) {
    const ray = rays[i];
    const gLo = guardsLo[i];
    const gHi = guardsHi[i];
    let lo = fLo & gLo;
    let hi = fHi & gHi;
    for (let j = 0; j < ray.max && (lo | hi) !== 0; j++) {
      shift(lo, hi, ray.delta);
      lo = shiftedLo & pLo;
      hi = shiftedHi & pHi;
      outLo |= lo;
      outHi |= hi;
      lo &= gLo;
      hi &= gHi;
    }
  }
  stepLo = outLo;
  stepHi = outHi;
}

/** Layers L_0 .. L_D as halves, `2k` and `2k + 1` (what `StandardSolution` reads). */
export const fairy64Words = new Int32Array(2 * 65);

/**
 * Solves a fairy question on 8 x 8 with P, S' and T' as halves (S' and T' within P). Returns D and
 * leaves the layers in `fairy64Words`, or returns -1 when no target is reachable.
 */
export function solveFairy64(
  piece: FairyPiece,
  pLo: number,
  pHi: number,
  sLo: number,
  sHi: number,
  tLo: number,
  tHi: number,
): number {
  const rays = rays64(piece);
  const hopping = rays.hopsForward.length > 0;
  const words = fairy64Words;
  // A hopper's single target (not a source): the squares one move before it first. None, and
  // it is out of reach (on a board with few hurdles, most squares are); else a frontier that
  // meets them ends the forward fill a step early (the last, largest step), and they are the
  // first backward step.
  let bLo = 0;
  let bHi = 0;
  const single = hopping && (tHi === 0 ? tLo !== 0 && (tLo & (tLo - 1)) === 0 : tLo === 0 && (tHi & (tHi - 1)) === 0);
  if (single && ((sLo & tLo) | (sHi & tHi)) === 0) {
    setGuards(rays.reverse, pLo, pHi);
    step(rays.reverse, tLo, tHi, pLo, pHi);
    hopStep64(rays.hopsReverse, tLo, tHi, pLo, pHi, pLo, pHi, false, stepLo, stepHi);
    bLo = hopHalves[0];
    bHi = hopHalves[1];
    if ((bLo | bHi) === 0) return -1;
  }
  let vLo = sLo;
  let vHi = sHi;
  let fLo = sLo;
  let fHi = sHi;
  let k = 0;
  let early = false;
  setGuards(rays.forward, pLo, pHi);
  if (hopping) resetHurdles(rays.hopsForward.length);
  for (;;) {
    words[2 * k] = fLo;
    words[2 * k + 1] = fHi;
    if (((fLo & tLo) | (fHi & tHi)) !== 0) break;
    if ((fLo | fHi) === 0) return -1;
    k++;
    if (((fLo & bLo) | (fHi & bHi)) !== 0) {
      words[2 * k] = tLo;
      words[2 * k + 1] = tHi;
      early = true;
      break;
    }
    step(rays.forward, fLo, fHi, pLo, pHi);
    // Rides before a hurdle skip the squares of earlier frontiers (visited, less this one).
    if (hopping) {
      hopStep64(rays.hopsForward, fLo, fHi, pLo, pHi, pLo & ~(vLo ^ fLo), pHi & ~(vHi ^ fHi), true, stepLo, stepHi);
      stepLo = hopHalves[0];
      stepHi = hopHalves[1];
    }
    fLo = stepLo & ~vLo;
    fHi = stepHi & ~vHi;
    vLo |= fLo;
    vHi |= fHi;
  }
  const distance = k;
  words[2 * distance] &= tLo;
  words[2 * distance + 1] &= tHi;
  setGuards(rays.reverse, pLo, pHi);
  for (k = distance; k > 0; k--) {
    if (early && k === distance) {
      stepLo = bLo;
      stepHi = bHi;
    } else {
      step(rays.reverse, words[2 * k], words[2 * k + 1], pLo, pHi);
      if (hopping) {
        hopStep64(rays.hopsReverse, words[2 * k], words[2 * k + 1], pLo, pHi, pLo, pHi, false, stepLo, stepHi);
        stepLo = hopHalves[0];
        stepHi = hopHalves[1];
      }
    }
    words[2 * k - 2] &= stepLo;
    words[2 * k - 1] &= stepHi;
  }
  return distance;
}

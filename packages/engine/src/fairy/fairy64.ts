/**
 * Fairy pieces on the 8 x 8 board: the fill on two 32-bit halves (a1..h4, a5..h8), as the
 * orthodox pieces' kernel (`fill64.ts`) does. On a board this small the general fill's lists and
 * objects cost more than the fill itself, so a question costs what an orthodox one costs, a few
 * shifts a ray and a step. A ray is a shift by its leap from the squares it may leave (the
 * landing's file on the board and, for a lame leap, the squares passed over passable), repeated
 * for a ride; the backward fill takes the reversed rays. It leaves its layers where
 * `StandardSolution` reads them.
 *
 * Hoppers hop set-wise here too (`fairy64-hops.ts`), and a hopper's question is filled from both
 * ends by turns (`solveHopper64`): many have no path, and the end that reaches fewer squares
 * shows it sooner.
 */

import type { FairyPiece } from '../betza/betza.js';
import { popcount64 as popcount64Bound } from '../board/bitset.js';
import {
  type Hop64,
  hop64,
  hopHalves as hopHalvesBound,
  hopStep64 as hopStep64Bound,
  resetHurdles,
} from './fairy64-hops.js';

// Imports used at every step, copied once: a loader that rewrites modules (tsx, in the bench)
// may read an imported binding through a getter at every use.
const popcount64 = popcount64Bound;
const hopHalves = hopHalvesBound;
const hopStep64 = hopStep64Bound;

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
/** The reversed rays' guards, for a hopper's solve, which steps both ways by turns. */
const reverseLo = new Int32Array(160);
const reverseHi = new Int32Array(160);
let stepLo = 0;
let stepHi = 0;

/** Sets each ray's guard for the passable set (pLo, pHi), into (guardsLo, guardsHi). */
function setGuards(rays: readonly Ray64[], pLo: number, pHi: number, guardsLo: Int32Array, guardsHi: Int32Array): void {
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

/** One move of every ray (guards guardsLo, guardsHi) from (fLo, fHi) onto passable squares, into stepLo/stepHi. */
function step(
  rays: readonly Ray64[],
  fLo: number,
  fHi: number,
  pLo: number,
  pHi: number,
  guardsLo: Int32Array,
  guardsHi: Int32Array,
): void {
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
  if (rays.hopsForward.length > 0) return solveHopper64(rays, pLo, pHi, sLo, sHi, tLo, tHi);
  const words = fairy64Words;
  let vLo = sLo;
  let vHi = sHi;
  let fLo = sLo;
  let fHi = sHi;
  let k = 0;
  setGuards(rays.forward, pLo, pHi, guardsLo, guardsHi);
  for (;;) {
    words[2 * k] = fLo;
    words[2 * k + 1] = fHi;
    if (((fLo & tLo) | (fHi & tHi)) !== 0) break;
    if ((fLo | fHi) === 0) return -1;
    step(rays.forward, fLo, fHi, pLo, pHi, guardsLo, guardsHi);
    fLo = stepLo & ~vLo;
    fHi = stepHi & ~vHi;
    vLo |= fLo;
    vHi |= fHi;
    k++;
  }
  const distance = k;
  words[2 * distance] &= tLo;
  words[2 * distance + 1] &= tHi;
  setGuards(rays.reverse, pLo, pHi, guardsLo, guardsHi);
  for (k = distance; k > 0; k--) {
    step(rays.reverse, words[2 * k], words[2 * k + 1], pLo, pHi, guardsLo, guardsHi);
    words[2 * k - 2] &= stepLo;
    words[2 * k - 1] &= stepHi;
  }
  return distance;
}

/** One move of `rays` (their guards `gLo`, `gHi`) and `hops` from (fLo, fHi), into stepLo/stepHi (`hopStep64`'s o and seen). */
function move(
  rays: readonly Ray64[],
  gLo: Int32Array,
  gHi: Int32Array,
  hops: readonly Hop64[],
  fLo: number,
  fHi: number,
  pLo: number,
  pHi: number,
  oLo: number,
  oHi: number,
  seen: boolean,
): void {
  step(rays, fLo, fHi, pLo, pHi, gLo, gHi);
  hopStep64(hops, fLo, fHi, pLo, pHi, oLo, oHi, seen, stepLo, stepHi);
  stepLo = hopHalves[0];
  stepHi = hopHalves[1];
}

/** A hopper's backward frontiers B_0 .. B_b (B_j: the squares j moves before T'), halves. */
const backWords = new Int32Array(2 * 65);

/**
 * `solveFairy64` for a hopper: from both ends. The forward frontiers F_a (from S') and the
 * backward ones B_b (to T', reversed moves) grow by turns, the smaller first, until one meets
 * the squares the other has reached: the first to do so meets them in F_a ∩ B_b, and D = a + b
 * (no shorter path, or an earlier turn would have met). A hopper's moves reach few squares on a
 * board with few hurdles, so many questions have no path, and the end with fewer squares
 * (often the target that no square hops to) runs out first, where a forward fill would visit
 * all that the sources reach. Then L_a = F_a ∩ B_b, L_(k-1) = F_(k-1) ∩ (one move back from
 * L_k) down to L_0, and L_k = (one move on from L_(k-1)) ∩ B_(D-k) up to L_D.
 */
function solveHopper64(rays: Rays64, pLo: number, pHi: number, sLo: number, sHi: number, tLo: number, tHi: number) {
  const words = fairy64Words;
  const back = backWords;
  words[0] = sLo & tLo;
  words[1] = sHi & tHi;
  if ((words[0] | words[1]) !== 0) return 0;
  if ((sLo | sHi) === 0 || (tLo | tHi) === 0) return -1;
  setGuards(rays.forward, pLo, pHi, guardsLo, guardsHi);
  setGuards(rays.reverse, pLo, pHi, reverseLo, reverseHi);
  resetHurdles(rays.hopsForward.length);
  const { forward, reverse, hopsForward, hopsReverse } = rays;
  words[0] = sLo;
  words[1] = sHi;
  back[0] = tLo;
  back[1] = tHi;
  // Frontiers (f, b) and the squares each end has reached (v, w).
  let [fLo, fHi, vLo, vHi, bLo, bHi, wLo, wHi] = [sLo, sHi, sLo, sHi, tLo, tHi, tLo, tHi];
  let a = 0;
  let b = 0;
  let mLo = 0;
  let mHi = 0;
  while ((mLo | mHi) === 0) {
    if (popcount64(fLo, fHi) < popcount64(bLo, bHi)) {
      // The forward rides skip earlier frontiers (reached, less this one), as `hopStep64` says.
      move(forward, guardsLo, guardsHi, hopsForward, fLo, fHi, pLo, pHi, pLo & ~(vLo ^ fLo), pHi & ~(vHi ^ fHi), true);
      fLo = stepLo & ~vLo;
      fHi = stepHi & ~vHi;
      vLo |= fLo;
      vHi |= fHi;
      a++;
      words[2 * a] = fLo;
      words[2 * a + 1] = fHi;
      if ((fLo | fHi) === 0) return -1;
      mLo = fLo & wLo;
      mHi = fHi & wHi;
    } else {
      move(reverse, reverseLo, reverseHi, hopsReverse, bLo, bHi, pLo, pHi, pLo, pHi, false);
      bLo = stepLo & ~wLo;
      bHi = stepHi & ~wHi;
      wLo |= bLo;
      wHi |= bHi;
      b++;
      back[2 * b] = bLo;
      back[2 * b + 1] = bHi;
      if ((bLo | bHi) === 0) return -1;
      mLo = bLo & vLo;
      mHi = bHi & vHi;
    }
  }
  const distance = a + b;
  words[2 * a] = mLo;
  words[2 * a + 1] = mHi;
  for (let k = a; k > 0; k--) {
    move(reverse, reverseLo, reverseHi, hopsReverse, words[2 * k], words[2 * k + 1], pLo, pHi, pLo, pHi, false);
    words[2 * k - 2] &= stepLo;
    words[2 * k - 1] &= stepHi;
  }
  for (let k = a + 1; k <= distance; k++) {
    move(forward, guardsLo, guardsHi, hopsForward, words[2 * k - 2], words[2 * k - 1], pLo, pHi, pLo, pHi, false);
    words[2 * k] = stepLo & back[2 * (distance - k)];
    words[2 * k + 1] = stepHi & back[2 * (distance - k) + 1];
  }
  return distance;
}

/**
 * Hoppers (`p` cannon, `g` grasshopper; `fairy-hops.ts` has their moves) on the 8 x 8 board,
 * set-wise on two 32-bit halves for `fairy64.ts`, never square by square. Per direction, the
 * frontier rides leap by leap over passable landings (a set that empties ends the ride), and
 * every landing that is not passable is a hurdle reached first; from the hurdles, one leap onto
 * a passable square (`g`) or a ride over passable squares (`p`). The reversed hop is the same
 * along the reversed leap, with no ride before a grasshopper's hurdle and a ride after it.
 *
 * Tried against a doubling (Kogge-Stone) ride with its propagators made per solve: on 64 squares
 * a ride of a few leaps that ends when its set empties cost less (1.4 against 1.9-2.5 us a
 * question of the grasshopper's bench). The forward fill prunes what earlier steps did: a ride
 * before a hurdle does not go on over the squares of earlier frontiers (their hops in the same
 * direction were taken from them), and a hurdle reached before lands on visited squares only.
 */

import type { HopRay } from '../betza/betza.js';

/** One hopper direction on 8 x 8: a leap by `delta`, 0 < |delta| < 32 (an atom leaps 3 files and ranks at most). */
export interface Hop64 {
  readonly delta: number;
  /** The squares a leap may start from (its landing's file on the board), halves. */
  readonly filesLo: number;
  readonly filesHi: number;
  /** Ride over passable landings up to the hurdle (all but a grasshopper's reverse), else one leap onto it. */
  readonly before: boolean;
  /** Ride over passable landings after the hurdle (`p`, and every reverse), else one leap. */
  readonly after: boolean;
}

/** The squares of the board whose file f has 0 <= f + dx < 8, as halves. */
function filesOf(dx: number): [number, number] {
  let byte = 0;
  for (let f = 0; f < 8; f++) if (f + dx >= 0 && f + dx < 8) byte |= 1 << f;
  const half = byte * 0x01010101;
  return [half | 0, half | 0];
}

/** The hop of `ray` on 8 x 8, forward or reversed. */
export function hop64({ dx, dy, hop }: HopRay, reverse: boolean): Hop64 {
  const [filesLo, filesHi] = filesOf(reverse ? -dx : dx);
  const delta = (reverse ? -1 : 1) * (dy * 8 + dx);
  return { delta, filesLo, filesHi, before: !reverse || hop === 'p', after: reverse || hop === 'p' };
}

/** What `hopStep64` leaves: its landings (with what it was given), halves. */
export const hopHalves = new Int32Array(2);

/** Per hop of the forward fill: the hurdles it has reached in this solve (halves `2i`, `2i + 1`). */
const hurdlesSeen = new Int32Array(2 * 160);

/** Forgets the hurdles reached (`count` hops), before a solve's forward fill. */
export function resetHurdles(count: number): void {
  hurdlesSeen.fill(0, 0, 2 * count);
}

/**
 * Leaves in `hopHalves` (outLo, outHi) and every square one hop of `hops` from (fLo, fHi) lands
 * on, P being (pLo, pHi). A ride before the hurdle goes over the squares of (oLo, oHi) only: the
 * forward fill leaves out the squares of earlier frontiers, whose hops in the same direction
 * were taken then, and (`seen`) the hurdles reached in earlier steps, whose landings are visited.
 */
export function hopStep64(
  hops: readonly Hop64[],
  fLo: number,
  fHi: number,
  pLo: number,
  pHi: number,
  oLo: number,
  oHi: number,
  seen: boolean,
  outLo: number,
  outHi: number,
): void {
  for (let i = 0; i < hops.length; i++) {
    const { delta, filesLo: gLo, filesHi: gHi, before, after } = hops[i];
    let lo = fLo & gLo;
    let hi = fHi & gHi;
    let hLo = 0;
    let hHi = 0;
    // Leap by leap over passable landings (to the end of the ride, or one leap): the landings
    // that are not passable are the hurdles. Then from them one leap, or a ride, onto P.
    if (delta > 0) {
      const e = delta;
      const u = 32 - e;
      do {
        const sLo = lo << e;
        const sHi = (hi << e) | (lo >>> u);
        hLo |= sLo & ~pLo;
        hHi |= sHi & ~pHi;
        lo = sLo & oLo & gLo;
        hi = sHi & oHi & gHi;
      } while (before && (lo | hi) !== 0);
      if (seen) {
        const seenLo = hurdlesSeen[2 * i];
        const seenHi = hurdlesSeen[2 * i + 1];
        hurdlesSeen[2 * i] = seenLo | hLo;
        hurdlesSeen[2 * i + 1] = seenHi | hHi;
        hLo &= ~seenLo;
        hHi &= ~seenHi;
      }
      lo = hLo & gLo;
      hi = hHi & gHi;
      while ((lo | hi) !== 0) {
        const sLo = lo << e;
        const sHi = (hi << e) | (lo >>> u);
        lo = sLo & pLo;
        hi = sHi & pHi;
        outLo |= lo;
        outHi |= hi;
        if (!after) break;
        lo &= gLo;
        hi &= gHi;
      }
    } else {
      const e = -delta;
      const u = 32 - e;
      do {
        const sLo = (lo >>> e) | (hi << u);
        const sHi = hi >>> e;
        hLo |= sLo & ~pLo;
        hHi |= sHi & ~pHi;
        lo = sLo & oLo & gLo;
        hi = sHi & oHi & gHi;
      } while (before && (lo | hi) !== 0);
      if (seen) {
        const seenLo = hurdlesSeen[2 * i];
        const seenHi = hurdlesSeen[2 * i + 1];
        hurdlesSeen[2 * i] = seenLo | hLo;
        hurdlesSeen[2 * i + 1] = seenHi | hHi;
        hLo &= ~seenLo;
        hHi &= ~seenHi;
      }
      lo = hLo & gLo;
      hi = hHi & gHi;
      while ((lo | hi) !== 0) {
        const sLo = (lo >>> e) | (hi << u);
        const sHi = hi >>> e;
        lo = sLo & pLo;
        hi = sHi & pHi;
        outLo |= lo;
        outHi |= hi;
        if (!after) break;
        lo &= gLo;
        hi &= gHi;
      }
    }
  }
  hopHalves[0] = outLo;
  hopHalves[1] = outHi;
}

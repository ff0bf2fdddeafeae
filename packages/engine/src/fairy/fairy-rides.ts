/**
 * A fairy rider's rides from a dense frontier, by doubling (Kogge-Stone occluded fill) rather
 * than one leap at a time. A ray that leaps by d from the squares of its guard g over passable
 * squares P lands, in one leap, on `pro_1 = P ∩ (g + d)`; it can ride 2^j leaps on from v - 2^j d
 * to v exactly when every one of those leaps is possible, `pro_{2^j} = pro_{2^(j-1)} ∩
 * (pro_{2^(j-1)} + 2^(j-1) d)`. Riding from a set X is then `gen = pro_1 ∩ (X + d)`, followed by
 * `gen |= pro_{2^j} ∩ (gen + 2^j d)` for j = 0, 1, ...: after level j, gen holds every landing of
 * 1 .. 2^(j+1) leaps. So a ride costs log2(leaps) passes over the board instead of one pass per
 * leap (a nightrider on 64 x 64 rides up to 31 leaps: 5 passes, not 31).
 *
 * The chain pro_1, pro_2, pro_4, ... depends on the passable set only, so it is made once per
 * solve per ray, on the ray's first dense ride. Only rays whose limit reaches beyond the board
 * (`unlimitedOn`) ride this way: overshooting the board's last possible leap changes nothing.
 * A pass over the board costs the same whatever the frontier, so the general fill rides this way
 * only from frontiers that cover a good part of the board (`fill.ts` decides), and leap by leap
 * from small ones.
 */

import type { Geometry } from '../board/geometry.js';

/** The doubling chain of one ray, for one passable set (`epoch`). */
export interface RideChain {
  /** `levels[j]`: pro_{2^j}, the squares a ride of 2^j leaps may end on from 2^j leaps back. */
  readonly levels: Int32Array[];
  /** The solve the levels were made for (`FairyShifts.epoch`); -1 before the first. */
  epoch: number;
}

/** How many leaps of (dx, dy) fit on the board at most. */
export function leapsOnBoard(geo: Geometry, dx: number, dy: number): number {
  const byFiles = dx === 0 ? Number.POSITIVE_INFINITY : Math.floor((geo.files - 1) / Math.abs(dx));
  const byRanks = dy === 0 ? Number.POSITIVE_INFINITY : Math.floor((geo.ranks - 1) / Math.abs(dy));
  return Math.min(byFiles, byRanks);
}

/** `dst[w] = mask[w] & (src shifted by delta squares toward higher indices; negative: lower)[w]`. */
export function andShifted(dst: Int32Array, mask: Int32Array, src: Int32Array, delta: number): void {
  const words = dst.length;
  const e = delta >= 0 ? delta : -delta;
  const q = e >>> 5;
  const t = e & 31;
  const u = 32 - t;
  if (q >= words) {
    for (let w = 0; w < words; w++) dst[w] = 0;
    return;
  }
  if (delta >= 0) {
    // Word w reads words w - q (low bits) and w - q - 1 (carry); below q, nothing.
    for (let w = 0; w < q; w++) dst[w] = 0;
    if (t === 0) for (let w = q; w < words; w++) dst[w] = mask[w] & src[w - q];
    else {
      dst[q] = mask[q] & (src[0] << t);
      for (let w = q + 1; w < words; w++) dst[w] = mask[w] & ((src[w - q] << t) | (src[w - q - 1] >>> u));
    }
    return;
  }
  // Word w reads words w + q and w + q + 1 (carry); from words - q on, nothing.
  const last = words - 1 - q;
  for (let w = last + 1; w < words; w++) dst[w] = 0;
  if (t === 0) for (let w = 0; w <= last; w++) dst[w] = mask[w] & src[w + q];
  else {
    for (let w = 0; w < last; w++) dst[w] = mask[w] & ((src[w + q] >>> t) | (src[w + q + 1] << u));
    dst[last] = mask[last] & (src[words - 1] >>> t);
  }
}

/**
 * `gen |= mask & (gen shifted by delta)`, in place: words are visited against the shift's
 * direction, so every word reads the shifted words before they change.
 */
function orMaskedShiftInPlace(gen: Int32Array, mask: Int32Array, delta: number): void {
  const words = gen.length;
  if (delta >= 0) {
    const q = delta >>> 5;
    const t = delta & 31;
    if (q >= words) return;
    if (t === 0) {
      for (let w = words - 1; w >= q; w--) gen[w] |= mask[w] & gen[w - q];
      return;
    }
    const u = 32 - t;
    for (let w = words - 1; w > q; w--) gen[w] |= mask[w] & ((gen[w - q] << t) | (gen[w - q - 1] >>> u));
    gen[q] |= mask[q] & (gen[0] << t);
    return;
  }
  const e = -delta;
  const q = e >>> 5;
  const t = e & 31;
  if (q >= words) return;
  const last = words - 1 - q;
  if (t === 0) {
    for (let w = 0; w <= last; w++) gen[w] |= mask[w] & gen[w + q];
    return;
  }
  const u = 32 - t;
  for (let w = 0; w < last; w++) gen[w] |= mask[w] & ((gen[w + q] >>> t) | (gen[w + q + 1] << u));
  gen[last] |= mask[last] & (gen[words - 1] >>> t);
}

/** A new, empty chain for a ray of `leaps` leaps at most on a board of `words` words. */
export function newRideChain(words: number, leaps: number): RideChain {
  // Level j lets gen cover 2^(j+1) leaps: levels until that reaches `leaps`.
  const levels: Int32Array[] = [];
  for (let covered = 1; covered < Math.max(2, leaps); covered *= 2) levels.push(new Int32Array(words));
  return { levels, epoch: -1 };
}

/** Makes `chain`'s levels for the ray (delta, guard) on passable set `passable`. */
export function fillRideChain(chain: RideChain, delta: number, guard: Int32Array, passable: Int32Array): void {
  andShifted(chain.levels[0], passable, guard, delta);
  extendRideChain(chain, delta);
}

/** Makes `chain`'s levels from its first, pro_1, already made for this solve. */
export function extendRideChain(chain: RideChain, delta: number): void {
  const { levels } = chain;
  for (let j = 1; j < levels.length; j++) {
    // pro_{2^j} = pro_{2^(j-1)} ∩ (pro_{2^(j-1)} + 2^(j-1) d)
    andShifted(levels[j], levels[j - 1], levels[j - 1], delta * 2 ** (j - 1));
  }
}

/**
 * ORs into `out` every landing of the ray (delta, `chain` made for this solve) from the squares
 * of `src` (dense), using `gen` as scratch.
 */
export function rideDense(src: Int32Array, delta: number, chain: RideChain, gen: Int32Array, out: Int32Array): void {
  const { levels } = chain;
  andShifted(gen, levels[0], src, delta);
  for (let j = 0; j < levels.length; j++) orMaskedShiftInPlace(gen, levels[j], delta * 2 ** j);
  for (let w = 0; w < out.length; w++) out[w] |= gen[w];
}

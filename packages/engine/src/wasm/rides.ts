/**
 * The fill of pieces that ride (the rook, the bishop, the queen) on boards other than 8 x 8,
 * in AssemblyScript, compiled by `npm run build` (`scripts/build-wasm.mjs`) and loaded by
 * `kernels/rides-wasm.ts`. A move is a shift by `delta` squares of the board's square order
 * from the squares of a guard (those the move does not carry off the board's side), repeated
 * while the squares it lands on are passable (a ride), or once (a leap).
 *
 * A ride of a whole set is one pass over the units it can reach, in the ride's direction, each
 * unit made from units already final: a shift of 64 squares or more reads only units behind it
 * (ray[i] = shift(chain)[i] ∩ passable[i], chain[i] = (src[i] ∪ ray[i]) ∩ guard[i]); a shorter
 * one takes the bits carried in from the unit behind and rides on inside the unit by doubling
 * (Kogge-Stone: log2(64 / delta) shifts). So a step costs a pass over the frontier's span and
 * as far as its rays run, where riding square by square costs a pass a square, and a dense
 * fill of the whole board log2(ride) passes a direction. A pass stops once nothing can go on
 * past the last unit of the frontier. A ride limited short of the edge is that many leaps, each
 * a pass. Memory layout: `rides-memory.ts`.
 */

import {
  chain,
  GUARDS,
  leapA,
  leapB,
  i32At,
  moves,
  open,
  out,
  pad,
  padded,
  guards,
  passable,
  setI32,
  setU64,
  sources,
  src,
  targets,
  u64At,
  units,
} from './rides-memory';
import {
  finishLayers,
  firstLayer,
  keep,
  poolBits,
  poolUnit,
  starts,
} from './layers';

export { words } from './layers';
export { layout, offset, padding } from './rides-memory';

/** The units of `out` the step last made may have written (each pass's span). */
let outLo: i32 = 0;
let outHi: i32 = 0;

/** Guard slots the memory holds (the loader writes one array a slot). */
export function guardSlots(): i32 {
  return GUARDS;
}

/**
 * Rides (or leaps, `leap`) toward higher squares by `delta` > 0 from the squares in `from`,
 * whose units lie in `lo .. hi`, ORing the squares reached into `to`. Returns the last unit
 * the pass visited.
 */
function rideUp(delta: i32, g: usize, leap: bool, lo: i32, hi: i32, from: usize, to: usize): i32 {
  const q = delta >> 6;
  const t = <u64>(delta & 63);
  const back = 64 - t;
  const end = pad + units;
  let i = lo;
  if (q == 0) {
    for (; i < end; i++) {
      const p = u64At(passable, i);
      const gi = u64At(g, i);
      const s = u64At(from, i);
      let r = (((s & gi) << t) | (u64At(chain, i - 1) >> back)) & p;
      if (r != 0) {
        if (!leap) {
          let pro = p & (gi << t);
          for (let k = t; k < 64; k <<= 1) {
            r |= pro & (r << k);
            pro &= pro << k;
          }
        }
        setU64(to, i, u64At(to, i) | r);
      }
      const c = (leap ? s : s | r) & gi;
      setU64(chain, i, c);
      if (c == 0 && i >= hi) break;
    }
  } else {
    let last = lo - 1;
    for (; i < end; i++) {
      let r = u64At(chain, i - q);
      if (t != 0) r = (r << t) | (u64At(chain, i - q - 1) >> back);
      r &= u64At(passable, i);
      const s = u64At(from, i);
      if (r != 0) setU64(to, i, u64At(to, i) | r);
      const c = (leap ? s : s | r) & u64At(g, i);
      setU64(chain, i, c);
      if (c != 0) last = i;
      else if (i > hi && i - last > q) break;
    }
  }
  return min(i, end - 1);
}

/** `rideUp` toward lower squares, by `delta` < 0; returns the first unit the pass visited. */
function rideDown(delta: i32, g: usize, leap: bool, lo: i32, hi: i32, from: usize, to: usize): i32 {
  const q = -delta >> 6;
  const t = <u64>(-delta & 63);
  const back = 64 - t;
  let i = hi;
  if (q == 0) {
    for (; i >= pad; i--) {
      const p = u64At(passable, i);
      const gi = u64At(g, i);
      const s = u64At(from, i);
      let r = (((s & gi) >> t) | (u64At(chain, i + 1) << back)) & p;
      if (r != 0) {
        if (!leap) {
          let pro = p & (gi >> t);
          for (let k = t; k < 64; k <<= 1) {
            r |= pro & (r >> k);
            pro &= pro >> k;
          }
        }
        setU64(to, i, u64At(to, i) | r);
      }
      const c = (leap ? s : s | r) & gi;
      setU64(chain, i, c);
      if (c == 0 && i <= lo) break;
    }
  } else {
    let last = hi + 1;
    for (; i >= pad; i--) {
      let r = u64At(chain, i + q);
      if (t != 0) r = (r >> t) | (u64At(chain, i + q + 1) << back);
      r &= u64At(passable, i);
      const s = u64At(from, i);
      if (r != 0) setU64(to, i, u64At(to, i) | r);
      const c = (leap ? s : s | r) & u64At(g, i);
      setU64(chain, i, c);
      if (c != 0) last = i;
      else if (i < lo && last - i > q) break;
    }
  }
  return max(i, pad);
}

/**
 * ORs into `out` the moves `m0 .. m1` from the squares of pool entries `from .. to`, and sets
 * `outLo .. outHi` to the units written. `src` and `chain` are left all zero.
 */
function step(from: i32, to: i32, m0: i32, m1: i32): void {
  let lo = 0x7fffffff;
  let hi = -1;
  for (let e = from; e < to; e++) {
    const x = u64At(poolBits, e);
    if (x == 0) continue;
    const u = i32At(poolUnit, e);
    setU64(src, u, x);
    lo = min(lo, u);
    hi = max(hi, u);
  }
  outLo = 0x7fffffff;
  outHi = -1;
  if (hi < 0) return;
  for (let m = m0; m < m1; m++) {
    const delta = i32At(moves, 3 * m);
    const g = guards + <usize>i32At(moves, 3 * m + 1) * padded;
    const limit = i32At(moves, 3 * m + 2);
    if (limit >= 2) rideLimited(delta, g, limit, lo, hi);
    else pass(delta, g, limit == 1, lo, hi, src, out);
  }
  for (let e = from; e < to; e++) setU64(src, i32At(poolUnit, e), 0);
}

/**
 * One ride (or leap) of every square of `from` (units `lo .. hi`) into `to`; leaves `chain`
 * all zero, widens `outLo .. outHi` by the units visited and returns them (first, last) in
 * `passFirst`, `passLast`.
 */
// @ts-ignore: decorator
@inline
function pass(delta: i32, g: usize, leap: bool, lo: i32, hi: i32, from: usize, to: usize): void {
  let first = lo;
  let last = hi;
  if (delta > 0) last = rideUp(delta, g, leap, lo, hi, from, to);
  else first = rideDown(delta, g, leap, lo, hi, from, to);
  memory.fill(chain + (<usize>first << 3), 0, <usize>(last - first + 1) << 3);
  outLo = min(outLo, first);
  outHi = max(outHi, last);
  passFirst = first;
  passLast = last;
}

/** The units the last `pass` visited. */
let passFirst: i32 = 0;
let passLast: i32 = 0;

/**
 * A ride of at most `limit` leaps (2 or more, short of the board's edge): `limit` leaps, each
 * from the squares the one before landed on (in `leapA` and `leapB` by turns, all zero after),
 * ORed into `out`; it stops early when a leap lands nowhere.
 */
function rideLimited(delta: i32, g: usize, limit: i32, lo: i32, hi: i32): void {
  let from = src;
  let a = lo;
  let b = hi;
  for (let j = 0; j < limit; j++) {
    const to = from == leapA ? leapB : leapA;
    pass(delta, g, true, a, b, from, to);
    if (from != src) memory.fill(from + (<usize>a << 3), 0, <usize>(b - a + 1) << 3);
    a = 0x7fffffff;
    b = -1;
    for (let u = passFirst; u <= passLast; u++) {
      const x = u64At(to, u);
      if (x == 0) continue;
      setU64(out, u, u64At(out, u) | x);
      a = min(a, u);
      b = u;
    }
    from = to;
    if (b < 0) return; // `to` is all zero
  }
  memory.fill(from + (<usize>a << 3), 0, <usize>(b - a + 1) << 3);
}

/** Frontiers made by the last forward fill (F_0 .. F_(frontiers - 1)). */
let frontiers: i32 = 0;

/** Forward fill with moves `0 .. forwardMoves` until a frontier meets the targets; returns its step, or -1. */
function forward(forwardMoves: i32): i32 {
  for (let k = 0; k <= units << 6; k++) {
    frontiers = k + 1;
    const to = i32At(starts, k + 1);
    step(i32At(starts, k), to, 0, forwardMoves);
    let at = to;
    let hit: u64 = 0;
    for (let u = outLo; u <= outHi; u++) {
      const x = u64At(out, u);
      if (x == 0) continue;
      setU64(out, u, 0);
      const o = u64At(open, u);
      const v = x & o;
      if (v == 0) continue;
      setU64(open, u, o & ~v);
      setI32(poolUnit, at, u);
      setU64(poolBits, at++, v);
      hit |= v & u64At(targets, u);
    }
    if (at == to) return -1;
    setI32(starts, k + 2, at);
    if (hit != 0) return k + 1;
  }
  return -1; // not reached: every step reaches a square not reached before
}

/**
 * Turns frontiers 0..D into layers: L_D = F_D ∩ T', L_k = F_k ∩ pred(L_{k+1}) by the moves
 * `m0 .. m1` (the forward moves reversed), written out as they are found, from the top of the
 * layer words down; then moves the words to the bottom (`SparseLayers`' form).
 */
function backward(distance: i32, m0: i32, m1: i32): void {
  firstLayer(distance, targets);
  for (let k = distance; k > 0; k--) {
    step(i32At(starts, k), i32At(starts, k + 1), m0, m1);
    keep(k - 1, out);
    if (outHi >= outLo) memory.fill(out + (<usize>outLo << 3), 0, <usize>(outHi - outLo + 1) << 3);
  }
  finishLayers(distance);
}

/**
 * Solves the problem whose passable set, targets and sources the caller wrote into `passable`,
 * `targets` and `sources` (sources and targets within the passable set), with the moves the
 * caller wrote into `moves`: `forwardMoves` of them, then `backwardMoves` reversed ones (0: the
 * forward ones, for a piece whose moves are symmetric). Returns D and leaves the layers at
 * `layerStart`, `layerIdx` and `layerVal`, or returns -1 when no target is reachable
 * (including no source or no target).
 */
export function solve(forwardMoves: i32, backwardMoves: i32): i32 {
  const met = begin();
  if (i32At(starts, 1) == 0) return -1;
  const distance = met != 0 ? 0 : forward(forwardMoves);
  if (distance < 0) return -1;
  if (backwardMoves == 0) backward(distance, 0, forwardMoves);
  else backward(distance, forwardMoves, forwardMoves + backwardMoves);
  return distance;
}

/**
 * Fills from the sources with moves `0 .. forwardMoves` until no square is left to reach (the
 * caller wrote no targets); returns the number of frontiers, left at `starts`, `poolUnit`
 * and `poolBits` (units padded): F_0 .. F_(n-1), each square's distance its frontier's index.
 */
export function spread(forwardMoves: i32): i32 {
  begin();
  if (i32At(starts, 1) == 0) return 0;
  frontiers = 1;
  forward(forwardMoves);
  return frontiers;
}

/** Makes F_0 of the sources (taken from `open`, a fresh copy of `passable`); returns the targets it meets. */
function begin(): u64 {
  memory.copy(open, passable, padded);
  let n = 0;
  let met: u64 = 0;
  for (let w = 0; w < units; w++) {
    const x = u64At(sources, w);
    if (x == 0) continue;
    const u = w + pad;
    setI32(poolUnit, n, u);
    setU64(poolBits, n++, x);
    setU64(open, u, u64At(open, u) & ~x);
    met |= x & u64At(targets, u);
  }
  setI32(starts, 0, 0);
  setI32(starts, 1, n);
  return met;
}

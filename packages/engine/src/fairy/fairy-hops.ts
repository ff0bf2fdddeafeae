/**
 * Hoppers' moves (`p` cannon, `g` grasshopper: betza-hops.ts) on any board, forward and
 * reversed. A hop is a walk along one direction of a leap: passable landings are passed (never
 * stopped on) up to the first landing that is not passable, the hurdle; then `g` stops on the
 * next landing if passable, `p` on every passable landing up to the next hurdle or the edge. The
 * reverse (the squares from which a hop lands on v) walks back from v: for `g` the square before
 * v must be a hurdle, for `p` the passable landings before v are skipped up to a hurdle; then every
 * passable landing before the hurdle, up to the next hurdle or the edge, is a start.
 *
 * Two ways in the general fill, giving the same squares (the property tests compare both with the
 * reference BFS). Square by square (`hopStep`, `forEachHop`): a walk per frontier square and
 * direction, cheapest from a small frontier. Set-wise (`denseHopStep`), as a slider's
 * ray: a hop is a ride to the hurdles, the hurdles one leap on (the landings not passable), then
 * a ride (`p`) or one leap (`g`) after them, each ride by doubling (`fairy-rides.ts`) over the
 * passable squares; the reversed hop is the same with the leap reversed, its first ride skipped
 * for `g` and its last one a ride. The chains and hurdle sets are made once per solve. Boards of
 * a few words hop set-wise in fills of their own (`fairy64-hops.ts`, `fairy-small-hops.ts`). The
 * walk also serves the path walker (`forEachHop`) and the hurdles a path's moves jump (`hopHurdle`).
 */

import type { HopRay } from '../betza/betza-hops.js';
import type { Accumulator, SparseWords } from '../board/words.js';
import { andShifted, fillRideChain, newRideChain, type RideChain, rideDense } from './fairy-rides.js';

function isSet(words: ArrayLike<number>, i: number): boolean {
  return ((words[i >>> 5] >>> (i & 31)) & 1) === 1;
}

/** The walks' landings from `u` along (dx, dy): visited with `visit(v)`, stopping when it returns false. */
function walk(files: number, ranks: number, u: number, dx: number, dy: number, visit: (v: number) => boolean): void {
  let f = u % files;
  let r = (u - f) / files;
  for (;;) {
    f += dx;
    r += dy;
    if (f < 0 || f >= files || r < 0 || r >= ranks) return;
    if (!visit(r * files + f)) return;
  }
}

/** Calls `visit(v)` for every square a hop of `hops` lands on from `u` (`reverse`: hops from `v` to `u`). */
export function forEachHop(
  hops: readonly HopRay[],
  files: number,
  ranks: number,
  passable: ArrayLike<number>,
  u: number,
  reverse: boolean,
  visit: (v: number) => void,
): void {
  for (const { dx, dy, hop } of hops) {
    if (!reverse) {
      // Before the hurdle: passable landings passed over; after it, as the kind says.
      let seen = false;
      walk(files, ranks, u, dx, dy, (v) => {
        const open = isSet(passable, v);
        if (!seen) {
          seen = !open;
          return true;
        }
        if (!open) return false;
        visit(v);
        return hop === 'p';
      });
    } else {
      // Back from the landing u: the hurdle (for `g` the square just before), then the starts.
      let hurdle = false;
      walk(files, ranks, u, -dx, -dy, (v) => {
        const open = isSet(passable, v);
        if (!hurdle) {
          hurdle = !open;
          return hurdle || hop === 'p';
        }
        if (!open) return false;
        visit(v);
        return true;
      });
    }
  }
}

/**
 * ORs into `out` every square one hop from (`reverse`: one hop before) a square of `src`
 * entries `from .. to`, on a board of `files` x `ranks` squares with passable set `passable`.
 */
export function hopStep(
  hops: readonly HopRay[],
  files: number,
  ranks: number,
  src: SparseWords,
  from: number,
  to: number,
  passable: Int32Array,
  reverse: boolean,
  out: Accumulator,
): void {
  // The walks of `forEachHop` written out without callbacks: this is the fill's inner loop.
  for (let e = from; e < to; e++) {
    const base = src.idx[e] << 5;
    let bits = src.val[e];
    while (bits !== 0) {
      const u = base + 31 - Math.clz32(bits & -bits);
      bits &= bits - 1;
      const f0 = u % files;
      const r0 = (u - f0) / files;
      for (let i = 0; i < hops.length; i++) {
        const ray = hops[i];
        const dx = reverse ? -ray.dx : ray.dx;
        const dy = reverse ? -ray.dy : ray.dy;
        const d = dy * files + dx;
        let f = f0 + dx;
        let r = r0 + dy;
        let v = u + d;
        // To the hurdle (for a grasshopper's reverse, it must be the first landing).
        while (f >= 0 && f < files && r >= 0 && r < ranks && ((passable[v >>> 5] >>> (v & 31)) & 1) === 1) {
          if (reverse && ray.hop === 'g') break;
          f += dx;
          r += dy;
          v += d;
        }
        if (f < 0 || f >= files || r < 0 || r >= ranks || ((passable[v >>> 5] >>> (v & 31)) & 1) === 1) continue;
        // After it: one landing (a grasshopper forward) or every one up to the next hurdle.
        const one = !reverse && ray.hop === 'g';
        for (;;) {
          f += dx;
          r += dy;
          v += d;
          if (f < 0 || f >= files || r < 0 || r >= ranks || ((passable[v >>> 5] >>> (v & 31)) & 1) === 0) break;
          out.or(v >>> 5, 1 << (v & 31));
          if (one) break;
        }
      }
    }
  }
}

/**
 * The hurdle a move u -> v of `hops` jumps, or -1 when no hop of them makes it (an ordinary ride
 * may). For a viewer marking the pieces a path's hops jump.
 */
export function hopHurdle(
  hops: readonly HopRay[],
  files: number,
  ranks: number,
  passable: ArrayLike<number>,
  u: number,
  v: number,
): number {
  for (const ray of hops) {
    const { dx, dy } = ray;
    let found = -1;
    let hurdle = -1;
    walk(files, ranks, u, dx, dy, (w) => {
      if (hurdle < 0 && !isSet(passable, w)) hurdle = w;
      if (w === v && hurdle >= 0 && hurdle !== w) found = hurdle;
      return w !== v;
    });
    if (found < 0) continue;
    let lands = false;
    forEachHop([ray], files, ranks, passable, u, false, (w) => {
      if (w === v) lands = true;
    });
    if (lands) return found;
  }
  return -1;
}

/** One hopper direction on one board, set-wise: its ride chain and hurdle squares per solve. */
export interface DenseHop {
  readonly delta: number;
  /** Whether the landings before the hurdle are ridden (all but a grasshopper's reverse). */
  readonly before: boolean;
  /** Whether the landings after the hurdle are ridden (`p`), or only the first (`g` forward). */
  readonly after: boolean;
  readonly guard: Int32Array;
  readonly chain: RideChain;
  /** Per solve: the squares a leap from `guard` lands on that are not passable (hurdles). */
  readonly hurdles: Int32Array;
}

/** The dense hops of `hops` (forward, or reversed) on a board of `words` words. */
export function denseHops(
  hops: readonly HopRay[],
  reverse: boolean,
  words: number,
  leaps: (dx: number, dy: number) => number,
  guardOf: (dx: number) => Int32Array,
  files: number,
): DenseHop[] {
  const out: DenseHop[] = [];
  for (const { dx, dy, hop } of hops) {
    const n = leaps(dx, dy);
    if (n < 2) continue; // a hop needs a hurdle and a landing beyond it on the board
    const [sx, sy] = reverse ? [-dx, -dy] : [dx, dy];
    out.push({
      delta: sy * files + sx,
      before: !reverse || hop === 'p',
      after: reverse || hop === 'p',
      guard: guardOf(sx),
      chain: newRideChain(words, n),
      hurdles: new Int32Array(words),
    });
  }
  return out;
}

/** Refreshes the hops' chains and hurdles for the passable set `passable` (`closed`: its complement on the board). */
export function refreshDenseHops(hops: readonly DenseHop[], passable: Int32Array, closed: Int32Array): void {
  for (const h of hops) {
    fillRideChain(h.chain, h.delta, h.guard, passable);
    andShifted(h.hurdles, closed, h.guard, h.delta);
  }
}

/**
 * ORs into `out` the squares one hop of `hops` from a square of the dense set `src` (for reversed
 * hops, one hop before): the ride to the hurdles, the hurdles, then the ride (or one leap) after.
 * `a`, `b`, `gen` are scratch of the board's words.
 */
export function denseHopStep(
  hops: readonly DenseHop[],
  src: Int32Array,
  a: Int32Array,
  b: Int32Array,
  gen: Int32Array,
  out: Int32Array,
): void {
  for (const h of hops) {
    a.set(src);
    if (h.before) rideDense(src, h.delta, h.chain, gen, a);
    andShifted(b, h.hurdles, a, h.delta);
    if (h.after) {
      a.fill(0);
      rideDense(b, h.delta, h.chain, gen, a);
    } else andShifted(a, h.chain.levels[0], b, h.delta);
    for (let w = 0; w < out.length; w++) out[w] |= a[w];
  }
}

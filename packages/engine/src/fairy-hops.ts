/**
 * Hoppers' moves (`p` cannon, `g` grasshopper: betza-hops.ts) on any board, forward and
 * reversed. A hop is a walk along one direction of a leap: passable landings are passed (never
 * stopped on) up to the first landing that is not passable, the hurdle; then `g` stops on the
 * next landing if passable, `p` on every passable landing up to the next hurdle or the edge. The
 * reverse (the squares from which a hop lands on v) walks back from v: for `g` the square before
 * v must be a hurdle, for `p` the passable landings before v are skipped up to a hurdle; then every
 * passable landing before the hurdle, up to the next hurdle or the edge, is a start.
 *
 * The walks are per square of the frontier: a hop's landings form one ray to the hurdle and one
 * after it, each cut by the first square not passable, and a frontier's squares are few next to
 * a board's on most steps (a hopper crosses a board in a few moves). The same walk serves the
 * fills (`hopStep`, into an accumulator), the path walker (`forEachHop`) and the hurdles a path's
 * moves jump (`hopHurdle`), so the three cannot disagree.
 */

import type { HopRay } from './betza-hops.js';
import type { Accumulator, SparseWords } from './words.js';

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
  const land = (v: number) => out.or(v >>> 5, 1 << (v & 31));
  for (let e = from; e < to; e++) {
    const base = src.idx[e] << 5;
    let bits = src.val[e];
    while (bits !== 0) {
      const b = 31 - Math.clz32(bits & -bits);
      bits &= bits - 1;
      forEachHop(hops, files, ranks, passable, base + b, reverse, land);
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

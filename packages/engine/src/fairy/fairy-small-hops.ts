/**
 * Hoppers (`p` cannon, `g` grasshopper; `fairy-hops.ts` has their moves) in the small-board
 * fairy fill (`fairy-small.ts`), set-wise on the fill's padded words, a frontier at a time. Per
 * direction, the set rides leap by leap over passable landings (a set that empties ends the
 * ride: with hurdles about, rides are short), and every landing that is not passable is a hurdle
 * reached first; from the hurdles, one leap onto a passable square (`g`) or a ride over passable
 * squares (`p`). A leap's landings are `(X + d) ∩ (files + d)`, the board's landings of the leap,
 * kept per board; P is read as it is, so nothing is made per solve. The reversed hop is the same
 * along the reversed leap, with no ride before a grasshopper's hurdle and a ride after it.
 *
 * Only from a set of one square (a source, a single target, often a layer) does a hop walk, square
 * by square along each direction: a few bit tests where each leap of the set-wise ride shifts
 * every word (the Janggi cannon's 9 x 10 fill 1.4 -> 1.1 us).
 *
 * The forward fill prunes what its earlier steps did: a ride before a hurdle does not go on over
 * the squares of earlier frontiers (their hops in this direction were taken from them), and the
 * hurdles reached in earlier steps are dropped (their landings are visited). A doubling ride
 * (`fairy-rides.ts`) costs a fixed few passes and its chain per solve; on boards of a few words a
 * ride that ends when its set empties costs less (as on 8 x 8, `fairy64-hops.ts`).
 */
import type { HopRay } from '../betza/betza.js';
import type { Geometry } from '../board/geometry.js';
import { leapsOnBoard } from './fairy-rides.js';
import { landingsOf, PAD as PADBound, paddedSet, shiftedAt as shiftedAtBound, shiftParts } from './fairy-small-rays.js';

// Imports the inner loops use, copied once: a loader that rewrites modules (tsx, in the bench)
// may read an imported binding through a getter at every use.
const PAD = PADBound;
const shiftedAt = shiftedAtBound;

/** A piece's hops (forward or reversed) on one board, as flat arrays. */
export interface SmallHops {
  readonly count: number;
  /** Per hop: whole words and bits of the shift (as `RayTable`), and its sign. */
  readonly q: Int32Array;
  readonly t: Int32Array;
  readonly up: Uint8Array;
  /** Per hop: 1 when it rides to the hurdle (all but a grasshopper's reverse), else one leap onto it. */
  readonly before: Uint8Array;
  /** Per hop: 1 when it rides after the hurdle (`p`, and every reverse), else one leap. */
  readonly after: Uint8Array;
  /** Words per hop in `landing` and `seen`: 4 up to 4 words (the unrolled step reads 4), else the board's. */
  readonly stride: number;
  /** Hop i's landings on the board (`files + d`) at words `i * stride ..`. */
  readonly landing: Int32Array;
  /** Hop i's hurdles reached in this solve's forward fill, at words `i * stride ..`. */
  readonly seen: Int32Array;
  /** Per hop, its leap (reversed for reversed hops), and the board's sides: for a walk from one square. */
  readonly dx: Int32Array;
  readonly dy: Int32Array;
  readonly files: number;
  readonly ranks: number;
}

/**
 * The hops of `hops` on the board of `geo`, forward or reversed; those with fewer than two leaps
 * on the board (a hurdle and a landing) are left out, so a shift is less than 64 squares on a
 * board of 4 words (a hop along a file of 128 squares leaps 3 squares; across ranks, the board
 * has 3 leaps' worth of ranks, so 42 files at most).
 */
export function smallHops(geo: Geometry, rays: readonly HopRay[], reverse: boolean): SmallHops {
  const { words, files } = geo;
  const hops = rays.filter(({ dx, dy }) => leapsOnBoard(geo, dx, dy) >= 2);
  const count = hops.length;
  const stride = Math.max(words, 4);
  const table = {
    count,
    q: new Int32Array(count),
    t: new Int32Array(count),
    up: new Uint8Array(count),
    before: new Uint8Array(count),
    after: new Uint8Array(count),
    stride,
    landing: new Int32Array(count * stride),
    seen: new Int32Array(count * stride),
    dx: new Int32Array(count),
    dy: new Int32Array(count),
    files,
    ranks: geo.ranks,
  };
  hops.forEach(({ dx, dy, hop }, i) => {
    const [sx, sy] = reverse ? [-dx, -dy] : [dx, dy];
    const d = sy * files + sx;
    table.dx[i] = sx;
    table.dy[i] = sy;
    [table.q[i], table.t[i]] = shiftParts(d, words);
    table.up[i] = d >= 0 ? 1 : 0;
    table.before[i] = !reverse || hop === 'p' ? 1 : 0;
    table.after[i] = reverse || hop === 'p' ? 1 : 0;
    landingsOf(geo, sx, sy, table.landing, i * stride);
  });
  return table;
}

/** A ride's sets, padded: the two it alternates between, and the hurdles it reached. */
const rideA = paddedSet();
const rideB = paddedSet();
const hurdles = paddedSet();

/**
 * ORs into `out[0 .. words)` every square one hop of `hops` from the padded set `src` lands on,
 * P padded in `open`. A ride before a hurdle goes over the squares of `through` only (P, or the
 * forward fill's P less earlier frontiers); `seen`: drop the hurdles reached before, and keep
 * this step's (forward fill only).
 */
export function hopSmall(
  hops: SmallHops,
  src: Int32Array,
  open: Int32Array,
  through: Int32Array,
  words: number,
  seen: boolean,
  out: Int32Array,
): void {
  // One square (a source, a single target, often a layer) walks: cheaper than shifting words.
  let square = -1;
  for (let w = 0; w < words; w++) {
    const x = src[PAD + w];
    if (x === 0) continue;
    if (square >= 0 || (x & (x - 1)) !== 0) {
      square = -2;
      break;
    }
    square = (w << 5) + 31 - Math.clz32(x);
  }
  if (square >= 0) hopSquare(hops, square, open, out);
  else if (words <= 4) hopSmall4(hops, src, open, through, seen, out, words);
  else hopWords(hops, src, open, through, words, seen, out);
}

/** ORs into `out` every square one hop of `hops` from the square `u` lands on, P padded in `open`. */
function hopSquare(hops: SmallHops, u: number, open: Int32Array, out: Int32Array): void {
  const { files, ranks, before, after } = hops;
  const f0 = u % files;
  const r0 = (u - f0) / files;
  for (let i = 0; i < hops.count; i++) {
    const dx = hops.dx[i];
    const dy = hops.dy[i];
    const d = dy * files + dx;
    // Leaps to the board's edge along the hop: k at most, the hurdle the first closed landing.
    const k =
      Math.min(
        dx > 0 ? (files - 1 - f0) / dx : dx < 0 ? f0 / -dx : 256,
        dy > 0 ? (ranks - 1 - r0) / dy : dy < 0 ? r0 / -dy : 256,
      ) | 0;
    let j = 1;
    let v = u + d;
    if (before[i] === 1) {
      while (j <= k && ((open[PAD + (v >>> 5)] >>> (v & 31)) & 1) === 1) {
        j++;
        v += d;
      }
    }
    if (j > k || ((open[PAD + (v >>> 5)] >>> (v & 31)) & 1) === 1) continue;
    for (j++, v += d; j <= k && ((open[PAD + (v >>> 5)] >>> (v & 31)) & 1) === 1; j++, v += d) {
      out[v >>> 5] |= 1 << (v & 31);
      if (after[i] === 0) break;
    }
  }
}

/** `hopSmall` on a board of more than 4 words, a set word by word. */
function hopWords(
  hops: SmallHops,
  src: Int32Array,
  open: Int32Array,
  through: Int32Array,
  words: number,
  seen: boolean,
  out: Int32Array,
): void {
  const { q, t, up, before, after, landing } = hops;
  for (let i = 0; i < hops.count; i++) {
    const base = i * hops.stride;
    const qi = q[i];
    const ti = t[i];
    const u = up[i] === 1;
    // Leap by leap over passable landings; the landings that are not passable are the hurdles.
    let from = src;
    let to = rideA;
    for (let w = 0; w < words; w++) hurdles[PAD + w] = 0;
    for (;;) {
      let any = 0;
      for (let w = 0; w < words; w++) {
        const s = shiftedAt(from, w, qi, ti, u) & landing[base + w];
        hurdles[PAD + w] |= s & ~open[PAD + w];
        const v = s & through[w];
        to[PAD + w] = v;
        any |= v;
      }
      if (any === 0 || before[i] === 0) break;
      from = to;
      to = to === rideA ? rideB : rideA;
    }
    if (seen) {
      for (let w = 0; w < words; w++) {
        const h = hurdles[PAD + w];
        hurdles[PAD + w] = h & ~hops.seen[base + w];
        hops.seen[base + w] |= h;
      }
    }
    // From the hurdles: one leap, or a ride, onto passable squares.
    from = hurdles;
    to = rideA;
    for (;;) {
      let any = 0;
      for (let w = 0; w < words; w++) {
        const v = shiftedAt(from, w, qi, ti, u) & landing[base + w] & open[PAD + w];
        to[PAD + w] = v;
        out[w] |= v;
        any |= v;
      }
      if (any === 0 || after[i] === 0) break;
      from = to;
      to = to === rideA ? rideB : rideA;
    }
  }
}

/**
 * `hopSmall` on a board of up to 4 words, unrolled: each set's words in locals (the word loop of
 * the general case costs as much again as its body), a shifted set read padded. One loop, one
 * shift, for both rides: before the hurdles, then (`after`) from them.
 */
function hopSmall4(
  hops: SmallHops,
  src: Int32Array,
  open: Int32Array,
  through: Int32Array,
  seen: boolean,
  out: Int32Array,
  words: number,
): void {
  const { q, t, up, before, after, landing } = hops;
  const o0 = open[PAD];
  const o1 = open[PAD + 1];
  const o2 = open[PAD + 2];
  const o3 = open[PAD + 3];
  const r0 = through[0];
  const r1 = words > 1 ? through[1] : 0;
  const r2 = words > 2 ? through[2] : 0;
  const r3 = words > 3 ? through[3] : 0;
  let m0 = 0;
  let m1 = 0;
  let m2 = 0;
  let m3 = 0;
  for (let i = 0; i < hops.count; i++) {
    const base = 4 * i;
    const a = PAD - q[i];
    const ti = t[i];
    const ui = 31 - ti;
    const u = up[i] === 1;
    const l0 = landing[base];
    const l1 = landing[base + 1];
    const l2 = landing[base + 2];
    const l3 = landing[base + 3];
    let h0 = 0;
    let h1 = 0;
    let h2 = 0;
    let h3 = 0;
    let from = src;
    let to = rideA;
    let hurdled = false;
    for (;;) {
      const f0 = from[a];
      const f1 = from[a + 1];
      const f2 = from[a + 2];
      const f3 = from[a + 3];
      let x0: number;
      let x1: number;
      let x2: number;
      let x3: number;
      if (u) {
        x0 = ((f0 << ti) | ((from[a - 1] >>> ui) >>> 1)) & l0;
        x1 = ((f1 << ti) | ((f0 >>> ui) >>> 1)) & l1;
        x2 = ((f2 << ti) | ((f1 >>> ui) >>> 1)) & l2;
        x3 = ((f3 << ti) | ((f2 >>> ui) >>> 1)) & l3;
      } else {
        x0 = ((f0 >>> ti) | ((f1 << ui) << 1)) & l0;
        x1 = ((f1 >>> ti) | ((f2 << ui) << 1)) & l1;
        x2 = ((f2 >>> ti) | ((f3 << ui) << 1)) & l2;
        x3 = ((f3 >>> ti) | ((from[a + 4] << ui) << 1)) & l3;
      }
      if (hurdled) {
        // After the hurdles: passable landings, one leap or a ride.
        x0 &= o0;
        x1 &= o1;
        x2 &= o2;
        x3 &= o3;
        m0 |= x0;
        m1 |= x1;
        m2 |= x2;
        m3 |= x3;
        if (after[i] === 0 || (x0 | x1 | x2 | x3) === 0) break;
      } else {
        // Before: the landings not passable are hurdles, the ride goes on over `through`.
        h0 |= x0 & ~o0;
        h1 |= x1 & ~o1;
        h2 |= x2 & ~o2;
        h3 |= x3 & ~o3;
        x0 &= r0;
        x1 &= r1;
        x2 &= r2;
        x3 &= r3;
        if (before[i] === 0 || (x0 | x1 | x2 | x3) === 0) {
          if (seen) {
            const seen0 = hops.seen[base];
            const seen1 = hops.seen[base + 1];
            const seen2 = hops.seen[base + 2];
            const seen3 = hops.seen[base + 3];
            hops.seen[base] = seen0 | h0;
            hops.seen[base + 1] = seen1 | h1;
            hops.seen[base + 2] = seen2 | h2;
            hops.seen[base + 3] = seen3 | h3;
            h0 &= ~seen0;
            h1 &= ~seen1;
            h2 &= ~seen2;
            h3 &= ~seen3;
          }
          if ((h0 | h1 | h2 | h3) === 0) break;
          hurdled = true;
          x0 = h0;
          x1 = h1;
          x2 = h2;
          x3 = h3;
        }
      }
      to[PAD] = x0;
      to[PAD + 1] = x1;
      to[PAD + 2] = x2;
      to[PAD + 3] = x3;
      from = to;
      to = to === rideA ? rideB : rideA;
    }
  }
  out[0] |= m0;
  if (words > 1) out[1] |= m1;
  if (words > 2) out[2] |= m2;
  if (words > 3) out[3] |= m3;
}

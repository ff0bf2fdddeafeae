/**
 * The small-board fairy fill's ray tables and padded sets (`fairy-small.ts` has the fill). A ray's
 * landings from a set X are `pro ∩ (X + d)`, where pro(v) = P(v) ∩ files(v - d) ∩ P(v - d + p)
 * for each square p a lame leap passes over: the squares a leap from a start it may leave lands
 * on, passable. `files + d` depends on the board only and is kept; pro is made once per solve,
 * straight from P (one shifted AND per lame square), with no guard in between. A ride whose limit
 * reaches the edge rides by doubling from pro (`fairy-rides.ts`), a shorter one leap by leap.
 * Rays are flat typed arrays, not objects: the step is a tight loop over numbers.
 *
 * A set a step shifts (and P, for pro) sits between padding words, `PAD` each side, so a shifted
 * read never needs a bounds check. Below the set they are zero; above it they may hold a larger
 * board's words from an earlier solve, which is harmless: a bit read from square u >= n lands on
 * u + d, where `files + d` is clear (its start is off the board), and so are the lame squares'
 * reads (a leap on the board passes over squares on the board).
 */
import type { FairyRay } from '../betza/betza.js';
import { SMALL_WORDS } from '../board/board.js';
import type { Geometry } from '../board/geometry.js';
import { extendRideChain, leapsOnBoard, newRideChain, type RideChain } from './fairy-rides.js';

/** Padding words on each side of a padded set: a shift reads at most SMALL_WORDS + 2 words away. */
export const PAD = SMALL_WORDS + 2;

/** A new padded set (words PAD ..). */
export function paddedSet(): Int32Array {
  return new Int32Array(SMALL_WORDS + 2 * PAD);
}

/** Word w of the padded set `src` shifted by (q, t) squares, delta's sign `up`. */
export function shiftedAt(src: Int32Array, w: number, q: number, t: number, up: boolean): number {
  const a = PAD + w - q;
  return up ? (src[a] << t) | ((src[a - 1] >>> (31 - t)) >>> 1) : (src[a] >>> t) | ((src[a + 1] << (31 - t)) << 1);
}

/** Whole words `q` (negative when delta is) and bits `t` of a shift by `delta` squares on a board of `words` words. */
export function shiftParts(delta: number, words: number): [number, number] {
  const e = Math.abs(delta);
  // A shift of more than the board's words lands nothing: q is capped so reads stay in the padding.
  return [Math.min(e >>> 5, words + 1) * Math.sign(delta), e & 31];
}

/** The landings of a leap (dx, dy) on the board: the squares v on it whose start v - d is on it, its file too. */
export function landingsOf(geo: Geometry, dx: number, dy: number, out: Int32Array, at: number): void {
  const { files, n } = geo;
  const d = dy * files + dx;
  for (let u = 0; u < n; u++) {
    const f = (u % files) + dx;
    const v = u + d;
    if (f >= 0 && f < files && v >= 0 && v < n) out[at + (v >>> 5)] |= 1 << (v & 31);
  }
}

/** One direction's rays (forward or reversed) of a piece on one board, as flat arrays. */
export interface RayTable {
  readonly count: number;
  /** Per ray: whole words and bits of the shift, `|delta| = 32 |q| + t`, q < 0 when delta < 0. */
  readonly q: Int32Array;
  readonly t: Int32Array;
  readonly max: Int32Array;
  /** Ray i's lame squares give shifts `lameShift[lameStart[i] .. lameStart[i + 1])` of P (d - p). */
  readonly lameStart: Int32Array;
  readonly lameShift: Int32Array;
  /** Words per ray in `landing` and `pro`: 4 up to 4 words (the unrolled step reads 4), else the board's. */
  readonly stride: number;
  /** Ray i's `files + d` at words `i * stride ..`, and its pro for the solve `epoch`. */
  readonly landing: Int32Array;
  readonly pro: Int32Array;
  /** A ride whose limit reaches the edge rides by doubling: its chain, else null. */
  readonly chains: readonly (RideChain | null)[];
  /** Per ray: the shift in squares. */
  readonly delta: Int32Array;
  /** The solve `pro` was made for. */
  epoch: number;
}

/** The table of `rays` on the board of `geo`: shifts, limits, lame shifts and `files + d`. */
export function rayTable(geo: Geometry, rays: readonly FairyRay[]): RayTable {
  const { files } = geo;
  const words = geo.words;
  const count = rays.length;
  const q = new Int32Array(count);
  const t = new Int32Array(count);
  const delta = new Int32Array(count);
  const max = new Int32Array(count);
  const lameStart = new Int32Array(count + 1);
  const lameShift: number[] = [];
  const stride = Math.max(words, 4);
  const landing = new Int32Array(count * stride);
  const chains: (RideChain | null)[] = [];
  rays.forEach(({ dx, dy, max: m, lame }, i) => {
    const d = dy * files + dx;
    [q[i], t[i]] = shiftParts(d, words);
    delta[i] = d;
    max[i] = m;
    for (const [px, py] of lame) lameShift.push(d - (py * files + px));
    lameStart[i + 1] = lameShift.length;
    landingsOf(geo, dx, dy, landing, i * stride);
    const leaps = leapsOnBoard(geo, dx, dy);
    chains.push(m > 1 && leaps > 1 && m >= leaps ? newRideChain(words, leaps) : null);
  });
  return {
    count,
    q,
    t,
    max,
    lameStart,
    lameShift: Int32Array.from(lameShift),
    landing,
    stride,
    pro: new Int32Array(count * stride),
    chains,
    delta,
    epoch: -1,
  };
}

/** Makes the table's pro (and chains) for P padded in `open`, for the solve `epoch`. */
export function makePro(table: RayTable, words: number, open: Int32Array, epoch: number): void {
  const { pro, landing, lameStart, lameShift } = table;
  for (let i = 0; i < table.count; i++) {
    const base = i * table.stride;
    for (let w = 0; w < words; w++) pro[base + w] = open[PAD + w] & landing[base + w];
    for (let l = lameStart[i]; l < lameStart[i + 1]; l++) {
      const s = lameShift[l];
      const e = Math.abs(s);
      const q = Math.min(e >>> 5, words + 1) * Math.sign(s); // as `shiftParts`, without an array
      for (let w = 0; w < words; w++) pro[base + w] &= shiftedAt(open, w, q, e & 31, s >= 0);
    }
    const chain = table.chains[i];
    if (chain !== null) {
      chain.levels[0].set(pro.subarray(base, base + words));
      extendRideChain(chain, table.delta[i]);
    }
  }
  table.epoch = epoch;
}

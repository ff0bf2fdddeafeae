/**
 * The knight's fill for boards whose files are a multiple of 64 (64 x 64, 128 x 128,
 * 256 x 256, ...): the word-pair twin of the knight in `leapers.ts`.
 *
 * A knight's frontier is dense (it fills regions, where a king draws thin rings). Kept as
 * 32-bit words, a dense frontier moves as many carries between neighbouring words as it moves
 * words. Here an entry is a 64-bit unit (an aligned pair of words, low word first), and a rank
 * is a whole number of units, so a move along the rank carries between the two halves in
 * registers, and a move by whole ranks is a plain unit offset. A 64 x 64 frontier then costs
 * one entry and four emits a rank, where words cost two entries and up to twenty emits.
 *
 * Dense arrays are padded with zero units on both sides, as in `leapers.ts`, so emits that fall
 * off the board need no bounds check.
 */

import type { Geometry } from '../board/geometry.js';
import { grown, grownSize, noteGrowth, type SparseLayers } from '../board/words.js';

/** ORs the pair (`lo`, `hi`) into unit `u`; lists `u` when the unit turns non-zero. */
function emit2(out: Int32Array, touched: Int32Array, n: number, u: number, lo: number, hi: number): number {
  const i = u << 1;
  const a = out[i];
  const b = out[i + 1];
  out[i] = a | lo;
  out[i + 1] = b | hi;
  if ((a | b) === 0 && (lo | hi) !== 0) touched[n++] = u;
  return n;
}

/** Unit entries of frontiers or layers: entry e is unit `idx[e]` (padded) with words `lo[e]`, `hi[e]`. */
class UnitPool {
  idx: Int32Array;
  lo: Int32Array;
  hi: Int32Array;
  n = 0;
  constructor(capacity: number) {
    this.idx = new Int32Array(capacity);
    this.lo = new Int32Array(capacity);
    this.hi = new Int32Array(capacity);
  }

  /** Makes room for `more` entries. */
  reserve(more: number): void {
    if (this.n + more <= this.idx.length) return;
    const size = grownSize(this.idx.length, this.n + more);
    this.idx = grown(this.idx, size, this.n);
    this.lo = grown(this.lo, size, this.n);
    this.hi = grown(this.hi, size, this.n);
  }
}

/** True when a board suits the unit fill: its ranks are whole 64-bit units. */
export function fitsWideKnight(geo: Geometry): boolean {
  return (geo.files & 63) === 0;
}

/** The knight's unit fill for one board size; holds scratch buffers, so not re-entrant. */
export class WideKnightFill {
  /** Padding, in units. */
  private readonly pad: number;
  /** Units a rank. */
  private readonly rank: number;
  private readonly out: Int32Array;
  private readonly touched: Int32Array;
  /** Passable squares not reached yet (P minus the visited squares), padded. */
  private readonly open: Int32Array;
  private readonly targets: Int32Array;
  /** Squares that may move one (index 0) or two (1) files east, or west, padded. */
  private readonly east: Int32Array[];
  private readonly west: Int32Array[];
  private readonly pool: UnitPool;
  private starts: Int32Array;
  /** Where `layersOut` gathers the non-zero words before copying them out. */
  private scratchIdx = new Int32Array(0);
  private scratchVal = new Int32Array(0);

  constructor(geo: Geometry) {
    this.rank = geo.files >>> 6;
    this.pad = 2 * this.rank + 2;
    const units = geo.words >>> 1;
    const size = 2 * (units + 2 * this.pad);
    this.out = new Int32Array(size);
    this.touched = new Int32Array(size >>> 1);
    this.open = new Int32Array(size);
    this.targets = new Int32Array(size);
    this.east = geo.notEastFiles.map((mask) => this.padded(mask));
    this.west = geo.notWestFiles.map((mask) => this.padded(mask));
    this.pool = new UnitPool(Math.max(64, units));
    this.starts = new Int32Array(64);
  }

  private padded(words: Int32Array): Int32Array {
    const out = new Int32Array(words.length + 4 * this.pad);
    out.set(words, 2 * this.pad);
    return out;
  }

  /**
   * Solves one knight problem. Returns the distance D and the layers, or null when T' is
   * unreachable (including S' or T' empty). `sources` and `targets` must be within `passable`.
   */
  solve(
    passable: Int32Array,
    sources: Int32Array,
    targets: Int32Array,
  ): { distance: number; layers: SparseLayers } | null {
    const base = 2 * this.pad;
    this.open.set(passable, base);
    this.targets.set(targets, base);
    const pool = this.pool;
    const open = this.open;
    pool.n = 0;
    pool.reserve(sources.length >>> 1);
    let hit = 0;
    for (let w = 0; w < sources.length; w += 2) {
      const lo = sources[w];
      const hi = sources[w + 1];
      if ((lo | hi) === 0) continue;
      pool.idx[pool.n] = (w >>> 1) + this.pad;
      pool.lo[pool.n] = lo;
      pool.hi[pool.n++] = hi;
      open[base + w] &= ~lo;
      open[base + w + 1] &= ~hi;
      hit |= (lo & targets[w]) | (hi & targets[w + 1]);
    }
    this.starts[0] = 0;
    this.starts[1] = pool.n;
    const distance = pool.n === 0 ? -1 : hit !== 0 ? 0 : this.forward();
    if (distance < 0) return null;
    this.backward(distance);
    return { distance, layers: this.layersOut(distance) };
  }

  /** Forward fill until a frontier meets the targets; returns its step, or -1. */
  private forward(): number {
    const pool = this.pool;
    const { out, touched, open, targets } = this;
    for (let k = 0; ; k++) {
      const from = this.starts[k];
      const to = this.starts[k + 1];
      const n = this.step(from, to);
      pool.reserve(n);
      const { idx, lo, hi } = pool;
      let at = pool.n;
      let hit = 0;
      for (let i = 0; i < n; i++) {
        const u = touched[i];
        const a = u << 1;
        const b = a + 1;
        const vLo = out[a] & open[a];
        const vHi = out[b] & open[b];
        out[a] = 0;
        out[b] = 0;
        if ((vLo | vHi) !== 0) {
          open[a] &= ~vLo;
          open[b] &= ~vHi;
          idx[at] = u;
          lo[at] = vLo;
          hi[at++] = vHi;
          hit |= (vLo & targets[a]) | (vHi & targets[b]);
        }
      }
      if (at === to) return -1;
      pool.n = at;
      if (k + 2 >= this.starts.length) this.starts = grown(this.starts, 2 * this.starts.length, k + 2);
      this.starts[k + 2] = at;
      if (hit !== 0) return k + 1;
    }
  }

  /** Turns frontiers 0..D into layers in place: L_D = F_D ∩ T', L_k = F_k ∩ moves(L_{k+1}). */
  private backward(distance: number): void {
    const { idx, lo, hi } = this.pool;
    const { out, touched, targets, starts } = this;
    for (let e = starts[distance]; e < starts[distance + 1]; e++) {
      lo[e] &= targets[idx[e] << 1];
      hi[e] &= targets[(idx[e] << 1) + 1];
    }
    // The knight moves symmetrically: the squares a move comes from are the squares it reaches.
    for (let k = distance; k > 0; k--) {
      const n = this.step(starts[k], starts[k + 1]);
      for (let e = starts[k - 1]; e < starts[k]; e++) {
        lo[e] &= out[idx[e] << 1];
        hi[e] &= out[(idx[e] << 1) + 1];
      }
      for (let i = 0; i < n; i++) {
        out[touched[i] << 1] = 0;
        out[(touched[i] << 1) + 1] = 0;
      }
    }
  }

  /** Emits the knight moves of pool entries `from .. to`; returns the number of touched units. */
  private step(from: number, to: number): number {
    const { out, touched, rank } = this;
    const { idx, lo, hi } = this.pool;
    const [east1, east2] = this.east;
    const [west1, west2] = this.west;
    const rank2 = 2 * rank;
    let n = 0;
    for (let e = from; e < to; e++) {
      const xLo = lo[e];
      const xHi = hi[e];
      if ((xLo | xHi) === 0) continue;
      const u = idx[e];
      const a = u << 1;
      const e1Lo = xLo & east1[a];
      const e1Hi = xHi & east1[a + 1];
      const w1Lo = xLo & west1[a];
      const w1Hi = xHi & west1[a + 1];
      const e2Lo = xLo & east2[a];
      const e2Hi = xHi & east2[a + 1];
      const w2Lo = xLo & west2[a];
      const w2Hi = xHi & west2[a + 1];
      // One file east or west lands two ranks up or down; two files, one rank.
      const oneLo = (e1Lo << 1) | (w1Lo >>> 1) | (w1Hi << 31);
      const oneHi = (e1Hi << 1) | (w1Hi >>> 1) | (e1Lo >>> 31);
      const twoLo = (e2Lo << 2) | (w2Lo >>> 2) | (w2Hi << 30);
      const twoHi = (e2Hi << 2) | (w2Hi >>> 2) | (e2Lo >>> 30);
      n = emit2(out, touched, n, u + rank2, oneLo, oneHi);
      n = emit2(out, touched, n, u - rank2, oneLo, oneHi);
      n = emit2(out, touched, n, u + rank, twoLo, twoHi);
      n = emit2(out, touched, n, u - rank, twoLo, twoHi);
      // Carries into the neighbouring units of the rank: the top bits east, the bottom bits west.
      const oneEast = e1Hi >>> 31;
      const twoEast = e2Hi >>> 30;
      if ((oneEast | twoEast) !== 0) {
        n = emit2(out, touched, n, u + 1 + rank2, oneEast, 0);
        n = emit2(out, touched, n, u + 1 - rank2, oneEast, 0);
        n = emit2(out, touched, n, u + 1 + rank, twoEast, 0);
        n = emit2(out, touched, n, u + 1 - rank, twoEast, 0);
      }
      const oneWest = w1Lo << 31;
      const twoWest = w2Lo << 30;
      if ((oneWest | twoWest) !== 0) {
        n = emit2(out, touched, n, u - 1 + rank2, 0, oneWest);
        n = emit2(out, touched, n, u - 1 - rank2, 0, oneWest);
        n = emit2(out, touched, n, u - 1 + rank, 0, twoWest);
        n = emit2(out, touched, n, u - 1 - rank, 0, twoWest);
      }
    }
    return n;
  }

  /**
   * Layers 0..D as compact sparse word lists with unpadded word indices. One pass without
   * branches (a zero word is written and overwritten) into scratch lists, then copies of the
   * right size: the zero words left by the backward pass are many and unpredictable.
   */
  private layersOut(distance: number): SparseLayers {
    const { idx, lo, hi } = this.pool;
    const starts = this.starts;
    const end = starts[distance + 1];
    if (this.scratchIdx.length < 2 * end) {
      noteGrowth();
      this.scratchIdx = new Int32Array(4 * end);
      this.scratchVal = new Int32Array(4 * end);
    }
    const outIdx = this.scratchIdx;
    const outVal = this.scratchVal;
    const start = new Int32Array(distance + 2);
    const base = 2 * this.pad;
    let at = 0;
    for (let k = 0; k <= distance; k++) {
      start[k] = at;
      for (let e = starts[k]; e < starts[k + 1]; e++) {
        const w = (idx[e] << 1) - base;
        outIdx[at] = w;
        outVal[at] = lo[e];
        at += lo[e] !== 0 ? 1 : 0;
        outIdx[at] = w + 1;
        outVal[at] = hi[e];
        at += hi[e] !== 0 ? 1 : 0;
      }
    }
    start[distance + 1] = at;
    return { start, idx: outIdx.slice(0, at), val: outVal.slice(0, at) };
  }
}

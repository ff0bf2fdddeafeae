/**
 * The king's and the knight's fill on word arrays, for boards other than 8 x 8. These two
 * pieces carry the large-board questions (mazes, knight tours), so they get a kernel of their
 * own rather than the general fill's eight guarded shifts a step; so do the fairy leapers that
 * are the same under both mirrors (the camel, the zebra, ...), by their leaps' groups
 * (`leap-groups.ts`).
 *
 * A move is split in two: first along the rank (one or two files east and west, within the
 * word, with a rare carry into the neighbouring word), then up or down by whole ranks (a shift
 * by `files` squares, a whole-word offset when `files` is a multiple of 32). The king spreads
 * along the rank once and emits the spread on three ranks; the knight spreads by one and by two
 * files and emits each on two ranks. Emitting ORs into a dense accumulator and lists a word the
 * first time it turns non-zero, so a step costs in proportion to the frontier, never the board.
 *
 * Every dense array is padded with zero words on both sides, so emits that fall off the board
 * need no bounds check: the padding is not passable and nothing lands there. Word indices are
 * kept padded inside and handed out unpadded.
 */

import type { Geometry } from '../board/geometry.js';
import { grown, grownSize, noteGrowth, type SparseLayers } from '../board/words.js';
import { emit, emitBothWays } from './emit.js';
import { groupStep, type LeapGroup, MAX_GROUP_RANKS } from './leap-groups.js';

/** Emits `v` at word `j` on its own rank and one rank up and down. */
function emitKingRows(
  out: Int32Array,
  touched: Int32Array,
  n: number,
  j: number,
  v: number,
  q: number,
  t: number,
): number {
  return emitBothWays(out, touched, emit(out, touched, n, j, v), j, v, q, t);
}

/** Sparse frontiers or layers: entry e is word `idx[e]` (padded) with squares `val[e]`. */
class Pool {
  idx: Int32Array;
  val: Int32Array;
  n = 0;
  constructor(capacity: number) {
    this.idx = new Int32Array(capacity);
    this.val = new Int32Array(capacity);
  }

  /** Makes room for `more` entries. */
  reserve(more: number): void {
    if (this.n + more <= this.idx.length) return;
    const size = grownSize(this.idx.length, this.n + more);
    this.idx = grown(this.idx, size, this.n);
    this.val = grown(this.val, size, this.n);
  }
}

/** What the leapers' fill moves: the king, the knight, or a fairy leaper's groups (`leap-groups.ts`). */
export type LeaperKind = 'KING' | 'KNIGHT' | readonly LeapGroup[];

/** The squares of the board whose file passes `keep`. */
function filesMask(geo: Geometry, keep: (file: number) => boolean): Int32Array {
  const out = new Int32Array(geo.words);
  for (let i = 0; i < geo.n; i++) if (keep(i % geo.files)) out[i >>> 5] |= 1 << (i & 31);
  return out;
}

/** The leapers' fill for one board size; holds scratch buffers, so not re-entrant. */
export class LeaperFill {
  private readonly pad: number;
  private readonly files: number;
  /** For a fairy leaper's groups: squares that may move `a` files east (`eastBy[a]`) or west, padded. */
  private readonly eastBy: Int32Array[] = [];
  private readonly westBy: Int32Array[] = [];
  private readonly out: Int32Array;
  private readonly touched: Int32Array;
  /** Passable squares not reached yet (P minus the visited squares), padded. */
  private readonly open: Int32Array;
  private readonly targets: Int32Array;
  /** Squares that may move one (index 0) or two (1) files east, or west, padded. */
  private readonly east: Int32Array[];
  private readonly west: Int32Array[];
  private readonly pool: Pool;
  private starts: Int32Array;
  /** Where `layersOut` gathers the non-zero words before copying them out. */
  private scratchIdx = new Int32Array(0);
  private scratchVal = new Int32Array(0);
  /** One rank up or down is `files` squares: `q` words and `t` bits; two ranks are `q2`, `t2`. */
  private readonly q: number;
  private readonly t: number;
  private readonly q2: number;
  private readonly t2: number;

  constructor(private readonly geo: Geometry) {
    const words = geo.words;
    // Emits go up to MAX_GROUP_RANKS ranks and a carry word off the board.
    this.pad = MAX_GROUP_RANKS * ((geo.files + 31) >>> 5) + 4;
    this.files = geo.files;
    const size = words + 2 * this.pad;
    this.out = new Int32Array(size);
    this.touched = new Int32Array(size);
    this.open = new Int32Array(size);
    this.targets = new Int32Array(size);
    this.east = geo.notEastFiles.map((mask) => this.padded(mask));
    this.west = geo.notWestFiles.map((mask) => this.padded(mask));
    this.pool = new Pool(Math.max(64, words));
    this.starts = new Int32Array(64);
    this.q = geo.files >>> 5;
    this.t = geo.files & 31;
    this.q2 = (2 * geo.files) >>> 5;
    this.t2 = (2 * geo.files) & 31;
  }

  private padded(words: Int32Array): Int32Array {
    const out = new Int32Array(words.length + 2 * this.pad);
    out.set(words, this.pad);
    return out;
  }

  /**
   * Solves one king, knight or fairy leaper (its `LeapGroup`s) problem. Returns the distance D and the layers, or null when T'
   * is unreachable (including S' or T' empty). `sources` and `targets` must be within `passable`.
   */
  solve(
    piece: LeaperKind,
    passable: Int32Array,
    sources: Int32Array,
    targets: Int32Array,
  ): { distance: number; layers: SparseLayers } | null {
    const pad = this.pad;
    if (typeof piece !== 'string') this.groupMasks(piece);
    this.open.set(passable, pad);
    this.targets.set(targets, pad);
    const pool = this.pool;
    pool.n = 0;
    pool.reserve(sources.length);
    let hit = 0;
    for (let w = 0; w < sources.length; w++) {
      const v = sources[w];
      if (v === 0) continue;
      pool.idx[pool.n] = w + pad;
      pool.val[pool.n++] = v;
      this.open[w + pad] &= ~v;
      hit |= v & targets[w];
    }
    this.starts[0] = 0;
    this.starts[1] = pool.n;
    const distance = pool.n === 0 ? -1 : this.forward(piece, hit !== 0);
    if (distance < 0) return null;
    this.backward(piece, distance);
    return { distance, layers: this.layersOut(distance) };
  }

  /** Forward fill until a frontier meets the targets; returns its step, or -1. */
  private forward(piece: LeaperKind, hitAtStart: boolean): number {
    if (hitAtStart) return 0;
    const pool = this.pool;
    const { out, touched, open, targets } = this;
    for (let k = 0; ; k++) {
      const from = this.starts[k];
      const to = this.starts[k + 1];
      const n = this.step(piece, from, to);
      pool.reserve(n);
      const idx = pool.idx;
      const val = pool.val;
      let at = pool.n;
      let hit = 0;
      for (let i = 0; i < n; i++) {
        const j = touched[i];
        const v = out[j] & open[j];
        out[j] = 0;
        if (v !== 0) {
          open[j] &= ~v;
          idx[at] = j;
          val[at++] = v;
          hit |= v & targets[j];
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
  private backward(piece: LeaperKind, distance: number): void {
    const { idx, val } = this.pool;
    const { out, touched, targets, starts } = this;
    for (let e = starts[distance]; e < starts[distance + 1]; e++) val[e] &= targets[idx[e]];
    // Moves are symmetric for both pieces: the squares a move comes from are the squares it reaches.
    for (let k = distance; k > 0; k--) {
      const n = this.step(piece, starts[k], starts[k + 1]);
      for (let e = starts[k - 1]; e < starts[k]; e++) val[e] &= out[idx[e]];
      for (let i = 0; i < n; i++) out[touched[i]] = 0;
    }
  }

  /** Emits the moves of `piece` from pool entries `from .. to`; returns the number of touched words. */
  private step(piece: LeaperKind, from: number, to: number): number {
    if (piece === 'KNIGHT') return this.knightStep(from, to);
    if (piece === 'KING') return this.kingStep(from, to);
    const { idx, val } = this.pool;
    return groupStep(piece, this.files, this.eastBy, this.westBy, idx, val, from, to, this.out, this.touched);
  }

  /** The padded squares that may move `a` files east and west, for every `a` of `groups`. */
  private groupMasks(groups: readonly LeapGroup[]): void {
    for (const { files: a } of groups) {
      if (a === 0 || this.eastBy[a] !== undefined) continue;
      this.eastBy[a] = this.padded(filesMask(this.geo, (f) => f + a < this.geo.files));
      this.westBy[a] = this.padded(filesMask(this.geo, (f) => f - a >= 0));
    }
  }

  /** Emits the king moves of pool entries `from .. to`; returns the number of touched words. */
  private kingStep(from: number, to: number): number {
    const { out, touched, q, t } = this;
    if (t === 0) return this.kingStepWhole(from, to);
    const { idx, val } = this.pool;
    const east = this.east[0];
    const west = this.west[0];
    let n = 0;
    for (let e = from; e < to; e++) {
      const x = val[e];
      if (x === 0) continue;
      const j = idx[e];
      const toEast = x & east[j];
      const toWest = x & west[j];
      n = emitKingRows(out, touched, n, j, x | (toEast << 1) | (toWest >>> 1), q, t);
      // Carries across a word boundary within the rank: bit 31 east, bit 0 west.
      if (toEast < 0) n = emitKingRows(out, touched, n, j + 1, 1, q, t);
      if ((toWest & 1) !== 0) n = emitKingRows(out, touched, n, j - 1, 1 << 31, q, t);
    }
    return n;
  }

  /** `kingStep` when a rank is a whole number of words: the rank above is `q` words on. */
  private kingStepWhole(from: number, to: number): number {
    const { out, touched, q } = this;
    const { idx, val } = this.pool;
    const east = this.east[0];
    const west = this.west[0];
    let n = 0;
    for (let e = from; e < to; e++) {
      const x = val[e];
      if (x === 0) continue;
      const j = idx[e];
      const toEast = x & east[j];
      const toWest = x & west[j];
      const spread = x | (toEast << 1) | (toWest >>> 1);
      n = emit(out, touched, n, j, spread);
      n = emit(out, touched, n, j + q, spread);
      n = emit(out, touched, n, j - q, spread);
      if (toEast < 0) {
        n = emit(out, touched, n, j + 1, 1);
        n = emit(out, touched, n, j + 1 + q, 1);
        n = emit(out, touched, n, j + 1 - q, 1);
      }
      if ((toWest & 1) !== 0) {
        n = emit(out, touched, n, j - 1, 1 << 31);
        n = emit(out, touched, n, j - 1 + q, 1 << 31);
        n = emit(out, touched, n, j - 1 - q, 1 << 31);
      }
    }
    return n;
  }

  /** Emits the knight moves of pool entries `from .. to`; returns the number of touched words. */
  private knightStep(from: number, to: number): number {
    const { out, touched, q, t, q2, t2 } = this;
    const { idx, val } = this.pool;
    const east1 = this.east[0];
    const west1 = this.west[0];
    const east2 = this.east[1];
    const west2 = this.west[1];
    let n = 0;
    for (let e = from; e < to; e++) {
      const x = val[e];
      if (x === 0) continue;
      const j = idx[e];
      const e1 = x & east1[j];
      const w1 = x & west1[j];
      const e2 = x & east2[j];
      const w2 = x & west2[j];
      // One file east or west, two ranks up or down; two files, one rank.
      n = emitBothWays(out, touched, n, j, (e1 << 1) | (w1 >>> 1), q2, t2);
      n = emitBothWays(out, touched, n, j, (e2 << 2) | (w2 >>> 2), q, t);
      const c1e = e1 >>> 31;
      const c1w = w1 << 31;
      const c2e = e2 >>> 30;
      const c2w = w2 << 30;
      if ((c1e | c2e) !== 0) {
        n = emitBothWays(out, touched, n, j + 1, c1e, q2, t2);
        n = emitBothWays(out, touched, n, j + 1, c2e, q, t);
      }
      if ((c1w | c2w) !== 0) {
        n = emitBothWays(out, touched, n, j - 1, c1w, q2, t2);
        n = emitBothWays(out, touched, n, j - 1, c2w, q, t);
      }
    }
    return n;
  }

  /**
   * Layers 0..D as compact sparse lists with unpadded word indices. One pass without branches
   * (a zero word is written and overwritten) into scratch lists, then copies of the right size:
   * the zero words left by the backward pass are many and unpredictable.
   */
  private layersOut(distance: number): SparseLayers {
    const { idx, val } = this.pool;
    const starts = this.starts;
    const end = starts[distance + 1];
    if (this.scratchIdx.length < end) {
      noteGrowth();
      this.scratchIdx = new Int32Array(2 * end);
      this.scratchVal = new Int32Array(2 * end);
    }
    const outIdx = this.scratchIdx;
    const outVal = this.scratchVal;
    const start = new Int32Array(distance + 2);
    const pad = this.pad;
    let at = 0;
    for (let k = 0; k <= distance; k++) {
      start[k] = at;
      for (let e = starts[k]; e < starts[k + 1]; e++) {
        outIdx[at] = idx[e] - pad;
        outVal[at] = val[e];
        at += val[e] !== 0 ? 1 : 0;
      }
    }
    start[distance + 1] = at;
    return { start, idx: outIdx.slice(0, at), val: outVal.slice(0, at) };
  }
}

/**
 * Sparse word lists and touched-word accumulators: the two containers of the general fill.
 * A frontier on a large board touches few words, so each fill step works on the list of its
 * non-zero words rather than on the whole board (a 256 x 256 board is 2048 words, a maze
 * frontier a dozen). Every step then costs in proportion to the frontier, as a queue BFS does.
 */

/** Layers of a solved query as sparse words: layer k is entries `start[k] .. start[k+1]`. */
export interface SparseLayers {
  start: Int32Array;
  idx: Int32Array;
  val: Int32Array;
  /** Squares in each layer, where the fill counted them (the WebAssembly unit fill). */
  counts?: Int32Array;
}

/** Non-zero words of a square set as parallel (word index, word value) lists. */
export class SparseWords {
  idx: Int32Array;
  val: Int32Array;
  n = 0;
  constructor(capacity: number) {
    this.idx = new Int32Array(Math.max(4, capacity));
    this.val = new Int32Array(Math.max(4, capacity));
  }

  /** Appends a word; the caller skips zero values. */
  push(w: number, v: number): void {
    if (this.n === this.idx.length) this.grow();
    this.idx[this.n] = w;
    this.val[this.n] = v;
    this.n++;
  }

  /** Fills from a dense word array. */
  setFromDense(words: ArrayLike<number>, offset: number, count: number): void {
    this.n = 0;
    for (let w = 0; w < count; w++) {
      const v = words[offset + w];
      if (v !== 0) this.push(w, v);
    }
  }

  private grow(): void {
    this.idx = grown(this.idx, this.idx.length * 2, this.n);
    this.val = grown(this.val, this.val.length * 2, this.n);
  }
}

/** A dense word array that remembers which words it has touched, so it clears in O(touched). */
export class Accumulator {
  readonly words: Int32Array;
  readonly mark: Uint8Array;
  readonly touched: Int32Array;
  n = 0;
  constructor(size: number) {
    this.words = new Int32Array(size);
    this.mark = new Uint8Array(size);
    this.touched = new Int32Array(size);
  }

  /** Whether it holds no square (a touched word may have been masked to zero). */
  isEmpty(): boolean {
    for (let i = 0; i < this.n; i++) if (this.words[this.touched[i]] !== 0) return false;
    return true;
  }

  /** ORs `v` into word `w`. */
  or(w: number, v: number): void {
    if (this.mark[w] === 0) {
      this.mark[w] = 1;
      this.touched[this.n++] = w;
    }
    this.words[w] |= v;
  }

  /**
   * ORs entries `from .. to` of `src`, shifted by `delta` squares, into this; only squares in
   * `guard` move (the guard keeps a shift from wrapping around the board's edge).
   */
  orShifted(src: SparseWords, from: number, to: number, delta: number, guard: Int32Array): void {
    const size = this.words.length;
    const idx = src.idx;
    const val = src.val;
    if (delta > 0) {
      const q = delta >>> 5;
      const t = delta & 31;
      for (let i = from; i < to; i++) {
        const w = idx[i];
        const x = val[i] & guard[w];
        if (x === 0) continue;
        const d = w + q;
        if (d >= size) continue;
        if (t === 0) this.or(d, x);
        else {
          const lo = x << t;
          if (lo !== 0) this.or(d, lo);
          const hi = x >>> (32 - t);
          if (hi !== 0 && d + 1 < size) this.or(d + 1, hi);
        }
      }
    } else {
      const q = -delta >>> 5;
      const t = -delta & 31;
      for (let i = from; i < to; i++) {
        const w = idx[i];
        const x = val[i] & guard[w];
        if (x === 0) continue;
        const d = w - q;
        if (d < 0) continue;
        if (t === 0) this.or(d, x);
        else {
          const hi = x >>> t;
          if (hi !== 0) this.or(d, hi);
          const lo = x << (32 - t);
          if (lo !== 0 && d > 0) this.or(d - 1, lo);
        }
      }
    }
  }

  /** Zeroes every touched word. */
  clear(): void {
    for (let i = 0; i < this.n; i++) {
      const w = this.touched[i];
      this.words[w] = 0;
      this.mark[w] = 0;
    }
    this.n = 0;
  }
}

/** A capacity of at least `needed`, doubling from `current`. */
export function grownSize(current: number, needed: number): number {
  let size = Math.max(4, current * 2);
  while (size < needed) size *= 2;
  return size;
}

/**
 * How many times a fill's scratch grew in this thread (`grown`, and the kernels' other lazy
 * allocations, call `noteGrowth`): the `boards` cache measures a fill again only after a change,
 * since a measure (a walk of the fill's objects) costs as much as a fast solve.
 */
export const scratchGrowth = { count: 0 };

/** Counts one growth of a fill's scratch (see `scratchGrowth`). */
export function noteGrowth(): void {
  scratchGrowth.count++;
}

/** A copy of the first `used` entries of `array` in a new array of `size` entries. */
export function grown(array: Int32Array, size: number, used: number): Int32Array {
  scratchGrowth.count++;
  const out = new Int32Array(size);
  out.set(array.subarray(0, used));
  return out;
}

/**
 * Rays on sparse word lists, for the general fill (`fill.ts`, `fairy-step.ts`): a slider's ray
 * or a fairy ride moves its whole set one shift at a time, each shift a pass over the words the
 * ray still holds (never the board), until nothing passable is left or the ride's limit is
 * reached. Holds its scratch lists, so one `SparseSlider` serves one fill at a time.
 */
import { Accumulator, SparseWords } from '../board/words.js';

/** One shift of a move pattern: move by `delta` squares, only squares in `guard` may. */
export interface Shift {
  readonly delta: number;
  readonly guard: Int32Array;
  /** Shifts per move at most (a fairy ride's limit); none: up to the edge. */
  readonly max?: number;
}

/** Sparse shifts and slides on a board of `words` words, with their scratch. */
export class SparseSlider {
  /** Scratch lists; a caller may use them between calls (the pawn's double step does). */
  readonly listA: SparseWords;
  readonly listB: SparseWords;
  private readonly scratch: Accumulator;

  constructor(words: number) {
    this.listA = new SparseWords(words);
    this.listB = new SparseWords(words);
    this.scratch = new Accumulator(words);
  }

  /** `dst` = (entries of `src` shifted by `delta` from the squares of `guard`) ∩ `passable`, as a sparse list. */
  advance(
    src: SparseWords,
    from: number,
    to: number,
    delta: number,
    guard: Int32Array,
    passable: Int32Array,
    dst: SparseWords,
  ): void {
    const acc = this.scratch;
    acc.orShifted(src, from, to, delta, guard);
    dst.n = 0;
    for (let i = 0; i < acc.n; i++) {
      const w = acc.touched[i];
      const v = acc.words[w] & passable[w];
      if (v !== 0) dst.push(w, v);
    }
    acc.clear();
  }

  /**
   * ORs into `out` every passable square along `s` from the entries `from .. to` of `src`, up to
   * the edge or a blocked square, or after `s.max` shifts.
   */
  slide(src: SparseWords, from: number, to: number, s: Shift, passable: Int32Array, out: Accumulator): void {
    let cur = this.listA;
    let next = this.listB;
    this.advance(src, from, to, s.delta, s.guard, passable, cur);
    let leapsLeft = s.max ?? Number.POSITIVE_INFINITY;
    while (cur.n !== 0) {
      for (let i = 0; i < cur.n; i++) out.or(cur.idx[i], cur.val[i]);
      if (--leapsLeft === 0) break;
      this.advance(cur, 0, cur.n, s.delta, s.guard, passable, next);
      const t = cur;
      cur = next;
      next = t;
    }
  }
}

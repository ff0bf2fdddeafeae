/**
 * One step of a fairy piece in the general fill (`fill.ts`): every ray of its Betza text
 * (`fairy-fill.ts`) from a frontier given as sparse words. A leap shifts the frontier's words
 * once. A ride goes one of two ways, by the frontier's size: from a small frontier leap by leap
 * on sparse lists (`slide.ts`), each leap a pass over what the ride still holds; from a frontier
 * that covers a good part of the board by doubling (`fairy-rides.ts`), a few passes over the
 * whole board whatever the ride's length. Both give the same squares; which is cheaper depends
 * on how much of the board the frontier holds (`DENSE_FRONTIER_SHARE`).
 */

import type { Accumulator, SparseWords } from '../board/words.js';
import type { SparseSlider } from '../kernels/slide.js';
import { type FairyShifts, refreshHops } from './fairy-fill.js';
import { denseHopStep, hopStep } from './fairy-hops.js';
import { fillRideChain, rideDense } from './fairy-rides.js';

/**
 * A step rides by doubling when its frontier's words, times this, reach the board's words: on
 * the nightrider on 64 x 64 (128 words), 4 to 16 measured within a few per cent of each other,
 * 2 and 32 slower, 128 (never dense) half as fast.
 */
const DENSE_FRONTIER_SHARE = 8;

/** Boards of fewer words than this hop square by square from any frontier. */
const DENSE_HOP_WORDS = 16;

/**
 * A step hops set-wise when its frontier's words, times this, reach the board's words: a dense
 * hop costs about 14 passes over the board a direction (two rides by doubling, the hurdles),
 * which a walk from each square beats up to a frontier in half the board's words. On the
 * nightrider-hopper on 64 x 64 (CPU time, best of five): 2 and 3 equal, 4 about 10 % slower,
 * 8 (the rides' share) 25 % slower, 1 and 0 (never set-wise) 40 and 60 % slower.
 */
const DENSE_HOP_SHARE = 2;

/** A fairy step's dense frontier, one ride's scratch, and the rides' landings (zero between steps). */
interface DenseScratch {
  readonly src: Int32Array;
  readonly gen: Int32Array;
  readonly out: Int32Array;
}

/** The fairy step on a board of `words` words; holds scratch, so one solve at a time. */
export class FairyStep {
  /** Dense square sets for rides by doubling, made on first use. */
  private dense: DenseScratch | undefined = undefined;

  constructor(
    private readonly words: number,
    private readonly slider: SparseSlider,
  ) {}

  /**
   * ORs into `out` every passable square one move (`reverse`: one move back) of the piece of
   * `fairy` from a square of `src` entries `from .. to`.
   */
  step(
    fairy: FairyShifts,
    src: SparseWords,
    from: number,
    to: number,
    passable: Int32Array,
    reverse: boolean,
    out: Accumulator,
  ): void {
    const dense = fairy.chains && (to - from) * DENSE_FRONTIER_SHARE >= this.words ? this.denseOf(src, from, to) : null;
    let leaps = false;
    for (const s of reverse ? fairy.reverse : fairy.forward) {
      // A single leap needs no list of its own: shift straight into `out`, masked once below.
      if (s.max === 1) {
        out.orShifted(src, from, to, s.delta, s.guard);
        leaps = true;
      } else if (dense !== null && s.chain !== null) {
        if (s.chain.epoch !== fairy.epoch) {
          fillRideChain(s.chain, s.delta, s.guard, passable);
          s.chain.epoch = fairy.epoch;
        }
        rideDense(dense.src, s.delta, s.chain, dense.gen, dense.out);
      } else this.slider.slide(src, from, to, s, passable, out);
    }
    if (leaps) for (let i = 0; i < out.n; i++) out.words[out.touched[i]] &= passable[out.touched[i]];
    // Hops land on passable squares only: after the masking, which they need not.
    if (fairy.hops.length > 0) {
      // From a small frontier hop by hop, square by square; from a large one set-wise (not on
      // boards of a few words, where the per-solve tables cost more than the walks: 8 x 8 and
      // 9 x 10 measured a third slower set-wise, 64 x 64 2.7 times faster).
      if (this.words >= DENSE_HOP_WORDS && (to - from) * DENSE_HOP_SHARE >= this.words) {
        refreshHops(fairy, passable, reverse);
        this.hops(fairy, src, from, to, reverse, out);
      } else hopStep(fairy.hops, fairy.files, fairy.ranks, src, from, to, passable, reverse, out);
    }
    if (dense !== null) {
      // The rides' landings into `out`; the scratch left zero for the next step.
      const rides = dense.out;
      for (let w = 0; w < rides.length; w++) {
        if (rides[w] !== 0) {
          out.or(w, rides[w]);
          rides[w] = 0;
        }
      }
      for (let i = from; i < to; i++) dense.src[src.idx[i]] = 0;
    }
  }

  /** Hop scratch: the frontier, two sets and a ride's, and the landings. */
  private hopScratch: Int32Array[] | undefined = undefined;

  /** ORs into `out` the hops (set-wise, `fairy-hops.ts`) from the entries `from .. to` of `src`. */
  private hops(
    fairy: FairyShifts,
    src: SparseWords,
    from: number,
    to: number,
    reverse: boolean,
    out: Accumulator,
  ): void {
    const w = this.words;
    const [x, a, b, gen, landed] = (this.hopScratch ??= Array.from({ length: 5 }, () => new Int32Array(w)));
    for (let i = from; i < to; i++) x[src.idx[i]] |= src.val[i];
    denseHopStep(reverse ? fairy.hopsReverse : fairy.hopsForward, x, a, b, gen, landed);
    for (let i = from; i < to; i++) x[src.idx[i]] = 0;
    for (let i = 0; i < w; i++) {
      if (landed[i] !== 0) {
        out.or(i, landed[i]);
        landed[i] = 0;
      }
    }
  }

  /** The entries `from .. to` of `src` as a dense square set, with the dense rides' scratch. */
  private denseOf(src: SparseWords, from: number, to: number): DenseScratch {
    const w = this.words;
    const dense = (this.dense ??= { src: new Int32Array(w), gen: new Int32Array(w), out: new Int32Array(w) });
    for (let i = from; i < to; i++) dense.src[src.idx[i]] |= src.val[i];
    return dense;
  }
}

/**
 * The step of leapers grouped by file offset, on the leapers' fill (`leapers.ts`): a set of leaps
 * the same under both mirrors is its own reverse, and its leaps group by a = |dx|, so a frontier
 * word moves a files east and west once (a shift within the word, with a carry into its
 * neighbour) and that spread is emitted on every rank offset of the group, up and down. Which
 * pieces have such groups is the fairy pieces' business (`leaper-groups.ts`); this step knows
 * only leaps.
 */
import { emit, emitBothWays } from './emit.js';

/** The leaps of one file offset: `files` = |dx|, landing `ranks` (|dy|, each up and down) away. */
export interface LeapGroup {
  readonly files: number;
  readonly ranks: readonly number[];
}

/** Rank offsets a group may have at most: the leapers' fill pads its arrays for this many ranks. */
export const MAX_GROUP_RANKS = 4;

/**
 * Emits the moves of the entries `from .. to` (padded word `idx[e]`, squares `val[e]`) of a
 * leaper of `groups` on a board of `files` files; `east[a]` and `west[a]` are the padded squares
 * that may move a files east or west. Returns the number of words listed in `touched`.
 */
export function groupStep(
  groups: readonly LeapGroup[],
  files: number,
  east: readonly Int32Array[],
  west: readonly Int32Array[],
  idx: Int32Array,
  val: Int32Array,
  from: number,
  to: number,
  out: Int32Array,
  touched: Int32Array,
): number {
  let n = 0;
  for (let e = from; e < to; e++) {
    const x = val[e];
    if (x === 0) continue;
    const j = idx[e];
    for (const { files: a, ranks } of groups) {
      // The word moved a files east and west, and the bits that cross into its neighbours.
      let spread = x;
      let carryEast = 0;
      let carryWest = 0;
      if (a !== 0) {
        const toEast = x & east[a][j];
        const toWest = x & west[a][j];
        spread = (toEast << a) | (toWest >>> a);
        carryEast = toEast >>> (32 - a);
        carryWest = toWest << (32 - a);
      }
      for (const r of ranks) {
        if (r === 0) {
          n = emit(out, touched, n, j, spread);
          if (carryEast !== 0) n = emit(out, touched, n, j + 1, carryEast);
          if (carryWest !== 0) n = emit(out, touched, n, j - 1, carryWest);
          continue;
        }
        const q = (r * files) >>> 5;
        const t = (r * files) & 31;
        n = emitBothWays(out, touched, n, j, spread, q, t);
        if (carryEast !== 0) n = emitBothWays(out, touched, n, j + 1, carryEast, q, t);
        if (carryWest !== 0) n = emitBothWays(out, touched, n, j - 1, carryWest, q, t);
      }
    }
  }
  return n;
}

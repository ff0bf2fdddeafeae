/**
 * Fairy leapers on the leapers' fill (`leapers.ts`), the king's and knight's kernel: a piece
 * whose moves are single plain leaps, the same under both mirrors (a leap (dx, dy) comes with
 * (-dx, dy) and (dx, -dy)), as the camel, zebra, giraffe, dabbaba or alfil are. Such a move set
 * is its own reverse, so the backward fill takes the forward step, and its leaps group by file
 * offset a = |dx|: a frontier word moves a files east and west once (a shift within the word,
 * with a carry into its neighbour), and that spread is emitted on every rank offset of the group,
 * up and down, as the knight's step does with its two groups. The general fill's guarded shifts
 * cost a shift, a guard and two emits per leap and word, eight leaps; here the camel costs two
 * spreads and eight emits a word.
 */
import type { FairyPiece } from './betza.js';
import { emit, emitBothWays } from './emit.js';

/** The leaps of one file offset: `files` = |dx|, landing `ranks` (|dy|, each up and down) away. */
export interface LeapGroup {
  readonly files: number;
  readonly ranks: readonly number[];
}

/** Rank offsets a group may have at most: the leapers' fill pads its arrays for this many ranks. */
export const MAX_GROUP_RANKS = 4;

/** Each piece's groups, living as long as the piece (whose size in the `betza` cache counts them). */
const groupsByPiece = new WeakMap<FairyPiece, readonly LeapGroup[] | null>();

/**
 * The piece's leaps grouped by file offset, when every ray is a single plain leap of at most 31
 * files and `MAX_GROUP_RANKS` ranks and the set is the same under both mirrors; else null.
 */
export function leaperGroupsOf(piece: FairyPiece): readonly LeapGroup[] | null {
  let groups = groupsByPiece.get(piece);
  if (groups === undefined) {
    groups = symmetricGroups(piece);
    groupsByPiece.set(piece, groups);
  }
  return groups;
}

function symmetricGroups(piece: FairyPiece): readonly LeapGroup[] | null {
  if (piece.hops.length > 0) return null;
  const key = (dx: number, dy: number) => `${dx},${dy}`;
  const leaps = new Set(piece.rays.map(({ dx, dy }) => key(dx, dy)));
  const byFiles = new Map<number, Set<number>>();
  for (const { dx, dy, max, lame } of piece.rays) {
    if (max !== 1 || lame.length > 0 || Math.abs(dx) > 31 || Math.abs(dy) > MAX_GROUP_RANKS) return null;
    if (!leaps.has(key(-dx, dy)) || !leaps.has(key(dx, -dy))) return null;
    const ranks = byFiles.get(Math.abs(dx)) ?? new Set<number>();
    byFiles.set(Math.abs(dx), ranks.add(Math.abs(dy)));
  }
  return [...byFiles].map(([files, ranks]) => ({ files, ranks: [...ranks].sort((a, b) => a - b) }));
}

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

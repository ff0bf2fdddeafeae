/**
 * Fairy leapers on the leapers' fill (`leapers.ts`), the king's and knight's kernel: a piece
 * whose moves are single plain leaps, the same under both mirrors (a leap (dx, dy) comes with
 * (-dx, dy) and (dx, -dy)), as the camel, zebra, giraffe, dabbaba or alfil are. Such a move set
 * is its own reverse, so the backward fill takes the forward step, and its leaps group by file
 * offset a = |dx|: a frontier word moves a files east and west once (a shift within the word,
 * with a carry into its neighbour), and that spread is emitted on every rank offset of the group,
 * up and down, as the knight's step does with its two groups. The general fill's guarded shifts
 * cost a shift, a guard and two emits per leap and word, eight leaps; here the camel costs two
 * spreads and eight emits a word. This file finds a piece's groups; the step itself is the
 * kernel's (`leap-groups.ts`), which knows leaps, not pieces.
 */
import type { FairyPiece } from '../betza/betza.js';
import { type LeapGroup, MAX_GROUP_RANKS } from '../kernels/leap-groups.js';

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

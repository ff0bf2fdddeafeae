/**
 * The general fill of each board size (`fill.ts`), kept in the `boards` cache (`memory.ts`): a
 * fill holds scratch lists and kernels that grow to the largest solve it served, and a service
 * asks about the same few board sizes again and again, so one fill a size is made and reused.
 */
import { type Geometry, geometryOf } from '../board/geometry.js';
import { scratchGrowth } from '../board/words.js';
import type { Board } from '../types.js';
import { heldBytes, keptTables } from '../util/memory.js';
import { WordFill } from './fill.js';

/**
 * The general fill of each board size, in the `boards` cache (`memory.ts`). Its scratch grows to
 * the largest solve it served, so it is measured again as it is used (not what it shares with
 * other entries): after any fill's scratch grew (`scratchGrowth`: its lists, its kernels, its
 * shifts), and at every 64th use whatever grew (the fairy step's lazy arrays). Measuring at
 * every use cost a fifth of a 64 x 64 knight solve once its kernel ran in WebAssembly.
 */
const fills = keptTables<WordFill>('boards', 'fill');
const SHARED = new Set(['geo', 'fairy', 'guard']);
let uses = 0;
/** The growth count when each fill was last measured. */
const measured = new WeakMap<WordFill, number>();

/** The general fill of a geometry (one per board size, reused while it is kept). */
export function wordFillOf(geo: Geometry, measure = false): WordFill {
  const id = `${geo.files}x${geo.ranks}`;
  let fill = fills.get(id);
  if (fill === undefined) {
    fill = new WordFill(geo);
    fills.set(id, fill, heldBytes(fill, SHARED));
    measured.set(fill, scratchGrowth.count);
  } else if (measure || measured.get(fill) !== scratchGrowth.count || (++uses & 63) === 0) {
    fills.resize(id, heldBytes(fill, SHARED));
    measured.set(fill, scratchGrowth.count);
  }
  return fill;
}

/**
 * The last board's fill, valid while the `boards` cache has not changed since it was looked up
 * and no fill grew: then looking up the board's geometry and fill again would find the same two
 * entries, already the most recently used. Only a kept fill is remembered (a bound of 0 keeps
 * none), so the memo holds nothing the cache's bound does not count.
 */
let last: { files: number; ranks: number; fill: WordFill; version: number; growth: number } | null = null;

/**
 * The general fill of a board size: `wordFillOf(geometryOf(board))`, without the two lookups
 * (a sixth of a 10 x 10 rook's question) when the same size comes again and nothing changed.
 */
export function wordFillFor(board: Board): WordFill {
  const memo = last;
  const same =
    memo !== null &&
    memo.files === board.files &&
    memo.ranks === board.ranks &&
    memo.version === fills.version() &&
    memo.growth === scratchGrowth.count;
  // Every 64th use is looked up and measured all the same (see `wordFillOf`).
  if (same && (++uses & 63) !== 0) return memo.fill;
  const fill = wordFillOf(geometryOf(board), same);
  last = fills.has(`${board.files}x${board.ranks}`)
    ? { files: board.files, ranks: board.ranks, fill, version: fills.version(), growth: scratchGrowth.count }
    : null;
  return fill;
}

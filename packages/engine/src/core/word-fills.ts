/**
 * The general fill of each board size (`fill.ts`), kept in the `boards` cache (`memory.ts`): a
 * fill holds scratch lists and kernels that grow to the largest solve it served, and a service
 * asks about the same few board sizes again and again, so one fill a size is made and reused.
 */
import type { Geometry } from '../board/geometry.js';
import { scratchGrowth } from '../board/words.js';
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
export function wordFillOf(geo: Geometry): WordFill {
  const id = `${geo.files}x${geo.ranks}`;
  let fill = fills.get(id);
  if (fill === undefined) {
    fill = new WordFill(geo);
    fills.set(id, fill, heldBytes(fill, SHARED));
    measured.set(fill, scratchGrowth.count);
  } else if (measured.get(fill) !== scratchGrowth.count || (++uses & 63) === 0) {
    fills.resize(id, heldBytes(fill, SHARED));
    measured.set(fill, scratchGrowth.count);
  }
  return fill;
}

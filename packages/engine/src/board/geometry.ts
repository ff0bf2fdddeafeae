/**
 * Per-board constants for the word-array fills: edge masks that stop a shift from wrapping a
 * square onto the next rank, and the rank masks pawns need. Built once per board size and kept
 * in the `boards` cache (`memory.ts`), since a service sees the same few sizes again and again.
 */

import type { Board } from '../types.js';
import { keptTables } from '../util/memory.js';
import { wordsFor } from './board.js';

/** Edge and rank masks of one board size, as word arrays. */
export interface Geometry {
  readonly files: number;
  readonly ranks: number;
  /** Number of squares. */
  readonly n: number;
  /** Number of 32-bit words of a square set. */
  readonly words: number;
  /** Squares not on the first `k` files (index k-1), k = 1, 2. */
  readonly notWestFiles: readonly Int32Array[];
  /** Squares not on the last `k` files (index k-1), k = 1, 2. */
  readonly notEastFiles: readonly Int32Array[];
  /** Every square of the board. */
  readonly all: Int32Array;
  /** Squares of one rank, built on demand. */
  rank(r: number): Int32Array;
}

const geometries = keptTables<Geometry>('boards', 'geometry');

/**
 * Masks a geometry holds: five built with it, and the rank masks built on demand, which are the
 * pawns' home ranks and the ranks two ahead of them, for either direction: at most four.
 */
const MASKS = 5 + 4;

function filesMask(files: number, ranks: number, keep: (file: number) => boolean): Int32Array {
  const n = files * ranks;
  const out = new Int32Array(wordsFor(n));
  for (let i = 0; i < n; i++) if (keep(i % files)) out[i >>> 5] |= 1 << (i & 31);
  return out;
}

/** The geometry of a board size (cached). */
export function geometryOf(board: Board): Geometry {
  const id = `${board.files}x${board.ranks}`;
  let geo = geometries.get(id);
  if (geo === undefined) {
    geo = buildGeometry(board.files, board.ranks);
    geometries.set(id, geo, 256 + MASKS * (64 + 4 * geo.words));
  }
  return geo;
}

function buildGeometry(files: number, ranks: number): Geometry {
  const n = files * ranks;
  const rankMasks = new Map<number, Int32Array>();
  return {
    files,
    ranks,
    n,
    words: wordsFor(n),
    notWestFiles: [filesMask(files, ranks, (f) => f >= 1), filesMask(files, ranks, (f) => f >= 2)],
    notEastFiles: [filesMask(files, ranks, (f) => f < files - 1), filesMask(files, ranks, (f) => f < files - 2)],
    all: filesMask(files, ranks, () => true),
    rank(r: number): Int32Array {
      let mask = rankMasks.get(r);
      if (mask === undefined) {
        mask = new Int32Array(wordsFor(n));
        if (r >= 0 && r < ranks) for (let i = r * files; i < (r + 1) * files; i++) mask[i >>> 5] |= 1 << (i & 31);
        rankMasks.set(r, mask);
      }
      return mask;
    },
  };
}

/**
 * What the kernels whose memory keeps a fill as a pool of 64-bit unit entries hand out
 * (`knight-wide-wasm.ts`, `rides-wasm.ts`, their AssemblyScript sharing `wasm/layers.ts`), read
 * out of the module's memory: a solve's layers, and a distance map from a fill's frontiers (F_k
 * is entries `starts[k] .. starts[k + 1]`, each a unit's index (padded) and its bits, and a
 * square's distance is the index of the frontier that holds it).
 */
import type { SparseLayers } from '../board/words.js';
import { slabInt32 } from '../util/slab.js';

/** Where a kernel's layers lie in its memory (`heap`, as 32-bit words). */
export interface LayerLists {
  readonly heap: Int32Array;
  /** Word offsets of the layers' starts, counts, word indices and values. */
  readonly start: number;
  readonly count: number;
  readonly idx: number;
  readonly val: number;
}

/** The layers 0 .. `distance` of a solve, `words` words in all, copied out of the kernel's memory. */
export function kernelLayers(at: LayerLists, distance: number, words: number): SparseLayers {
  const { heap } = at;
  // One array for the four lists, cut from a slab when small (`slab.ts`): a typed array of its
  // own costs about a microsecond, a tenth of a 64 x 64 knight solve. The layers' counts come
  // along, so that reading a count of a 256 x 256 maze's thousands of layers costs a load.
  const layers = distance + 2;
  const lists = 2 * layers - 1;
  const all = slabInt32(lists + 2 * words);
  all.set(heap.subarray(at.start, at.start + layers));
  all.set(heap.subarray(at.count, at.count + layers - 1), layers);
  all.set(heap.subarray(at.idx, at.idx + words), lists);
  all.set(heap.subarray(at.val, at.val + words), lists + words);
  return {
    start: all.subarray(0, layers),
    counts: all.subarray(layers, lists),
    idx: all.subarray(lists, lists + words),
    val: all.subarray(lists + words),
  };
}

/** Where a kernel's frontiers lie in its memory (`heap`, as 32-bit words), and how many it made. */
export interface FrontierPool {
  readonly heap: Int32Array;
  /** Word offsets of the starts, the units and the bits (two words a unit, low first). */
  readonly starts: number;
  readonly units: number;
  readonly bits: number;
  /** Frontiers made, F_0 .. F_(frontiers - 1). */
  readonly frontiers: number;
  /** The units' padding, in units (unit `pad` is the board's first). */
  readonly pad: number;
}

/** dist(S', v) for each of `squares` squares: its frontier's index, -1 where no frontier holds it. */
export function frontierDistances(pool: FrontierPool, squares: number): Int32Array {
  const { heap, starts, units, bits, frontiers } = pool;
  const dist = new Int32Array(squares).fill(-1);
  const padSquares = pool.pad << 6;
  for (let f = 0; f < frontiers; f++) {
    for (let e = heap[starts + f]; e < heap[starts + f + 1]; e++) {
      const base = (heap[units + e] << 6) - padSquares;
      for (let half = 0; half < 2; half++) {
        let v = heap[bits + 2 * e + half];
        while (v !== 0) {
          dist[base + 32 * half + (31 - Math.clz32(v & -v))] = f;
          v &= v - 1;
        }
      }
    }
  }
  return dist;
}

/**
 * A distance map read out of a WebAssembly kernel's frontiers, for the kernels whose memory
 * keeps a fill's frontiers as a pool of 64-bit unit entries (`knight-wide-wasm.ts`,
 * `rides-wasm.ts`): F_k is entries `starts[k] .. starts[k + 1]`, each a unit's index (padded)
 * and its bits, and a square's distance is the index of the frontier that holds it.
 */

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

/**
 * The WebAssembly fill of the riders (`wasm/rides.ts`): the rook, the bishop and the queen on
 * every board but 8 x 8 (which has its own kernels), with the same `solve` as the general fill
 * of `fill.ts`, which stays the fallback where WebAssembly is refused. A piece's moves are
 * handed over as shifts of the board's square order (a delta, the guard of squares the move
 * may leave, ride or leap). The module is compiled synchronously once, when this file loads
 * (under 4 kB, which browsers allow). It has one memory, laid out for one board size at a time:
 * a fill for another size lays it out again (growing it for a larger board) before it solves.
 */

import type { Geometry } from '../board/geometry.js';
import type { SparseLayers } from '../board/words.js';
import { RIDES_WASM } from '../generated/rides-wasm.js';
import { decodeBase64Url } from '../util/base64url.js';
import { slabInt32 } from '../util/slab.js';

/** What the module exports. */
interface RidesExports {
  memory: WebAssembly.Memory;
  layout(units: number, reach: number, squares: number): number;
  offset(which: number): number;
  padding(): number;
  guardSlots(): number;
  words(): number;
  solve(forwardMoves: number, backwardMoves: number): number;
}

/** The compiled module, or null where WebAssembly cannot be compiled here. */
const kernel: RidesExports | null = (() => {
  try {
    const module = new WebAssembly.Module(decodeBase64Url(RIDES_WASM));
    return new WebAssembly.Instance(module, {}).exports as unknown as RidesExports;
  } catch {
    return null;
  }
})();

/**
 * The memory as words, remade when it grows. Bounded by construction: laid out for the largest
 * board served, at most about 3 MB (256 x 256).
 */
let heap = kernel === null ? new Int32Array(0) : new Int32Array(kernel.memory.buffer);
/** The fill the memory is laid out for. */
let laidOutFor: WasmRideFill | null = null;

/** True where the WebAssembly rides fill runs here. */
export function wasmRidesAvailable(): boolean {
  return kernel !== null;
}

/** One move of a piece as the kernel takes it. */
export interface RideMove {
  /** Squares of the board's order the move shifts by (files x ranks moved + files moved). */
  readonly delta: number;
  /** Files the move goes east (negative: west), which picks its guard; at most 2 either way. */
  readonly files: number;
  /** True when the move is made once (a leap), false when it repeats while it can (a ride). */
  readonly leap: boolean;
}

/** The guard slot of a move that goes `files` files east: 0 every square, 1-2 east, 3-4 west. */
function guardSlot(files: number): number {
  return files === 0 ? 0 : files > 0 ? files : 2 - files;
}

/** The longest shift, in squares, a move may have (two ranks and two files). */
function reachOf(geo: Geometry): number {
  return 2 * geo.files + 2;
}

/** Moves (forward and backward together) the kernel holds. */
const MOVES = 64;

/**
 * Whether the kernel takes these moves on this board: two files either way at most, shifts
 * within its reach, at most 64 in all.
 */
export function ridesFit(geo: Geometry, forward: readonly RideMove[], backward: readonly RideMove[] | null): boolean {
  const reach = reachOf(geo);
  const all = backward === null ? forward : [...forward, ...backward];
  return all.length <= MOVES && all.every((m) => Math.abs(m.files) <= 2 && Math.abs(m.delta) <= reach && m.delta !== 0);
}

/** The riders' fill on WebAssembly for one board size (check `wasmRidesAvailable` first). */
export class WasmRideFill {
  /** Word offsets of the arrays in the memory, and the padding in words. */
  private passable = 0;
  private targets = 0;
  private sources = 0;
  private moves = 0;
  private layerStart = 0;
  private layerIdx = 0;
  private layerVal = 0;
  private layerCount = 0;
  private pad = 0;

  constructor(private readonly geo: Geometry) {}

  /** Lays the memory out for this board: grows it if needed, clears it, writes the guards. */
  private layOut(k: RidesExports): void {
    const { geo } = this;
    const end = k.layout((geo.words + 1) >>> 1, reachOf(geo), geo.n);
    const short = end - k.memory.buffer.byteLength;
    if (short > 0) k.memory.grow(Math.ceil(short / 65536));
    heap = new Int32Array(k.memory.buffer);
    const guards = k.offset(0) >>> 2;
    heap.fill(0, guards, end >>> 2);
    this.pad = 2 * k.padding();
    const [passable, targets] = [1, 2].map((i) => k.offset(i) >>> 2);
    const stride = (passable - guards) / k.guardSlots();
    const masks = [geo.all, geo.notEastFiles[0], geo.notEastFiles[1], geo.notWestFiles[0], geo.notWestFiles[1]];
    for (const [slot, mask] of masks.entries()) heap.set(mask, guards + slot * stride + this.pad);
    this.passable = passable;
    this.targets = targets;
    [this.sources, this.moves, this.layerStart, this.layerIdx, this.layerVal, this.layerCount] = [3, 4, 5, 6, 7, 8].map(
      (i) => k.offset(i) >>> 2,
    );
    laidOutFor = this;
  }

  /**
   * Solves one problem with the piece's `forward` moves (and `backward`, the same moves
   * reversed, or null when they are the forward ones). Returns the distance D and the layers,
   * or null when T' is unreachable (including S' or T' empty). `sources` and `targets` must be
   * within `passable`.
   */
  solve(
    forward: readonly RideMove[],
    backward: readonly RideMove[] | null,
    passable: Int32Array,
    sources: Int32Array,
    targets: Int32Array,
  ): { distance: number; layers: SparseLayers } | null {
    const k = kernel as RidesExports;
    if (laidOutFor !== this) this.layOut(k);
    heap.set(passable, this.passable + this.pad);
    heap.set(targets, this.targets + this.pad);
    heap.set(sources, this.sources);
    let at = this.moves;
    for (const m of backward === null ? forward : [...forward, ...backward]) {
      heap[at++] = m.delta;
      heap[at++] = guardSlot(m.files);
      heap[at++] = m.leap ? 1 : 0;
    }
    const distance = k.solve(forward.length, backward === null ? 0 : backward.length);
    if (distance < 0) return null;
    const n = k.words();
    // One array for the four lists, cut from a slab when small (`slab.ts`), as the knight's.
    const layers = distance + 2;
    const lists = 2 * layers - 1;
    const all = slabInt32(lists + 2 * n);
    all.set(heap.subarray(this.layerStart, this.layerStart + layers));
    all.set(heap.subarray(this.layerCount, this.layerCount + layers - 1), layers);
    all.set(heap.subarray(this.layerIdx, this.layerIdx + n), lists);
    all.set(heap.subarray(this.layerVal, this.layerVal + n), lists + n);
    return {
      distance,
      layers: {
        start: all.subarray(0, layers),
        counts: all.subarray(layers, lists),
        idx: all.subarray(lists, lists + n),
        val: all.subarray(lists + n),
      },
    };
  }
}

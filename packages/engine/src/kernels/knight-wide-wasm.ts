/**
 * The WebAssembly build of the wide boards' king and knight fill (`wasm/knight-wide.ts`), with
 * the same `solve` as `WideKnightFill` of `knight-wide.ts` and the king of `LeaperFill`
 * (`leapers.ts`), which stay the fallback where WebAssembly is refused. Its steps are pushed or
 * pulled (see the kernel); `setWideKnightSteps` forces one way for the tests. The module is
 * compiled synchronously once, when this file loads (under 4 kB, which browsers allow). It has
 * one memory, laid out for one board size at a time: a fill for another size lays it out again
 * (growing it for a larger board) before it solves, so fills of several sizes can alternate.
 */

import type { Geometry } from '../board/geometry.js';
import type { SparseLayers } from '../board/words.js';
import { KNIGHT_WIDE_WASM } from '../generated/knight-wide-wasm.js';
import { instantiateKernel } from '../util/wasm.js';
import { frontierDistances, kernelLayers } from './kernel-output.js';

/** What the module exports. */
interface KnightWideExports {
  memory: WebAssembly.Memory;
  layout(units: number, rank: number, squares: number): number;
  offset(which: number): number;
  padding(): number;
  words(): number;
  setMode(mode: number): void;
  solve(piece: number): number;
  spread(piece: number): number;
}

/** The compiled module, or null where WebAssembly cannot be compiled here. */
const kernel = instantiateKernel<KnightWideExports>(KNIGHT_WIDE_WASM);

/**
 * The memory as words, remade when it grows. Bounded by construction: laid out for the largest
 * board served, at most about 2.5 MB (256 x 256).
 */
let heap = kernel === null ? new Int32Array(0) : new Int32Array(kernel.memory.buffer);
/** The fill the memory is laid out for. */
let laidOutFor: WasmWideKnightFill | null = null;

/** True where the WebAssembly knight fill runs here. */
export function wasmWideKnightAvailable(): boolean {
  return kernel !== null;
}

/**
 * How the kernel's forward steps go: `auto` (pulled through a dense window or pushed from the
 * frontier, whichever is cheaper), or always `push` or always `pull` (for the tests).
 */
export function setWideKnightSteps(steps: 'auto' | 'push' | 'pull'): void {
  kernel?.setMode(steps === 'auto' ? 0 : steps === 'push' ? 1 : 2);
}

/** The king's and the knight's unit fill on WebAssembly for one board size (check `wasmWideKnightAvailable` first). */
export class WasmWideKnightFill {
  /** Word offsets of the arrays in the memory, and the padding in words. */
  private open = 0;
  private targets = 0;
  private sources = 0;
  private layerStart = 0;
  private layerIdx = 0;
  private layerVal = 0;
  private layerCount = 0;
  private frontierStarts = 0;
  private frontierUnits = 0;
  private frontierBits = 0;
  private pad = 0;

  constructor(private readonly geo: Geometry) {}

  /** Lays the memory out for this board: grows it if needed, clears it, writes the file masks. */
  private layOut(k: KnightWideExports): void {
    const { geo } = this;
    const end = k.layout(geo.words >>> 1, geo.files >>> 6, geo.files * geo.ranks);
    const short = end - k.memory.buffer.byteLength;
    if (short > 0) k.memory.grow(Math.ceil(short / 65536));
    heap = new Int32Array(k.memory.buffer);
    const first = k.offset(0) >>> 2;
    heap.fill(0, first, end >>> 2);
    this.pad = 2 * k.padding();
    const masks = [geo.notEastFiles[0], geo.notEastFiles[1], geo.notWestFiles[0], geo.notWestFiles[1]];
    for (const [i, mask] of masks.entries()) heap.set(mask, (k.offset(i) >>> 2) + this.pad);
    [this.open, this.targets, this.sources] = [4, 5, 6].map((i) => k.offset(i) >>> 2);
    [this.layerStart, this.layerIdx, this.layerVal, this.layerCount] = [7, 8, 9, 10].map((i) => k.offset(i) >>> 2);
    [this.frontierStarts, this.frontierUnits, this.frontierBits] = [11, 12, 13].map((i) => k.offset(i) >>> 2);
    laidOutFor = this;
  }

  /**
   * Solves one knight (or king) problem. Returns the distance D and the layers, or null when T'
   * is unreachable (including S' or T' empty). `sources` and `targets` must be within `passable`.
   */
  solve(
    passable: Int32Array,
    sources: Int32Array,
    targets: Int32Array,
    piece: 'KNIGHT' | 'KING' = 'KNIGHT',
  ): { distance: number; layers: SparseLayers } | null {
    const k = kernel as KnightWideExports;
    if (laidOutFor !== this) this.layOut(k);
    heap.set(passable, this.open + this.pad);
    heap.set(targets, this.targets + this.pad);
    heap.set(sources, this.sources);
    const distance = k.solve(piece === 'KING' ? 1 : 0);
    if (distance < 0) return null;
    const at = { heap, start: this.layerStart, count: this.layerCount, idx: this.layerIdx, val: this.layerVal };
    return { distance, layers: kernelLayers(at, distance, k.words()) };
  }

  /**
   * dist(S', v) for every square, for the knight (or king), -1 where unreachable or not
   * passable: the fill runs until nothing is left to reach.
   */
  distances(passable: Int32Array, sources: Int32Array, piece: 'KNIGHT' | 'KING'): Int32Array {
    const k = kernel as KnightWideExports;
    if (laidOutFor !== this) this.layOut(k);
    heap.set(passable, this.open + this.pad);
    heap.fill(0, this.targets + this.pad, this.targets + this.pad + this.geo.words);
    heap.set(sources, this.sources);
    const frontiers = k.spread(piece === 'KING' ? 1 : 0);
    const [starts, units, bits] = [this.frontierStarts, this.frontierUnits, this.frontierBits];
    return frontierDistances({ heap, starts, units, bits, frontiers, pad: this.pad >>> 1 }, this.geo.n);
  }
}

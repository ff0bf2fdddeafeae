/**
 * The WebAssembly fill of the riders (`wasm/rides.ts`): the rook, the bishop and the queen on
 * every board but 8 x 8 (which has its own kernels), and the fairy pieces whose every move is a
 * leap or a ride (limited or not), with the same `solve` as the general fill of `fill.ts`,
 * which stays the fallback where WebAssembly is refused. A piece's moves are handed over as
 * shifts of the board's square order (a delta, the guard of squares the move may start from,
 * how many times it may be made), its guards written into the module's slots on every solve (a lame leap's guard
 * changes with the passable set). The module is compiled synchronously once, when this file loads
 * (under 4 kB, which browsers allow). It has one memory, laid out for one board size at a time:
 * a fill for another size lays it out again (growing it for a larger board) before it solves.
 */

import type { Geometry } from '../board/geometry.js';
import type { SparseLayers } from '../board/words.js';
import { RIDES_WASM } from '../generated/rides-wasm.js';
import { instantiateKernel } from '../util/wasm.js';
import { frontierDistances, kernelLayers } from './kernel-output.js';

/** What the module exports. */
interface RidesExports {
  memory: WebAssembly.Memory;
  layout(units: number, reach: number, squares: number): number;
  offset(which: number): number;
  padding(): number;
  guardSlots(): number;
  words(): number;
  solve(forwardMoves: number, backwardMoves: number): number;
  spread(forwardMoves: number): number;
}

/** The compiled module, or null where WebAssembly cannot be compiled here. */
const kernel = instantiateKernel<RidesExports>(RIDES_WASM);

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
  /** Squares of the board's order the move shifts by (ranks moved x files + files moved), not 0. */
  readonly delta: number;
  /** The squares the move may start from (a board's word array). */
  readonly guard: Int32Array;
  /**
   * How many times the move may be made in one go: 1 (a leap), up to n leaps (a ride limited
   * short of the board's edge, n from 2 to 256), or 0 (a ride as far as it can go).
   */
  readonly limit: number;
}

/** Moves (forward and backward together) the kernel holds. */
const MOVES = 64;

/** Whether the kernel takes these moves: at most 64 in all, with at most 32 guards among them. */
export function ridesFit(forward: readonly RideMove[], backward: readonly RideMove[] | null): boolean {
  const all = backward === null ? forward : [...forward, ...backward];
  return (
    all.length <= MOVES &&
    new Set(all.map((m) => m.guard)).size <= 32 &&
    all.every((m) => m.delta !== 0 && Number.isInteger(m.limit) && m.limit >= 0 && m.limit <= 256)
  );
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
  private frontierStarts = 0;
  private frontierUnits = 0;
  private frontierBits = 0;
  private pad = 0;
  private guards = 0;
  /** Words between two guard slots. */
  private stride = 0;
  /** The longest shift, in squares, the layout allows (its padding). */
  private reach = 0;

  constructor(private readonly geo: Geometry) {}

  /**
   * Lays the memory out for this board and shifts of up to `reach` squares: grows it if
   * needed, clears it.
   */
  private layOut(k: RidesExports, reach: number): void {
    const { geo } = this;
    const end = k.layout((geo.words + 1) >>> 1, reach, geo.n);
    const short = end - k.memory.buffer.byteLength;
    if (short > 0) k.memory.grow(Math.ceil(short / 65536));
    heap = new Int32Array(k.memory.buffer);
    this.guards = k.offset(0) >>> 2;
    heap.fill(0, this.guards, end >>> 2);
    this.pad = 2 * k.padding();
    this.reach = reach;
    [this.passable, this.targets] = [1, 2].map((i) => k.offset(i) >>> 2);
    this.stride = (this.passable - this.guards) / k.guardSlots();
    [this.sources, this.moves, this.layerStart, this.layerIdx, this.layerVal, this.layerCount] = [3, 4, 5, 6, 7, 8].map(
      (i) => k.offset(i) >>> 2,
    );
    [this.frontierStarts, this.frontierUnits, this.frontierBits] = [9, 10, 11].map((i) => k.offset(i) >>> 2);
    laidOutFor = this;
  }

  /**
   * Solves one problem with the piece's `forward` moves (and `backward`, the same moves
   * reversed, or null when they are the forward ones; check `ridesFit` first). Returns the
   * distance D and the layers, or null when T' is unreachable (including S' or T' empty).
   * `sources` and `targets` must be within `passable`.
   */
  solve(
    forward: readonly RideMove[],
    backward: readonly RideMove[] | null,
    passable: Int32Array,
    sources: Int32Array,
    targets: Int32Array,
  ): { distance: number; layers: SparseLayers } | null {
    const k = this.load(forward, backward, passable, sources, targets);
    const distance = k.solve(forward.length, backward === null ? 0 : backward.length);
    if (distance < 0) return null;
    const at = { heap, start: this.layerStart, count: this.layerCount, idx: this.layerIdx, val: this.layerVal };
    return { distance, layers: kernelLayers(at, distance, k.words()) };
  }

  /**
   * Writes a problem into the module's memory (laid out again first when the memory serves
   * another board, or when a move shifts further than the layout allows); no targets: zeros.
   */
  private load(
    forward: readonly RideMove[],
    backward: readonly RideMove[] | null,
    passable: Int32Array,
    sources: Int32Array,
    targets: Int32Array | null,
  ): RidesExports {
    const k = kernel as RidesExports;
    const moves = backward === null ? forward : [...forward, ...backward];
    let reach = 2 * this.geo.files + 2;
    for (const m of moves) reach = Math.max(reach, Math.abs(m.delta));
    if (laidOutFor !== this || reach > this.reach) this.layOut(k, reach);
    heap.set(passable, this.passable + this.pad);
    if (targets === null) heap.fill(0, this.targets + this.pad, this.targets + this.pad + this.geo.words);
    else heap.set(targets, this.targets + this.pad);
    heap.set(sources, this.sources);
    const slots: Int32Array[] = [];
    let at = this.moves;
    for (const m of moves) {
      let slot = slots.indexOf(m.guard);
      if (slot < 0) {
        slot = slots.push(m.guard) - 1;
        heap.set(m.guard, this.guards + slot * this.stride + this.pad);
      }
      heap[at++] = m.delta;
      heap[at++] = slot;
      heap[at++] = m.limit;
    }
    return k;
  }

  /**
   * dist(S', v) for every square with the piece's `forward` moves, -1 where unreachable or not
   * passable: the fill runs until nothing is left to reach.
   */
  distances(forward: readonly RideMove[], passable: Int32Array, sources: Int32Array): Int32Array {
    const frontiers = this.load(forward, null, passable, sources, null).spread(forward.length);
    const [starts, units, bits] = [this.frontierStarts, this.frontierUnits, this.frontierBits];
    return frontierDistances({ heap, starts, units, bits, frontiers, pad: this.pad >>> 1 }, this.geo.n);
  }
}

/**
 * Results in a compact form, for moving them between threads and for storing them.
 *
 * A result's layers L_0..L_D become one list of square indices, layer after layer, each layer
 * increasing, and the offsets where the layers start: two typed arrays whose size grows with the
 * squares on shortest paths, not with board x distance (a 64 x 64 maze answer at distance 2,000
 * is 12 KB, where dense bitboards took 1 MB). Typed arrays cross threads as one copy each, with
 * no object graph to rebuild.
 *
 * The byte codec stores the same list: the layer count, then per layer its size, its first square
 * as a zigzag delta from the first square of the layer before (consecutive layers are neighbours,
 * so that delta is small), and the gaps between its squares minus one, all as unsigned LEB128
 * varints. Decoding checks every bound, and `checkPacked` checks the layers against the problem,
 * so a damaged row is refused rather than served.
 */

import type { Board, PathResult } from '../types.js';
import { forEachMove, type Mover } from './moves.js';
import type { Words } from './query.js';

/** Layers as square indices (boards have at most 65,536 squares, so 16 bits each). */
export interface PackedLayers {
  /** Squares of L_0, then L_1, ..., each layer in increasing order. */
  readonly squares: Uint16Array;
  /** Layer k is `squares[starts[k] .. starts[k + 1])`: D + 2 offsets, or none when unreachable. */
  readonly starts: Uint32Array;
}

/** The layers of a result, packed. */
export function packLayers(result: Pick<PathResult, 'layers'>): PackedLayers {
  const layers = result.layers;
  let total = 0;
  for (const layer of layers) total += layer.count;
  const squares = new Uint16Array(total);
  const starts = new Uint32Array(layers.length === 0 ? 0 : layers.length + 1);
  let at = 0;
  layers.forEach((layer, k) => {
    starts[k] = at;
    for (const index of layer.indices) squares[at++] = index;
  });
  if (layers.length > 0) starts[layers.length] = at;
  return { squares, starts };
}

/** Number of layers (D + 1, or 0 when unreachable). */
export function layerCount(packed: PackedLayers): number {
  return packed.starts.length === 0 ? 0 : packed.starts.length - 1;
}

/** Bytes of memory the packed layers take. */
export function packedBytes(packed: PackedLayers): number {
  return packed.squares.byteLength + packed.starts.byteLength;
}

/** Appends `value` (a non-negative integer below 2^32) as an unsigned LEB128 varint. */
function writeVarint(out: number[], value: number): void {
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
}

/** Encodes packed layers as bytes (see the file comment). */
export function encodeLayers(packed: PackedLayers): Uint8Array<ArrayBuffer> {
  const { squares, starts } = packed;
  const count = layerCount(packed);
  const out: number[] = [];
  writeVarint(out, count);
  let previousFirst = 0;
  for (let k = 0; k < count; k++) {
    const begin = starts[k];
    const end = starts[k + 1];
    writeVarint(out, end - begin);
    if (end === begin) continue;
    const first = squares[begin];
    const delta = first - previousFirst;
    writeVarint(out, delta >= 0 ? 2 * delta : -2 * delta - 1);
    previousFirst = first;
    for (let i = begin + 1; i < end; i++) writeVarint(out, squares[i] - squares[i - 1] - 1);
  }
  return Uint8Array.from(out);
}

/** Reads varints from bytes, refusing anything out of bounds. */
class VarintReader {
  #at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  read(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 5; i++) {
      if (this.#at >= this.bytes.length) throw new Error('stored layers end too early');
      const byte = this.bytes[this.#at++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
    throw new Error('stored layers hold an over-long number');
  }

  get done(): boolean {
    return this.#at === this.bytes.length;
  }
}

/** Decodes `encodeLayers` output for a board of `n` squares; throws on malformed bytes. */
export function decodeLayers(bytes: Uint8Array, n: number): PackedLayers {
  const reader = new VarintReader(bytes);
  const count = reader.read();
  if (count > n) throw new Error(`stored layers claim ${count} layers on a board of ${n} squares`);
  const starts = new Uint32Array(count === 0 ? 0 : count + 1);
  const squares: number[] = [];
  let previousFirst = 0;
  for (let k = 0; k < count; k++) {
    starts[k] = squares.length;
    const size = reader.read();
    if (size === 0 || squares.length + size > n) throw new Error(`stored layer ${k} has a bad size ${size}`);
    const zigzag = reader.read();
    let square = previousFirst + (zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2);
    previousFirst = square;
    for (let i = 0; i < size; i++) {
      if (i > 0) square += reader.read() + 1;
      if (square < 0 || square >= n) throw new Error(`stored layer ${k} leaves the board`);
      squares.push(square);
    }
  }
  if (count > 0) starts[count] = squares.length;
  if (!reader.done) throw new Error('stored layers have trailing bytes');
  return { squares: Uint16Array.from(squares), starts };
}

/**
 * Checks packed layers against a problem (P at 0, S' at `words`, T' at `2 * words` of its words):
 * every layer non-empty and increasing, every square passable and in one layer only, the first
 * layer within the sources and the last within the targets, and the layers a layered graph of
 * moves: every square of a layer reached by a move from the layer before and, but in the last,
 * leading by a move into the layer after. Throws an `Error` naming the fault. (It cannot tell a
 * layered graph that is not the shortest one: that would take solving again.)
 */
export function checkPacked(
  packed: PackedLayers,
  problem: { mover: Mover; board: Board; data: Words; words: number },
): void {
  const { data, words } = problem;
  const { squares, starts } = packed;
  const count = layerCount(packed);
  const bit = (offset: number, index: number) => (data[offset + (index >>> 5)] >>> (index & 31)) & 1;
  const seen = new Uint8Array(words * 32);
  for (let k = 0; k < count; k++) {
    if (starts[k + 1] <= starts[k] || starts[k + 1] > squares.length) throw new Error(`stored layer ${k} is empty`);
    for (let i = starts[k]; i < starts[k + 1]; i++) {
      const v = squares[i];
      if (i > starts[k] && v <= squares[i - 1]) throw new Error(`stored layer ${k} is not increasing`);
      if (v >= words * 32 || bit(0, v) === 0) throw new Error(`stored layer ${k} leaves the mask`);
      if (seen[v]) throw new Error(`square ${v} is stored in two layers`);
      seen[v] = 1;
      if (k === 0 && bit(words, v) === 0) throw new Error('stored first layer is not within the sources');
      if (k === count - 1 && bit(2 * words, v) === 0) throw new Error('stored last layer is not within the targets');
    }
  }
  if (count > 0 && (starts[0] !== 0 || starts[count] !== squares.length))
    throw new Error('stored layer offsets do not cover the squares');
  checkMoves(packed, problem);
}

/** The move conditions of `checkPacked`. */
function checkMoves(packed: PackedLayers, problem: { mover: Mover; board: Board; data: Words; words: number }): void {
  const { squares, starts } = packed;
  const { mover, board } = problem;
  const passable = Int32Array.from({ length: problem.words }, (_, w) => problem.data[w]);
  const layerOf = new Int32Array(board.files * board.ranks).fill(-1);
  const count = layerCount(packed);
  for (let k = 0; k < count; k++) for (let i = starts[k]; i < starts[k + 1]; i++) layerOf[squares[i]] = k;
  const reached = new Uint8Array(layerOf.length);
  // One visitor for every square (no closure per square): it marks the moves into layer `next`.
  let next = 0;
  let leads = false;
  const visit = (v: number) => {
    if (layerOf[v] === next) {
      reached[v] = 1;
      leads = true;
    }
  };
  for (let k = 0; k + 1 < count; k++) {
    next = k + 1;
    for (let i = starts[k]; i < starts[k + 1]; i++) {
      leads = false;
      forEachMove(mover, board.files, board.ranks, passable, squares[i], visit);
      if (!leads) throw new Error(`stored square ${squares[i]} of layer ${k} leads nowhere in layer ${k + 1}`);
    }
    for (let i = starts[k + 1]; i < starts[k + 2]; i++) {
      if (!reached[squares[i]])
        throw new Error(`stored square ${squares[i]} of layer ${k + 1} is reached from no square of layer ${k}`);
    }
  }
}

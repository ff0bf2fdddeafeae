/**
 * Where a `StoredSolution` keeps its layers. Restored results keep them dense (a few words a
 * layer); the general fill keeps them as sparse word lists, since a 256 x 256 answer with
 * hundreds of layers would otherwise be megabytes of zeros. Both hand out lazy
 * `SquareSet`s, so a caller that reads only the distance never formats a layer. Results that
 * crossed threads or came from a store keep their layers packed as square lists (`packed.ts`).
 */
import { formatWords, lowestBit, popcount32, WordSquareSet } from '../board/bitset.js';
import { wordsFor } from '../board/board.js';
import { squareName } from '../board/squares.js';
import type { SparseLayers } from '../board/words.js';
import type { Board, SquareSet } from '../types.js';
import { layerCount, type PackedLayers } from './packed.js';

/** Layers L_0 .. L_D of a result. */
export interface LayerStore {
  /** Number of layers (D + 1, or 0 when unreachable). */
  readonly count: number;
  /** False when the result should build its layer views on each read rather than keep them. */
  readonly keepViews?: boolean;
  /** Layer k as a square set. */
  layer(k: number, board: Board): SquareSet;
  /** ORs layer k into dense words. */
  orInto(k: number, out: Int32Array): void;
}

/** Layers stored back to back, `words` words each, from `data[0]`. */
export class DenseLayers implements LayerStore {
  constructor(
    private readonly data: ArrayLike<number>,
    private readonly words: number,
    readonly count: number,
  ) {}

  layer(k: number, board: Board): SquareSet {
    return new WordSquareSet(board, this.data, k * this.words);
  }

  orInto(k: number, out: Int32Array): void {
    const base = k * this.words;
    for (let w = 0; w < this.words; w++) out[w] |= this.data[base + w];
  }
}

/** ORs layer k of sparse layers into dense words. */
function orSparseLayer(sparse: SparseLayers, k: number, out: Int32Array): void {
  const { start, idx, val } = sparse;
  for (let i = start[k]; i < start[k + 1]; i++) out[idx[i]] |= val[i];
}

/** Layers as sparse word lists (the general fill's output). */
export class SparseLayerStore implements LayerStore {
  readonly count: number;
  constructor(private readonly sparse: SparseLayers) {
    this.count = sparse.start.length - 1;
  }

  layer(k: number, board: Board): SquareSet {
    return new SparseSquareSet(board, this.sparse, k);
  }

  orInto(k: number, out: Int32Array): void {
    orSparseLayer(this.sparse, k, out);
  }
}

/** One layer of a `SparseLayerStore`. */
class SparseSquareSet implements SquareSet {
  declare private cachedIndices: number[] | undefined;
  declare private cachedBitboard: string | undefined;
  // Assigned, not class fields (which V8 defines in a separate step): a 256 x 256 maze's answer
  // makes thousands of these.
  constructor(
    private readonly board: Board,
    private readonly sparse: SparseLayers,
    private readonly k: number,
  ) {
    this.cachedIndices = undefined;
    this.cachedBitboard = undefined;
  }

  private dense(): Int32Array {
    const out = new Int32Array(wordsFor(this.board.files * this.board.ranks));
    orSparseLayer(this.sparse, this.k, out);
    return out;
  }

  get bitboard(): string {
    return (this.cachedBitboard ??= formatWords(this.dense(), 0, this.board.files * this.board.ranks));
  }

  get indices(): number[] {
    if (this.cachedIndices === undefined) {
      // Straight from the layer's few words (in word order), not through a dense copy of the
      // board: a 256 x 256 answer has thousands of layers of a word or two each.
      const { start, idx, val } = this.sparse;
      const entries: number[] = [];
      for (let i = start[this.k]; i < start[this.k + 1]; i++) entries.push(i);
      if (entries.length > 1) entries.sort((a, b) => idx[a] - idx[b]);
      const out: number[] = [];
      for (const i of entries) {
        const base = idx[i] << 5;
        for (let v = val[i]; v !== 0; v &= v - 1) out.push(base + lowestBit(v));
      }
      this.cachedIndices = out;
    }
    return this.cachedIndices;
  }

  get squares(): string[] {
    return this.indices.map((i) => squareName(i, this.board));
  }

  get count(): number {
    const { start, val, counts } = this.sparse;
    if (counts !== undefined) return counts[this.k];
    let n = 0;
    for (let i = start[this.k]; i < start[this.k + 1]; i++) n += popcount32(val[i]);
    return n;
  }
}

/** Layers as packed square lists (results moved between threads or read from a store). */
export class PackedLayerStore implements LayerStore {
  readonly count: number;
  constructor(private readonly packed: PackedLayers) {
    this.count = layerCount(packed);
  }

  /** Not kept by the result: built again on each read, at the cost of a few objects per layer. */
  readonly keepViews = false;

  layer(k: number, board: Board): SquareSet {
    const { squares, starts } = this.packed;
    return new IndexSquareSet(board, squares, starts[k], starts[k + 1]);
  }

  orInto(k: number, out: Int32Array): void {
    const { squares, starts } = this.packed;
    for (let i = starts[k]; i < starts[k + 1]; i++) out[squares[i] >>> 5] |= 1 << (squares[i] & 31);
  }
}

/** A square set given by increasing square indices: `list[begin .. end)` (no view allocated). */
class IndexSquareSet implements SquareSet {
  constructor(
    private readonly board: Board,
    private readonly list: Uint16Array,
    private readonly begin: number,
    private readonly end: number,
  ) {}

  get bitboard(): string {
    const n = this.board.files * this.board.ranks;
    const words = new Int32Array(wordsFor(n));
    for (let i = this.begin; i < this.end; i++) words[this.list[i] >>> 5] |= 1 << (this.list[i] & 31);
    return formatWords(words, 0, n);
  }

  get indices(): number[] {
    const out: number[] = [];
    for (let i = this.begin; i < this.end; i++) out.push(this.list[i]);
    return out;
  }

  get squares(): string[] {
    const out: string[] = [];
    for (let i = this.begin; i < this.end; i++) out.push(squareName(this.list[i], this.board));
    return out;
  }

  get count(): number {
    return this.end - this.begin;
  }
}

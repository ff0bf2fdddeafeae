/**
 * The result of an 8 x 8 solve. On a board this small, making the result costs as much as the
 * fill itself, so it holds P, S' and T' as six plain integer fields (the `Prepared` problem is
 * made only when a key, a text form, the path count, paths or distances are read), and its
 * layers are made straight from the fill's words: one small object per layer, nothing else.
 */
import { bitIndices, formatWords, popcount64 } from '../board/bitset.js';
import { STANDARD_BOARD } from '../board/board.js';
import { squareName } from '../board/squares.js';
import type { Board, Piece, SquareSet } from '../types.js';
import { standardPrepared } from './prepare64.js';
import type { Prepared } from './query.js';
import { Solution } from './solution.js';

/**
 * One 8 x 8 layer: squares a1..h4 in `lo`, a5..h8 in `hi`. The count is a plain field, given
 * when the layer is made (the loop that reads it may be too large for a getter to be inlined);
 * nothing is formatted unless read.
 */
export class StandardLayer implements SquareSet {
  // `declare`d, assigned in the constructor: a class field would be defined (not assigned)
  // by an initializer that V8 runs as a separate step, measurably slower for small objects.
  declare readonly lo: number;
  declare readonly hi: number;
  declare readonly count: number;
  constructor(lo: number, hi: number, count: number) {
    this.lo = lo;
    this.hi = hi;
    this.count = count;
  }

  get bitboard(): string {
    return formatWords([this.lo, this.hi], 0, 64);
  }

  get indices(): number[] {
    return bitIndices([this.lo, this.hi], 0, 2);
  }

  get squares(): string[] {
    return this.indices.map((i) => squareName(i, STANDARD_BOARD));
  }
}

/**
 * Layers L_0 .. L_D as a kernel left them in `words` (D = `distance`), with their square counts
 * from `counts` (the WebAssembly kernel counts them as it goes) or counted here, or an empty list
 * when `distance` is negative. Sized up front: a pushed-to array would reserve room for 16.
 */
function standardLayers(distance: number, words: Int32Array, counts: Int32Array | null): StandardLayer[] {
  if (distance < 0) return [];
  const layers = new Array<StandardLayer>(distance + 1);
  for (let k = 0; k <= distance; k++) {
    const lo = words[2 * k];
    const hi = words[2 * k + 1];
    layers[k] = new StandardLayer(lo, hi, counts === null ? popcount64(lo, hi) : counts[k]);
  }
  return layers;
}

/** An 8 x 8 result, made right after a kernel's solve (`kernel64.ts`) from what it left. */
export class StandardSolution extends Solution {
  // Fields `declare`d and assigned in the constructor, in the order the class fields had (see
  // `StandardLayer`).
  declare readonly piece: Piece;
  declare private readonly pLo: number;
  declare private readonly pHi: number;
  declare private readonly sLo: number;
  declare private readonly sHi: number;
  declare private readonly tLo: number;
  declare private readonly tHi: number;
  declare readonly reachable: boolean;
  declare readonly distance: number | null;
  declare readonly layers: SquareSet[];
  declare private preparedProblem: Prepared | undefined;

  constructor(
    piece: Piece,
    pLo: number,
    pHi: number,
    sLo: number,
    sHi: number,
    tLo: number,
    tHi: number,
    /** What the kernel returned: D, or -1 when no target is reachable. */
    distance: number,
    /** Where the kernel left the layers. */
    words: Int32Array,
    /** Where the kernel left their square counts, or null when it did not count them. */
    counts: Int32Array | null,
    /** The problem, when the caller already holds it (else made on first use). */
    prepared?: Prepared,
  ) {
    super();
    this.piece = piece;
    this.pLo = pLo;
    this.pHi = pHi;
    this.sLo = sLo;
    this.sHi = sHi;
    this.tLo = tLo;
    this.tHi = tHi;
    this.reachable = distance >= 0;
    this.distance = distance < 0 ? null : distance;
    this.layers = standardLayers(distance, words, counts);
    this.preparedProblem = prepared;
  }

  get board(): Board {
    return STANDARD_BOARD;
  }

  get cached(): boolean {
    return false;
  }

  protected get prepared(): Prepared {
    return (this.preparedProblem ??= standardPrepared(
      this.piece,
      this.pLo,
      this.pHi,
      this.sLo,
      this.sHi,
      this.tLo,
      this.tHi,
    ));
  }

  protected orLayersInto(out: Int32Array): void {
    for (const layer of this.layers as StandardLayer[]) {
      out[0] |= layer.lo;
      out[1] |= layer.hi;
    }
  }
}

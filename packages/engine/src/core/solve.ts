/**
 * `solve` and its relatives. The forward and backward fills run eagerly, on the 8 x 8 fast path
 * (a kernel of `kernel64.ts`, or `fairy64.ts` for a fairy piece) or the general word-array fill
 * (`fill.ts`), because distance and
 * layers are what nearly every caller reads; the result (`solution.ts`) computes everything else
 * on first read. A plain 8 x 8 question goes from its text to its result without a `Prepared`
 * problem: `readStandard` leaves its words in `standardWords`, the kernel its layers in
 * `kernel.words`, and the result copies both into fields of its own. `solveWords` takes the same
 * question as square sets, for a caller that holds them: reading the text is about half of what
 * a plain 8 x 8 `solve` costs.
 */

import { parseWordsInto } from '../board/bitset.js';
import { SMALL_WORDS, STANDARD_BOARD } from '../board/board.js';
import { geometryOf } from '../board/geometry.js';
import { InputError } from '../errors.js';
import { smallLayerWords, solveFairySmall } from '../fairy/fairy-small.js';
import { fairy64Words, solveFairy64 } from '../fairy/fairy64.js';
import { javascriptKernel, type Kernel64, standardKernel } from '../kernels/kernel64.js';
import { type CanonicalProblem, type OrthodoxMover, type PathQuery, PIECES } from '../types.js';
import { DenseLayers, type LayerStore, PackedLayerStore, SparseLayerStore } from './layers.js';
import { checkPacked, type PackedLayers } from './packed.js';
import { prepareStandard, readStandard, standardPrepared, standardWords } from './prepare64.js';
import { allocateWords, Prepared, pieceCode, prepareCanonical, prepareQuery, wordsAt } from './query.js';
import { ridesBeatSmallFill } from './ride-moves.js';
import { type Solution, StoredSolution } from './solution.js';
import { StandardSolution } from './solution64.js';
import { wordFillFor } from './word-fills.js';

/** Which fill to use. Every choice gives the same answers; the tests compare them. */
export interface SolveOptions {
  /** `auto` (the default) takes the 8 x 8 fast path on 8 x 8 boards; `general` never does. */
  representation?: 'auto' | 'general';
  /**
   * The kernels of a solve (the 8 x 8 fast path, the king and the knight on boards whose files
   * are a multiple of 64, the riders on other boards): `auto` (WebAssembly where it compiles,
   * else JavaScript) or `javascript`. A result's distance map is filled where WebAssembly runs
   * whatever this says.
   */
  kernel?: 'auto' | 'javascript';
}

/** The 8 x 8 kernel the options ask for. */
function kernelFor(options: SolveOptions | undefined): Kernel64 {
  return options?.kernel === 'javascript' ? javascriptKernel : standardKernel;
}

const NO_LAYERS: LayerStore = new DenseLayers(new Int32Array(0), 0, 0);

/** Solves the 8 x 8 problem P, S', T' given as word pairs (`prepared`, when the caller has it). */
function solveStandard(
  kernel: Kernel64,
  code: number,
  pLo: number,
  pHi: number,
  sLo: number,
  sHi: number,
  tLo: number,
  tHi: number,
  prepared?: Prepared,
): StandardSolution {
  const distance = kernel.solve(code, sLo, sHi, tLo, tHi, pLo, pHi);
  return new StandardSolution(
    PIECES[code],
    pLo,
    pHi,
    sLo,
    sHi,
    tLo,
    tHi,
    distance,
    kernel.words,
    kernel.counts,
    prepared,
  );
}

/** Solves a prepared problem. */
export function solvePrepared(prepared: Prepared, options?: SolveOptions): Solution {
  const { words, data, board, piece, fairy } = prepared;
  if (board === STANDARD_BOARD && options?.representation !== 'general') {
    const [pLo, pHi, sLo, sHi, tLo, tHi] = data;
    if (fairy !== null) {
      const distance = solveFairy64(fairy, pLo, pHi, sLo, sHi, tLo, tHi);
      return new StandardSolution(piece, pLo, pHi, sLo, sHi, tLo, tHi, distance, fairy64Words, null, prepared);
    }
    return solveStandard(kernelFor(options), pieceCode(piece), pLo, pHi, sLo, sHi, tLo, tHi, prepared);
  }
  if (fairy !== null && words <= SMALL_WORDS && options?.representation !== 'general') {
    const geo = geometryOf(board);
    if (options?.kernel === 'javascript' || !ridesBeatSmallFill(geo, fairy)) {
      const distance = solveFairySmall(geo, fairy, data);
      return new StoredSolution(
        prepared,
        distance < 0 ? NO_LAYERS : new DenseLayers(smallLayerWords(distance, words), words, distance + 1),
        false,
      );
    }
  }
  const solved = wordFillFor(board).solve(
    prepared.mover,
    wordsAt(data, 0, words),
    wordsAt(data, words, words),
    wordsAt(data, 2 * words, words),
    options?.kernel !== 'javascript',
  );
  return new StoredSolution(prepared, solved === null ? NO_LAYERS : new SparseLayerStore(solved.layers), false);
}

/** Answers one path query. Throws `InputError` for bad input. */
export function solve(query: PathQuery, options?: SolveOptions): Solution {
  if (options === undefined || options.representation !== 'general') {
    // The options first: once `readStandard` has left the words, no caller's code (a getter
    // that solves another question) may run before they are read.
    const kernel = kernelFor(options);
    const code = readStandard(query);
    if (code >= 0) {
      const w = standardWords;
      return solveStandard(kernel, code, w[0], w[1], w[2], w[3], w[4], w[5]);
    }
  }
  return solvePrepared(prepareQuery(query), options);
}

/**
 * A set of squares of the 8 x 8 board as two 32-bit words: a1..h4 in `lo` (bit i = square i),
 * a5..h8 in `hi` (bit i = square 32 + i), signed or unsigned. chessops' `SquareSet` has this shape.
 */
export interface SquareWords {
  readonly lo: number;
  readonly hi: number;
}

/** An 8 x 8 question whose squares are given as sets of words (`solveWords`), not as text. */
export interface WordsQuery {
  /** An orthodox piece. */
  readonly piece: OrthodoxMover;
  /** The sources: S. */
  readonly from: SquareWords;
  /** The targets: T. */
  readonly to: SquareWords;
  /** The passable squares: P. Default every square. */
  readonly passable?: SquareWords;
}

/** Every square of the 8 x 8 board. */
const EVERY_SQUARE: SquareWords = { lo: -1, hi: -1 };

/** True for an integer of 32 bits, signed or unsigned. */
function isWord(word: unknown): word is number {
  return typeof word === 'number' && (word === (word | 0) || word === word >>> 0);
}

/** What is wrong with the set of words under `field` (`solveWords` found something). */
function wordsError(set: unknown, field: string): InputError {
  if (set === null || typeof set !== 'object')
    return new InputError([field], set, 'is not a set of squares: expected { lo, hi }, two 32-bit words');
  const { lo, hi } = set as SquareWords;
  const half = isWord(lo) ? 'hi' : 'lo';
  return new InputError([field, half], half === 'lo' ? lo : hi, 'is not a 32-bit word of squares');
}

/**
 * Answers an 8 x 8 question given as square sets instead of text: the same result as `solve` of
 * the same question written with square names and a mask, without reading any text (which is
 * most of what a plain 8 x 8 `solve` costs). For a caller that already holds bitboards, such as
 * a front end on chessops. Throws `InputError` naming the field (`piece`, `from.lo`, ...).
 */
export function solveWords(query: WordsQuery, options?: SolveOptions): Solution {
  const kernel = kernelFor(options);
  if (query === null || typeof query !== 'object')
    throw new InputError(['query'], query, 'is not a question: expected { piece, from, to, passable? }');
  const code = pieceCode(query.piece);
  if (code < 0)
    throw new InputError(['piece'], query.piece, 'is not an orthodox piece (solveWords answers KING to BLACK_PAWN)');
  const passable = query.passable ?? EVERY_SQUARE;
  const { from, to } = query;
  // Read once each, then checked together: the sets may be a caller's objects with getters.
  const pLo = passable?.lo;
  const pHi = passable?.hi;
  const fLo = from?.lo;
  const fHi = from?.hi;
  const tLo = to?.lo;
  const tHi = to?.hi;
  if (!(isWord(pLo) && isWord(pHi))) throw wordsError(passable, 'passable');
  if (!(isWord(fLo) && isWord(fHi))) throw wordsError(from, 'from');
  if (!(isWord(tLo) && isWord(tHi))) throw wordsError(to, 'to');
  const p0 = pLo | 0;
  const p1 = pHi | 0;
  if (options?.representation === 'general')
    return solvePrepared(standardPrepared(PIECES[code], p0, p1, fLo & p0, fHi & p1, tLo & p0, tHi & p1), options);
  return solveStandard(kernel, code, p0, p1, fLo & p0, fHi & p1, tLo & p0, tHi & p1);
}

/**
 * Answers many queries at once, in order. Items may be raw queries or already prepared
 * problems (as a cache layer holds them). Items that describe the same problem are solved once
 * and share one result. An `InputError` names the query's position (`[3].from[1]`).
 */
export function solveBatch(queries: readonly (PathQuery | Prepared)[], options?: SolveOptions): Solution[] {
  const byIdentity = new Map<string, Solution>();
  return queries.map((query, i) => {
    let prepared: Prepared;
    try {
      prepared = query instanceof Prepared ? query : (prepareStandard(query) ?? prepareQuery(query));
    } catch (error) {
      throw error instanceof InputError ? error.under(i) : error;
    }
    const identity = prepared.identity;
    let result = byIdentity.get(identity);
    if (result === undefined) {
      result = solvePrepared(prepared, options);
      byIdentity.set(identity, result);
    }
    return result;
  });
}

/**
 * Rebuilds a result from a stored canonical problem and its layer bitboards, without solving
 * (`cached: true`). Throws an `Error` when the stored data is inconsistent.
 */
export function restoreResult(problem: CanonicalProblem, layers: readonly string[], pathCount?: bigint): Solution {
  const prepared = prepareCanonical(problem);
  const { words, data, board } = prepared;
  const n = board.files * board.ranks;
  const dense = allocateWords(words, layers.length);
  layers.forEach((text, k) => {
    if (typeof text !== 'string' || parseWordsInto(text, n, dense, k * words) !== null) {
      throw new Error(`stored layer ${k} is malformed`);
    }
    let any = 0;
    for (let w = 0; w < words; w++) {
      const v = dense[k * words + w];
      any |= v;
      if ((v & ~data[w]) !== 0) throw new Error(`stored layer ${k} leaves the mask`);
      if (k === 0 && (v & ~data[words + w]) !== 0) throw new Error('stored first layer is not within the sources');
      if (k === layers.length - 1 && (v & ~data[2 * words + w]) !== 0)
        throw new Error('stored last layer is not within the targets');
    }
    if (any === 0) throw new Error(`stored layer ${k} is empty`);
  });
  if (pathCount !== undefined && (typeof pathCount !== 'bigint' || pathCount < 0n))
    throw new Error('stored path count is invalid');
  return new StoredSolution(prepared, new DenseLayers(dense, words, layers.length), true, pathCount);
}

/**
 * A result from packed layers computed elsewhere (a worker thread, a store). With `check`, the
 * layers are first checked against the problem (`checkPacked` throws an `Error` when they do not
 * fit it); without, they are trusted, as the engine's own output.
 */
export function solutionFromPacked(
  prepared: Prepared,
  packed: PackedLayers,
  options: { cached: boolean; pathCount?: bigint; check?: boolean },
): Solution {
  if (options.check) {
    checkPacked(packed, prepared);
    const { pathCount } = options;
    if (pathCount !== undefined && (typeof pathCount !== 'bigint' || pathCount < 0n))
      throw new Error('stored path count is invalid');
  }
  return new StoredSolution(prepared, new PackedLayerStore(packed), options.cached, options.pathCount);
}

/**
 * From a user's `PathQuery` to the canonical problem the fills solve: piece, board, effective
 * passable set P (mask, minus blocked squares, minus the FEN's occupied squares other than the
 * query's own from and to squares), S' = S ∩ P and T' = T ∩ P. Equal problems get equal keys
 * whatever input described them (a FEN or the equivalent mask, names in any order or case).
 */
import { type FairyPiece, readBetza } from '../betza/betza.js';
import { bitboardError, formatWords, parseWordsInto } from '../board/bitset.js';
import { resolveBoard, SMALL_WORDS, STANDARD_BOARD, wordsFor } from '../board/board.js';
import { parseFen } from '../board/fen.js';
import { parseSquare, squareIndexOrMinus1 } from '../board/squares.js';
import { InputError, type InputPath } from '../errors.js';
import { type Board, type CanonicalProblem, type OrthodoxMover, type PathQuery, PIECES, type Piece } from '../types.js';
import { sha256Hex } from '../util/sha256.js';
import { slabInt32 } from '../util/slab.js';
import type { Mover } from './moves.js';

/** Square-set words: a typed array, or a plain array for the few words of an 8 x 8 board. */
export type Words = Int32Array | number[];

/** Words `offset .. offset + count` of `data` as a typed array (a view where possible). */
export function wordsAt(data: Words, offset: number, count: number): Int32Array {
  return data instanceof Int32Array
    ? data.subarray(offset, offset + count)
    : Int32Array.from(data.slice(offset, offset + count));
}

/**
 * Zeroed words for `count` square sets of a board of `words` words each: a plain array up to
 * 2 words, or up to `SMALL_WORDS` for a fairy piece (`small`), whose fill reads them as they are
 * (making a typed array of a few words costs more than such a fill); a typed array beyond.
 */
export function allocateWords(words: number, count: number, small = false): Words {
  if (words === 2 && count === 3) return [0, 0, 0, 0, 0, 0]; // packed small integers
  if (words > (small ? SMALL_WORDS : 2)) return slabInt32(words * count); // a view when small (`slab.ts`)
  const out: number[] = [];
  for (let i = 0; i < words * count; i++) out.push(0);
  return out;
}

/** A normalised problem: P, S' and T' as words, back to back in `data`. */
export class Prepared {
  private cachedProblem: CanonicalProblem | undefined = undefined;
  private cachedKey: string | undefined = undefined;
  constructor(
    readonly piece: Piece,
    readonly board: Board,
    /** Words of one square set. */
    readonly words: number,
    /**
     * P at 0, S' at `words`, T' at `2 * words`. A plain array on 8 x 8: allocating a typed
     * array costs more there than the whole fill.
     */
    readonly data: Words,
    /** With piece FAIRY: the piece its Betza text describes. */
    readonly fairy: FairyPiece | null = null,
  ) {}

  /** What moves: the fairy piece, or the orthodox piece by name. */
  get mover(): Mover {
    return this.fairy ?? (this.piece as OrthodoxMover);
  }

  /** The canonical problem as text. */
  get problem(): CanonicalProblem {
    if (this.cachedProblem === undefined) {
      const { board, data, words } = this;
      const n = board.files * board.ranks;
      // One literal per shape, not a spread of an optional field: a spread copies through
      // a slow generic path, most of what this getter costs on 8 x 8.
      const mask = formatWords(data, 0, n);
      const sources = formatWords(data, words, n);
      const targets = formatWords(data, 2 * words, n);
      const { files, ranks } = board;
      this.cachedProblem =
        this.fairy === null
          ? { piece: this.piece, files, ranks, mask, sources, targets }
          : { piece: this.piece, betza: this.fairy.betza, files, ranks, mask, sources, targets };
    }
    return this.cachedProblem;
  }

  /** Text that identifies the problem exactly (what the key hashes). */
  get identity(): string {
    const p = this.problem;
    const piece = p.betza === undefined ? p.piece : `${p.piece}:${p.betza}`;
    return `${piece} ${p.files}x${p.ranks} ${p.mask} ${p.sources} ${p.targets}`;
  }

  /** Hex SHA-256 of the canonical problem: the cache key. */
  get key(): string {
    return (this.cachedKey ??= sha256Hex(this.identity));
  }
}

/**
 * An orthodox piece's index in `PIECES` (the 8 x 8 fill's piece code), or -1 for anything else
 * (FAIRY included: fairy pieces take the general fill). A switch on interned strings is cheaper
 * than a lookup here.
 */
export function pieceCode(piece: unknown): number {
  switch (piece) {
    case 'KING':
      return 0;
    case 'QUEEN':
      return 1;
    case 'ROOK':
      return 2;
    case 'BISHOP':
      return 3;
    case 'KNIGHT':
      return 4;
    case 'WHITE_PAWN':
      return 5;
    case 'BLACK_PAWN':
      return 6;
    default:
      return -1;
  }
}

/** True for a piece name. */
export function isPiece(piece: unknown): piece is Piece {
  return pieceCode(piece) >= 0 || piece === 'FAIRY';
}

/**
 * The mover a query's piece and Betza text describe: an orthodox piece without a text; with
 * FAIRY, the text's piece, answered as the orthodox piece it equals when it equals one (the
 * contract gives such a question that piece's answer and key). A text with an orthodox piece,
 * or FAIRY without one, is an `InputError` under `betza`.
 */
export function resolveMover(piece: Piece, betza: unknown): { piece: Piece; fairy: FairyPiece | null } {
  if (piece !== 'FAIRY') {
    if (betza != null) throw new InputError(['betza'], betza, `is only for piece FAIRY, not ${piece}`);
    return { piece, fairy: null };
  }
  if (betza == null) throw new InputError(['betza'], undefined, 'is missing: piece FAIRY needs a Betza text');
  if (typeof betza !== 'string') throw new InputError(['betza'], betza, 'is not a Betza text');
  const fairy = readBetza(betza, ['betza']);
  return fairy.orthodox === null ? { piece, fairy } : { piece: fairy.orthodox, fairy: null };
}

/** Checks a piece name. */
function checkPiece(piece: unknown, path: InputPath): Piece {
  if (isPiece(piece)) return piece;
  throw new InputError(path, piece, `is not a piece; expected one of ${PIECES.join(', ')}`);
}

/** Sets the bits of a list of square names into `data` at `offset`. */
function setSquares(
  list: readonly string[] | null | undefined,
  field: string,
  board: Board,
  data: Words,
  offset: number,
): void {
  if (!Array.isArray(list)) throw new InputError([field], list, 'is not a list of squares');
  for (let i = 0; i < list.length; i++) {
    const name = list[i];
    // The fast path allocates nothing; a bad name goes through parseSquare for its error.
    let index = typeof name === 'string' ? squareIndexOrMinus1(name, board.files, board.ranks) : -1;
    if (index < 0) index = parseSquare(name, board, [field, i]);
    data[offset + (index >>> 5)] |= 1 << (index & 31);
  }
}

/** Sets P to every square of the board. */
function fillBoard(data: Words, words: number, n: number): void {
  for (let w = 0; w < words; w++) data[w] = -1;
  if ((n & 31) !== 0) data[words - 1] = (1 << (n & 31)) - 1;
}

/** Normalises a query; throws `InputError` naming the field and value of any bad input. */
export function prepareQuery(query: PathQuery): Prepared {
  if (query === null || typeof query !== 'object') throw new InputError(['query'], query, 'is not a path query');
  const { piece, fairy } = resolveMover(checkPiece(query.piece, ['piece']), query.betza);
  const board = resolveBoard(query.board);
  const n = board.files * board.ranks;
  const words = wordsFor(n);
  const data = allocateWords(words, 3, fairy !== null);
  if (query.mask != null) {
    const problem = typeof query.mask === 'string' ? parseWordsInto(query.mask, n, data, 0) : 'is not a bitboard';
    if (problem !== null) throw bitboardError(['mask'], query.mask, problem, board);
  } else {
    fillBoard(data, words, n);
  }
  setSquares(query.from, 'from', board, data, words);
  setSquares(query.to, 'to', board, data, 2 * words);
  if (query.blocked != null) {
    const blocked = allocateWords(words, 1);
    setSquares(query.blocked, 'blocked', board, blocked, 0);
    for (let w = 0; w < words; w++) data[w] &= ~blocked[w];
  }
  if (query.fen != null) {
    const occupied = parseFen(query.fen, board, ['fen']).occupiedWords;
    for (let w = 0; w < words; w++) data[w] &= ~(occupied[w] & ~(data[words + w] | data[2 * words + w]));
  }
  for (let w = 0; w < words; w++) {
    data[words + w] &= data[w];
    data[2 * words + w] &= data[w];
  }
  return new Prepared(piece, board, words, data, fairy);
}

/**
 * Rebuilds a prepared problem from its canonical text (as stored by a cache). Throws an
 * `Error` when the text is not a consistent canonical problem, so a corrupted row is a miss.
 */
export function prepareCanonical(problem: CanonicalProblem): Prepared {
  const piece = checkPiece(problem.piece, ['piece']);
  let fairy: FairyPiece | null = null;
  if (piece === 'FAIRY' || problem.betza !== undefined) {
    // A stored text must be a canonical fairy text already: anything else is a corrupted row.
    fairy = typeof problem.betza === 'string' && piece === 'FAIRY' ? readBetzaOrNull(problem.betza) : null;
    if (fairy === null || fairy.orthodox !== null || fairy.betza !== problem.betza)
      throw new Error(`stored problem has a malformed Betza text: ${String(problem.betza).slice(0, 40)}`);
  }
  const board = resolveBoard({ files: problem.files, ranks: problem.ranks });
  const n = board.files * board.ranks;
  const words = wordsFor(n);
  const data = allocateWords(words, 3);
  const texts = [problem.mask, problem.sources, problem.targets];
  texts.forEach((text, i) => {
    if (typeof text !== 'string' || parseWordsInto(text, n, data, i * words) !== null) {
      throw new Error(`stored problem has a malformed bitboard: ${String(text).slice(0, 40)}`);
    }
  });
  for (let w = 0; w < words; w++) {
    if ((data[words + w] & ~data[w]) !== 0 || (data[2 * words + w] & ~data[w]) !== 0) {
      throw new Error('stored problem has sources or targets outside its mask');
    }
  }
  return new Prepared(piece, board === STANDARD_BOARD ? STANDARD_BOARD : board, words, data, fairy);
}

/** `readBetza`, or null for a text it refuses. */
function readBetzaOrNull(text: string): FairyPiece | null {
  try {
    return readBetza(text);
  } catch {
    return null;
  }
}

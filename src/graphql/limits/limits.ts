/**
 * The service's own limits (board side, batch size, page size, text length), checked before any
 * engine work so an oversized request costs nothing. A breach throws `LimitError`, which the error
 * formatter reports as `BAD_USER_INPUT` with `extensions.limit` naming the environment variable:
 * the message says which argument, which value and which limit, e.g.
 * `queries: 501 queries is over the limit of 500 (MAX_BATCH_SIZE)`.
 */

import { type Board, formatInputPath, InputError, type InputPath, type PathQuery } from '@chess-paths/engine';
import { LIMIT_VARIABLES, type Limits } from '../../config.js';
import { ErrorCode, ServiceError } from '../../errors.js';

/** An argument over one of the configured limits. */
export class LimitError extends ServiceError {
  override readonly name = 'LimitError';
  readonly code = ErrorCode.BadUserInput;
  constructor(
    /** Where the value came from, e.g. `['queries']` (not `path`: see `InputError`). */
    readonly argument: InputPath,
    /** Which limit, e.g. `maxBatchSize`. */
    readonly limit: keyof Limits,
    /** The configured maximum. */
    readonly max: number,
    /** What was asked for, as text (`501 queries`). */
    readonly actual: string,
    /** The maximum as text, when it needs a unit. */
    maxText: string = String(max),
  ) {
    super(`${formatInputPath(argument)}: ${actual} is over the limit of ${maxText} (${LIMIT_VARIABLES[limit]})`);
  }

  /** The environment variable that sets the limit. */
  get variable(): string {
    return LIMIT_VARIABLES[this.limit];
  }

  override extensions(): Record<string, unknown> {
    return { argument: formatInputPath(this.argument), limit: this.variable, max: this.max };
  }
}

/** Throws unless the board's sides are within `maxBoardSide` (smaller-than-1 sides are the engine's to reject). */
export function checkBoard(board: Board | null | undefined, limits: Limits, path: InputPath): void {
  if (!board) return;
  for (const side of ['files', 'ranks'] as const) {
    const value = board[side];
    if (typeof value === 'number' && value > limits.maxBoardSide) {
      throw new LimitError([...path, side], 'maxBoardSide', limits.maxBoardSide, `${side} ${value}`);
    }
  }
}

/** Longest FEN accepted: a fully occupied board of the largest allowed size plus the other fields. */
export function maxFenLength(limits: Limits): number {
  return limits.maxBoardSide * (limits.maxBoardSide + 1) + 256;
}

/** Throws when a FEN is longer than any FEN of an allowed board could be. */
export function checkFen(fen: string | null | undefined, limits: Limits, path: InputPath): void {
  if (typeof fen === 'string' && fen.length > maxFenLength(limits)) {
    const max = maxFenLength(limits);
    throw new LimitError(
      path,
      'maxBoardSide',
      limits.maxBoardSide,
      `a FEN of ${fen.length} characters`,
      `${max} characters for boards of side ${limits.maxBoardSide}`,
    );
  }
}

/** Throws when a PGN text is over `maxPgnBytes` (bytes of UTF-8). */
export function checkPgn(pgn: string, limits: Limits, path: InputPath): void {
  // Characters bound bytes from below: only a text near the limit is measured exactly.
  if (pgn.length * 3 <= limits.maxPgnBytes) return;
  const bytes = Buffer.byteLength(pgn);
  if (bytes > limits.maxPgnBytes) {
    throw new LimitError(
      path,
      'maxPgnBytes',
      limits.maxPgnBytes,
      `a text of ${bytes} bytes`,
      `${limits.maxPgnBytes} bytes`,
    );
  }
}

/** Throws when a game has more than `maxPlies` half-moves (counted before any is played). */
export function checkPlies(plies: number, limits: Limits, path: InputPath): void {
  if (plies > limits.maxPlies) throw new LimitError(path, 'maxPlies', limits.maxPlies, `a game of ${plies} half-moves`);
}

/** Throws when a Betza text is longer than `maxBetzaLength`. */
export function checkBetza(betza: string | null | undefined, limits: Limits, path: InputPath): void {
  if (typeof betza === 'string' && betza.length > limits.maxBetzaLength) {
    throw new LimitError(
      path,
      'maxBetzaLength',
      limits.maxBetzaLength,
      `a text of ${betza.length} characters`,
      `${limits.maxBetzaLength} characters`,
    );
  }
}

/** Checks one path query's board, FEN and Betza text before the engine sees them. */
export function checkQuery(query: PathQuery, limits: Limits, path: InputPath): void {
  checkBoard(query.board, limits, [...path, 'board']);
  checkFen(query.fen, limits, [...path, 'fen']);
  checkBetza(query.betza, limits, [...path, 'betza']);
}

/** Throws when a list of queries is longer than `maxBatchSize`. */
export function checkBatch(count: number, limits: Limits, path: InputPath): void {
  if (count > limits.maxBatchSize) {
    throw new LimitError(path, 'maxBatchSize', limits.maxBatchSize, `${count} queries`);
  }
}

/** Throws when a page size is negative or over `maxPageSize`. */
export function checkFirst(first: number | null | undefined, limits: Limits, path: InputPath): void {
  if (first == null) return;
  if (first < 0) throw new InputError(path, first, 'is negative: a page holds 0 or more items');
  if (first > limits.maxPageSize) {
    throw new LimitError(path, 'maxPageSize', limits.maxPageSize, `first ${first}`);
  }
}

/** A UTF-16 surrogate without its partner: not Unicode text, and SQLite would store it altered. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Throws when a title or notes text is longer than `maxTextLength` or is not valid Unicode. */
export function checkText(value: string | null | undefined, limits: Limits, path: InputPath): void {
  if (typeof value !== 'string') return;
  if (value.length > limits.maxTextLength) {
    throw new LimitError(path, 'maxTextLength', limits.maxTextLength, `${value.length} characters`);
  }
  const lone = LONE_SURROGATE.exec(value);
  if (lone) {
    const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
    throw new InputError(
      path,
      value,
      `holds an unpaired UTF-16 surrogate (U+${code} at ${lone.index}): not valid Unicode text`,
    );
  }
}

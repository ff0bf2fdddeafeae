/**
 * What the text of a question says of its work before anything runs, for the cost model
 * (`cost.ts`): how many pieces a FEN draws in a picture, how many half-moves a PGN may hold, how
 * many rays a fairy piece's Betza text may give, how many squares its board has, how many questions
 * a list holds. Each is a count over the text or the value (a PGN's moves by the game reader's
 * own tokenizer, which makes no object), so it costs what reading them costs and never fails;
 * the arguments of a field, read with the request's variables; and the work units each lazy
 * field of an answer adds a question.
 */
import { countPgnMoves } from '@chess-paths/engine';
import { type FieldNode, valueFromASTUntyped } from 'graphql';
import type { Limits } from '../../config.js';

/** Work units per question of the lazy fields, by `Type.field`. */
export const FIELD_UNITS: Readonly<Record<string, number>> = {
  'PathResult.pathCount': 1,
  'PathResult.path': 1,
  'PathResult.distances': 1,
  'PathResult.squares': 1,
  'Overlay.ascii': 1,
  'Overlay.svg': 4,
  'Overlay.asciiLines': 1,
  'Overlay.shapes': 1,
  'Overlay.pgn': 1,
  'SquareSet.bitboard': 1,
  'SquareSet.squares': 1,
};

/** Work of drawing one piece of a position in an SVG, in board squares (a glyph is a few hundred characters). */
export const PIECE_SVG_WORK = 64;

/** Piece units of a game's positions (8 x 8, at most 32 pieces). */
export const GAME_PIECE_UNITS = 32;

/** The piece units of a question's (or position's) FEN over `squares` board squares: its letters, counted. */
export function pieceUnits(query: unknown, squares: number): number {
  const fen = query !== null && typeof query === 'object' ? (query as { fen?: unknown }).fen : undefined;
  if (typeof fen !== 'string' || squares <= 0) return 0;
  const placement = fen.trimStart().split(/\s/, 1)[0] ?? '';
  let pieces = 0;
  for (let i = 0; i < placement.length; i++) {
    const c = placement.charCodeAt(i) | 0x20;
    if (c >= 0x61 && c <= 0x7a) pieces++;
  }
  return Math.ceil((pieces * PIECE_SVG_WORK) / squares);
}

/** Pieces a start position can hold: one a square. */
export const MAX_PIECES = 64;

/**
 * Half-moves of a PGN text as the game reader will read them, at most MAX_PLIES (all of them when
 * the text is not known or over MAX_PGN_BYTES). Counted by the reader's own tokenizer
 * (`countPgnMoves`), so no spelling the reader accepts (comments between moves with no space,
 * `1...`, NAGs, variations) is counted differently; one pass over the text, no object made.
 */
export function pliesIn(pgn: unknown, limits: Limits, counted?: Map<string, number>): number {
  if (typeof pgn !== 'string' || pgn.length > limits.maxPgnBytes) return limits.maxPlies;
  let plies = counted?.get(pgn);
  if (plies === undefined) {
    plies = Math.min(countPgnMoves(pgn, limits.maxPlies), limits.maxPlies);
    counted?.set(pgn, plies);
  }
  return plies;
}

/**
 * The fill work of a question's mover beside an orthodox piece's: 1, or for a FAIRY question its
 * Betza text's letters (K and Q count two, as they stand for two atoms). A fill step costs about
 * a shift a ray, and each letter gives at most eight rays, as a queen has (measured on 64 x 64,
 * a nightrider, weight 2, costs about two queens). Counted over the text's first 256 characters:
 * past them the weight already says heavy, and no piece has more rays than about eleven queens.
 */
export function moverWeight(query: unknown): number {
  if (query === null || typeof query !== 'object') return 1;
  const { piece, betza } = query as { piece?: unknown; betza?: unknown };
  if (piece !== 'FAIRY' || typeof betza !== 'string') return 1;
  let letters = 0;
  for (let i = 0; i < Math.min(betza.length, 256); i++) {
    const c = betza.charCodeAt(i);
    if (c === 0x4b || c === 0x51) letters += 2;
    else if (c >= 0x41 && c <= 0x5a) letters++;
  }
  return Math.max(1, letters);
}

/**
 * Work of reading a fairy question's Betza text, in board squares: a new rider's text is read in
 * about a millisecond (its moves traced to the largest board's edge), what filling 4,096
 * squares takes. A text of many long rides takes up to about 50 ms; such reads are paced on
 * their own (one an event-loop turn, `request/questions.ts`), so the estimate stays the common
 * case's. Repeated texts are read once, but the estimate cannot know which are new.
 */
export const BETZA_READ_WORK = 4096;

/** Squares of a question without a board: the engine's default 8 x 8. */
export const DEFAULT_BOARD_SQUARES = 64;

/** A list argument as graphql-js coerces it (a single value is a list of one), cut at MAX_BATCH_SIZE. */
export function batch(value: unknown, limits: Limits): unknown[] {
  const list = Array.isArray(value) ? value : value == null ? [] : [value];
  return list.length > limits.maxBatchSize ? list.slice(0, limits.maxBatchSize) : list;
}

/** The work of reading a question's Betza text: BETZA_READ_WORK for a fairy question, else 0. */
export function betzaReadWork(query: unknown): number {
  return query !== null && typeof query === 'object' && (query as { betza?: unknown }).betza != null
    ? BETZA_READ_WORK
    : 0;
}

/** Squares of a `PathQuery` value (MAX_BOARD_SIDE^2 if it is not an object). */
export function querySquares(query: unknown, limits: Limits): number {
  return query !== null && typeof query === 'object'
    ? boardSquares((query as { board?: unknown }).board, limits)
    : unknownSquares(limits);
}

/** files x ranks of a `BoardInput` value: 64 when absent, each side clamped to 1..MAX_BOARD_SIDE. */
export function boardSquares(board: unknown, limits: Limits): number {
  if (board == null) return DEFAULT_BOARD_SQUARES;
  if (typeof board !== 'object') return unknownSquares(limits);
  const side = (n: unknown) =>
    typeof n === 'number' && Number.isFinite(n)
      ? Math.min(Math.max(Math.trunc(n), 1), limits.maxBoardSide)
      : limits.maxBoardSide;
  const { files, ranks } = board as { files?: unknown; ranks?: unknown };
  return side(files) * side(ranks);
}

/** Squares of a question whose board cannot be read before execution: the largest board. */
export function unknownSquares(limits: Limits): number {
  return limits.maxBoardSide * limits.maxBoardSide;
}

/**
 * armor's multiplier of a connection, extended: the first `first`/`last` argument given (literal, variable, or the
 * variable's default), else the field's `first`/`last` schema default; clamped to 1..MAX_PAGE_SIZE.
 */
export function pageSize(
  node: FieldNode,
  args: readonly { name: string; defaultValue: unknown }[],
  variables: Record<string, unknown>,
  limits: Limits,
): number {
  const given = node.arguments?.find((a) => a.name.value === 'first' || a.name.value === 'last');
  const name = given?.name.value ?? args.find((a) => a.name === 'first' || a.name === 'last')?.name;
  if (name === undefined) return 1;
  let value = given ? valueFromASTUntyped(given.value, variables) : undefined;
  if (value == null) value = args.find((a) => a.name === name)?.defaultValue;
  if (typeof value !== 'number' || !Number.isFinite(value)) return 1;
  return Math.min(Math.max(Math.trunc(value), 1), limits.maxPageSize);
}

/** An argument's value with the variables in place (undefined when absent). */
export function argumentOf(node: FieldNode, name: string, variables: Record<string, unknown>): unknown {
  const arg = node.arguments?.find((a) => a.name.value === name);
  return arg ? valueFromASTUntyped(arg.value, variables) : undefined;
}

/**
 * What the text of a question says of its work before anything runs, for the cost model
 * (`cost.ts`): how many pieces a FEN draws in a picture, how many half-moves a PGN may hold, how
 * many rays a fairy piece's Betza text may give. Each
 * is a count over the text (no parsing), so it costs what reading the text costs and never fails.
 */
import type { Limits } from '../../config.js';

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

/** A move of a PGN's movetext, roughly: every token that could be one counts (comments too). */
const MOVE_LIKE = /(?:^|[\s.)])(?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8]|[O0]-[O0])/g;

/** Half-moves a PGN text may hold: its move-like tokens, at most MAX_PLIES (all of them when it is unknown). */
export function pliesIn(pgn: unknown, limits: Limits): number {
  if (typeof pgn !== 'string' || pgn.length > limits.maxPgnBytes) return limits.maxPlies;
  let count = 0;
  for (const _ of pgn.matchAll(MOVE_LIKE)) if (++count >= limits.maxPlies) break;
  return count;
}

/**
 * The fill work of a question's mover beside an orthodox piece's: 1, or for a FAIRY question its
 * Betza text's letters (K and Q count two, as they stand for two atoms). A fill step costs about
 * a shift a ray, and each letter gives at most eight rays, as a queen has (measured on 64 x 64,
 * a nightrider, weight 2, costs about two queens). Counted over the text
 * (capped at MAX_BETZA_LENGTH characters, which the question is refused past anyway).
 */
export function moverWeight(query: unknown): number {
  return moverUnits(query);
}

/**
 * Work of reading a fairy question's Betza text, in board squares: a new rider's text is read in
 * about a millisecond (its moves traced to the largest board's edge), what filling 4,096
 * squares takes. Repeated texts are read once, but the estimate cannot know which are new.
 */
export const BETZA_READ_WORK = 4096;

/** `moverWeight`'s letters. */
function moverUnits(query: unknown): number {
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

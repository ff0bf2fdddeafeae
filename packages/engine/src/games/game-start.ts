/**
 * The start position a game's tags give: the standard one, or the `FEN` tag's. chess.js's
 * `validateFen` checks a FEN's syntax and kings (in the words users know), but not whether its
 * castling rights and en passant square fit its pieces, nor whether the side that just moved left
 * its king in check, which the engine's own board then checks; chess.js would play what they
 * allow: `O-O` with no rook (its knight on h1 "castling"), an en passant capture of a pawn that is
 * not there, a capture of the king. So a FEN tag is refused here, naming the field, when it says
 * what its position cannot have: nothing is guessed (no right is dropped, no square cleared).
 * A FEN tag must also be one the engine's FEN reader takes (counters of at most nine digits).
 * The tags that choose the game are refused when they disagree (two `FEN` tags, a `Variant` that
 * is not standard chess among others that are).
 */
import { validateFen } from 'chess.js';
import { parseFen } from '../board/fen.js';
import { InputError } from '../errors.js';
import { ChessPosition, squareOf } from './chess-rules.js';
import { PgnError, type PgnTag } from './pgn.js';

/** The `Variant` values of standard chess, as sites write them (lower case). */
const STANDARD_VARIANTS = new Set(['standard', 'chess', 'from position']);

/** The standard start position. */
const STANDARD_START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** Each castling right: the king and rook it needs, by colour. */
const CASTLING: Record<string, { color: 'w' | 'b'; king: string; rook: string }> = {
  K: { color: 'w', king: 'e1', rook: 'h1' },
  Q: { color: 'w', king: 'e1', rook: 'a1' },
  k: { color: 'b', king: 'e8', rook: 'h8' },
  q: { color: 'b', king: 'e8', rook: 'a8' },
};

/** The FEN of the position before the first move: the `FEN` tag's (its fields one space apart), or the standard start. */
export function startFenOf(tags: readonly PgnTag[]): string {
  for (const variant of tags.filter((t) => t.name === 'Variant')) {
    if (!STANDARD_VARIANTS.has(variant.value.trim().toLowerCase())) {
      throw new PgnError(`the Variant tag "${variant.value}" is not standard chess, the only game read here`);
    }
  }
  const fenTags = tags.filter((t) => t.name === 'FEN');
  if (fenTags.length === 0) return STANDARD_START;
  if (fenTags.length > 1) throw new PgnError(`${fenTags.length} FEN tags: a game has one start position`);
  const fen = fenTags[0].value.trim().split(/\s+/).join(' ');
  const valid = validateFen(fen);
  if (!valid.ok) throw new PgnError(`the FEN tag "${fen}" is not a legal position: ${valid.error}`);
  const refuse = (why: string): never => {
    throw new PgnError(`the FEN tag "${fen}" is not a legal position: ${why}`);
  };
  // The rest is checked on the engine's own board (the FEN is well formed now).
  const position = ChessPosition.fromFen(fen);
  const [, turn, castling, enPassant] = fen.split(' ');
  const at = (square: string) => {
    const v = position.board[squareOf(square)];
    return v === 0 ? undefined : { type: ' pnbrqk'[Math.abs(v)], color: v > 0 ? 'w' : 'b' };
  };
  // chess.js lets `K-` and `--` through; Shredder and X-FEN file letters are not standard chess either.
  if (castling !== '-' && !/^[KQkq]+$/.test(castling))
    refuse(`castling field "${castling}" is not - or letters K, Q, k, q`);
  for (const right of castling === '-' ? [] : castling) {
    const { color, king, rook } = CASTLING[right];
    const k = at(king);
    const r = at(rook);
    if (k?.type !== 'k' || k.color !== color || r?.type !== 'r' || r.color !== color) {
      const side = color === 'w' ? 'white' : 'black';
      refuse(`castling right ${right} needs the ${side} king on ${king} and a ${side} rook on ${rook}`);
    }
  }
  const mover = turn as 'w' | 'b';
  const waiting = mover === 'w' ? 'b' : 'w';
  const waitingSign = waiting === 'w' ? 1 : -1;
  if (position.attacked(position.king(waitingSign), -waitingSign)) {
    refuse(`${waiting === 'w' ? 'White' : 'Black'} is in check with ${mover === 'w' ? 'White' : 'Black'} to move`);
  }
  if (enPassant !== '-') {
    // The square a pawn of the side that just moved passed over: behind it that pawn, before it
    // the square it came from, empty.
    const file = enPassant[0];
    const [passed, landed, left] = mover === 'w' ? ['6', '5', '7'] : ['3', '4', '2'];
    const pawn = at(`${file}${landed}`);
    if (
      enPassant[1] !== passed ||
      pawn?.type !== 'p' ||
      pawn.color !== waiting ||
      at(enPassant) !== undefined ||
      at(`${file}${left}`) !== undefined
    ) {
      refuse(
        `en passant square ${enPassant} is not one a ${waiting === 'w' ? 'white' : 'black'} pawn just passed over`,
      );
    }
  }
  try {
    // What chess.js lets through but no FEN of the engine reads (a full-move number of 1e30):
    // every position of the game is a FEN the engine answers questions on.
    parseFen(fen);
  } catch (err) {
    if (err instanceof InputError) throw new PgnError(`the FEN tag "${fen}" ${err.reason}`);
    throw err;
  }
  return fen;
}

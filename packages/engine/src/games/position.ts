/**
 * Paths of a piece standing in a position: its role and colour come from the FEN, the other
 * pieces block (pieces on the target squares can be captured), and with `avoidAttacked` every
 * square the other colour attacks is impassable too, except `from` itself (the piece already
 * stands there, so a king in check still gets its escape routes): the king routes of the blocked pawn
 * endgames Westcott's routine was written for. The result is an ordinary `PathQuery` (FEN plus
 * mask), so it shares cache keys with any equivalent query.
 */
import { formatBitboard } from '../board/bitset.js';
import type { ParsedPosition } from '../board/fen.js';
import { parseSquare } from '../board/squares.js';
import { moveKind } from '../core/moves.js';
import { InputError } from '../errors.js';
import type { Color, OrthodoxMover, PathQuery, Role } from '../types.js';

function pieceOf(role: Role, color: Color): OrthodoxMover {
  if (role === 'PAWN') return color === 'WHITE' ? 'WHITE_PAWN' : 'BLACK_PAWN';
  return role;
}

/**
 * Squares attacked by `color`, on the position without the piece on `skip`: leapers attack
 * their jumps, sliders their rays up to and including the first occupied square, pawns the two
 * squares diagonally ahead.
 */
export function attackedSquares(position: ParsedPosition, color: Color, skip = -1): Int32Array {
  const { files, ranks } = position.board;
  const occupied = position.occupiedWords.slice();
  if (skip >= 0) occupied[skip >>> 5] &= ~(1 << (skip & 31));
  const attacked = new Int32Array(occupied.length);
  const mark = (f: number, r: number): boolean => {
    if (f < 0 || f >= files || r < 0 || r >= ranks) return false;
    const v = r * files + f;
    attacked[v >>> 5] |= 1 << (v & 31);
    return ((occupied[v >>> 5] >>> (v & 31)) & 1) === 0;
  };
  for (const piece of position.pieces) {
    if (piece.color !== color || piece.index === skip) continue;
    const f = piece.index % files;
    const r = (piece.index - f) / files;
    if (piece.role === 'PAWN') {
      const dr = color === 'WHITE' ? 1 : -1;
      mark(f - 1, r + dr);
      mark(f + 1, r + dr);
      continue;
    }
    const moves = moveKind(pieceOf(piece.role, color));
    if (moves.kind === 'leaper') {
      for (const [df, dr] of moves.jumps) mark(f + df, r + dr);
    } else if (moves.kind === 'slider') {
      for (const [df, dr] of moves.directions) {
        for (let nf = f + df, nr = r + dr; mark(nf, nr); nf += df, nr += dr);
      }
    }
  }
  return attacked;
}

/** The path question of `Position.paths(from, to, avoidAttacked)`. */
export function positionQuery(
  position: ParsedPosition,
  from: string,
  to: readonly string[],
  avoidAttacked: boolean,
): PathQuery {
  const board = position.board;
  const index = parseSquare(from, board, ['from']);
  const mover = position.pieces.find((p) => p.index === index);
  if (mover === undefined) throw new InputError(['from'], from, 'has no piece in this position');
  for (let i = 0; i < to.length; i++) parseSquare(to[i], board, ['to', i]);
  const query: PathQuery = { piece: pieceOf(mover.role, mover.color), from: [from], to, board, fen: position.fen };
  if (avoidAttacked) {
    const attacked = attackedSquares(position, mover.color === 'WHITE' ? 'BLACK' : 'WHITE', index);
    // The piece already stands on `from`: attacked or not, it starts there (a king in check escapes).
    attacked[index >>> 5] &= ~(1 << (index & 31));
    const n = board.files * board.ranks;
    for (let i = 0; i < n; i++) attacked[i >>> 5] ^= 1 << (i & 31);
    query.mask = formatBitboard(attacked, board);
  }
  return query;
}

/**
 * The pseudo-legal moves of one side on a mailbox board (64 signed bytes, as `chess-rules.ts`
 * keeps it), in two shapes: every move of one piece, for the legal-move list and the search for
 * any legal move; and the moves of one kind to one square, found from that square (the squares a
 * knight, a slider or a pawn could come from), which is what matching a SAN needs and costs a
 * handful of reads instead of every move of every piece of that kind. Legality (the king left
 * unattacked) is the position's to check, with `attackedOn`: whether a square is attacked.
 */
import {
  BISHOP_DIRECTIONS,
  BK,
  BQ,
  KING_TO,
  KNIGHT_TO,
  QUEEN_DIRECTIONS,
  RAYS,
  ROOK_DIRECTIONS,
  WK,
  WQ,
} from './chess-tables.js';

/** A move on the board: squares as indices (a1 = 0, h8 = 63). */
export interface ChessMove {
  from: number;
  to: number;
  /** The moving piece's kind (1 pawn .. 6 king), before any promotion. */
  kind: number;
  /** The promotion piece's kind (2 .. 5), or 0. */
  promotion: number;
  /** The captured piece's kind, or 0; `enPassant` when taken behind `to`. */
  captured: number;
  enPassant: boolean;
  /** 'K' or 'Q' for a castling. */
  castle: '' | 'K' | 'Q';
}

/** What move generation reads of a position. */
export interface MovingSide {
  readonly board: Int8Array;
  /** 1 White to move, -1 Black. */
  readonly turn: number;
  /** Castling rights (bits: white king side, white queen side, black king side, black queen side). */
  readonly castling: number;
  /** The square passed over by the last double step, or -1. */
  readonly enPassant: number;
  /** Whether `square` is attacked by the pieces of `by` (1 or -1). */
  attacked(square: number, by: number): boolean;
}

/** Promotion pieces, in the order moves list them. */
const PROMOTIONS = [5, 4, 3, 2];

/** A move of `kind` from `from` to `to`. */
function moveOf(from: number, to: number, kind: number, captured: number, promotion = 0, enPassant = false): ChessMove {
  return { from, to, kind, promotion, captured, enPassant, castle: '' };
}

/**
 * The pseudo-legal moves of `kind` (not the king) to `to`, found from `to`: the squares a piece
 * of that kind could come from, rather than every move of every piece of that kind. What a SAN
 * names, in order of the square moved from.
 */
export function movesTo(p: MovingSide, kind: number, to: number, out: ChessMove[]): void {
  const b = p.board;
  const us = p.turn;
  if (b[to] * us > 0) return;
  const captured = Math.abs(b[to]);
  const mine = kind * us;
  if (kind === 1) {
    const behind = to - 8 * us;
    if (behind < 0 || behind >= 64) return;
    const file = to & 7;
    if (b[to] !== 0) {
      if (file > 0 && b[behind - 1] === us) pawnTo(p, behind - 1, to, captured, out);
      if (file < 7 && b[behind + 1] === us) pawnTo(p, behind + 1, to, captured, out);
    } else {
      if (b[behind] === us) pawnTo(p, behind, to, 0, out);
      else if (b[behind] === 0 && to >> 3 === (us > 0 ? 3 : 4) && b[behind - 8 * us] === us) {
        out.push(moveOf(behind - 8 * us, to, 1, 0));
      }
      if (to === p.enPassant) {
        if (file > 0 && b[behind - 1] === us) out.push(moveOf(behind - 1, to, 1, 1, 0, true));
        if (file < 7 && b[behind + 1] === us) out.push(moveOf(behind + 1, to, 1, 1, 0, true));
      }
    }
  } else if (kind === 2) {
    for (const from of KNIGHT_TO[to]) if (b[from] === mine) out.push(moveOf(from, to, 2, captured));
  } else {
    for (const d of kind === 3 ? BISHOP_DIRECTIONS : kind === 4 ? ROOK_DIRECTIONS : QUEEN_DIRECTIONS) {
      const ray = RAYS[d][to];
      for (let i = 0; i < ray.length; i++) {
        const v = b[ray[i]];
        if (v === 0) continue;
        if (v === mine) out.push(moveOf(ray[i], to, kind, captured));
        break;
      }
    }
  }
  if (out.length > 1) out.sort((x, y) => x.from - y.from);
}

/** A pawn's move from `from` to `to`: four moves on the last rank, one for each promotion piece. */
function pawnTo(p: MovingSide, from: number, to: number, captured: number, out: ChessMove[]): void {
  if (to >> 3 === (p.turn > 0 ? 7 : 0)) for (const piece of PROMOTIONS) out.push(moveOf(from, to, 1, captured, piece));
  else out.push(moveOf(from, to, 1, captured));
}

/** The pseudo-legal moves of the piece of `kind` on `from` (to `to` only, unless -1). */
export function pieceMoves(p: MovingSide, from: number, kind: number, to: number, out: ChessMove[]): void {
  const b = p.board;
  const us = p.turn;
  if (kind === 1) {
    const one = from + 8 * us;
    if (one < 0 || one >= 64) return;
    if (b[one] === 0) {
      if (to < 0 || one === to) pawnTo(p, from, one, 0, out);
      const two = one + 8 * us;
      if (from >> 3 === (us > 0 ? 1 : 6) && b[two] === 0 && (to < 0 || two === to)) out.push(moveOf(from, two, 1, 0));
    }
    const file = from & 7;
    for (const target of [file > 0 ? one - 1 : -1, file < 7 ? one + 1 : -1]) {
      if (target < 0 || (to >= 0 && target !== to)) continue;
      if (b[target] * us < 0) pawnTo(p, from, target, Math.abs(b[target]), out);
      else if (target === p.enPassant && b[target] === 0) out.push(moveOf(from, target, 1, 1, 0, true));
    }
  } else if (kind === 2 || kind === 6) {
    for (const target of kind === 2 ? KNIGHT_TO[from] : KING_TO[from]) {
      if (b[target] * us <= 0 && (to < 0 || target === to)) out.push(moveOf(from, target, kind, Math.abs(b[target])));
    }
    if (kind === 6) castles(p, from, to, out);
  } else {
    for (const d of kind === 3 ? BISHOP_DIRECTIONS : kind === 4 ? ROOK_DIRECTIONS : QUEEN_DIRECTIONS) {
      const ray = RAYS[d][from];
      for (let i = 0; i < ray.length; i++) {
        const v = b[ray[i]];
        if (v * us > 0) break;
        if (to < 0 || ray[i] === to) out.push(moveOf(from, ray[i], kind, Math.abs(v)));
        if (v !== 0) break;
      }
    }
  }
}

function castles(p: MovingSide, from: number, to: number, out: ChessMove[]): void {
  const us = p.turn;
  const home = us > 0 ? 4 : 60;
  if (from !== home || (to >= 0 && to !== home + 2 && to !== home - 2) || p.attacked(home, -us)) return;
  const [kingSide, queenSide] = us > 0 ? [WK, WQ] : [BK, BQ];
  const b = p.board;
  const castle = (target: number, side: 'K' | 'Q') => {
    if (to < 0 || to === target) out.push({ ...moveOf(from, target, 6, 0), castle: side });
  };
  if (p.castling & kingSide && b[home + 1] === 0 && b[home + 2] === 0 && b[home + 3] === 4 * us) {
    if (!p.attacked(home + 1, -us)) castle(home + 2, 'K');
  }
  if (p.castling & queenSide && b[home - 1] === 0 && b[home - 2] === 0 && b[home - 3] === 0 && b[home - 4] === 4 * us) {
    if (!p.attacked(home - 1, -us)) castle(home - 2, 'Q');
  }
}

/** Whether `square` of a mailbox board is attacked by the pieces of `by` (1 or -1). */
export function attackedOn(b: Int8Array, square: number, by: number): boolean {
  if (square < 0) return false;
  const file = square & 7;
  // A pawn of `by` attacks from one rank behind, one file to either side.
  const pawnRank = square - 8 * by;
  if (pawnRank >= 0 && pawnRank < 64) {
    if (file > 0 && b[pawnRank - 1] === by) return true;
    if (file < 7 && b[pawnRank + 1] === by) return true;
  }
  const knight = 2 * by;
  for (const from of KNIGHT_TO[square]) if (b[from] === knight) return true;
  const king = 6 * by;
  for (const from of KING_TO[square]) if (b[from] === king) return true;
  const queen = 5 * by;
  for (let d = 0; d < 8; d++) {
    const slider = d < 4 ? 3 * by : 4 * by;
    const ray = RAYS[d][square];
    for (let i = 0; i < ray.length; i++) {
      const v = b[ray[i]];
      if (v === 0) continue;
      if (v === slider || v === queen) return true;
      break;
    }
  }
  return false;
}

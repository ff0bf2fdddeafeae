/**
 * The rules of chess on one position, as fast as reading games needs: a mailbox board (64 signed
 * bytes, `+` white, `-` black: 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king), the legal
 * moves of one piece kind to one square (what a SAN names), moves made in place, the check or
 * mate sign of the position reached, and the FEN after each move. A move is legal when, made, it leaves
 * its own king unattacked; castling also needs the king not in check and the square it crosses
 * unattacked. chess.js played every move before and stays the tests' oracle: the same moves, SAN,
 * FEN and endings on random games; this module does only what reading a game needs, and does it
 * without generating every legal move's SAN for every move played. A SAN's move is found from its
 * square (`chess-moves.ts`); while the king is not in check (remembered per position), a move
 * other than the king's is legal unless it leaves a pin along the one line from the king through
 * its square; in check, it must also take the checking piece or stand between it and the king;
 * the king's moves and en passant are checked by making them. The FEN after a move rewrites only
 * the ranks it changed.
 */

import { attackedOn, type ChessMove, movesTo, pieceMoves } from './chess-moves.js';
import {
  BK,
  BQ,
  KNIGHT_TO,
  LINE_FROM,
  nameOf,
  RAYS,
  RIGHTS,
  RIGHTS_KEPT,
  rankText,
  squareOf,
  WK,
  WQ,
} from './chess-tables.js';

export type { ChessMove };
export { nameOf, squareOf };

const LETTERS = ' PNBRQK';
/** The last FEN `fromFen` read, and its position (never played on: copies are). */
let lastFen = '';
let lastRead: ChessPosition | null = null;

/** One position and the moves made on it. */
export class ChessPosition {
  readonly board = new Int8Array(64);
  /** 1 White to move, -1 Black. */
  turn = 1;
  castling = 0;
  /** The square passed over by the last double step, or -1. */
  enPassant = -1;
  halfmove = 0;
  fullmove = 1;
  /** The kings' squares: White's, Black's (-1: none). */
  readonly #kings = [-1, -1];
  /**
   * Each rank's FEN text as last written, and which ranks a move played since has changed (bit r):
   * a move changes one or two ranks (its en passant capture and its castling rook stay on the
   * rank it leaves), so a game's FEN after every move rewrites only those.
   */
  readonly #rows: string[] = ['', '', '', '', '', '', '', ''];
  #staleRows = 0xff;
  /** Whether the side to move is in check: 1 or 0, -1 until asked (a move played forgets it). */
  #check = -1;
  /** The squares answering the check, once asked in this position (`#evasions`), else null. */
  #evade: Uint8Array | null = null;

  /** The position of a FEN (already checked as legal by the caller). */
  static fromFen(fen: string): ChessPosition {
    // Games of one file mostly start from one position: the last FEN read is copied, not read again.
    if (fen !== lastFen || lastRead === null) {
      lastRead = ChessPosition.#read(fen);
      lastFen = fen;
    }
    return lastRead.#copy();
  }

  /** A copy of this position, its FEN ranks' texts included. */
  #copy(): ChessPosition {
    const p = new ChessPosition();
    p.board.set(this.board);
    p.turn = this.turn;
    p.castling = this.castling;
    p.enPassant = this.enPassant;
    p.halfmove = this.halfmove;
    p.fullmove = this.fullmove;
    p.#kings[0] = this.#kings[0];
    p.#kings[1] = this.#kings[1];
    for (let rank = 0; rank < 8; rank++) p.#rows[rank] = this.#rows[rank];
    p.#staleRows = this.#staleRows;
    p.#check = this.#check;
    return p;
  }

  /** Reads a FEN into a new position. */
  static #read(fen: string): ChessPosition {
    const p = new ChessPosition();
    const [placement, turn, castling, enPassant, halfmove, fullmove] = fen.split(' ');
    let rank = 7;
    let file = 0;
    for (const c of placement) {
      if (c === '/') {
        rank--;
        file = 0;
      } else if (c >= '1' && c <= '8') file += Number(c);
      else {
        const kind = LETTERS.indexOf(c.toUpperCase());
        p.board[rank * 8 + file++] = c === c.toUpperCase() ? kind : -kind;
      }
    }
    p.#kings[0] = p.board.indexOf(6);
    p.#kings[1] = p.board.indexOf(-6);
    p.turn = turn === 'b' ? -1 : 1;
    for (const c of castling ?? '-')
      p.castling |= c === 'K' ? WK : c === 'Q' ? WQ : c === 'k' ? BK : c === 'q' ? BQ : 0;
    p.enPassant = enPassant && enPassant !== '-' ? squareOf(enPassant) : -1;
    p.halfmove = Number(halfmove ?? 0);
    p.fullmove = Number(fullmove ?? 1);
    return p;
  }

  /** The position as FEN; its en passant field names the square behind a pawn that has just made a double step. */
  fen(): string {
    const rows = this.#rows;
    for (let rank = 0; rank < 8; rank++) if (this.#staleRows & (1 << rank)) rows[rank] = rankText(this.board, rank);
    this.#staleRows = 0;
    const ep = this.enPassant < 0 ? '-' : nameOf(this.enPassant);
    const placement = `${rows[7]}/${rows[6]}/${rows[5]}/${rows[4]}/${rows[3]}/${rows[2]}/${rows[1]}/${rows[0]}`;
    return `${placement} ${this.turn > 0 ? 'w' : 'b'} ${RIGHTS[this.castling]} ${ep} ${this.halfmove} ${this.fullmove}`;
  }

  /** The king square of `color` (1 or -1), or -1. */
  king(color: number): number {
    return this.#kings[color > 0 ? 0 : 1];
  }

  /** Whether `square` is attacked by the pieces of `by` (1 or -1). */
  attacked(square: number, by: number): boolean {
    return attackedOn(this.board, square, by);
  }

  /** Whether the side to move is in check. */
  inCheck(): boolean {
    if (this.#check < 0) this.#check = this.attacked(this.king(this.turn), -this.turn) ? 1 : 0;
    return this.#check === 1;
  }

  /** The legal moves of the side to move, of one kind (0: every kind), to one square (-1: any). */
  legalMoves(kind = 0, to = -1): ChessMove[] {
    const out: ChessMove[] = [];
    if (kind !== 0 && kind !== 6 && to >= 0) movesTo(this, kind, to, out);
    else if (kind === 6) {
      const king = this.king(this.turn);
      if (king >= 0) pieceMoves(this, king, 6, to, out);
    } else {
      const us = this.turn;
      for (let from = 0; from < 64; from++) {
        const v = this.board[from] * us;
        if (v > 0 && (kind === 0 || v === kind)) pieceMoves(this, from, v, to, out);
      }
    }
    let legal = 0;
    for (const m of out) if (this.#legal(m)) out[legal++] = m;
    if (legal !== out.length) out.length = legal;
    return out;
  }

  /** Whether the side to move has a legal move at all. */
  hasLegalMove(): boolean {
    const us = this.turn;
    const moves: ChessMove[] = [];
    for (let from = 0; from < 64; from++) {
      const v = this.board[from] * us;
      if (v <= 0) continue;
      const first = moves.length;
      pieceMoves(this, from, v, -1, moves);
      for (let i = first; i < moves.length; i++) if (this.#legal(moves[i])) return true;
    }
    return false;
  }

  /** Whether a pseudo-legal move leaves its own king unattacked: made, checked and taken back. */
  #legal(m: ChessMove): boolean {
    const us = this.turn;
    const king = this.king(us);
    if (m.kind !== 6 && !m.enPassant && king >= 0) {
      if (!this.inCheck()) return !this.#pinned(m, king);
      return this.#evasions(king)[m.to] === 1 && !this.#pinned(m, king);
    }
    const undo = this.#make(m);
    const safe = !this.attacked(m.kind === 6 ? m.to : king, -us);
    this.#unmake(m, undo);
    return safe;
  }

  /**
   * The squares where a move other than the king's answers a check (1): the checking piece's, and
   * those between it and the king when it is a slider; none against two checkers. Made once per
   * position in check, so finding the replies to a check never makes and takes back every move.
   */
  #evasions(king: number): Uint8Array {
    if (this.#evade !== null) return this.#evade;
    const e = new Uint8Array(64);
    const b = this.board;
    const them = -this.turn;
    let checkers = 0;
    const file = king & 7;
    const pawnRank = king - 8 * them;
    if (pawnRank >= 0 && pawnRank < 64) {
      if (file > 0 && b[pawnRank - 1] === them) checkers += e[pawnRank - 1] = 1;
      if (file < 7 && b[pawnRank + 1] === them) checkers += e[pawnRank + 1] = 1;
    }
    for (const from of KNIGHT_TO[king]) if (b[from] === 2 * them) checkers += e[from] = 1;
    for (let d = 0; d < 8; d++) {
      const first = this.#firstOnRay(d, king);
      if (first < 0 || (b[first] !== 5 * them && b[first] !== (d < 4 ? 3 : 4) * them)) continue;
      checkers++;
      for (const square of RAYS[d][king]) {
        e[square] = 1;
        if (square === first) break;
      }
    }
    if (checkers > 1) e.fill(0);
    this.#evade = e;
    return e;
  }

  /**
   * Whether a move (not the king's, not en passant) uncovers its own king: only when
   * it leaves the line from the king through its square, nothing stands between it and the king,
   * and the first piece beyond it on that line is an enemy slider that rides along it.
   */
  #pinned(m: ChessMove, king: number): boolean {
    const d = LINE_FROM[king * 64 + m.from];
    if (d < 0 || LINE_FROM[king * 64 + m.to] === d) return false;
    const b = this.board;
    const them = -this.turn;
    let beyond = false;
    for (const square of RAYS[d][king]) {
      if (square === m.from) beyond = true;
      else if (b[square] !== 0) return beyond && (b[square] === 5 * them || b[square] === (d < 4 ? 3 : 4) * them);
    }
    return false;
  }

  /** Makes a move on the board alone (pieces and kings, no rights or counters); answers what it took. */
  #make(m: ChessMove): number {
    const b = this.board;
    const us = this.turn;
    const taken = b[m.to];
    b[m.to] = m.promotion ? m.promotion * us : b[m.from];
    b[m.from] = 0;
    if (m.enPassant) b[m.to - 8 * us] = 0;
    if (m.castle === 'K') {
      b[m.from + 1] = b[m.from + 3];
      b[m.from + 3] = 0;
    } else if (m.castle === 'Q') {
      b[m.from - 1] = b[m.from - 4];
      b[m.from - 4] = 0;
    }
    if (m.kind === 6) this.#kings[us > 0 ? 0 : 1] = m.to;
    return taken;
  }

  /** Takes back what `#make` made (the side to move unchanged), given what it took. */
  #unmake(m: ChessMove, taken: number): void {
    const b = this.board;
    const us = this.turn;
    b[m.from] = m.promotion ? us : b[m.to];
    b[m.to] = taken;
    if (m.enPassant) b[m.to - 8 * us] = -us;
    if (m.castle === 'K') {
      b[m.from + 3] = b[m.from + 1];
      b[m.from + 1] = 0;
    } else if (m.castle === 'Q') {
      b[m.from - 4] = b[m.from - 1];
      b[m.from - 1] = 0;
    }
    if (m.kind === 6) this.#kings[us > 0 ? 0 : 1] = m.from;
  }

  /** Plays a legal move: the board, the rights, the en passant square, the counters. */
  play(m: ChessMove): void {
    const us = this.turn;
    this.#make(m);
    this.#staleRows |= (1 << (m.from >> 3)) | (1 << (m.to >> 3));
    this.#check = this.#checks(m);
    this.#evade = null;
    this.turn = -us;
    this.enPassant = m.kind === 1 && Math.abs(m.to - m.from) === 16 ? (m.from + m.to) >> 1 : -1;
    this.halfmove = m.kind === 1 || m.captured ? 0 : this.halfmove + 1;
    if (us < 0) this.fullmove++;
    if (this.castling !== 0) this.castling &= RIGHTS_KEPT[m.from] & RIGHTS_KEPT[m.to];
  }

  /**
   * Whether a move just made (the mover still `turn`) checks the other king: 1 or 0, or -1 to
   * leave it to `inCheck`. Only the moved piece from its new square, or a slider of the mover's
   * uncovered on the line from that king through the square it left, can give the check; castling,
   * en passant and promotions (rarer, and with more squares changed) are left to the full test.
   */
  #checks(m: ChessMove): number {
    if (m.castle || m.enPassant || m.promotion) return -1;
    const us = this.turn;
    const king = this.king(-us);
    if (king < 0) return -1;
    const b = this.board;
    if (m.kind === 1) {
      const file = m.to & 7;
      const ahead = m.to + 8 * us;
      if ((file > 0 && ahead - 1 === king) || (file < 7 && ahead + 1 === king)) return 1;
    } else if (m.kind === 2) {
      if (KNIGHT_TO[m.to].includes(king)) return 1;
    } else if (m.kind !== 6) {
      const d = LINE_FROM[king * 64 + m.to];
      if (d >= 0 && (m.kind === 5 || (m.kind === 3) === d < 4) && this.#firstOnRay(d, king) === m.to) return 1;
    }
    const d = LINE_FROM[king * 64 + m.from];
    if (d < 0 || LINE_FROM[king * 64 + m.to] === d) return 0;
    const first = this.#firstOnRay(d, king);
    return first >= 0 && (b[first] === 5 * us || b[first] === (d < 4 ? 3 : 4) * us) ? 1 : 0;
  }

  /** The first occupied square from `square` in direction `d`, or -1. */
  #firstOnRay(d: number, square: number): number {
    for (const s of RAYS[d][square]) if (this.board[s] !== 0) return s;
    return -1;
  }

  /** The check or mate sign of the position reached (the side to move's), or ''. */
  checkSign(): '' | '+' | '#' {
    if (!this.inCheck()) return '';
    return this.hasLegalMove() ? '+' : '#';
  }

  /** Whether neither side can mate (chess.js's rule): kings alone, one minor piece, or bishops all on one colour. */
  insufficientMaterial(): boolean {
    const others: number[] = [];
    for (let s = 0; s < 64; s++) if (this.board[s] !== 0 && Math.abs(this.board[s]) !== 6) others.push(s);
    if (others.length === 0) return true;
    const kinds = others.map((s) => Math.abs(this.board[s]));
    if (others.length === 1) return kinds[0] === 2 || kinds[0] === 3;
    if (kinds.every((k) => k === 3)) {
      const colour = (s: number) => ((s >> 3) + (s & 7)) % 2;
      return others.every((s) => colour(s) === colour(others[0]));
    }
    return false;
  }
}

/** A piece kind's letter (`N` for 2, `P` for 1). */
export const kindLetter = (kind: number): string => LETTERS[kind];

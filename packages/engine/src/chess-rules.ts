/**
 * The rules of chess on one position, as fast as reading games needs: a mailbox board (64 signed
 * bytes, `+` white, `-` black: 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king), the legal
 * moves of one piece kind to one square (what a SAN names), moves made in place, standard SAN
 * with its check or mate sign, and the FEN after each move. A move is legal when, made, it leaves
 * its own king unattacked; castling also needs the king not in check and the square it crosses
 * unattacked. chess.js played every move before and stays the tests' oracle: the same moves, SAN,
 * FEN and endings on random games; this module does only what reading a game needs, and does it
 * without generating every legal move's SAN for every move played.
 */

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

const KNIGHT = [-17, -15, -10, -6, 6, 10, 15, 17];
const KING = [-9, -8, -7, -1, 1, 7, 8, 9];
const DIAGONALS = [-9, -7, 7, 9];
const LINES = [-8, -1, 1, 8];
const ALL_LINES = [...DIAGONALS, ...LINES];
/** Where a pawn of each colour attacks a square from. */
const WHITE_PAWN_FROM = [-9, -7];
const BLACK_PAWN_FROM = [7, 9];
const LETTERS = ' PNBRQK';
const FILES = 'abcdefgh';
/** Castling rights: white king side, white queen side, black king side, black queen side. */
const WK = 1;
const WQ = 2;
const BK = 4;
const BQ = 8;

/** A square's name (0 = a1). */
export const nameOf = (square: number): string => `${FILES[square & 7]}${(square >> 3) + 1}`;
/** A square's index from its name. */
export const squareOf = (name: string): number => (name.charCodeAt(1) - 49) * 8 + (name.charCodeAt(0) - 97);

/** Whether a step from `from` by `delta` stays on the board (no wrap across the edge). */
function onBoard(from: number, delta: number, maxFileStep: number): boolean {
  const to = from + delta;
  return to >= 0 && to < 64 && Math.abs((to & 7) - (from & 7)) <= maxFileStep;
}

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

  /** The position of a FEN (already checked as legal by the caller). */
  static fromFen(fen: string): ChessPosition {
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
    const rows: string[] = [];
    for (let rank = 7; rank >= 0; rank--) {
      let row = '';
      let empty = 0;
      for (let file = 0; file < 8; file++) {
        const v = this.board[rank * 8 + file];
        if (v === 0) empty++;
        else {
          if (empty > 0) row += empty;
          empty = 0;
          row += v > 0 ? LETTERS[v] : LETTERS[-v].toLowerCase();
        }
      }
      rows.push(empty > 0 ? row + empty : row);
    }
    const c = this.castling;
    const rights = `${c & WK ? 'K' : ''}${c & WQ ? 'Q' : ''}${c & BK ? 'k' : ''}${c & BQ ? 'q' : ''}` || '-';
    const ep = this.enPassant < 0 ? '-' : nameOf(this.enPassant);
    return `${rows.join('/')} ${this.turn > 0 ? 'w' : 'b'} ${rights} ${ep} ${this.halfmove} ${this.fullmove}`;
  }

  /** The king square of `color` (1 or -1), or -1. */
  king(color: number): number {
    return this.board.indexOf(6 * color);
  }

  /** Whether `square` is attacked by the pieces of `by` (1 or -1). */
  attacked(square: number, by: number): boolean {
    const b = this.board;
    for (const d of by > 0 ? WHITE_PAWN_FROM : BLACK_PAWN_FROM) {
      if (onBoard(square, d, 1) && b[square + d] === by) return true;
    }
    for (const d of KNIGHT) if (onBoard(square, d, 2) && b[square + d] === 2 * by) return true;
    for (const d of KING) if (onBoard(square, d, 1) && b[square + d] === 6 * by) return true;
    return this.#slides(square, DIAGONALS, 3 * by, 5 * by) || this.#slides(square, LINES, 4 * by, 5 * by);
  }

  /** Whether a slider (`slider` or `queen`) stands at the end of one of the rays from `square`. */
  #slides(square: number, dirs: readonly number[], slider: number, queen: number): boolean {
    const b = this.board;
    for (const d of dirs) {
      for (let s = square; onBoard(s, d, 1); ) {
        s += d;
        const v = b[s];
        if (v === 0) continue;
        if (v === slider || v === queen) return true;
        break;
      }
    }
    return false;
  }

  /** Whether the side to move is in check. */
  inCheck(): boolean {
    return this.attacked(this.king(this.turn), -this.turn);
  }

  /** The legal moves of the side to move, of one kind (0: every kind), to one square (-1: any). */
  legalMoves(kind = 0, to = -1): ChessMove[] {
    const out: ChessMove[] = [];
    const us = this.turn;
    for (let from = 0; from < 64; from++) {
      const v = this.board[from] * us;
      if (v <= 0 || (kind !== 0 && v !== kind)) continue;
      this.#pieceMoves(from, v, to, out);
    }
    return out.filter((m) => this.#legal(m));
  }

  /** Whether the side to move has a legal move at all. */
  hasLegalMove(): boolean {
    const us = this.turn;
    const moves: ChessMove[] = [];
    for (let from = 0; from < 64; from++) {
      const v = this.board[from] * us;
      if (v <= 0) continue;
      moves.length = 0;
      this.#pieceMoves(from, v, -1, moves);
      if (moves.some((m) => this.#legal(m))) return true;
    }
    return false;
  }

  #pieceMoves(from: number, kind: number, to: number, out: ChessMove[]): void {
    const b = this.board;
    const us = this.turn;
    const add = (target: number, extra: Partial<ChessMove> = {}) => {
      if (to >= 0 && target !== to) return;
      const captured = extra.enPassant ? 1 : Math.abs(b[target]);
      out.push({ from, to: target, kind, promotion: 0, captured, enPassant: false, castle: '', ...extra });
    };
    if (kind === 1) {
      const step = 8 * us;
      const last = us > 0 ? 7 : 0;
      const pushTo = (target: number, extra: Partial<ChessMove> = {}) => {
        if (target >> 3 === last) for (const promotion of [5, 4, 3, 2]) add(target, { ...extra, promotion });
        else add(target, extra);
      };
      const one = from + step;
      if (one >= 0 && one < 64 && b[one] === 0) {
        pushTo(one);
        const home = us > 0 ? 1 : 6;
        if (from >> 3 === home && b[one + step] === 0) add(one + step);
      }
      for (const side of [-1, 1]) {
        if (!onBoard(from, step + side, 1)) continue;
        const target = from + step + side;
        if (b[target] * us < 0) pushTo(target);
        else if (target === this.enPassant && b[target] === 0) add(target, { enPassant: true });
      }
      return;
    }
    if (kind === 2 || kind === 6) {
      for (const d of kind === 2 ? KNIGHT : KING) {
        if (onBoard(from, d, kind === 2 ? 2 : 1) && b[from + d] * us <= 0) add(from + d);
      }
      if (kind === 6) this.#castles(from, add);
      return;
    }
    const dirs = kind === 3 ? DIAGONALS : kind === 4 ? LINES : ALL_LINES;
    for (const d of dirs) {
      for (let s = from; onBoard(s, d, 1); ) {
        s += d;
        if (b[s] * us > 0) break;
        add(s);
        if (b[s] !== 0) break;
      }
    }
  }

  #castles(from: number, add: (target: number, extra: Partial<ChessMove>) => void): void {
    const us = this.turn;
    const home = us > 0 ? 4 : 60;
    if (from !== home || this.attacked(home, -us)) return;
    const [kingSide, queenSide] = us > 0 ? [WK, WQ] : [BK, BQ];
    const b = this.board;
    if (this.castling & kingSide && b[home + 1] === 0 && b[home + 2] === 0 && b[home + 3] === 4 * us) {
      if (!this.attacked(home + 1, -us)) add(home + 2, { castle: 'K' });
    }
    if (
      this.castling & queenSide &&
      b[home - 1] === 0 &&
      b[home - 2] === 0 &&
      b[home - 3] === 0 &&
      b[home - 4] === 4 * us
    ) {
      if (!this.attacked(home - 1, -us)) add(home - 2, { castle: 'Q' });
    }
  }

  /** Whether a pseudo-legal move leaves its own king unattacked. */
  #legal(m: ChessMove): boolean {
    const undo = this.#make(m);
    const safe = !this.attacked(this.king(-this.turn), this.turn);
    undo();
    return safe;
  }

  /** Makes a move on the board alone (no counters or rights); answers its undoing. */
  #make(m: ChessMove): () => void {
    const b = this.board;
    const us = this.turn;
    const moved = b[m.from];
    const taken = b[m.to];
    const behind = m.enPassant ? m.to - 8 * us : -1;
    const rookFrom = m.castle === 'K' ? m.from + 3 : m.castle === 'Q' ? m.from - 4 : -1;
    const rookTo = m.castle === 'K' ? m.from + 1 : m.castle === 'Q' ? m.from - 1 : -1;
    b[m.to] = m.promotion ? m.promotion * us : moved;
    b[m.from] = 0;
    if (behind >= 0) b[behind] = 0;
    if (rookFrom >= 0) {
      b[rookTo] = b[rookFrom];
      b[rookFrom] = 0;
    }
    this.turn = -us;
    return () => {
      this.turn = us;
      if (rookFrom >= 0) {
        b[rookFrom] = b[rookTo];
        b[rookTo] = 0;
      }
      if (behind >= 0) b[behind] = -us;
      b[m.from] = moved;
      b[m.to] = taken;
    };
  }

  /** Plays a legal move: the board, the rights, the en passant square, the counters. */
  play(m: ChessMove): void {
    const us = this.turn;
    this.#make(m);
    this.enPassant = m.kind === 1 && Math.abs(m.to - m.from) === 16 ? (m.from + m.to) >> 1 : -1;
    this.halfmove = m.kind === 1 || m.captured ? 0 : this.halfmove + 1;
    if (us < 0) this.fullmove++;
    for (const square of [m.from, m.to]) {
      if (square === 4) this.castling &= ~(WK | WQ);
      if (square === 60) this.castling &= ~(BK | BQ);
      if (square === 7) this.castling &= ~WK;
      if (square === 0) this.castling &= ~WQ;
      if (square === 63) this.castling &= ~BK;
      if (square === 56) this.castling &= ~BQ;
    }
  }

  /** A legal move's SAN before it is played, without its check sign (`Nbd2`, `exd5`, `e8=Q`, `O-O`). */
  san(m: ChessMove): string {
    if (m.castle) return m.castle === 'K' ? 'O-O' : 'O-O-O';
    const to = nameOf(m.to);
    const promotion = m.promotion ? `=${LETTERS[m.promotion]}` : '';
    if (m.kind === 1) return m.captured ? `${FILES[m.from & 7]}x${to}${promotion}` : `${to}${promotion}`;
    let from = '';
    if (m.kind !== 6) {
      const rivals = this.legalMoves(m.kind, m.to).filter((o) => o.from !== m.from);
      if (rivals.length > 0) {
        const sameFile = rivals.some((o) => (o.from & 7) === (m.from & 7));
        const sameRank = rivals.some((o) => o.from >> 3 === m.from >> 3);
        from = !sameFile ? FILES[m.from & 7] : !sameRank ? String((m.from >> 3) + 1) : nameOf(m.from);
      }
    }
    return `${LETTERS[m.kind]}${from}${m.captured ? 'x' : ''}${to}`;
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

/**
 * SAN read and written. Read: the parts of a SAN move other than castling (`Nbd2`, `exd5`, `e8=Q`, `e8Q`): the piece, the
 * from-file and from-rank written to tell two pieces apart, the target and the promotion. Read by
 * hand, character by character from the end (the target is the last square written, before an
 * optional promotion), because a game reads one for every move and a regular expression's match
 * object and its strings cost more than the move's legality. It reads exactly what
 * `^([KQRBN])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([QRBNKqrbnk]))?$` matches. Written: a legal
 * move's standard SAN, its from-square named only as far as another piece of its kind could go
 * to the same square.
 */
import type { ChessMove } from './chess-moves.js';
import { nameOf } from './chess-tables.js';

/** A SAN's parts: kinds 1 pawn .. 6 king, squares 0 (a1) .. 63, files and ranks 0 .. 7. */
export interface SanParts {
  /** The moving piece's kind (1 for a pawn, which names none). */
  kind: number;
  /** The from-file written (0 .. 7), or -1. */
  fromFile: number;
  /** The from-rank written (0 .. 7), or -1. */
  fromRank: number;
  to: number;
  /** The promotion's kind (2 .. 6: a king is read, for the caller to refuse), or 0 when none is written. */
  promotion: number;
}

/** Piece kinds by upper-case letter (0 for any other character). */
const KINDS = new Uint8Array(128);
KINDS['P'.charCodeAt(0)] = 1;
KINDS['N'.charCodeAt(0)] = 2;
KINDS['B'.charCodeAt(0)] = 3;
KINDS['R'.charCodeAt(0)] = 4;
KINDS['Q'.charCodeAt(0)] = 5;
KINDS['K'.charCodeAt(0)] = 6;

const isFile = (c: number) => c >= 0x61 && c <= 0x68;
const isRank = (c: number) => c >= 0x31 && c <= 0x38;

/** The parts of a SAN that is not castling, or null when it is no move. */
export function readSan(san: string): SanParts | null {
  let end = san.length;
  let promotion = 0;
  const last = san.charCodeAt(end - 1);
  if (!isRank(last)) {
    // A promotion, either case, `=` optional: QRBNK, never P.
    const kind = last < 128 ? KINDS[last & ~0x20] : 0;
    if (kind < 2) return null;
    promotion = kind;
    end -= san.charCodeAt(end - 2) === 0x3d /* = */ ? 2 : 1;
  }
  if (end < 2) return null;
  const toFile = san.charCodeAt(end - 2);
  const toRank = san.charCodeAt(end - 1);
  if (!isFile(toFile) || !isRank(toRank)) return null;
  end -= 2;
  let i = 0;
  let kind = 1;
  const first = san.charCodeAt(0);
  if (end > 0 && first < 128 && KINDS[first] >= 2) {
    kind = KINDS[first];
    i++;
  }
  let fromFile = -1;
  let fromRank = -1;
  if (i < end && isFile(san.charCodeAt(i))) fromFile = san.charCodeAt(i++) - 0x61;
  if (i < end && isRank(san.charCodeAt(i))) fromRank = san.charCodeAt(i++) - 0x31;
  if (i < end && san.charCodeAt(i) === 0x78 /* x */) i++;
  if (i !== end) return null;
  return { kind, fromFile, fromRank, to: (toRank - 0x31) * 8 + (toFile - 0x61), promotion };
}

const LETTERS = ' PNBRQK';
const FILES = 'abcdefgh';

/** What writing a SAN needs of a position. */
interface SanPosition {
  legalMoves(kind: number, to: number): ChessMove[];
}

/**
 * A legal move's SAN before it is played, without its check sign (`Nbd2`, `exd5`, `e8=Q`,
 * `O-O`). `sameTo`, when the caller holds them, are the legal moves of its kind to its square.
 */
export function writeSan(position: SanPosition, m: ChessMove, sameTo?: readonly ChessMove[]): string {
  if (m.castle) return m.castle === 'K' ? 'O-O' : 'O-O-O';
  const to = nameOf(m.to);
  const promotion = m.promotion ? `=${LETTERS[m.promotion]}` : '';
  if (m.kind === 1) return m.captured ? `${FILES[m.from & 7]}x${to}${promotion}` : `${to}${promotion}`;
  let from = '';
  if (m.kind !== 6) {
    const rivals = (sameTo ?? position.legalMoves(m.kind, m.to)).filter((o) => o.from !== m.from);
    if (rivals.length > 0) {
      const sameFile = rivals.some((o) => (o.from & 7) === (m.from & 7));
      const sameRank = rivals.some((o) => o.from >> 3 === m.from >> 3);
      from = !sameFile ? FILES[m.from & 7] : !sameRank ? String((m.from >> 3) + 1) : nameOf(m.from);
    }
  }
  return `${LETTERS[m.kind]}${from}${m.captured ? 'x' : ''}${to}`;
}

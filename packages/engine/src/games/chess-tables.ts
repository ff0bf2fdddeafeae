/**
 * Tables of the 8 x 8 board for the rules of chess, computed once when the module loads: where a
 * knight and a king step from each square, the squares along each of the eight rays from each
 * square (nearest first), and which ray joins two squares. With them, generating or checking a
 * move never tests for the board's edge, which was most of the time a move took when every step
 * was checked against it, and a piece off every line through its king is seen at once to be free
 * to move. Also the FEN's texts: of each set of castling rights, and of each rank's contents, kept
 * as they are written.
 */

/** Castling rights, as bits: white king side, white queen side, black king side, black queen side. */
export const WK = 1;
export const WQ = 2;
export const BK = 4;
export const BQ = 8;

/** A square's name (0 = a1). */
export const nameOf = (square: number): string => SQUARE_NAMES[square];
/** A square's index from its name. */
export const squareOf = (name: string): number => (name.charCodeAt(1) - 49) * 8 + (name.charCodeAt(0) - 97);

const SQUARE_NAMES = Array.from({ length: 64 }, (_, s) => `${'abcdefgh'[s & 7]}${(s >> 3) + 1}`);

/** The squares `steps` (file, rank) lead to from each square, on the board. */
function stepsFrom(steps: readonly (readonly [number, number])[]): Int8Array[] {
  return Array.from({ length: 64 }, (_, s) => {
    const out: number[] = [];
    for (const [df, dr] of steps) {
      const f = (s & 7) + df;
      const r = (s >> 3) + dr;
      if (f >= 0 && f < 8 && r >= 0 && r < 8) out.push(r * 8 + f);
    }
    return Int8Array.from(out);
  });
}

/** Knight steps from each square. */
export const KNIGHT_TO = stepsFrom([
  [1, 2],
  [2, 1],
  [2, -1],
  [1, -2],
  [-1, -2],
  [-2, -1],
  [-2, 1],
  [-1, 2],
]);

/** King steps from each square. */
export const KING_TO = stepsFrom([
  [0, 1],
  [1, 1],
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, -1],
  [-1, 0],
  [-1, 1],
]);

/** The eight ray directions (file, rank): the four diagonals first, then the four lines. */
const DIRECTIONS: readonly (readonly [number, number])[] = [
  [1, 1],
  [1, -1],
  [-1, -1],
  [-1, 1],
  [0, 1],
  [1, 0],
  [0, -1],
  [-1, 0],
];

/** `RAYS[d][s]`: the squares from `s` in direction `d` (0-3 diagonals, 4-7 lines), nearest first. */
export const RAYS: Int8Array[][] = DIRECTIONS.map(([df, dr]) =>
  Array.from({ length: 64 }, (_, s) => {
    const out: number[] = [];
    for (let f = (s & 7) + df, r = (s >> 3) + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
      out.push(r * 8 + f);
    }
    return Int8Array.from(out);
  }),
);

/** The directions a bishop, a rook and a queen ride (indices into `RAYS`). */
export const BISHOP_DIRECTIONS = [0, 1, 2, 3];
export const ROOK_DIRECTIONS = [4, 5, 6, 7];
export const QUEEN_DIRECTIONS = [0, 1, 2, 3, 4, 5, 6, 7];

/** `LINE_FROM[a * 64 + b]`: the direction (index into `RAYS`) from `a` along which `b` lies, or -1. */
export const LINE_FROM = new Int8Array(64 * 64).fill(-1);
RAYS.forEach((rays, d) => {
  rays.forEach((ray, a) => {
    for (const b of ray) LINE_FROM[a * 64 + b] = d;
  });
});

/** A FEN's letter of each board value, at `value + 6`. */
const FEN_LETTERS = 'kqrbnp PNBRQK';

/** The FEN field of each set of castling rights. */
export const RIGHTS = Array.from(
  { length: 16 },
  (_, c) => `${c & WK ? 'K' : ''}${c & WQ ? 'Q' : ''}${c & BK ? 'k' : ''}${c & BQ ? 'q' : ''}` || '-',
);

/** The castling rights a move from or to each square keeps (a king's or a rook's home square loses some). */
export const RIGHTS_KEPT = Array.from({ length: 64 }, (_, square) =>
  square === 4
    ? ~(WK | WQ) & 15
    : square === 60
      ? ~(BK | BQ) & 15
      : square === 7
        ? ~WK & 15
        : square === 0
          ? ~WQ & 15
          : square === 63
            ? ~BK & 15
            : square === 56
              ? ~BQ & 15
              : 15,
);

/**
 * Ranks' FEN texts by their contents (each square's piece, base 13): games repeat the same ranks
 * (the back ranks, a pawn chain) move after move, and a lookup costs less than writing one out.
 * Cleared when full, so it holds at most `MAX_ROW_TEXTS` short strings.
 */
const ROW_TEXTS = new Map<number, string>();
const MAX_ROW_TEXTS = 4096;

/** One rank's text in a FEN's placement field, of a mailbox board (64 signed bytes). */
export function rankText(board: Int8Array, rank: number): string {
  let key = 0;
  for (let square = rank * 8; square < rank * 8 + 8; square++) key = key * 13 + board[square] + 6;
  let text = ROW_TEXTS.get(key);
  if (text === undefined) {
    text = '';
    let empty = 0;
    for (let square = rank * 8; square < rank * 8 + 8; square++) {
      const v = board[square];
      if (v === 0) empty++;
      else {
        if (empty > 0) text += empty;
        empty = 0;
        text += FEN_LETTERS[v + 6];
      }
    }
    if (empty > 0) text += empty;
    if (ROW_TEXTS.size >= MAX_ROW_TEXTS) ROW_TEXTS.clear();
    ROW_TEXTS.set(key, text);
  }
  return text;
}

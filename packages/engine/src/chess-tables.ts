/**
 * Tables of the 8 x 8 board for the rules of chess, computed once when the module loads: where a
 * knight and a king step from each square, the squares along each of the eight rays from each
 * square (nearest first), and which ray joins two squares. With them, generating or checking a
 * move never tests for the board's edge, which was most of the time a move took when every step
 * was checked against it, and a piece off every line through its king is seen at once to be free
 * to move.
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

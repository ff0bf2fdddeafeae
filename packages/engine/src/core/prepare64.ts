/**
 * The fast path of `prepareQuery` for the commonest question of all: an 8 x 8 board, a mask
 * (or none), square names and nothing else. It reads the text straight into six 32-bit words,
 * with no object allocated, and leaves them in `standardWords` for the 8 x 8 fill. Anything it
 * does not recognise at a glance (another board, `blocked`, `fen`, an odd name or mask, a wrong
 * type) makes it decline, and the caller runs the general `prepareQuery`, which gives the same
 * answer or the exact `InputError`.
 *
 * Square names are read without a branch on their value: the order of squares in a question is
 * random, so a branch on "low half or high half" would be mispredicted half of the time.
 */
import { HEX_PAIRS } from '../board/bitset.js';
import { STANDARD_BOARD } from '../board/board.js';
import { type PathQuery, PIECES, type Piece } from '../types.js';
import { Prepared, pieceCode } from './query.js';

/**
 * Writes the squares named in `list` to `out` at `at` (a1..h4) and `at + 1` (a5..h8). Returns
 * a negative number when `list` is not a list of square names: a name must be two characters,
 * a file letter a..h (either case) and a rank digit 1..8. It stops at the first name that is
 * not (the general path then says which).
 */
function readSquares(list: unknown, out: Int32Array, at: number): number {
  if (!Array.isArray(list)) return -1;
  let lo = 0;
  let hi = 0;
  let check = 0;
  for (let i = 0; i < list.length; i++) {
    const name = list[i];
    if (typeof name !== 'string' || name.length !== 2) return -1;
    const file = (name.charCodeAt(0) | 0x20) - 97;
    const rank = name.charCodeAt(1) - 49;
    check |= file | rank | (7 - file) | (7 - rank); // negative unless both are 0..7
    const index = (rank << 3) | file;
    const bit = 1 << index; // shifts count modulo 32: bit index & 31 of its half
    const low = (index - 32) >> 31; // all ones for a1..h4, zero for a5..h8
    lo |= bit & low;
    hi |= bit & ~low;
  }
  out[at] = lo;
  out[at + 1] = hi;
  return check;
}

/**
 * The last mask text read and its words: a service (or a caller looping over one position)
 * often asks many questions on the same mask; an equal string skips the 16 digits. The text
 * starts as one whose words are the ones below: never a shortcut past the checks.
 */
const lastMask = ['0x0000000000000000'];
const lastMaskWords = new Int32Array(2);

/**
 * Writes the words of a mask text (`0x` and 16 hex digits, either case) to `out[0]` (a1..h4)
 * and `out[1]` (a5..h8). Returns a negative number when the text is not one.
 *
 * The 16 digits are read as eight pairs, unrolled, each looked up in `HEX_PAIRS`; a character
 * code of 128 or more makes its pair negative whatever the table holds at the index its low bits
 * give. A loop over the pairs, or a helper called per pair, costs about half as much again.
 */
function readMask(mask: unknown, out: Int32Array): number {
  if (mask === lastMask[0]) {
    out[0] = lastMaskWords[0];
    out[1] = lastMaskWords[1];
    return 0;
  }
  if (typeof mask !== 'string' || mask.length !== 18 || mask.charCodeAt(0) !== 48) return -1;
  if ((mask.charCodeAt(1) | 0x20) !== 120) return -1;
  let a = mask.charCodeAt(2);
  let b = mask.charCodeAt(3);
  const h0 = HEX_PAIRS[((a << 7) | b) & 0x3fff] | -((a | b) >>> 7);
  a = mask.charCodeAt(4);
  b = mask.charCodeAt(5);
  const h1 = HEX_PAIRS[((a << 7) | b) & 0x3fff] | -((a | b) >>> 7);
  a = mask.charCodeAt(6);
  b = mask.charCodeAt(7);
  const h2 = HEX_PAIRS[((a << 7) | b) & 0x3fff] | -((a | b) >>> 7);
  a = mask.charCodeAt(8);
  b = mask.charCodeAt(9);
  const h3 = HEX_PAIRS[((a << 7) | b) & 0x3fff] | -((a | b) >>> 7);
  a = mask.charCodeAt(10);
  b = mask.charCodeAt(11);
  const l0 = HEX_PAIRS[((a << 7) | b) & 0x3fff] | -((a | b) >>> 7);
  a = mask.charCodeAt(12);
  b = mask.charCodeAt(13);
  const l1 = HEX_PAIRS[((a << 7) | b) & 0x3fff] | -((a | b) >>> 7);
  a = mask.charCodeAt(14);
  b = mask.charCodeAt(15);
  const l2 = HEX_PAIRS[((a << 7) | b) & 0x3fff] | -((a | b) >>> 7);
  a = mask.charCodeAt(16);
  b = mask.charCodeAt(17);
  const l3 = HEX_PAIRS[((a << 7) | b) & 0x3fff] | -((a | b) >>> 7);
  const check = h0 | h1 | h2 | h3 | l0 | l1 | l2 | l3;
  if (check < 0) return check;
  const lo = (l0 << 24) | (l1 << 16) | (l2 << 8) | l3;
  const hi = (h0 << 24) | (h1 << 16) | (h2 << 8) | h3;
  out[0] = lastMaskWords[0] = lo;
  out[1] = lastMaskWords[1] = hi;
  lastMask[0] = mask;
  return 0;
}

/** P, S' and T' of the last question `readStandard` accepted, as (low, high) word pairs. */
export const standardWords = new Int32Array(6);

/**
 * Reads a plain 8 x 8 query into `standardWords` and returns its piece's code (its index in
 * `PIECES`), or returns -1 when the general path must handle it.
 */
export function readStandard(query: PathQuery): number {
  if (query === null || typeof query !== 'object') return -1;
  const { board, mask } = query;
  const code = pieceCode(query.piece);
  if (code < 0) return -1;
  if (board != null && (board.files !== 8 || board.ranks !== 8)) return -1;
  if (query.blocked != null || query.fen != null || query.betza != null) return -1;
  const { from, to } = query;
  // Reading a list can run a caller's code (a Proxy's trap), which may solve another question
  // through this module and overwrite `standardWords`: each reader's words are copied out as
  // soon as it is done, and all six are written back at the end.
  const out = standardWords;
  if (mask == null) {
    out[0] = -1;
    out[1] = -1;
  } else if (readMask(mask, out) < 0) return -1;
  const pLo = out[0];
  const pHi = out[1];
  if (readSquares(from, out, 2) < 0) return -1;
  const sLo = out[2] & pLo;
  const sHi = out[3] & pHi;
  if (readSquares(to, out, 4) < 0) return -1;
  out[0] = pLo;
  out[1] = pHi;
  out[2] = sLo;
  out[3] = sHi;
  out[4] &= pLo;
  out[5] &= pHi;
  return code;
}

/** `prepareQuery` for a plain 8 x 8 query, or null when the general path must handle it. */
export function prepareStandard(query: PathQuery): Prepared | null {
  const code = readStandard(query);
  if (code < 0) return null;
  const w = standardWords;
  return standardPrepared(PIECES[code], w[0], w[1], w[2], w[3], w[4], w[5]);
}

/** The `Prepared` problem of an 8 x 8 question given as its six words. */
export function standardPrepared(
  piece: Piece,
  pLo: number,
  pHi: number,
  sLo: number,
  sHi: number,
  tLo: number,
  tHi: number,
): Prepared {
  return new Prepared(piece, STANDARD_BOARD, 2, [pLo, pHi, sLo, sHi, tLo, tHi]);
}

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

/** Negative once a mask digit is not a hex digit (reset before each mask). */
let badDigit = 0;

/** Eight hex digits of `text` from `at`, as a 32-bit word (makes `badDigit` negative on a non-digit). */
function hex8(text: string, at: number): number {
  let word = 0;
  let check = 0;
  for (let i = at; i < at + 8; i += 2) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    // A code of 128 or more is never a digit: it makes the value negative.
    const pair = HEX_PAIRS[((c0 << 7) | c1) & 0x3fff] | -((c0 | c1) >>> 7);
    check |= pair;
    word = (word << 8) | (pair & 255);
  }
  badDigit |= check;
  return word;
}

/**
 * The high word (a5..h8) of the last `squares64`, and its check: negative when a name was not a
 * square. The caller reads both at once, before anything else runs: reading a list can run a
 * caller's code (a getter, a Proxy), which may solve another question through this module.
 */
let hiOut = 0;
let checkOut = 0;

/**
 * The low word (a1..h4) of the squares named in `list`, the high word in `hiOut`. A name must
 * be two characters, a file letter a..h (either case) and a rank digit 1..8. It stops at the
 * first name that is not (the general path then says which).
 */
function squares64(list: unknown): number {
  if (!Array.isArray(list)) {
    checkOut = -1;
    return 0;
  }
  let lo = 0;
  let hi = 0;
  let check = 0;
  for (let i = 0; i < list.length && check >= 0; i++) {
    const name = list[i];
    if (typeof name !== 'string' || name.length !== 2) {
      check = -1;
      break;
    }
    const file = (name.charCodeAt(0) | 0x20) - 97;
    const rank = name.charCodeAt(1) - 49;
    check |= file | rank | (7 - file) | (7 - rank); // negative unless both are 0..7
    const index = (rank << 3) | file;
    const bit = 1 << index; // shifts count modulo 32: bit index & 31 of its half
    const low = (index - 32) >> 31; // all ones for a1..h4, zero for a5..h8
    lo |= bit & low;
    hi |= bit & ~low;
  }
  hiOut = hi;
  checkOut = check;
  return lo;
}

/**
 * The last mask text read and its words: a service (or a caller looping over one position)
 * often asks many questions on the same mask; an equal string skips the 16 digits.
 */
let lastMask = '0x0000000000000000'; // a valid text whose words are the ones below: never a shortcut past the checks
let lastLo = 0;
let lastHi = 0;

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
  let pLo = -1;
  let pHi = -1;
  if (mask != null) {
    if (mask === lastMask) {
      pLo = lastLo;
      pHi = lastHi;
    } else {
      if (typeof mask !== 'string' || mask.length !== 18 || mask.charCodeAt(0) !== 48) return -1;
      if ((mask.charCodeAt(1) | 0x20) !== 120) return -1;
      badDigit = 0;
      pHi = hex8(mask, 2);
      pLo = hex8(mask, 10);
      if (badDigit < 0) return -1;
      lastMask = mask;
      lastLo = pLo;
      lastHi = pHi;
    }
  }
  const sLo = squares64(query.from) & pLo;
  const sHi = hiOut & pHi;
  const fromCheck = checkOut;
  const tLo = squares64(query.to) & pLo;
  const tHi = hiOut & pHi;
  if ((fromCheck | checkOut) < 0) return -1;
  const out = standardWords;
  out[0] = pLo;
  out[1] = pHi;
  out[2] = sLo;
  out[3] = sHi;
  out[4] = tLo;
  out[5] = tHi;
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

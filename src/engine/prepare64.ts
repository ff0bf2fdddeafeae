/**
 * The fast path of `prepareQuery` for the commonest question of all: an 8 x 8 board, a mask
 * (or none), square names and nothing else. It reads the text straight into six 32-bit
 * integers and builds the `Prepared` words in one array literal (so the array is created with
 * the right element kind, not converted on the first large word). Anything it does not
 * recognise at a glance (another board, `blocked`, `fen`, an odd name or mask, a wrong type)
 * makes it return null, and the caller runs the general `prepareQuery`, which gives the same
 * answer or the exact `InputError`.
 */
import { STANDARD_BOARD } from './board.js';
import { isPiece, Prepared } from './query.js';
import type { PathQuery } from './types.js';

/** Value of each ASCII hex digit, -1 for every other character. */
const HEX = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) {
  HEX['0123456789abcdef'.charCodeAt(d)] = d;
  HEX['0123456789ABCDEF'.charCodeAt(d)] = d;
}

/** Set when the text is not what the fast path expects (then the general path runs). */
let bad = false;

/** Eight hex digits of `text` from `at`, as a 32-bit word (sets `bad` on a non-digit). */
function hex8(text: string, at: number): number {
  let word = 0;
  for (let i = at; i < at + 8; i++) {
    const c = text.charCodeAt(i);
    const d = c < 128 ? HEX[c] : -1;
    if (d < 0) bad = true;
    word = (word << 4) | (d & 15);
  }
  return word;
}

/** Index of a two-character 8 x 8 square name (`e4`, `E4`), or -1 for anything else. */
function square64(name: unknown): number {
  if (typeof name !== 'string' || name.length !== 2) return -1;
  const file = (name.charCodeAt(0) | 0x20) - 97;
  const rank = name.charCodeAt(1) - 49;
  return file >= 0 && file < 8 && rank >= 0 && rank < 8 ? (rank << 3) | file : -1;
}

/** The high word (a5..h8) of the last `squares64`. */
let hiOut = 0;

/** The low word (a1..h4) of the squares named in `list`, the high word in `hiOut`. */
function squares64(list: unknown): number {
  let lo = 0;
  let hi = 0;
  if (!Array.isArray(list)) {
    bad = true;
    return 0;
  }
  for (let i = 0; i < list.length; i++) {
    const index = square64(list[i]);
    if (index < 0) bad = true;
    else if (index < 32) lo |= 1 << index;
    else hi |= 1 << (index - 32);
  }
  hiOut = hi;
  return lo;
}

/**
 * The last mask text read and its words: a service (or a caller looping over one position)
 * often asks many questions on the same mask; an equal string skips the 16 digits.
 */
let lastMask = '0x0000000000000000'; // a valid text whose words are the ones below: never a shortcut past the checks
let lastLo = 0;
let lastHi = 0;

/** `prepareQuery` for a plain 8 x 8 query, or null when the general path must handle it. */
export function prepareStandard(query: PathQuery): Prepared | null {
  if (query === null || typeof query !== 'object') return null;
  const { piece, board, mask } = query;
  if (!isPiece(piece)) return null;
  if (board != null && (board.files !== 8 || board.ranks !== 8)) return null;
  if (query.blocked != null || query.fen != null) return null;
  bad = false;
  let pLo = -1;
  let pHi = -1;
  if (mask != null) {
    if (mask === lastMask) {
      pLo = lastLo;
      pHi = lastHi;
    } else {
      if (typeof mask !== 'string' || mask.length !== 18 || mask.charCodeAt(0) !== 48) return null;
      if ((mask.charCodeAt(1) | 0x20) !== 120) return null;
      pHi = hex8(mask, 2);
      pLo = hex8(mask, 10);
      if (bad) return null;
      lastMask = mask;
      lastLo = pLo;
      lastHi = pHi;
    }
  }
  const sLo = squares64(query.from) & pLo;
  const sHi = hiOut & pHi;
  const tLo = squares64(query.to) & pLo;
  const tHi = hiOut & pHi;
  if (bad) return null;
  return new Prepared(piece, STANDARD_BOARD, 2, [pLo, pHi, sLo, sHi, tLo, tHi]);
}

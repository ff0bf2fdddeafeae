/**
 * Square sets as arrays of 32-bit words (bit i of the set = bit i & 31 of word i >>> 5), their
 * text form (`0x` + exactly ceil(n/4) hex digits, most significant first) and the lazy
 * `SquareSet` view handed to callers. Words are stored as signed int32 (what JS bit operators
 * produce); `>>> 0` turns one unsigned where it matters.
 */

import { InputError, type InputPath } from '../errors.js';
import type { Board, SquareSet } from '../types.js';
import { describeBoard, wordsFor } from './board.js';
import { readLongHex } from './hex-wasm.js';
import { squareName } from './squares.js';

/** Number of set bits of a 32-bit word. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Number of set bits of two words, summed half way through (each 4-bit field holds at most 8). */
export function popcount64(lo: number, hi: number): number {
  lo -= (lo >>> 1) & 0x55555555;
  hi -= (hi >>> 1) & 0x55555555;
  let x = (lo & 0x33333333) + ((lo >>> 2) & 0x33333333) + (hi & 0x33333333) + ((hi >>> 2) & 0x33333333);
  x = (x & 0x0f0f0f0f) + ((x >>> 4) & 0x0f0f0f0f);
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Index (0..31) of the lowest set bit of a non-zero word. */
export function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Number of squares in `words[offset .. offset + count)`. */
export function countBits(words: ArrayLike<number>, offset: number, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) n += popcount32(words[offset + i]);
  return n;
}

/** Square indices of `words[offset .. offset + count)`, increasing. */
export function bitIndices(words: ArrayLike<number>, offset: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    let w = words[offset + i];
    while (w !== 0) {
      out.push((i << 5) + lowestBit(w));
      w &= w - 1;
    }
  }
  return out;
}

/** Character codes of the hex digits 0-9a-f. */
const DIGIT_CODES = new Uint8Array([48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102]);

/**
 * A word as eight hex digits. `String.fromCharCode` of the eight codes makes one flat string in
 * a few nanoseconds; `toString(16)` and padding cost ten times more, which on 8 x 8 was most of
 * what a problem's key costs.
 */
function hexWord(w: number): string {
  const d = DIGIT_CODES;
  return String.fromCharCode(
    d[w >>> 28],
    d[(w >>> 24) & 15],
    d[(w >>> 20) & 15],
    d[(w >>> 16) & 15],
    d[(w >>> 12) & 15],
    d[(w >>> 8) & 15],
    d[(w >>> 4) & 15],
    d[w & 15],
  );
}

/** Text form of `words[offset .. offset + ceil(n/32))` for a board of n squares. */
export function formatWords(words: ArrayLike<number>, offset: number, n: number): string {
  const digits = (n + 3) >>> 2;
  const count = wordsFor(n);
  if (count === 1) return `0x${hexWord(words[offset]).slice(8 - digits)}`;
  if (count === 2) return `0x${(hexWord(words[offset + 1]) + hexWord(words[offset])).slice(16 - digits)}`;
  // One flat string (repeated `+=` builds a rope that every later compare or hash flattens again).
  const parts: string[] = new Array(count);
  for (let i = 0; i < count; i++) parts[i] = hexWord(words[offset + count - 1 - i]);
  const out = parts.join('');
  return `0x${out.slice(out.length - digits)}`;
}

/** Text form of a square set on a board. */
export function formatBitboard(words: ArrayLike<number>, board: Board): string {
  return formatWords(words, 0, board.files * board.ranks);
}

/** Value of each ASCII hex digit, -1 for every other character. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(d)] = d;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(d)] = d;
}

/**
 * Value of each pair of ASCII hex digits (`HEX_PAIRS[c0 << 7 | c1]`, 0..255), -1 for any pair
 * that is not two digits. Reading text two characters a lookup halves the lookups, shifts
 * and checks; the pairs in use fill a few cache lines of the 32 kB table.
 */
export const HEX_PAIRS = new Int16Array(1 << 14).fill(-1);
{
  const digits = '0123456789abcdefABCDEF';
  for (let i = 0; i < digits.length; i++) {
    for (let j = 0; j < digits.length; j++) {
      const high = i < 16 ? i : i - 6;
      const low = j < 16 ? j : j - 6;
      HEX_PAIRS[(digits.charCodeAt(i) << 7) | digits.charCodeAt(j)] = (high << 4) | low;
    }
  }
}

/** Characters past which `parseWordsInto` tries the SIMD reader (`hex-wasm.ts`) first. */
const LONG_TEXT = 130;

const NOT_A_BITBOARD = 'is not a bitboard: expected 0x followed by hexadecimal digits';
const BEYOND_BOARD = 'has a square beyond the board';

/**
 * Parses bitboard text into `out` at `offset` (ceil(n/32) words, overwritten). Returns null on
 * success or the reason it failed. Any case and fewer digits than the board needs are
 * accepted, and so are extra leading zeros; a set bit beyond the board is not. Digits are
 * read eight at a time from the right, one word each.
 */
export function parseWordsInto(text: string, n: number, out: Int32Array | number[], offset = 0): string | null {
  const words = wordsFor(n);
  const len = text.length;
  if (len < 3 || text.charCodeAt(0) !== 48 || (text.charCodeAt(1) | 0x20) !== 120) return NOT_A_BITBOARD;
  if (len === 18 && n === 64) return parseStandard(text, out, offset);
  // A long text (a 64 x 64 mask is 1,026 characters) goes to the SIMD reader where it runs.
  if (len > LONG_TEXT && out instanceof Int32Array && readLongHex(text, n, words, out, offset)) return null;
  let pos = len - 1;
  let w = 0;
  // Whole words first, with one check of the digits a word (a bad digit is -1, so `digits`
  // turns negative); then the leading digits left over.
  for (; pos >= 9; pos -= 8, w++) {
    let word = 0;
    let digits = 0;
    for (let i = pos - 7; i <= pos; i += 2) {
      const c0 = text.charCodeAt(i);
      const c1 = text.charCodeAt(i + 1);
      // A code of 128 or more is never a digit: it makes the value negative.
      const pair = HEX_PAIRS[((c0 << 7) | c1) & 0x3fff] | -((c0 | c1) >>> 7);
      digits |= pair;
      word = (word << 8) | (pair & 255);
    }
    if (digits < 0) return NOT_A_BITBOARD;
    if (w < words) out[offset + w] = word;
    else if (word !== 0) return BEYOND_BOARD;
  }
  if (pos >= 2) {
    let word = 0;
    for (let i = 2; i <= pos; i++) {
      const c = text.charCodeAt(i);
      const d = c < 128 ? HEX_VALUE[c] : -1;
      if (d < 0) return NOT_A_BITBOARD;
      word = (word << 4) | d;
    }
    if (w < words) out[offset + w] = word;
    else if (word !== 0) return BEYOND_BOARD;
    w++;
  }
  for (; w < words; w++) out[offset + w] = 0;
  const rest = n & 31;
  if (rest !== 0 && out[offset + words - 1] >>> rest !== 0) return BEYOND_BOARD;
  return null;
}

/** `parseWordsInto` for the commonest text of all: an 8 x 8 set with its 16 digits. */
function parseStandard(text: string, out: Int32Array | number[], offset: number): string | null {
  let hi = 0;
  let lo = 0;
  for (let i = 2; i < 10; i++) {
    const c = text.charCodeAt(i);
    const d = c < 128 ? HEX_VALUE[c] : -1;
    if (d < 0) return NOT_A_BITBOARD;
    hi = (hi << 4) | d;
  }
  for (let i = 10; i < 18; i++) {
    const c = text.charCodeAt(i);
    const d = c < 128 ? HEX_VALUE[c] : -1;
    if (d < 0) return NOT_A_BITBOARD;
    lo = (lo << 4) | d;
  }
  out[offset] = lo;
  out[offset + 1] = hi;
  return null;
}

/**
 * Parses bitboard text for a board into unsigned words (word i holds squares 32i .. 32i+31);
 * throws `InputError` naming the value.
 */
export function parseBitboard(text: string, board: Board, path: InputPath = ['mask']): Uint32Array {
  const n = board.files * board.ranks;
  const out = new Int32Array(wordsFor(n));
  const problem = typeof text === 'string' ? parseWordsInto(text, n, out) : 'is not a bitboard';
  if (problem !== null) throw bitboardError(path, text, problem, board);
  return new Uint32Array(out.buffer);
}

/** The `InputError` for a `parseWordsInto` failure, naming the board. */
export function bitboardError(path: InputPath, text: unknown, problem: string, board: Board): InputError {
  return new InputError(
    path,
    text,
    problem === BEYOND_BOARD ? `has a square beyond the ${describeBoard(board)} board` : problem,
  );
}

/** A square set over `words[offset .. offset + ceil(n/32))`; each view is built when read. */
export class WordSquareSet implements SquareSet {
  private cachedBitboard: string | undefined = undefined;
  private cachedIndices: number[] | undefined = undefined;
  constructor(
    private readonly board: Board,
    private readonly words: ArrayLike<number>,
    private readonly offset: number,
  ) {}

  get bitboard(): string {
    return (this.cachedBitboard ??= formatWords(this.words, this.offset, this.board.files * this.board.ranks));
  }

  get indices(): number[] {
    return (this.cachedIndices ??= bitIndices(this.words, this.offset, wordsFor(this.board.files * this.board.ranks)));
  }

  get squares(): string[] {
    return this.indices.map((i) => squareName(i, this.board));
  }

  get count(): number {
    return (
      this.cachedIndices?.length ?? countBits(this.words, this.offset, wordsFor(this.board.files * this.board.ranks))
    );
  }

  /** True when square `index` is in the set. */
  has(index: number): boolean {
    return ((this.words[this.offset + (index >>> 5)] >>> (index & 31)) & 1) === 1;
  }
}

/**
 * Reads the hexadecimal digits of a bitboard text with 128-bit SIMD: sixteen digits (one 64-bit
 * unit) an iteration, checked, turned into nibbles and packed into bytes by a handful of vector
 * operations, where JavaScript reads each character with `charCodeAt` and a table. Compiled with
 * `--enable simd` by `npm run build` (`scripts/build-wasm.mjs`); `hex-wasm.ts` loads it and
 * falls back to the JavaScript reader (`parseWordsInto`) where SIMD does not run, and for any
 * text this refuses (it says only that, and the JavaScript reader says why).
 *
 * Memory (one page, from the heap base): the text's characters as bytes from `TEXT` (the caller
 * writes them), the words from `WORDS` (32-bit, word 0 the last eight digits: the engine's order).
 */

/** Most characters a text may have here (a 256 x 256 set is 16,386 with its `0x`). */
const MAX_TEXT: i32 = 16400;
const TEXT: usize = (__heap_base + 15) & ~15;
const WORDS: usize = (TEXT + <usize>MAX_TEXT + 15) & ~15;

/** Where the caller writes the text, and how long it may be. */
export function textOffset(): usize {
  return TEXT;
}
export function maxText(): i32 {
  return MAX_TEXT;
}
export function wordsOffset(): usize {
  return WORDS;
}

/** The nibble of one character, or -1. */
function digit(c: i32): i32 {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * Reads the digits of a text of `len` characters (`0x` and at least one digit, checked by the
 * caller) into words from `WORDS`; returns how many words it wrote (the leading digits make a
 * last, partial word), or -1 when a character is not a hexadecimal digit.
 */
export function parse(len: i32): i32 {
  const zero = i8x16.splat(48); // '0'
  const nine = i8x16.splat(57);
  const a = i8x16.splat(97);
  const f = i8x16.splat(102);
  const lowerBit = i8x16.splat(32);
  let end = len;
  let unit = 0;
  let bad = i8x16.splat(0);
  // Sixteen digits at a time from the right, as long as sixteen are left.
  for (; end - 16 >= 2; end -= 16, unit++) {
    const c = v128.load(TEXT + <usize>(end - 16));
    const lower = v128.or(c, lowerBit);
    const isDigit = v128.and(i8x16.ge_u(c, zero), i8x16.le_u(c, nine));
    const isLetter = v128.and(i8x16.ge_u(lower, a), i8x16.le_u(lower, f));
    bad = v128.or(bad, v128.not(v128.or(isDigit, isLetter)));
    // '0'..'9' less 48, 'a'..'f' less 87: nibbles, the first character the most significant.
    const nibble = v128.bitselect(i8x16.sub(c, zero), i8x16.sub(lower, i8x16.splat(87)), isDigit);
    // Two nibbles a 16-bit lane (the first in its low byte): the byte is first << 4 | second.
    const bytes = v128.or(i16x8.shl(v128.and(nibble, i16x8.splat(15)), 4), i16x8.shr_u(nibble, 8));
    const packed = i8x16.narrow_i16x8_u(bytes, bytes);
    // The first byte is the most significant: reversed, the eight bytes are the unit.
    const unitBits = i8x16.shuffle(packed, packed, 7, 6, 5, 4, 3, 2, 1, 0, 7, 6, 5, 4, 3, 2, 1, 0);
    store<u64>(WORDS + (<usize>unit << 3), i64x2.extract_lane(unitBits, 0));
  }
  if (v128.any_true(bad)) return -1;
  let words = unit << 1;
  // The leading digits, fewer than sixteen: eight at a time into words.
  while (end > 2) {
    const first = max(2, end - 8);
    let word: u32 = 0;
    for (let i = first; i < end; i++) {
      const d = digit(<i32>load<u8>(TEXT + <usize>i));
      if (d < 0) return -1;
      word = (word << 4) | <u32>d;
    }
    store<u32>(WORDS + (<usize>words << 2), word);
    words++;
    end = first;
  }
  return words;
}

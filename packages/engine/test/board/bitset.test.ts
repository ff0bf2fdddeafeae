/**
 * Bit counting against a naive count (random words and the extremes), and bitboard text read
 * against BigInt's own reading of the same digits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWordsInto, popcount32, popcount64 } from '../../src/board/bitset.js';

function naiveCount(word: number): number {
  let n = 0;
  for (let i = 0; i < 32; i++) n += (word >>> i) & 1;
  return n;
}

describe('bit counts', () => {
  it('popcount32 and popcount64 agree with a naive count', () => {
    const word = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, -1, 1, 1 << 31));
    fc.assert(
      fc.property(word, word, (lo, hi) => {
        expect(popcount32(lo)).toBe(naiveCount(lo));
        expect(popcount64(lo, hi)).toBe(naiveCount(lo) + naiveCount(hi));
      }),
      { numRuns: 5000 },
    );
    expect(popcount64(-1, -1)).toBe(64);
    expect(popcount64(0, 0)).toBe(0);
  });
});

/** The words of a bitboard text as BigInt reads it, or null when BigInt refuses it. */
function bigIntWords(text: string, words: number): number[] | null {
  let value: bigint;
  try {
    value = BigInt(text);
  } catch {
    return null;
  }
  const out: number[] = [];
  for (let w = 0; w < words; w++) out.push(Number(BigInt.asIntN(32, value >> BigInt(32 * w))));
  return out;
}

describe('reading bitboard text', () => {
  const hexDigit = fc.constantFrom(...'0123456789abcdefABCDEF');
  const squares = fc.constantFrom(40, 64, 100, 128, 256, 1000, 4096);

  it('reads any digits, any case and any leading zeros as BigInt does', () => {
    fc.assert(
      fc.property(squares, fc.array(hexDigit, { maxLength: 1030 }), (n, digits) => {
        const text = `0x${digits.join('') || '0'}`;
        const words = (n + 31) >>> 5;
        const out = new Int32Array(words).fill(7);
        const problem = parseWordsInto(text, n, out);
        const expected = bigIntWords(text, words)!;
        const fits = BigInt(text) >> BigInt(n) === 0n;
        expect(problem).toBe(fits ? null : 'has a square beyond the board');
        if (fits) expect(Array.from(out)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses a text with one character that is not a hex digit, wherever it is', () => {
    // ASCII neighbours of the digits, and characters above 127 whose low bits look like digits.
    const wrong = fc.constantFrom('/', ':', '@', 'G', '`', 'g', ' ', 'x', '\u0130', '\u00e1', '\u0161', '\u4e00');
    fc.assert(
      fc.property(
        squares,
        fc.array(hexDigit, { minLength: 1, maxLength: 1030 }),
        wrong,
        fc.nat(),
        (n, digits, bad, at) => {
          const chars = [...digits];
          chars[at % chars.length] = bad;
          const out = new Int32Array((n + 31) >>> 5);
          expect(parseWordsInto(`0x${chars.join('')}`, n, out)).toBe(
            'is not a bitboard: expected 0x followed by hexadecimal digits',
          );
        },
      ),
      { numRuns: 3000 },
    );
  });
});

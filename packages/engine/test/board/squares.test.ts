/**
 * Square names and square-set text, as the contract defines them: `e4` = 28 on 8 x 8, `aa27` =
 * file 26 rank 26, case-insensitive input and lower-case output, leading zeros and off-board names
 * rejected; `0x` + exactly ceil(files*ranks/4) lower-case digits on output, fewer digits and any
 * case on input, set bits beyond the board and malformed text rejected. Every rejection must be an
 * `InputError` whose message names the offending value. Random names and texts are also compared
 * with the reference's own parser and formatter.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { formatBitboard, parseBitboard, parseSquare, solve, solveBatch, squareName } from '../../src/index.js';
import type { Board } from '../../src/types.js';
import {
  referenceFormatHex,
  referenceIndicesOf,
  referenceParseHex,
  referenceParseSquare,
  referenceSquareName,
} from '../support/reference-bfs.js';

const EIGHT: Board = { files: 8, ranks: 8 };

/** Runs `action`, expects an InputError whose message contains `value`. */
function expectInputError(action: () => unknown, value: string): InputError {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected an InputError for ${JSON.stringify(value)}`).toBeInstanceOf(InputError);
  const error = thrown as InputError;
  expect(error.message).toContain(value);
  return error;
}

/** Bits of a word array (word i = bits 32i..32i+31) as sorted indices. */
function indicesOfWords(words: Uint32Array): number[] {
  const indices: number[] = [];
  words.forEach((word, i) => {
    for (let bit = 0; bit < 32; bit++) if ((word >>> bit) & 1) indices.push(i * 32 + bit);
  });
  return indices;
}

function wordsOfIndices(indices: readonly number[], board: Board): Uint32Array {
  const words = new Uint32Array(Math.ceil((board.files * board.ranks) / 32));
  for (const index of indices) words[index >>> 5] |= 1 << (index & 31);
  return words;
}

describe('square names', () => {
  it('e4 is 28 on 8 x 8, with the little-endian rank-file mapping', () => {
    expect(parseSquare('e4', EIGHT)).toBe(28);
    expect(parseSquare('a1', EIGHT)).toBe(0);
    expect(parseSquare('b1', EIGHT)).toBe(1);
    expect(parseSquare('h1', EIGHT)).toBe(7);
    expect(parseSquare('a2', EIGHT)).toBe(8);
    expect(parseSquare('h8', EIGHT)).toBe(63);
    expect(squareName(28, EIGHT)).toBe('e4');
    expect(squareName(63, EIGHT)).toBe('h8');
  });

  it('aa27 is file 26, rank 26; files go on spreadsheet style', () => {
    const board = { files: 60, ranks: 30 };
    expect(parseSquare('aa27', board)).toBe(26 * 60 + 26);
    expect(squareName(26 * 60 + 26, board)).toBe('aa27');
    expect(squareName(25, board)).toBe('z1');
    expect(squareName(27, board)).toBe('ab1');
    expect(squareName(51, board)).toBe('az1');
    expect(squareName(52, board)).toBe('ba1');
    expect(parseSquare('ba1', board)).toBe(52);
    expect(squareName(255, { files: 256, ranks: 256 })).toBe('iv1');
    expect(squareName(256 * 256 - 1, { files: 256, ranks: 256 })).toBe('iv256');
  });

  it('input is case-insensitive, output lower-case', () => {
    expect(parseSquare('E4', EIGHT)).toBe(28);
    expect(parseSquare('AA27', { files: 27, ranks: 27 })).toBe(26 * 27 + 26);
    expect(parseSquare('aB3', { files: 30, ranks: 3 })).toBe(2 * 30 + 27);
    expect(squareName(2 * 30 + 27, { files: 30, ranks: 3 })).toBe('ab3');
    expect(solve({ piece: 'KING', from: ['E4'], to: ['H8'] }).path?.squares).toEqual(['e4', 'e5', 'f6', 'g7', 'h8']);
  });

  it('a leading zero in the rank is rejected', () => {
    expectInputError(() => parseSquare('a01', EIGHT), 'a01');
    expectInputError(() => parseSquare('a0', EIGHT), 'a0');
    expectInputError(() => parseSquare('e04', EIGHT), 'e04');
  });

  it('off-board names are rejected', () => {
    for (const name of ['i1', 'a9', 'h9', 'aa1', 'e40']) expectInputError(() => parseSquare(name, EIGHT), name);
    expectInputError(() => parseSquare('aa28', { files: 27, ranks: 27 }), 'aa28');
    expectInputError(() => parseSquare('ab1', { files: 27, ranks: 27 }), 'ab1');
  });

  it('malformed names are rejected', () => {
    for (const name of ['', 'e', '4', '4e', 'e4e', 'e-4', ' e4', 'e4 ', 'é4', 'e4.0']) {
      expectInputError(() => parseSquare(name, EIGHT), name);
    }
  });

  it('bad names inside a query are InputErrors naming the value', () => {
    expectInputError(() => solve({ piece: 'KING', from: ['a01'], to: ['h8'] }), 'a01');
    expectInputError(() => solve({ piece: 'KING', from: ['a1'], to: ['z9'] }), 'z9');
    expectInputError(() => solve({ piece: 'KING', from: ['a1'], to: ['h8'], blocked: ['q3'] }), 'q3');
    expectInputError(() => solve({ piece: 'KING', from: ['i1'], to: ['a1'], board: { files: 8, ranks: 3 } }), 'i1');
    expectInputError(
      () =>
        solveBatch([
          { piece: 'KING', from: ['a1'], to: ['h8'] },
          { piece: 'KING', from: ['a01'], to: ['h8'] },
        ]),
      'a01',
    );
  });

  it('board sides outside 1..256 are InputErrors naming the value', () => {
    expectInputError(() => solve({ piece: 'KING', from: ['a1'], to: ['a1'], board: { files: 0, ranks: 8 } }), '0');
    expectInputError(() => solve({ piece: 'KING', from: ['a1'], to: ['a1'], board: { files: 8, ranks: 257 } }), '257');
    expectInputError(() => solve({ piece: 'KING', from: ['a1'], to: ['a1'], board: { files: 2.5, ranks: 8 } }), '2.5');
  });

  it('every square of random boards round-trips, and names agree with the reference', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 256 }),
        fc.integer({ min: 1, max: 256 }),
        fc.nat(),
        (files, ranks, pick) => {
          const board = { files, ranks };
          const index = pick % (files * ranks);
          const name = referenceSquareName(index, board);
          expect(squareName(index, board)).toBe(name);
          expect(parseSquare(name, board)).toBe(index);
          expect(parseSquare(name.toUpperCase(), board)).toBe(index);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('random strings are accepted exactly when the reference accepts them, with the same index', () => {
    const nameLike = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc
        .tuple(fc.stringMatching(/^[a-zA-Z]{0,3}$/), fc.stringMatching(/^[0-9]{0,4}$/))
        .map(([letters, digits]) => letters + digits),
    );
    fc.assert(
      fc.property(
        nameLike,
        fc.integer({ min: 1, max: 256 }),
        fc.integer({ min: 1, max: 256 }),
        (name, files, ranks) => {
          const board = { files, ranks };
          const expected = referenceParseSquare(name, board);
          // The message quotes the value as JSON, so compare with its JSON spelling.
          if (expected === null) expectInputError(() => parseSquare(name, board), JSON.stringify(name).slice(1, -1));
          else expect(parseSquare(name, board)).toBe(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('square-set text', () => {
  it('e4 alone is 0x0000000010000000 on 8 x 8', () => {
    const words = parseBitboard('0x0000000010000000', EIGHT);
    expect(indicesOfWords(words)).toEqual([28]);
    expect(formatBitboard(wordsOfIndices([28], EIGHT), EIGHT)).toBe('0x0000000010000000');
  });

  it('word i holds bits 32i..32i+31', () => {
    const words = parseBitboard('0x8000000100000001', EIGHT);
    expect(words[0]).toBe(1);
    expect(words[1]).toBe(0x80000001);
  });

  it('output has exactly ceil(files*ranks/4) lower-case digits', () => {
    expect(formatBitboard(wordsOfIndices([], EIGHT), EIGHT)).toBe('0x0000000000000000');
    expect(formatBitboard(wordsOfIndices([0], { files: 1, ranks: 1 }), { files: 1, ranks: 1 })).toBe('0x1');
    expect(formatBitboard(wordsOfIndices([0, 8], { files: 3, ranks: 3 }), { files: 3, ranks: 3 })).toBe('0x101');
    expect(
      formatBitboard(wordsOfIndices([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], { files: 5, ranks: 2 }), { files: 5, ranks: 2 }),
    ).toBe('0x3ff');
    const all = Array.from({ length: 64 }, (_, i) => i);
    expect(formatBitboard(wordsOfIndices(all, EIGHT), EIGHT)).toBe('0xffffffffffffffff');
  });

  it('input accepts fewer digits', () => {
    expect(indicesOfWords(parseBitboard('0x10000000', EIGHT))).toEqual([28]);
    expect(indicesOfWords(parseBitboard('0x1', EIGHT))).toEqual([0]);
    expect(indicesOfWords(parseBitboard('0x0', EIGHT))).toEqual([]);
  });

  it('input accepts any case of the digits', () => {
    expect(indicesOfWords(parseBitboard('0xABCDEF', EIGHT))).toEqual(indicesOfWords(parseBitboard('0xabcdef', EIGHT)));
    expect(indicesOfWords(parseBitboard('0xaBcDeF0000000000', EIGHT))).toEqual(
      referenceIndicesOf(referenceParseHex('0xabcdef0000000000', EIGHT)!),
    );
  });

  it('a set bit beyond the board is rejected', () => {
    expectInputError(() => parseBitboard('0x200', { files: 3, ranks: 3 }), '0x200');
    expectInputError(() => parseBitboard('0x1000', { files: 3, ranks: 3 }), '0x1000');
    expectInputError(() => parseBitboard('0x10000000000000000', EIGHT), '0x10000000000000000');
    expectInputError(() => parseBitboard('0x2', { files: 1, ranks: 1 }), '0x2');
    expectInputError(
      () => solve({ piece: 'KING', from: ['a1'], to: ['c3'], board: { files: 3, ranks: 3 }, mask: '0x3ff' }),
      '0x3ff',
    );
  });

  it('malformed text is rejected', () => {
    for (const text of ['0x', '12', '0xg', '', 'x12', '0x12g', '0x 1', '-0x1', '0x-1']) {
      expectInputError(() => parseBitboard(text, EIGHT), text);
    }
    expectInputError(() => solve({ piece: 'KING', from: ['a1'], to: ['h8'], mask: '0xzz' }), '0xzz');
  });

  it('random sets round-trip and agree with the reference', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 256 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 0x7fffffff }),
        fc.integer({ min: 0, max: 100 }),
        (files, ranks, seed, density) => {
          const board = { files, ranks };
          let state = seed;
          const member = Array.from({ length: files * ranks }, () => {
            state = (Math.imul(state, 1103515245) + 12345) >>> 0;
            return state % 100 < density;
          });
          const indices = referenceIndicesOf(member);
          const canonical = referenceFormatHex(member, board);
          expect(formatBitboard(wordsOfIndices(indices, board), board)).toBe(canonical);
          expect(indicesOfWords(parseBitboard(canonical, board))).toEqual(indices);
          const trimmed = `0x${canonical
            .slice(2)
            .replace(/^0+(?=.)/, '')
            .toUpperCase()}`;
          expect(indicesOfWords(parseBitboard(trimmed, board))).toEqual(indices);
        },
      ),
      { numRuns: 500 },
    );
  });
});

/**
 * The two readers of long bitboard texts: the SIMD WebAssembly one (`hex-wasm.ts`), which
 * `parseWordsInto` tries first past 130 characters, and the JavaScript one, its fallback, which
 * reads every text where WebAssembly or its SIMD is refused (a copy of the engine loaded with
 * WebAssembly refused). Both must read what BigInt reads, refuse what the reference refuses
 * with the same reason, on texts up to and past a 256 x 256 board; SIMD must run in Node (a
 * build that silently fell back would pass every other test).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { parseWordsInto } from '../../src/board/bitset.js';
import { readLongHex, wasmHexAvailable } from '../../src/board/hex-wasm.js';
import { referenceParseHex } from '../support/reference-bfs.js';

type Parse = typeof parseWordsInto;

/** `parseWordsInto` of a copy of the engine loaded where WebAssembly is refused. */
let javascriptParse: Parse;

beforeAll(async () => {
  vi.stubGlobal('WebAssembly', {
    Module: () => {
      throw new Error('WebAssembly.Module(): Refused to compile');
    },
  });
  vi.resetModules();
  const loader = await import('../../src/board/hex-wasm.js');
  expect(loader.wasmHexAvailable()).toBe(false);
  javascriptParse = (await import('../../src/board/bitset.js')).parseWordsInto;
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** What the reference reads: the words, or the reason `parseWordsInto` gives. */
function expected(text: string, n: number): { problem: string | null; words: number[] } {
  const words = (n + 31) >>> 5;
  const out = new Array<number>(words).fill(0);
  if (!/^0x[0-9a-fA-F]+$/.test(text)) {
    return { problem: 'is not a bitboard: expected 0x followed by hexadecimal digits', words: out };
  }
  const member = referenceParseHex(text, { files: n, ranks: 1 });
  if (member === null) return { problem: 'has a square beyond the board', words: out };
  member.forEach((on, i) => {
    if (on) out[i >>> 5] |= 1 << (i & 31);
  });
  return { problem: null, words: out };
}

/** Reads `text` with `parse` into the middle of a larger array (the words around must stay). */
function read(parse: Parse, text: string, n: number): { problem: string | null; words: number[] } {
  const out = new Int32Array(((n + 31) >>> 5) + 2).fill(7);
  const problem = parse(text, n, out, 1);
  expect([out[0], out[out.length - 1]]).toEqual([7, 7]);
  return { problem, words: problem === null ? Array.from(out.subarray(1, out.length - 1)) : [] };
}

/**
 * Both readers give the same answer; a text the reference reads, they read as it does; one it
 * refuses, they refuse (with its reason when there is one reason: a text both beyond the board
 * and not hexadecimal is refused for what the reader meets first, from the right).
 */
function expectReads(text: string, n: number): void {
  const simd = read(parseWordsInto, text, n);
  expect(read(javascriptParse, text, n)).toEqual(simd);
  const want = expected(text, n);
  if (want.problem === null) expect(simd).toEqual(want);
  else expect(simd.problem).not.toBeNull();
  if (/^0x[0-9a-fA-F]+$/.test(text)) expect(simd.problem).toBe(want.problem);
}

const hexDigit = fc.constantFrom(...'0123456789abcdefABCDEF');
const wrong = fc.constantFrom('/', ':', '@', 'G', '`', 'g', ' ', 'x', '\0', '\u0130', '\u00e1', '\u4e00');
/** Square counts around the words and the 16-digit units, up to a 128 x 128 board. */
const squares = fc.constantFrom(520, 1000, 4096, 4100, 8191, 16384);

/** A text of digits for n squares: its own length (leading zeros trimmed or added), a digit wrong at times. */
const texts = fc
  .tuple(
    squares,
    fc.array(hexDigit, { minLength: 131, maxLength: 4200 }),
    fc.option(fc.tuple(wrong, fc.nat())),
    fc.nat({ max: 40 }),
  )
  .map(([n, digits, bad, zeros]) => {
    const chars = [...'0'.repeat(zeros), ...digits];
    if (bad !== null) chars[bad[1] % chars.length] = bad[0];
    return { n, text: `0x${chars.join('')}` };
  });

describe('the long bitboard text readers', () => {
  it('runs on WebAssembly SIMD in Node, and reads a valid long text itself', () => {
    expect(wasmHexAvailable()).toBe(true);
    const text = `0x${'0123456789abcdefFEDCBA9876543210'.repeat(33)}`;
    const out = new Int32Array(33 * 4);
    expect(readLongHex(text, 33 * 128, 33 * 4, out, 0)).toBe(true);
    expect(Array.from(out)).toEqual(expected(text, 33 * 128).words);
  });

  it('each reader reads what the reference reads and refuses what it refuses, with its reason', () => {
    fc.assert(
      fc.property(texts, ({ n, text }) => {
        expectReads(text, n);
      }),
      { numRuns: 600 },
    );
  });

  it('reads a whole 256 x 256 board, and texts longer than the module holds', () => {
    const n = 256 * 256;
    const random = fc.sample(fc.array(hexDigit, { minLength: n / 4, maxLength: n / 4 }), { numRuns: 3, seed: 7 });
    for (const digits of random) {
      for (const text of [`0x${digits.join('')}`, `0x${'0'.repeat(100)}${digits.join('')}`, `0x1${digits.join('')}`]) {
        expectReads(text, n);
      }
    }
    expectReads(`0x${'f'.repeat(n / 4 - 1)}7`, n - 1);
    expectReads(`0x${'f'.repeat(n / 4 - 1)}f`, n - 1);
  });
});

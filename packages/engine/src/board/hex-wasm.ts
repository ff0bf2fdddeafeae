/**
 * Long bitboard texts read by the SIMD WebAssembly reader (`wasm/hex.ts`), sixteen digits a
 * vector operation: a 64 x 64 mask is 1,024 digits, a 256 x 256 one 16,384, and reading them a
 * character at a time was the largest cost of a 64 x 64 knight solve after the fill itself. The
 * text goes into the module's memory through `TextEncoder.encodeInto` (native, one pass).
 *
 * Only the quick way: `readLongHex` answers true when it read the text into the words, and false
 * for anything else (SIMD or `TextEncoder` missing here, a text too long for its memory, a
 * character that is not ASCII or not a digit, a square beyond the board), and then
 * `parseWordsInto`'s JavaScript reader, the fallback, reads the text and says what is wrong.
 * The module is compiled synchronously once, when this file loads (under 1 kB); where
 * WebAssembly or its SIMD is refused, the JavaScript reader reads every text.
 */

import { HEX_WASM } from '../generated/hex-wasm.js';
import { decodeBase64Url } from '../util/base64url.js';

/** What the module exports. */
interface HexExports {
  memory: WebAssembly.Memory;
  textOffset(): number;
  maxText(): number;
  wordsOffset(): number;
  parse(len: number): number;
}

/** The reader and its memory's views, or null where it cannot run here. */
const reader = ((): { k: HexExports; bytes: Uint8Array; words: Int32Array; encoder: TextEncoder } | null => {
  try {
    if (typeof TextEncoder !== 'function') return null;
    const module = new WebAssembly.Module(decodeBase64Url(HEX_WASM));
    const k = new WebAssembly.Instance(module, {}).exports as unknown as HexExports;
    // The memory never grows (one page), so the views never go stale.
    return {
      k,
      bytes: new Uint8Array(k.memory.buffer),
      words: new Int32Array(k.memory.buffer),
      encoder: new TextEncoder(),
    };
  } catch {
    return null; // no WebAssembly, or no SIMD: the module does not compile
  }
})();

const textAt = reader === null ? 0 : reader.k.textOffset();
const maxText = reader === null ? 0 : reader.k.maxText();
const wordsAt = reader === null ? 0 : reader.k.wordsOffset() >>> 2;

/** True where the SIMD reader runs here. */
export function wasmHexAvailable(): boolean {
  return reader !== null;
}

/**
 * Reads `text` (`0x` and at least one more character, checked by the caller) as a set of `n`
 * squares into `words` words of `out` from `offset`. Returns false, with `out` in any state,
 * when it cannot (see the header): the caller then reads the text itself.
 */
export function readLongHex(text: string, n: number, words: number, out: Int32Array, offset: number): boolean {
  const len = text.length;
  if (reader === null || len > maxText) return false;
  const { k, bytes, encoder } = reader;
  const { read, written } = encoder.encodeInto(text, bytes.subarray(textAt, textAt + len));
  if (read !== len || written !== len) return false; // not ASCII
  const got = k.parse(len);
  if (got < 0) return false;
  const heap = reader.words;
  // More digits than the board needs must be zeros.
  for (let w = words; w < got; w++) if (heap[wordsAt + w] !== 0) return false;
  const copied = Math.min(got, words);
  out.set(heap.subarray(wordsAt, wordsAt + copied), offset);
  out.fill(0, offset + copied, offset + words);
  const rest = n & 31;
  return rest === 0 || out[offset + words - 1] >>> rest === 0;
}

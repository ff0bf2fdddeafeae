/**
 * The kernel of the 8 x 8 fast path: the WebAssembly build of `wasm/fill64.ts` where it can be
 * compiled, else the JavaScript `fill64.ts`. Both solve the same problems the same way (one
 * 64-bit word a set there, two 32-bit halves here) and the tests run both against the reference
 * BFS. WebAssembly is compiled synchronously when this module loads (a few kilobytes, about a
 * millisecond); where that is refused (a Content-Security-Policy without `wasm-unsafe-eval`, a
 * runtime without WebAssembly), the engine quietly runs on JavaScript, a little slower.
 */

import { FILL64_WASM } from '../generated/fill64-wasm.js';
import { decodeBase64Url } from '../util/base64url.js';
import { layersOut, MAX_LAYERS_64, solve64 } from './fill64.js';

/** A kernel of the 8 x 8 fill. */
export interface Kernel64 {
  /** Which one this is. */
  readonly name: 'webassembly' | 'javascript';
  /**
   * Solves one problem given as (low, high) word pairs, sources and targets within the passable
   * set. Returns D and leaves L_k in `words[2k]` (a1..h4) and `words[2k + 1]` (a5..h8), or
   * returns -1 when no target is reachable.
   */
  readonly solve: typeof solve64;
  /** Where `solve` leaves the layers (overwritten by the next solve). */
  readonly words: Int32Array;
  /** Where `solve` leaves each layer's square count, or null when it does not count them. */
  readonly counts: Int32Array | null;
}

/** The JavaScript kernel, which runs everywhere. */
export const javascriptKernel: Kernel64 = { name: 'javascript', solve: solve64, words: layersOut(), counts: null };

/** The WebAssembly kernel, or null where WebAssembly cannot be compiled here. */
function compileWebAssembly(): Kernel64 | null {
  try {
    const module = new WebAssembly.Module(decodeBase64Url(FILL64_WASM));
    const { exports } = new WebAssembly.Instance(module, {});
    const memory = exports.memory as WebAssembly.Memory;
    const layers = (exports.layers as () => number)();
    const counts = (exports.counts as () => number)();
    return {
      name: 'webassembly',
      solve: exports.solve as Kernel64['solve'],
      words: new Int32Array(memory.buffer, layers, 2 * MAX_LAYERS_64),
      counts: new Int32Array(memory.buffer, counts, MAX_LAYERS_64),
    };
  } catch {
    return null;
  }
}

/** The kernel `solve` uses: WebAssembly where it compiles, else JavaScript. */
export const standardKernel: Kernel64 = compileWebAssembly() ?? javascriptKernel;

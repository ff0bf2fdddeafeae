/**
 * Compiles a WebAssembly kernel from the base64url text its build wrote (`src/generated/`),
 * synchronously, as a module loads: browsers allow that for modules under 4 kB on a page's main
 * thread. Null where WebAssembly is refused (a Content-Security-Policy without
 * `'wasm-unsafe-eval'`, a runtime without it), so that the caller falls back to JavaScript.
 */
import { decodeBase64Url } from './base64url.js';

/** The exports of the kernel in `text`, typed as the caller knows them; null where it cannot be compiled here. */
export function instantiateKernel<Exports>(text: string): Exports | null {
  try {
    const module = new WebAssembly.Module(decodeBase64Url(text));
    return new WebAssembly.Instance(module, {}).exports as unknown as Exports;
  } catch {
    return null;
  }
}

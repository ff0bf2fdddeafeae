/**
 * Hex SHA-256 of text, the cache key of a problem. `@noble/hashes` by default rather than
 * `node:crypto`: the engine imports no Node built-in, so it bundles for a browser, and the digest
 * stays synchronous (WebCrypto's is not). A host that has a faster one (the service passes
 * `node:crypto`'s, about a hundred times faster on a 256 x 256 problem's 50 kB of text) installs
 * it with `useSha256`; both give the same digest of the same UTF-8 bytes, so keys never change.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

const utf8 = new TextEncoder();

/** The portable digest. */
function nobleSha256Hex(text: string): string {
  return bytesToHex(sha256(utf8.encode(text)));
}

let digest: (text: string) => string = nobleSha256Hex;

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return digest(text);
}

/**
 * Installs another SHA-256 implementation for problem keys (lower-case hex of the UTF-8 bytes:
 * the same function, only faster), or the portable one again with no argument.
 */
export function useSha256(implementation?: (text: string) => string): void {
  digest = implementation ?? nobleSha256Hex;
}

/**
 * Hex SHA-256 of text, the cache key of a problem. `@noble/hashes` rather than `node:crypto`:
 * the engine imports no Node built-in, so it bundles for a browser, and the digest stays
 * synchronous (WebCrypto's is not). Same digest of the same UTF-8 bytes, so keys are unchanged.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

const utf8 = new TextEncoder();

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8.encode(text)));
}

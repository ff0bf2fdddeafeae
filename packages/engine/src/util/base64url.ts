/**
 * Base64url (RFC 4648 section 5) in plain JavaScript, so the engine needs no `Buffer` and runs
 * in a browser. Path cursors are written with it.
 *
 * Encoding writes the URL alphabet without padding, as `Buffer#toString('base64url')` did.
 * Decoding is as lenient as `Buffer.from(text, 'base64url')` on Node 20, which read cursors
 * before: it takes both alphabets ('+' or '-', '/' or '_'), skips any other character, stops at
 * the first '=' and drops a last lone character. So every cursor that decoded before decodes to
 * the same bytes. (Node also reads a character above U+00FF as its low byte; this skips it.)
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The 6-bit value of each character code below 256, or -1. */
const VALUES = new Int8Array(256).fill(-1);
for (let i = 0; i < 64; i++) VALUES[ALPHABET.charCodeAt(i)] = i;
VALUES[0x2b] = 62; // '+'
VALUES[0x2f] = 63; // '/'

const EQUALS = 0x3d;

/** Base64url text of `bytes`, without padding. */
export function encodeBase64Url(bytes: Uint8Array): string {
  const n = bytes.length;
  let out = '';
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[v >> 18] + ALPHABET[(v >> 12) & 63] + ALPHABET[(v >> 6) & 63] + ALPHABET[v & 63];
  }
  if (n - i === 1) {
    const v = bytes[i] << 16;
    out += ALPHABET[v >> 18] + ALPHABET[(v >> 12) & 63];
  } else if (n - i === 2) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += ALPHABET[v >> 18] + ALPHABET[(v >> 12) & 63] + ALPHABET[(v >> 6) & 63];
  }
  return out;
}

/** The bytes of base64 or base64url `text`, read leniently (see the module comment); never throws. */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array((text.length * 3) >>> 2);
  let k = 0;
  let acc = 0;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 256 ? VALUES[c] : -1;
    if (v < 0) {
      if (c === EQUALS) break;
      continue;
    }
    acc = (acc << 6) | v;
    if (++count === 4) {
      out[k++] = acc >> 16;
      out[k++] = acc >> 8;
      out[k++] = acc;
      acc = 0;
      count = 0;
    }
  }
  if (count === 2) out[k++] = acc >> 4;
  else if (count === 3) {
    out[k++] = acc >> 10;
    out[k++] = acc >> 2;
  }
  return out.subarray(0, k);
}

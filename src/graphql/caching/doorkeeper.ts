/**
 * Admission to an in-memory cache on a key's second sighting (TinyLFU's "doorkeeper").
 *
 * The service's caches of texts (whole responses, parsed documents, prepared questions) are least
 * recently used lists. A front end that asks for thousands of positions, each once, would push an
 * entry into each of them per request: every entry is made, kept long enough to outlive the young
 * generation of the heap, then dropped unread, and the old generation's collector pays for all of
 * them. Most such texts never come again; those that do come again soon. So a cache asks the
 * doorkeeper first and keeps an entry only for a key seen before: a key's first sighting costs
 * two bits here, and a text asked twice is kept from its second time (one more parse or execution
 * than with no doorkeeper, once).
 *
 * The sightings are two bits per key in a fixed bit array (a Bloom filter), cleared whenever
 * `capacity` new keys have been recorded since the last clearing, so memory stays fixed and old
 * sightings fade. A false "seen" (about one key in twenty just before a clearing, far fewer
 * after) only lets in one entry that the cache would have kept without a doorkeeper; a clearing
 * only makes a returning key wait for one more sighting.
 */

/** Bits in the filter: 128 KiB. */
const DEFAULT_BITS = 1 << 20;

/** FNV-1a over the UTF-16 code units of `text`, 32 bits. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A second, independent-enough index from the first hash (murmur3's finaliser). */
function remix(hash: number): number {
  let h = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Remembers which keys were seen, approximately, in fixed memory. */
export class Doorkeeper {
  readonly #words: Int32Array;
  readonly #mask: number;
  readonly #capacity: number;
  #recorded = 0;

  /** `bits` (a power of two) of sightings, cleared after `capacity` new keys (an eighth of the bits by default). */
  constructor(bits = DEFAULT_BITS, capacity = bits / 8) {
    if (!Number.isInteger(Math.log2(bits)) || bits < 32)
      throw new RangeError(`bits must be a power of two >= 32, got ${bits}`);
    this.#words = new Int32Array(bits / 32);
    this.#mask = bits - 1;
    this.#capacity = Math.max(1, Math.floor(capacity));
  }

  /** Whether `key` was (probably) seen since the last clearing; records the sighting either way. */
  seen(key: string): boolean {
    const first = fnv1a(key);
    const a = first & this.#mask;
    const b = remix(first) & this.#mask;
    const words = this.#words;
    const wasA = (words[a >>> 5] >>> (a & 31)) & 1;
    const wasB = (words[b >>> 5] >>> (b & 31)) & 1;
    if (wasA && wasB) return true;
    if (++this.#recorded > this.#capacity) {
      words.fill(0);
      this.#recorded = 1;
    }
    words[a >>> 5] |= 1 << (a & 31);
    words[b >>> 5] |= 1 << (b & 31);
    return false;
  }
}

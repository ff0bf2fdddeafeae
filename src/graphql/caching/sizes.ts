/**
 * How the service's caches in memory weigh their entries, and report their size. An entry's
 * bytes are an estimate of the heap it holds: 2 bytes a character of text (what a string of
 * other than Latin-1 takes; most take one), the bytes of typed arrays, and a few words for each
 * object, array slot and property (V8's objects take somewhat more). Measured against the heap of
 * games read from PGN, it is within some 20 % either way (a 1,000-ply game some 300 to 500 KB,
 * one of 6,500 tag pairs about 900 KB). Weighing a 1,000-ply game takes under a millisecond,
 * once, when it is kept.
 *
 * Every cache keeps no entry over an eighth of its bound (`entryBound`), so one question, however
 * large its answer, can never empty a cache of everything else.
 */
import type { LRUCache } from 'lru-cache';

/** A cache's size, as `/metrics` shows it. */
export interface CacheSize {
  entries: number;
  /** Estimated bytes of its entries. */
  bytes: number;
  /** Its bound in bytes (0: it keeps nothing). */
  maxBytes: number;
}

/** Bytes of a string's header, and per character. */
export const STRING_BYTES = 16;
export const CHARACTER_BYTES = 2;
/** Bytes of an object's header, and per property or array slot. */
const OBJECT_BYTES = 24;
const SLOT_BYTES = 8;

/** Largest share of its cache one entry may take. */
const ENTRY_SHARE = 8;

/** The largest entry a cache bounded by `maxBytes` keeps. */
export function entryBound(maxBytes: number): number {
  return Math.max(1, Math.floor(maxBytes / ENTRY_SHARE));
}

/** Estimated bytes of a string. */
export function textBytes(text: string): number {
  return STRING_BYTES + CHARACTER_BYTES * text.length;
}

/**
 * Estimated bytes of a tree of plain data (strings, numbers, arrays, objects, typed arrays, an
 * error's message and fields), as a cache entry holds it. Shared parts are counted once.
 */
export function estimateBytes(root: unknown): number {
  const seen = new Set<object>();
  const walk = (value: unknown): number => {
    if (typeof value === 'string') return textBytes(value);
    if (typeof value !== 'object' || value === null) return SLOT_BYTES;
    if (seen.has(value)) return 0;
    seen.add(value);
    if (ArrayBuffer.isView(value)) return OBJECT_BYTES + value.byteLength;
    let bytes = OBJECT_BYTES;
    if (Array.isArray(value)) {
      for (const item of value)
        bytes += SLOT_BYTES + (typeof item === 'object' || typeof item === 'string' ? walk(item) : 0);
      return bytes;
    }
    if (value instanceof Error) bytes += walk(value.message) + walk(value.stack ?? '');
    const record = value as Record<string, unknown>;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const item = record[key];
      bytes += SLOT_BYTES + (typeof item === 'object' || typeof item === 'string' ? walk(item) : 0);
    }
    return bytes;
  };
  return walk(root);
}

/** The size of an LRU bounded by `maxBytes` (absent: a cache turned off). */
export function lruSize(lru: { size: number; calculatedSize: number } | undefined, maxBytes: number): CacheSize {
  return lru ? { entries: lru.size, bytes: lru.calculatedSize, maxBytes } : { entries: 0, bytes: 0, maxBytes };
}

/** Options that bound an LRU to `maxBytes`, each entry weighed by `weigh` (at least 1). */
export function byteBound<V extends NonNullable<unknown>>(
  maxBytes: number,
  weigh: (value: V, key: string) => number,
): { maxSize: number; maxEntrySize: number; sizeCalculation: LRUCache.SizeCalculator<string, V> } {
  return {
    maxSize: maxBytes,
    maxEntrySize: entryBound(maxBytes),
    sizeCalculation: (value, key) => Math.max(1, Math.ceil(weigh(value, key))),
  };
}

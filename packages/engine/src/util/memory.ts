/**
 * What the engine keeps between calls, bounded in bytes. Two caches, each a least-recently-used
 * list with an estimated size per entry:
 *
 * - `betza`: the fairy pieces read from Betza texts (by text, and by canonical text), at most
 *   `BETZA_TEXTS_KEPT` texts: reading a rider takes up to tens of milliseconds, and a service asks
 *   about the same few pieces again and again.
 * - `boards`: what is built per board size and kept for the next question on it: the board's
 *   geometry (edge and rank masks), the general fill's scratch (which grows to the largest solve
 *   it served), and each fairy piece's tables on that board (shifts, guards, ride chains). A
 *   256 x 256 board's tables run to megabytes, a 64 x 64 board's to tens of kilobytes.
 *
 * An entry is never larger than an eighth of its cache: a larger one is built, used and dropped,
 * so no single question can push out everything else. Sizes are estimates of the heap an entry
 * holds: 2 bytes a character of text, the byte length of typed arrays, and a few words for each
 * object and array. Whatever else the engine keeps is bounded by construction (the tables of the
 * Betza atoms and direction letters, one per atom; fixed 8 x 8 scratch; the WebAssembly knight's
 * memory, laid out for the largest board it served) and said so where it is kept.
 *
 * The caches belong to the module, so to a thread: a program with worker threads has one set per
 * thread, each within the same bounds, and sets them in each (`setEngineCacheBytes`).
 */

/** The engine's caches. */
export type EngineCacheName = 'betza' | 'boards';

/** A cache's size: entries, their estimated bytes, and the bound in bytes. */
export interface EngineCacheSize {
  entries: number;
  bytes: number;
  maxBytes: number;
}

/** Default bounds, bytes. */
export const DEFAULT_ENGINE_CACHE_BYTES: Readonly<Record<EngineCacheName, number>> = {
  betza: 4 * 1024 * 1024,
  boards: 32 * 1024 * 1024,
};

/** Most texts the Betza cache keeps, whatever their size (each is also the key of a piece's tables). */
export const BETZA_TEXTS_KEPT = 256;

/** Largest share of its cache one entry may take. */
const ENTRY_SHARE = 8;

interface Entry<V> {
  key: string;
  value: V;
  bytes: number;
  /** The neighbours in the order of use (null at either end). */
  newer: Entry<V> | null;
  older: Entry<V> | null;
}

/**
 * A least-recently-used list bounded in estimated bytes (and, optionally, entries). The order of
 * use is a list linked through the entries, so a hit moves its entry to the front with a few
 * pointer writes (a `Map` delete and set did it in about 0.2 us, a few percent of a 64 x 64
 * solve, which looks up two entries).
 */
export class KeptCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  #newest: Entry<V> | null = null;
  #oldest: Entry<V> | null = null;
  #bytes = 0;
  #maxBytes: number;
  #version = 0;

  constructor(
    maxBytes: number,
    readonly maxEntries = Number.POSITIVE_INFINITY,
  ) {
    this.#maxBytes = maxBytes;
  }

  /** The value of `key`, now the most recently used; undefined when not kept. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry !== this.#newest) {
      this.#unlink(entry);
      this.#pushNewest(entry);
      this.#version++;
    }
    return entry.value;
  }

  /**
   * Counts the changes of the cache (an entry kept, resized, dropped, or moved in the order of
   * use): while it stands still, looking up the same keys again would change nothing.
   */
  get version(): number {
    return this.#version;
  }

  /** Whether `key` is kept (its place in the list unchanged). */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** Keeps `value` of `bytes` under `key` (not over an eighth of the bound); the least recently used go past it. */
  set(key: string, value: V, bytes: number): void {
    this.#version++;
    this.delete(key);
    if (bytes > this.maxEntryBytes) return;
    const entry: Entry<V> = { key, value, bytes, newer: null, older: null };
    this.#entries.set(key, entry);
    this.#pushNewest(entry);
    this.#bytes += bytes;
    this.#trim();
  }

  /** The entry of `key` now holds `bytes` (it grew, or shrank); dropped when over an eighth of the bound. */
  resize(key: string, bytes: number): void {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.bytes === bytes) return;
    this.#version++;
    if (bytes > this.maxEntryBytes) {
      this.delete(key);
      return;
    }
    this.#bytes += bytes - entry.bytes;
    entry.bytes = bytes;
    this.#trim();
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#version++;
    this.#entries.delete(key);
    this.#unlink(entry);
    this.#bytes -= entry.bytes;
  }

  /** Largest entry kept, bytes. */
  get maxEntryBytes(): number {
    return Math.floor(this.#maxBytes / ENTRY_SHARE);
  }

  set maxBytes(bytes: number) {
    this.#maxBytes = bytes;
    for (const [key, entry] of [...this.#entries]) if (entry.bytes > this.maxEntryBytes) this.delete(key);
    this.#trim();
  }

  get size(): EngineCacheSize {
    return { entries: this.#entries.size, bytes: this.#bytes, maxBytes: this.#maxBytes };
  }

  #pushNewest(entry: Entry<V>): void {
    entry.older = this.#newest;
    entry.newer = null;
    if (this.#newest !== null) this.#newest.newer = entry;
    this.#newest = entry;
    if (this.#oldest === null) this.#oldest = entry;
  }

  #unlink(entry: Entry<V>): void {
    if (entry.newer !== null) entry.newer.older = entry.older;
    else this.#newest = entry.older;
    if (entry.older !== null) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    entry.newer = null;
    entry.older = null;
  }

  #trim(): void {
    while (this.#bytes > this.#maxBytes || this.#entries.size > this.maxEntries) {
      const oldest = this.#oldest;
      if (oldest === null) return;
      this.delete(oldest.key);
    }
  }
}

const caches: Record<EngineCacheName, KeptCache<unknown>> = {
  betza: new KeptCache(DEFAULT_ENGINE_CACHE_BYTES.betza, BETZA_TEXTS_KEPT),
  boards: new KeptCache(DEFAULT_ENGINE_CACHE_BYTES.boards),
};

/** One kind of entry of a cache: its keys under a prefix of their own, its values typed. */
export interface KeptTables<V> {
  get(key: string): V | undefined;
  /** The whole cache's `KeptCache.version` (all kinds together). */
  version(): number;
  has(key: string): boolean;
  set(key: string, value: V, bytes: number): void;
  resize(key: string, bytes: number): void;
}

/** The entries of `kind` in the cache `name` (keys prefixed by `kind`). */
export function keptTables<V>(name: EngineCacheName, kind = ''): KeptTables<V> {
  const cache = caches[name] as KeptCache<V>;
  const prefix = kind === '' ? '' : `${kind}:`;
  return {
    get: (key) => cache.get(prefix + key),
    version: () => cache.version,
    has: (key) => cache.has(prefix + key),
    set: (key, value, bytes) => cache.set(prefix + key, value, bytes),
    resize: (key, bytes) => cache.resize(prefix + key, bytes),
  };
}

/**
 * Sets the bound of the engine's caches in this thread, bytes (0: keep nothing); the least
 * recently used entries go at once if they no longer fit. Unnamed caches keep their bound.
 */
export function setEngineCacheBytes(bounds: Partial<Record<EngineCacheName, number>>): void {
  for (const name of Object.keys(caches) as EngineCacheName[]) {
    const bytes = bounds[name];
    if (bytes === undefined) continue;
    if (!Number.isSafeInteger(bytes) || bytes < 0) {
      throw new RangeError(`The ${name} cache's bound must be a whole number of bytes, 0 or more; got ${bytes}`);
    }
    caches[name].maxBytes = bytes;
  }
}

/** The size of each of the engine's caches in this thread. */
export function engineCacheSizes(): Record<EngineCacheName, EngineCacheSize> {
  return { betza: caches.betza.size, boards: caches.boards.size };
}

/** Estimated bytes of an object with `fields` fields, and of an array's slots. */
const OBJECT_BYTES = 24;
const SLOT_BYTES = 8;
const STRING_BYTES = 16;

/**
 * Estimated heap held by `root`: typed arrays by their buffers (each buffer once), strings at 2
 * bytes a character, a few words per object, array and map entry, followed through properties
 * and map entries. Properties named in `skip` are not followed (what an entry shares with
 * another entry, counted there).
 */
export function heldBytes(root: unknown, skip: ReadonlySet<string> = NO_SKIP): number {
  const seen = new Set<unknown>();
  const walk = (value: unknown): number => {
    if (typeof value === 'string') return STRING_BYTES + 2 * value.length;
    if (typeof value !== 'object' || value === null || seen.has(value)) return 0;
    seen.add(value);
    if (ArrayBuffer.isView(value)) {
      if (seen.has(value.buffer)) return OBJECT_BYTES;
      seen.add(value.buffer);
      return OBJECT_BYTES + value.buffer.byteLength;
    }
    if (Array.isArray(value)) {
      let bytes = OBJECT_BYTES + SLOT_BYTES * value.length;
      for (const item of value) bytes += walk(item);
      return bytes;
    }
    if (value instanceof Map) {
      let bytes = OBJECT_BYTES;
      for (const [k, v] of value) bytes += 3 * SLOT_BYTES + walk(k) + walk(v);
      return bytes;
    }
    let bytes = OBJECT_BYTES;
    for (const key of Object.keys(value)) {
      bytes += SLOT_BYTES;
      if (!skip.has(key)) bytes += walk((value as Record<string, unknown>)[key]);
    }
    return bytes;
  };
  return walk(root);
}

const NO_SKIP: ReadonlySet<string> = new Set();

/**
 * Which keys the result cache table may hold, in memory, so that a lookup for a key never
 * written is not sent to the database at all (a lookup that misses costs some 33 µs of the event
 * loop on SQLite, more than solving an 8 x 8 question again).
 *
 * Design: a set of 32-bit fingerprints (the first 8 hex digits of the SHA-256 key), open
 * addressing in one `Uint32Array` kept at most half full, doubled when it fills: 4 to 8 bytes a
 * key (a million rows, at most 8 MiB), against some 150 bytes a key for a `Set` of the key
 * texts. It has no false negatives: every key written through this store, or read from the table
 * when it was loaded, is in it. Two keys with the same fingerprint make a false positive (about
 * one lookup in 4,000 with a million rows), which only costs the lookup it would have cost anyway.
 * Rows evicted stay in it (a stale positive: one lookup that misses) until it is loaded again:
 * when it holds twice the keys the table had at its last loading (and at least 65,536), it is
 * loaded again in the background.
 *
 * Loading reads the keys (not the rows) in pages of `LOAD_PAGE` keys in key order, the event loop
 * running between pages; until it is done `mayHold` answers true for every key (everything is
 * looked up, as before). Under SQLite's exclusive lock nothing else writes the table, so the
 * filter is exact. On PostgreSQL other replicas write too: `refresh` (every second, from the
 * result cache) reads the keys of rows written or hit since a little before the last refresh
 * (the `(lastHitAt, key)` index serves it), so a row another replica stored is seen here about a
 * second later; until then a question asked here is solved again, which is what a stale filter
 * costs. Rows that come with old times (an import into a running fleet) are seen at the next
 * whole loading (every ten minutes there) or restart.
 */
import { yieldToEventLoop } from './chunks.js';
import type { PrismaClient } from './generated/prisma/client.js';
import type { StoreLogger } from './migrate.js';

/** How often the filter reads what other replicas wrote (PostgreSQL), ms. */
export const KEYS_REFRESH_MS = 1000;
/** Every this many refreshes it is loaded whole again (rows imported with old times, evicted keys). */
export const KEYS_RELOAD_REFRESHES = 600;
/** Keys read per statement while loading or refreshing. */
export const LOAD_PAGE = 10_000;
/** How far before the last refresh a refresh reads again (clocks of replicas, late commits), ms. */
export const REFRESH_SLACK_MS = 10_000;
/** Fewest keys at which growth past twice the loaded count makes a new loading. */
const RELOAD_FLOOR = 65_536;

/** The fingerprint of a hex SHA-256 key: its first 32 bits, never 0 (0 marks an empty slot). */
function fingerprint(key: string): number {
  const value = Number.parseInt(key.slice(0, 8), 16);
  return Number.isNaN(value) || value === 0 ? 1 : value >>> 0;
}

/** Fingerprints of keys, in fixed-size words; see the file comment. */
export class FingerprintSet {
  #slots = new Uint32Array(1024);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Bytes of its table. */
  get bytes(): number {
    return this.#slots.byteLength;
  }

  has(key: string): boolean {
    const print = fingerprint(key);
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let i = Math.imul(print, 0x9e3779b1) & mask; ; i = (i + 1) & mask) {
      const slot = slots[i];
      if (slot === print) return true;
      if (slot === 0) return false;
    }
  }

  add(key: string): void {
    if (this.#insert(fingerprint(key)) && ++this.#size * 2 > this.#slots.length) this.#grow();
  }

  /** Places a fingerprint; false when it was there already. */
  #insert(print: number): boolean {
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let i = Math.imul(print, 0x9e3779b1) & mask; ; i = (i + 1) & mask) {
      const slot = slots[i];
      if (slot === print) return false;
      if (slot === 0) {
        slots[i] = print;
        return true;
      }
    }
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2);
    for (const print of old) if (print !== 0) this.#insert(print);
  }
}

/** The filter of written keys; see the file comment. */
export class WrittenKeys {
  readonly #prisma: PrismaClient;
  #set = new FingerprintSet();
  /** Keys added while a loading runs (added to the new set when it is done). */
  #addedMeanwhile: string[] | undefined;
  #ready = false;
  #loading: Promise<void> | undefined;
  #loadedCount = 0;
  /** Where the next refresh starts (PostgreSQL): a little before the last one started. */
  #refreshFrom = new Date(0);
  #refreshing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(prisma: PrismaClient) {
    this.#prisma = prisma;
  }

  /** False only when the key is certainly not in the table (always true until loaded). */
  mayHold(key: string): boolean {
    return !this.#ready || this.#set.has(key);
  }

  /** Whether it has been loaded (before that, every key may be held). */
  get ready(): boolean {
    return this.#ready;
  }

  /** Records keys just written. */
  add(keys: Iterable<string>): void {
    for (const key of keys) {
      this.#set.add(key);
      this.#addedMeanwhile?.push(key);
    }
    if (this.#ready && this.#set.size > Math.max(RELOAD_FLOOR, 2 * this.#loadedCount)) void this.load();
  }

  /**
   * Loads it (a failure is logged: every key is then looked up) and, with `shared` (PostgreSQL),
   * refreshes it every `KEYS_REFRESH_MS` and loads it whole every `KEYS_RELOAD_REFRESHES`.
   */
  start(shared: boolean, logger: StoreLogger): Promise<void> {
    if (shared && !this.#timer) {
      let refreshes = 0;
      this.#timer = setInterval(() => {
        if (++refreshes % KEYS_RELOAD_REFRESHES === 0) this.load().catch(() => undefined);
        else void this.refresh();
      }, KEYS_REFRESH_MS);
      this.#timer.unref();
    }
    return this.load().catch((err: unknown) => {
      if (!this.#closed) logger.warn({ err }, 'keys of the result cache not loaded; every question is looked up');
    });
  }

  /** Keys (fingerprints) held and the bytes of its table, for `/metrics`. */
  size(): { entries: number; bytes: number } {
    return { entries: this.#set.size, bytes: this.#set.bytes };
  }

  /**
   * Reads every key of the table into a new set (pages of `LOAD_PAGE`, the event loop free
   * between them); the old set answers meanwhile. A failure leaves the filter as it was (not
   * ready: every key is looked up) and is thrown.
   */
  load(): Promise<void> {
    this.#loading ??= this.#load().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #load(): Promise<void> {
    const started = new Date(Date.now() - REFRESH_SLACK_MS);
    const set = new FingerprintSet();
    this.#addedMeanwhile = [];
    try {
      let after: string | undefined;
      for (;;) {
        if (this.#closed) return;
        const rows = await this.#prisma.cachedResult.findMany({
          where: after === undefined ? {} : { key: { gt: after } },
          select: { key: true },
          orderBy: { key: 'asc' },
          take: LOAD_PAGE,
        });
        for (const { key } of rows) set.add(key);
        if (rows.length < LOAD_PAGE) break;
        after = rows[rows.length - 1].key;
        await yieldToEventLoop();
      }
      for (const key of this.#addedMeanwhile) set.add(key);
      this.#set = set;
      this.#loadedCount = set.size;
      this.#refreshFrom = started;
      this.#ready = true;
    } finally {
      this.#addedMeanwhile = undefined;
    }
  }

  /**
   * Adds the keys of rows written or hit since a little before the last refresh (PostgreSQL,
   * where other replicas write). A failure is left for the next refresh.
   */
  refresh(): Promise<void> {
    if (!this.#ready || this.#loading) return Promise.resolve();
    this.#refreshing ??= this.#refresh()
      .catch(() => undefined)
      .finally(() => {
        this.#refreshing = undefined;
      });
    return this.#refreshing;
  }

  async #refresh(): Promise<void> {
    const started = new Date(Date.now() - REFRESH_SLACK_MS);
    let from: { lastHitAt: Date; key: string } | undefined;
    const since = this.#refreshFrom;
    for (;;) {
      if (this.#closed) return;
      const rows = await this.#prisma.cachedResult.findMany({
        where: from
          ? {
              OR: [{ lastHitAt: { gt: from.lastHitAt } }, { lastHitAt: from.lastHitAt, key: { gt: from.key } }],
            }
          : { lastHitAt: { gte: since } },
        select: { key: true, lastHitAt: true },
        orderBy: [{ lastHitAt: 'asc' }, { key: 'asc' }],
        take: LOAD_PAGE,
      });
      for (const { key } of rows) this.#set.add(key);
      if (rows.length < LOAD_PAGE) break;
      from = rows[rows.length - 1];
      await yieldToEventLoop();
    }
    this.#refreshFrom = started;
  }

  /** Stops loading and refreshing. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
  }
}

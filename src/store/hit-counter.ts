/**
 * Hit counts of the result cache, kept off the read path: a read only counts its hits in memory,
 * and the counts are written in the background a short delay after the first unwritten hit (and
 * before a put evicts, and at close), at most `HIT_KEYS` keys a transaction with two
 * `updateMany`s per distinct count. A count stops at 2^31 - 1: past it PostgreSQL's `INTEGER`
 * column would fail the whole write, and an export of the row could not be imported again. A
 * failed write is logged and its counts are dropped: they only order eviction.
 */
import { yieldToEventLoop } from './chunks.js';
import { DatabaseUnavailableError } from './errors.js';
import type { PrismaClient } from './generated/prisma/client.js';
import type { StoreLogger } from './migrate.js';
import { MAX_INT } from './transfer/fields.js';

/** What the counter needs of the result cache's options. */
export interface HitCounterOptions {
  logger: StoreLogger;
  /** Delay between the first unwritten hit and its write, ms (default 200). */
  hitFlushDelayMs?: number;
  /** Runs each write (the store's availability guard). */
  guardWrite?: <T>(write: () => Promise<T>) => Promise<T>;
}

/** Most keys whose hit counts one transaction updates. */
export const HIT_KEYS = 256;

/** Counts hits in memory and writes them in the background. */
export class HitCounter {
  readonly #prisma: PrismaClient;
  readonly #options: HitCounterOptions;
  /** Hits not yet written: key -> number of hits. */
  #pending = new Map<string, number>();
  #lastHitAt = new Date(0);
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(prisma: PrismaClient, options: HitCounterOptions) {
    this.#prisma = prisma;
    this.#options = options;
  }

  /** Keys with hits not yet written. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Counts one hit of `key`, and schedules a write if none is. */
  count(key: string): void {
    this.#pending.set(key, (this.#pending.get(key) ?? 0) + 1);
    this.#lastHitAt = new Date();
    if (!this.#timer && !this.#closed) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        void this.flush();
      }, this.#options.hitFlushDelayMs ?? 200);
      this.#timer.unref();
    }
  }

  /** Writes pending hit counts now (also waits for a write in progress). */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    const counts = this.#pending;
    const at = this.#lastHitAt;
    this.#pending = new Map();
    const run = this.#flushing.then(async () => {
      const keys = [...counts.keys()];
      const guard = this.#options.guardWrite ?? ((write) => write());
      for (let start = 0; start < keys.length; start += HIT_KEYS) {
        if (start > 0) await yieldToEventLoop();
        const slice = keys.slice(start, start + HIT_KEYS);
        try {
          await guard(() => this.#prisma.$transaction(this.#updates(slice, counts, at)));
        } catch (error) {
          // Unavailability is logged once, by the store, when it starts.
          if (error instanceof DatabaseUnavailableError) return;
          this.#options.logger.error(
            { keys: keys.length - start, err: error },
            'could not record cache hits (hit counts and last-hit times not updated)',
          );
          return;
        }
      }
    });
    this.#flushing = run;
    await run;
  }

  /** Writes what is pending and stops counting into the background. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }

  /**
   * Two `updateMany`s per distinct hit count n among `keys` (usually one n): rows within n of
   * `MAX_INT` are set to it, then the others are incremented by n. Prisma has no capped
   * increment, and the cap goes first so that a row just incremented is not capped again (which
   * would raise it to `MAX_INT`). A row a concurrent writer (another replica) moves between the
   * two is re-checked by PostgreSQL before the increment, so it is never raised past the cap.
   */
  #updates(keys: string[], counts: Map<string, number>, at: Date) {
    const byCount = new Map<number, string[]>();
    for (const key of keys) {
      const n = counts.get(key) ?? 0;
      const same = byCount.get(n);
      if (same) same.push(key);
      else byCount.set(n, [key]);
    }
    return [...byCount].flatMap(([n, same]) => [
      this.#prisma.cachedResult.updateMany({
        where: { key: { in: same }, hitCount: { gt: MAX_INT - n } },
        data: { hitCount: MAX_INT, lastHitAt: at },
      }),
      this.#prisma.cachedResult.updateMany({
        where: { key: { in: same }, hitCount: { lte: MAX_INT - n } },
        data: { hitCount: { increment: n }, lastHitAt: at },
      }),
    ]);
  }
}

/**
 * Writes freshly solved results to the persistent cache after their responses are sent, one
 * `putMany` at a time. Results that arrive while a write is running wait and go together into the
 * next one, so under load many small transactions become a few large ones instead of a pile of
 * concurrent writes on one SQLite connection. The queue is bounded (`maxPending`): past it the
 * oldest waiting results are dropped (counted in the metrics), which only costs a later re-solve,
 * since the cache is an optimisation. A failed write is logged and counted; answers were served
 * anyway. While the database is unavailable the store refuses writes at once; those refusals are
 * counted but logged at most every few seconds (the store logs when it becomes unavailable).
 *
 * Writing through Prisma costs CPU on the event loop (tens of microseconds a row), so under a
 * sustained stream of new questions the writer could take most of the loop and leave requests
 * waiting. It therefore rests after each write for as long as the write took: at most half the
 * loop goes to cache writes, and when that is not enough the queue bound sheds the excess.
 */
import type { Logger } from 'pino';
import type { PathResult } from '../engine/types.js';
import type { Metrics } from '../http/metrics.js';
import { DatabaseUnavailableError, type Store } from '../store/types.js';

/** Most results in one `putMany`. */
const MAX_PER_WRITE = 100;
/** Least time between two log lines about writes refused by an unavailable database. */
const UNAVAILABLE_LOG_MS = 10_000;

/** Options of the writer. */
export interface CacheWriterOptions {
  store: () => Store | undefined;
  metrics: Metrics;
  logger: Logger;
  /** Most results waiting to be written. */
  maxPending: number;
}

/** Serialises and coalesces cache writes. */
export class CacheWriter {
  readonly #options: CacheWriterOptions;
  #queue: PathResult[] = [];
  #running: Promise<void> | undefined;
  #hurry = false;
  #lastUnavailableLog = -Infinity;

  constructor(options: CacheWriterOptions) {
    this.#options = options;
  }

  /** Queues results for the next write and starts one if none is running. */
  enqueue(results: readonly PathResult[]): void {
    if (results.length === 0 || !this.#options.store()) return;
    this.#queue.push(...results);
    const excess = this.#queue.length - this.#options.maxPending;
    if (excess > 0) {
      this.#queue.splice(0, excess);
      this.#options.metrics.cacheErrors.inc({ operation: 'dropped' }, excess);
    }
    this.#running ??= this.#drain().finally(() => {
      this.#running = undefined;
    });
  }

  /** Resolves when nothing is queued or being written. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Writes everything queued without resting between writes (shutdown), then resolves. */
  async flush(): Promise<void> {
    this.#hurry = true;
    try {
      await this.idle();
    } finally {
      this.#hurry = false;
    }
  }

  async #drain(): Promise<void> {
    // Let the response that produced these results go out first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.#queue.length > 0) {
      const store = this.#options.store();
      if (!store) {
        this.#queue = [];
        return;
      }
      const batch = this.#queue.splice(0, MAX_PER_WRITE);
      const started = performance.now();
      try {
        await store.cache.putMany(batch);
      } catch (err) {
        this.#options.metrics.cacheErrors.inc({ operation: 'put' });
        const unavailable = err instanceof DatabaseUnavailableError;
        if (!unavailable || performance.now() - this.#lastUnavailableLog >= UNAVAILABLE_LOG_MS) {
          if (unavailable) this.#lastUnavailableLog = performance.now();
          this.#options.logger.warn({ err, results: batch.length }, 'result cache write failed; answers were served anyway');
        }
      }
      if (this.#queue.length > 0 && !this.#hurry) {
        const rest = Math.min(performance.now() - started, 1000);
        await new Promise<void>((resolve) => setTimeout(resolve, rest));
      }
    }
  }
}

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
 * Results are encoded (the engine's compact codec, `packed.ts` of the engine package) by the work dispatcher,
 * on the worker pool when they are large, and stored as bytes. Writing through Prisma still costs
 * CPU on the event loop (tens of microseconds a row), so under a sustained stream of new questions
 * the writer could take most of the loop; it therefore rests after each write for as long as the
 * write took: at most half the loop goes to cache writes, and when that is not enough the queue
 * bound (results, and bytes of packed layers) sheds the excess.
 *
 * At shutdown `flush(ms)` writes what it can in the time left and drops the rest: unwritten
 * entries are only a cache.
 */

import { encodeLayers as encodeLayersHere, type PathResult, packedBytes } from '@chess-paths/engine';
import type { Logger } from 'pino';
import type { Metrics } from '../../observability/metrics.js';
import { DatabaseUnavailableError, type Store, type StoredResult } from '../../store/types.js';
import type { WorkDispatcher } from '../work/dispatch.js';
import { knownPacked, packedOf } from '../work/handles.js';

/** Bytes a queued result holds: its packed layers, or its board's worth for one never packed. */
function queuedSize(result: PathResult): number {
  const packed = knownPacked(result);
  return packed ? packedBytes(packed) : result.board.files * result.board.ranks;
}

/** Most results in one `putMany`. */
const MAX_PER_WRITE = 100;
/** Most bytes of packed layers waiting to be written. */
const MAX_PENDING_BYTES = 64 * 1024 * 1024;
/** Least time between two log lines about writes refused by an unavailable database. */
const UNAVAILABLE_LOG_MS = 10_000;

/** Options of the writer. */
export interface CacheWriterOptions {
  store: () => Store | undefined;
  metrics: Metrics;
  logger: Logger;
  /** Most results waiting to be written. */
  maxPending: number;
  /** Encodes results (on the pool when large); without one, they are encoded on this thread. */
  work?: WorkDispatcher;
}

/** Serialises and coalesces cache writes. */
export class CacheWriter {
  readonly #options: CacheWriterOptions;
  #queue: PathResult[] = [];
  #queuedBytes = 0;
  #running: Promise<void> | undefined;
  #hurry = false;
  #dropping = false;
  #lastUnavailableLog = -Infinity;

  constructor(options: CacheWriterOptions) {
    this.#options = options;
  }

  /** Queues results for the next write and starts one if none is running. */
  enqueue(results: readonly PathResult[]): void {
    if (results.length === 0 || !this.#options.store()) return;
    if (this.#dropping) return;
    for (const result of results) {
      this.#queue.push(result);
      this.#queuedBytes += queuedSize(result);
    }
    let excess = 0;
    while (
      this.#queue.length > 0 &&
      (this.#queue.length > this.#options.maxPending || this.#queuedBytes > MAX_PENDING_BYTES)
    ) {
      this.#queuedBytes -= queuedSize(this.#queue.shift() as PathResult);
      excess++;
    }
    if (excess > 0) this.#options.metrics.cacheErrors.inc({ operation: 'dropped' }, excess);
    this.#running ??= this.#drain().finally(() => {
      this.#running = undefined;
    });
  }

  /** Resolves when nothing is queued or being written. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /**
   * Writes what is queued without resting between writes, for at most `ms` (shutdown); what is
   * still queued then is dropped, and nothing queued later is kept.
   */
  async flush(ms = Infinity): Promise<void> {
    this.#hurry = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      if (Number.isFinite(ms)) timer = setTimeout(resolve, ms);
    });
    try {
      await Promise.race([this.idle(), late]);
    } finally {
      clearTimeout(timer);
      this.#hurry = false;
    }
    if (this.#queue.length > 0) {
      this.#options.metrics.cacheErrors.inc({ operation: 'dropped' }, this.#queue.length);
      this.#options.logger.warn({ results: this.#queue.length }, 'shutdown: unwritten cache entries dropped');
    }
    this.#dropping = true;
    this.#queue = [];
    this.#queuedBytes = 0;
  }

  /** Encodes results into the rows the store keeps (results that fail to encode are skipped). */
  async #rows(batch: readonly PathResult[]): Promise<StoredResult[]> {
    const packed = batch.map(packedOf);
    const weights = packed.map((p) => p.squares.length);
    const encoded = this.#options.work
      ? await this.#options.work.run('encode', packed, weights)
      : packed.map((p) => encodeLayersHere(p));
    const rows: StoredResult[] = [];
    batch.forEach((result, i) => {
      const layers = encoded[i];
      if (!(layers instanceof Uint8Array)) return;
      rows.push({
        key: result.key,
        problem: result.problem,
        distance: result.distance,
        layers,
        pathCount: result.knownPathCount,
      });
    });
    return rows;
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
      for (const result of batch) this.#queuedBytes -= queuedSize(result);
      const started = performance.now();
      try {
        await store.cache.putMany(await this.#rows(batch));
      } catch (err) {
        this.#options.metrics.cacheErrors.inc({ operation: 'put' });
        const unavailable = err instanceof DatabaseUnavailableError;
        if (!unavailable || performance.now() - this.#lastUnavailableLog >= UNAVAILABLE_LOG_MS) {
          if (unavailable) this.#lastUnavailableLog = performance.now();
          this.#options.logger.warn(
            { err, results: batch.length },
            'result cache write failed; answers were served anyway',
          );
        }
      }
      if (this.#queue.length > 0 && !this.#hurry) {
        const rest = Math.min(performance.now() - started, 1000);
        await new Promise<void>((resolve) => setTimeout(resolve, rest));
      }
    }
  }
}

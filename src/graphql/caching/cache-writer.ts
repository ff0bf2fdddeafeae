/**
 * Writes freshly solved results to the persistent cache after their responses are sent, one
 * `putMany` at a time. The first results after a quiet spell are written at once; while results
 * keep coming they are gathered for a moment (`gatherMs`, or until a write's worth is waiting)
 * before each write: on SQLite a row written alone costs the event loop about 100 µs, a row of a
 * hundred written together about 20 (the transaction, the statements and the store's own
 * bookkeeping are paid once a write), so a stream of new questions is written in a few large
 * writes rather than many small ones. A question asked again while its result still waits is not
 * solved again: the loader asks `written(keys)` first, which has those results written at once,
 * ahead of the rest of the queue, and resolves when they no longer wait, so the answer is read
 * back from the cache (`cached: true`) as it would have been after the write. The queue is
 * bounded (`maxPending`): past it the oldest waiting results are dropped (counted in the
 * metrics), which only costs a later re-solve, since the cache is an optimisation. A failed write is logged and counted; answers were served anyway. While the
 * database is unavailable the store refuses writes at once; those refusals are counted but
 * logged at most every few seconds (the store logs when it becomes unavailable).
 *
 * Results are encoded (the engine's compact codec, `packed.ts` of the engine package) by the work
 * dispatcher, on the worker pool when they are large, and stored as bytes. A write still costs CPU
 * on the event loop, so under a sustained stream of new questions the writer could take most of
 * the loop; it therefore rests, while more results wait, for as long as its last write took (at
 * most a second; a write a reader waits for does not wait for it): under a stream at most about
 * half the loop goes to cache writes, and when that is not enough the queue bound (results, and
 * bytes of packed layers) sheds the excess. On a saturated loop it gets much less: a rest's timer
 * fires only after the requests ready in that turn (measured under a flood of batches: rests of
 * 2 ms lasted about 60), so answers come before persistence there.
 *
 * At shutdown `flush(ms)` writes what it can in the time left and drops the rest: unwritten
 * entries are only a cache.
 */

import { encodeLayers as encodeLayersHere, type PathResult, packedBytes } from '@chess-paths/engine';
import type { Logger } from 'pino';
import type { Metrics } from '../../observability/metrics.js';
import { DatabaseUnavailableError, type Store, type StoredResult } from '../../store/index.js';
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
  /**
   * How long results are gathered before a write while they keep coming, ms
   * (CACHE_WRITE_GATHER_MS), unless a write's worth is waiting or a reader asks; unset or 0,
   * results are written as soon as the writer is free.
   */
  gatherMs?: number;
}

/** Serialises and coalesces cache writes. */
export class CacheWriter {
  readonly #options: CacheWriterOptions;
  #queue: PathResult[] = [];
  #queuedBytes = 0;
  /** Keys in the queue, with how many times each is. */
  readonly #queued = new Map<string, number>();
  /** Keys of the write running now. */
  readonly #writing = new Set<string>();
  /** Keys in the queue that a reader waits for: written first, at once. */
  readonly #wanted = new Set<string>();
  #running: Promise<void> | undefined;
  /** Ends the drain's current wait early; `untilFull`: the gathering, which a write's worth ends too. */
  #wake: { now: () => void; untilFull: boolean } | undefined;
  /** Settles when readers should look at their keys again (a write ended, results were dropped). */
  #change: { promise: Promise<void>; resolve: () => void } | undefined;
  #hurry = false;
  #dropping = false;
  #lastUnavailableLog = -Infinity;
  /** When the last write ended (`performance.now()`). */
  #lastWriteEnd = -Infinity;

  constructor(options: CacheWriterOptions) {
    this.#options = options;
  }

  /** Results that make a write's worth: the gathering ends once as many wait. */
  get #full(): number {
    return Math.min(MAX_PER_WRITE, this.#options.maxPending);
  }

  /** Queues results for a write soon and starts the writer if it is not running. */
  enqueue(results: readonly PathResult[]): void {
    if (results.length === 0 || !this.#options.store()) return;
    if (this.#dropping) return;
    for (const result of results) {
      this.#queue.push(result);
      this.#queuedBytes += queuedSize(result);
      this.#queued.set(result.key, (this.#queued.get(result.key) ?? 0) + 1);
    }
    let excess = 0;
    while (
      this.#queue.length > 0 &&
      (this.#queue.length > this.#options.maxPending || this.#queuedBytes > MAX_PENDING_BYTES)
    ) {
      this.#dequeued(this.#queue.shift() as PathResult);
      excess++;
    }
    if (excess > 0) {
      this.#options.metrics.cacheErrors.inc({ operation: 'dropped' }, excess);
      this.#changed();
    }
    if (this.#queue.length >= this.#full && this.#wake?.untilFull) this.#wake.now();
    if (!this.#running) {
      const running = this.#drain().finally(() => {
        if (this.#running === running) this.#running = undefined;
      });
      this.#running = running;
    }
  }

  /**
   * Undefined when none of `keys` waits to be written; else a promise that has those of them
   * still queued written first, at once, and settles when none of them waits any more: written,
   * or the write failed, or they were dropped.
   */
  written(keys: readonly string[]): Promise<void> | undefined {
    return keys.some((key) => this.#waits(key)) ? this.#writtenNow(keys) : undefined;
  }

  #waits(key: string): boolean {
    return this.#queued.has(key) || this.#writing.has(key);
  }

  async #writtenNow(keys: readonly string[]): Promise<void> {
    while (this.#running && keys.some((key) => this.#waits(key))) {
      for (const key of keys) if (this.#queued.has(key)) this.#wanted.add(key);
      if (this.#wanted.size > 0) this.#wake?.now();
      this.#change ??= withResolve();
      await this.#change.promise;
    }
  }

  /** Resolves when nothing is queued or being written. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /**
   * Writes what is queued without gathering or resting, for at most `ms` (shutdown); what is
   * still queued then is dropped, and nothing queued later is kept.
   */
  async flush(ms = Infinity): Promise<void> {
    this.#hurry = true;
    this.#wake?.now();
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
    this.#clear();
  }

  /** Forgets everything queued (and lets readers waiting for it go on). */
  #clear(): void {
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#queued.clear();
    this.#wanted.clear();
    this.#changed();
  }

  /** `result` has left the queue (to be written, or dropped). */
  #dequeued(result: PathResult): void {
    this.#queuedBytes -= queuedSize(result);
    const left = (this.#queued.get(result.key) ?? 1) - 1;
    if (left > 0) this.#queued.set(result.key, left);
    else {
      this.#queued.delete(result.key);
      this.#wanted.delete(result.key);
    }
  }

  /** Tells readers waiting for keys to look at them again. */
  #changed(): void {
    const change = this.#change;
    this.#change = undefined;
    change?.resolve();
  }

  /** The next write's results: those readers wait for first, then the oldest. */
  #take(): PathResult[] {
    if (this.#wanted.size > 0) {
      const wanted = this.#queue.filter((result) => this.#wanted.has(result.key));
      this.#queue = [...wanted, ...this.#queue.filter((result) => !this.#wanted.has(result.key))];
    }
    const batch = this.#queue.splice(0, MAX_PER_WRITE);
    for (const result of batch) {
      this.#dequeued(result);
      this.#writing.add(result.key);
    }
    return batch;
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

  /**
   * Waits before a write: `restMs` (as long as the last write took), then, while results keep
   * coming (the last write ended within the gathering time), what is left of the gathering time
   * unless a write's worth is waiting. A reader waiting for a queued result, or shutdown, ends
   * either wait; a write's worth arriving ends only the gathering, never the rest, which keeps
   * the writer to its share of the loop however fast results come.
   */
  async #wait(restMs: number): Promise<void> {
    const started = performance.now();
    const gatherMs = this.#options.gatherMs ?? 0;
    const streaming = started - this.#lastWriteEnd < gatherMs;
    await this.#sleep(restMs, false);
    if (!streaming || this.#queue.length >= this.#full) return;
    await this.#sleep(gatherMs - (performance.now() - started), true);
  }

  /** Sleeps `ms` unless a reader or shutdown wakes it (or, with `untilFull`, a write's worth). */
  async #sleep(ms: number, untilFull: boolean): Promise<void> {
    if (ms <= 0 || this.#wanted.size > 0 || this.#hurry) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = {
        untilFull,
        now: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
    this.#wake = undefined;
  }

  async #drain(): Promise<void> {
    let rest = 0;
    // The first wait also lets the response that produced these results go out first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (;;) {
      if (this.#queue.length === 0) {
        // In the same turn as the check, so a result queued from now on starts a new drain.
        this.#running = undefined;
        break;
      }
      await this.#wait(rest);
      const store = this.#options.store();
      if (!store) {
        this.#clear();
        continue;
      }
      const batch = this.#take();
      if (batch.length === 0) continue;
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
      this.#writing.clear();
      this.#changed();
      this.#lastWriteEnd = performance.now();
      rest = Math.min(this.#lastWriteEnd - started, 1000);
    }
    this.#changed();
  }
}

/** A promise with its resolve function. */
function withResolve(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

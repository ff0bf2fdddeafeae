/**
 * The per-request account of engine work (`ENGINE_BUDGET_MS`), and the time slicing of the engine
 * work that stays on the main thread.
 *
 * The account lives in shared memory (Int32s in a SharedArrayBuffer, made when the request first
 * sends work to a worker), so the worker threads that run its heavy tasks add their time to it
 * and read it between items, exactly as the main thread does: once it is spent, the request's
 * running tasks stop within one item, its queued tasks end as soon as they start, and the next
 * piece of work is refused with an `EngineBudgetError` (`ENGINE_BUDGET_EXCEEDED`). Nothing of a
 * cut-off request goes on in the background.
 *
 * Work small enough to stay on the main thread (8 x 8 fills, small lazy fields) is timed and
 * charged too, and paced: after about `SLICE_MS` without a pause, the next piece waits for an
 * event-loop turn of its own (`turns.ts`), so other requests are served in between.
 */
import { ErrorCode, ServiceError } from '../../errors.js';
import type { BudgetCell } from './tasks.js';
import { nextTurn } from './turns.js';

/** Longest stretch of engine work of one request before it lets the event loop run. */
export const SLICE_MS = 5;

/** Engine work of a request went over `ENGINE_BUDGET_MS`. */
export class EngineBudgetError extends ServiceError {
  override readonly name = 'EngineBudgetError';
  readonly code = ErrorCode.EngineBudgetExceeded;
  constructor(
    /** The budget, ms. */
    readonly budgetMs: number,
    /** Engine time spent when the request was cut off, ms. */
    readonly spentMs: number,
  ) {
    super(
      `Engine time budget of ${budgetMs} ms per request (ENGINE_BUDGET_MS) exceeded: ` +
        `${Math.round(spentMs)} ms of engine work spent; ask for fewer or smaller problems, or fewer lazy fields (pathCount, paths, distances), per request`,
    );
  }

  override extensions(): Record<string, unknown> {
    return { limit: 'ENGINE_BUDGET_MS', max: this.budgetMs };
  }
}

/** One request's engine-time account. */
export class EngineBudget {
  /**
   * Spent microseconds (cell 0) and a cancelled flag (cell 1), shared with the worker threads;
   * made on first use (most requests never send work to a worker, and a SharedArrayBuffer is not
   * free).
   */
  #shared: Int32Array | undefined;
  /** Spent microseconds until the shared cells exist. */
  #spentHere = 0;
  /** Why the request's work was cancelled, once it was. */
  #cancelled: Error | undefined;
  #sinceYieldMs = 0;
  /** Lazy pieces waiting in the queue, and the end of the queue. */
  #queued = 0;
  #tail: Promise<void> = Promise.resolve();

  /** `budgetMs` 0 means no budget (slicing still applies). */
  constructor(readonly budgetMs: number) {}

  /** Engine time spent so far, ms (main thread and workers). */
  get spentMs(): number {
    return (this.#shared ? Atomics.load(this.#shared, 0) : this.#spentHere) / 1000;
  }

  /** The account as the workers see it. */
  get cell(): BudgetCell {
    if (!this.#shared) {
      this.#shared = new Int32Array(new SharedArrayBuffer(8));
      this.#shared[0] = this.#spentHere;
      if (this.#cancelled) this.#shared[1] = 1;
    }
    return { spent: this.#shared, limitMicros: this.budgetMs * 1000 };
  }

  /** Why the request's work was cancelled (the budget spent, the client gone), or undefined. */
  get cancelled(): Error | undefined {
    return this.#cancelled;
  }

  /** True once the budget is spent. */
  get exhausted(): boolean {
    return this.budgetMs > 0 && this.spentMs >= this.budgetMs;
  }

  /** Throws `EngineBudgetError` (and cancels the request's remaining work) once the budget is spent. */
  check(): void {
    if (this.#cancelled) throw this.#cancelled;
    if (this.exhausted) {
      this.cancel();
      throw new EngineBudgetError(this.budgetMs, this.spentMs);
    }
  }

  /**
   * Cancels the request's remaining work: nothing more is started, tasks already sent stop at
   * their next item, and every later piece fails with `reason` (by default the budget's own error).
   */
  cancel(reason?: Error): void {
    if (this.#cancelled) return;
    this.#cancelled = reason ?? new EngineBudgetError(this.budgetMs, this.spentMs);
    // Workers stop between items once they see the flag.
    if (this.#shared) Atomics.store(this.#shared, 1, 1);
  }

  /** Notes main-thread work already charged to the account (by `runTask`), for pacing. */
  ranInline(ms: number): void {
    this.#sinceYieldMs += ms;
  }

  /** Adds engine time of the main thread. */
  charge(ms: number): void {
    const micros = Math.min(0x3fffffff, Math.ceil(ms * 1000));
    if (this.#shared) Atomics.add(this.#shared, 0, micros);
    else this.#spentHere += micros;
    this.#sinceYieldMs += ms;
  }

  /** True when this request has worked a full slice since it last let the event loop run. */
  get sliceUsed(): boolean {
    return this.#sinceYieldMs >= SLICE_MS;
  }

  /** Lets the event loop run, and starts a new slice. */
  async pause(): Promise<void> {
    await nextTurn();
    this.#sinceYieldMs = 0;
  }

  /** Runs `work` now (checked against the budget and timed). */
  run<T>(work: () => T): T {
    this.check();
    const started = performance.now();
    try {
      return work();
    } finally {
      this.charge(performance.now() - started);
    }
  }

  /**
   * Runs `work` like `run`, but once this request has used its slice, queues it instead: queued
   * pieces run one after another, with a pause whenever another slice is used up. What the
   * resolver of a lazy field returns (synchronously while there is no need to wait). A queue, not
   * one pause per piece: graphql-js calls the resolvers of a whole list in one go, and pieces that
   * all waited for the same `setImmediate` would all run in the same turn of the event loop.
   */
  lazy<T>(work: () => T): T | Promise<T> {
    if (!this.#queued && !this.sliceUsed) return this.run(work);
    this.#queued++;
    const result = this.#tail.then(async () => {
      this.#queued--;
      if (this.sliceUsed) await this.pause();
      return this.run(work);
    });
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

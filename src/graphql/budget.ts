/**
 * The per-request time budget for engine work (`ENGINE_BUDGET_MS`), and the time slicing that
 * keeps one request's engine work from holding the event loop.
 *
 * Engine work runs on the main thread, in the loader's `solveBatch` calls and in the lazy fields
 * the resolvers read (path counts, paths, distance maps, pictures). Every such piece is timed and
 * charged to the request's budget; once the budget is spent, the next piece is refused with an
 * `EngineBudgetError` (`ENGINE_BUDGET_EXCEEDED`), so a request overruns its budget by at most one
 * slice. Worker threads were not used: results are lazy objects read field by field by graphql-js,
 * so the expensive part of a heavy request (its lazy fields) would still run here, and moving the
 * eager part would cost a copy of every result; slicing bounds both with one mechanism.
 *
 * Slicing: after about `SLICE_MS` of engine work without a pause, the next piece waits for the
 * event loop (`setImmediate`), so other requests' I/O and small solves go on in between.
 */

/** Longest stretch of engine work of one request before it lets the event loop run. */
export const SLICE_MS = 10;

/** Engine work of a request went over `ENGINE_BUDGET_MS`. */
export class EngineBudgetError extends Error {
  override readonly name = 'EngineBudgetError';
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
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One request's engine-time account. */
export class EngineBudget {
  #spentMs = 0;
  #sinceYieldMs = 0;
  /** Lazy pieces waiting in the queue, and the end of the queue. */
  #queued = 0;
  #tail: Promise<void> = Promise.resolve();

  /** `budgetMs` 0 means no budget (slicing still applies). */
  constructor(readonly budgetMs: number) {}

  /** Throws `EngineBudgetError` once the budget is spent. */
  check(): void {
    if (this.budgetMs > 0 && this.#spentMs >= this.budgetMs) throw new EngineBudgetError(this.budgetMs, this.#spentMs);
  }

  /** Adds engine time measured elsewhere. */
  charge(ms: number): void {
    this.#spentMs += ms;
    this.#sinceYieldMs += ms;
  }

  /** True when this request has worked a full slice since it last let the event loop run. */
  get sliceUsed(): boolean {
    return this.#sinceYieldMs >= SLICE_MS;
  }

  /** Lets the event loop run, and starts a new slice. */
  async pause(): Promise<void> {
    await yieldToEventLoop();
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

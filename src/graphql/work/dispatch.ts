/**
 * Where a request's engine work runs: on the main thread when it is small, on the worker pool
 * when it is not, decided item by item from an estimate of its cost (`weight`, in units of about
 * one board square of fill work, roughly 0.1-0.2 microseconds each).
 *
 * - Items of weight up to `INLINE_WEIGHT` (an 8 x 8 fill, a 32 x 32 one, a small stored row) run
 *   here, paced in slices by the request's budget: the hop to a worker (a structured clone each
 *   way and a message, tens of microseconds) would cost more than the work.
 * - Heavier items go to the pool in tasks of about `TASK_WEIGHT`, at most as many at a time per
 *   request as there are workers, whatever number of `run` calls the request makes (a list of
 *   analyses reads each one's game with a call of its own), so one request's long batch neither
 *   floods the shared queue nor keeps other requests' tasks waiting behind all of it.
 *
 * Every item ends as its value or an `Error`: `EngineBudgetError` for items the budget cut off
 * (no new task of the request is sent, and its tasks already sent, queued or running, read the
 * shared account between items and stop: a queued one ends as soon as a worker picks it up,
 * having done nothing), `OverloadedError` when the pool's queue was full, an `InputError` for a
 * user's bad input found by the worker (a cursor). Tasks are never aborted through piscina: that
 * ends the worker thread itself, losing the items it finished and costing a new thread.
 */
import type { EngineBudget } from './engine-budget.js';
import { EngineBudgetError } from './engine-budget.js';
import { type EnginePool, OverloadedError } from './pool.js';
import { errorOf, isItemError, runTask, type Task, type TaskAnswer } from './tasks.js';

/** Heaviest item run on the main thread. */
export const INLINE_WEIGHT = 1024;
/** Weight of one pool task (several items). */
export const TASK_WEIGHT = 32_768;

/**
 * Work units of one half-move played: set when chess.js played them (about 0.2 ms, some 1,500
 * squares of fill); the engine's own board plays one in a few microseconds, so the price is generous.
 */
export const PLY_WEIGHT = 1500;

/**
 * Work units of one character of PGN read (tokens, tag pairs and their copy back from the worker:
 * a 256 KiB text of tag pairs takes about 15 ms to read and hand over, some 100,000 squares).
 */
export const PGN_CHAR_WEIGHT = 0.5;

/**
 * The work of making an SVG of `svgChars` characters into a PNG of `pixels` pixels (resvg: about
 * 30 ns a pixel and 50 ns a character of SVG, parsed). Always over INLINE_WEIGHT: even the smallest
 * picture takes milliseconds, which the event loop never spends on one request.
 */
export function rasterWeight(pixels: number, svgChars: number): number {
  return Math.max(TASK_WEIGHT, Math.ceil(pixels / 4 + svgChars / 3));
}

/** The work of reading a game of `plies` half-moves written in `chars` characters, and playing it. */
export function gameReadWeight(plies: number, chars: number): number {
  return Math.max(1, plies) * PLY_WEIGHT + Math.ceil(chars * PGN_CHAR_WEIGHT);
}

type Kind = Task['kind'];
type ItemOf<K extends Kind> = Extract<Task, { kind: K }>['items'][number];

/** Runs the engine work of one request (or of the cache writer, with its own budget). */
export class WorkDispatcher {
  /** Tasks of this request on the pool now, and the lanes waiting for one of them to come back. */
  #onPool = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    private readonly pool: EnginePool | undefined,
    private readonly budget: EngineBudget,
  ) {}

  /** Runs `items` of one kind; `weights[i]` estimates item i's cost. Values (or errors) in order. */
  async run<K extends Kind>(kind: K, items: readonly ItemOf<K>[], weights: readonly number[]): Promise<unknown[]> {
    const out: unknown[] = new Array(items.length);
    const inline: number[] = [];
    const heavy: number[] = [];
    for (let i = 0; i < items.length; i++) (this.pool && weights[i] > INLINE_WEIGHT ? heavy : inline).push(i);
    const pooled = heavy.length > 0 ? this.#runPooled(kind, items, weights, heavy, out) : Promise.resolve();
    await this.#runInline(kind, items, inline, out);
    await pooled;
    return out;
  }

  async #runInline<K extends Kind>(
    kind: K,
    items: readonly ItemOf<K>[],
    indices: readonly number[],
    out: unknown[],
  ): Promise<void> {
    let next = 0;
    while (next < indices.length) {
      if (this.budget.sliceUsed) await this.budget.pause();
      try {
        this.budget.check();
      } catch (err) {
        for (; next < indices.length; next++) out[indices[next]] = err;
        return;
      }
      // A group small enough to leave the slice nearly on time.
      const group = indices.slice(next, next + 16);
      const started = performance.now();
      const answer = runTask({ kind, items: group.map((i) => items[i]), budget: this.budget.cell } as Task);
      this.budget.ranInline(performance.now() - started);
      this.#take(answer, group, out);
      next += group.length;
    }
  }

  async #runPooled<K extends Kind>(
    kind: K,
    items: readonly ItemOf<K>[],
    weights: readonly number[],
    indices: readonly number[],
    out: unknown[],
  ): Promise<void> {
    const pool = this.pool as EnginePool;
    const chunks: number[][] = [];
    let chunk: number[] = [];
    let weight = 0;
    for (const i of indices) {
      if (chunk.length > 0 && weight + weights[i] > TASK_WEIGHT) {
        chunks.push(chunk);
        chunk = [];
        weight = 0;
      }
      chunk.push(i);
      weight += weights[i];
    }
    if (chunk.length > 0) chunks.push(chunk);
    let taken = 0;
    const lane = async (): Promise<void> => {
      while (taken < chunks.length) {
        const group = chunks[taken++];
        let answer: TaskAnswer;
        // Taken at once while one is free: the task is then sent in this same turn, as before.
        if (this.#onPool < pool.threads) this.#onPool++;
        else await this.#lane(pool);
        try {
          this.budget.check();
          const task = { kind, items: group.map((i) => items[i]), budget: this.budget.cell } as Task;
          answer = await pool.run(task);
        } catch (err) {
          const error = this.budget.cancelled ?? err;
          for (const i of group) out[i] = error;
          if (error instanceof OverloadedError) this.budget.cancel(error);
          continue;
        } finally {
          this.#laneDone();
        }
        this.#take(answer, group, out);
      }
    };
    await Promise.all(Array.from({ length: Math.min(pool.threads, chunks.length) }, lane));
  }

  /** Waits until one of this request's tasks on the pool comes back, and takes its place. */
  async #lane(pool: EnginePool): Promise<void> {
    while (this.#onPool >= pool.threads) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#onPool++;
  }

  /** Gives a place back to the next lane waiting for one. */
  #laneDone(): void {
    this.#onPool--;
    this.#waiting.shift()?.();
  }

  /** Copies a task's values into `out`; items it did not reach were cut off by the budget. */
  #take(answer: TaskAnswer, group: readonly number[], out: unknown[]): void {
    group.forEach((index, j) => {
      if (j < answer.values.length) {
        const value = answer.values[j];
        out[index] = isItemError(value) ? errorOf(value) : value;
      } else {
        out[index] = this.budget.cancelled ?? new EngineBudgetError(this.budget.budgetMs, this.budget.spentMs);
      }
    });
  }
}

/**
 * The per-request result loader: a DataLoader keyed by the engine's canonical key. All path
 * questions of one request that resolve in the same tick arrive as one batch; the batch function
 * asks the persistent cache for all of them at once (`getMany`), hands every distinct miss to the
 * engine's `solveBatch`, and collects the fresh results; the request's context writes them with
 * one `putMany` after the response has been sent (`persistFresh`). Without a store (tests, or a
 * database that failed to open) it simply solves. A cache failure is logged and treated as a
 * miss: path questions keep being answered from the engine.
 *
 * One `solveBatch` call per time slice: the misses go to the engine in as few calls as fit in
 * about `SLICE_MS` each (sized by board squares, adjusted to the time the previous call took),
 * which for 8 x 8 boards means one call for any batch the limits allow. Between calls the loader
 * lets the event loop run and checks the request's engine budget (`budget.ts`), so a request of
 * hundreds of large problems neither blocks other requests nor runs past ENGINE_BUDGET_MS; a
 * single call could do neither. Results solved before a request is cut off are still written to
 * the cache, so the work is not lost.
 *
 * A long list of questions is itself prepared in time slices (`resolvers/prepare.ts`); while one
 * is, the loader holds its batch back (`PreparationGate`), so the list's questions still join the
 * same batch as the request's other questions instead of splitting it.
 */
import DataLoader from 'dataloader';
import type { PathResult } from '../engine/types.js';
import { SLICE_MS, type EngineBudget } from './budget.js';
import type { Services } from './context.js';
import type { Prepared } from './engine.js';

/** Loads results by prepared problem, one engine call per slice of distinct misses. */
export type ResultLoader = DataLoader<Prepared, PathResult, string>;

/**
 * Board squares handed to one `solveBatch` call at first: 1,024 8 x 8 problems, or 16 of 64 x 64,
 * about 10 ms of the slowest kind (a king crossing a maze, about 140 ns a square).
 */
export const SQUARES_PER_CALL = 65_536;
/** Bounds of the adjusted size of a call, squares. */
const MIN_SQUARES_PER_CALL = 1024;
const MAX_SQUARES_PER_CALL = 16 * SQUARES_PER_CALL;

/** Holds the loader's batch back while lists of the same request are still being prepared. */
export class PreparationGate {
  #preparing = 0;
  #held: (() => void)[] = [];

  /** A list starts being prepared across pauses. */
  enter(): void {
    this.#preparing++;
  }

  /** That list is prepared and loaded: release what was held once no list is left. */
  leave(): void {
    if (--this.#preparing > 0) return;
    for (const release of this.#held.splice(0)) release();
  }

  /** Runs `dispatch` now, or once no list is being prepared. */
  whenOpen(dispatch: () => void): void {
    if (this.#preparing === 0) dispatch();
    else this.#held.push(dispatch);
  }
}

/** A fresh loader for one request; solved (not cached) results are appended to `fresh`. */
export function createResultLoader(services: Services, fresh: PathResult[], budget: EngineBudget, gate: PreparationGate): ResultLoader {
  return new DataLoader<Prepared, PathResult, string>((batch) => loadResults(services, batch, fresh, budget), {
    cacheKeyFn: (prepared) => prepared.key,
    // DataLoader's own timing (after the current promise jobs), then the gate.
    batchScheduleFn: (dispatch) => {
      void Promise.resolve().then(() => process.nextTick(() => gate.whenOpen(dispatch)));
    },
  });
}

/** The batch function: cache lookup, then the misses through `solveBatch` (appended to `fresh`). */
export async function loadResults(
  services: Services,
  batch: readonly Prepared[],
  fresh: PathResult[],
  budget: EngineBudget,
): Promise<(PathResult | Error)[]> {
  const { metrics, logger } = services;
  metrics.batchSize.observe(batch.length);
  const store = services.store();
  let found: readonly (PathResult | undefined)[] = [];
  if (store) {
    try {
      found = await store.cache.getMany(batch);
    } catch (err) {
      metrics.cacheErrors.inc({ operation: 'get' });
      logger.warn({ err }, 'result cache lookup failed; solving instead');
      found = [];
    }
  }
  const out: (PathResult | Error)[] = new Array(batch.length);
  const misses: number[] = [];
  for (let i = 0; i < batch.length; i++) {
    const hit = found[i];
    if (hit) {
      out[i] = hit;
      services.memo.offer(hit, true);
    } else {
      misses.push(i);
    }
  }
  if (store) {
    metrics.cacheHits.inc(batch.length - misses.length);
    metrics.cacheMisses.inc(misses.length);
  }
  if (misses.length > 0) await solveMisses(services, batch, misses, out, fresh, budget, store !== undefined);
  return out;
}

/** Solves `batch[misses[...]]` into `out`, one `solveBatch` call per slice. */
async function solveMisses(
  services: Services,
  batch: readonly Prepared[],
  misses: readonly number[],
  out: (PathResult | Error)[],
  fresh: PathResult[],
  budget: EngineBudget,
  haveStore: boolean,
): Promise<void> {
  const { engine, metrics, memo } = services;
  let squaresPerCall = SQUARES_PER_CALL;
  let next = 0;
  if (budget.sliceUsed) await budget.pause();
  while (next < misses.length) {
    try {
      budget.check();
    } catch (err) {
      for (; next < misses.length; next++) out[misses[next]] = err as Error;
      return;
    }
    const chunk: number[] = [];
    let squares = 0;
    while (next < misses.length) {
      const { files, ranks } = batch[misses[next]].problem;
      if (chunk.length > 0 && squares + files * ranks > squaresPerCall) break;
      chunk.push(misses[next++]);
      squares += files * ranks;
    }
    const started = performance.now();
    let results: readonly PathResult[] | undefined;
    let failure: Error | undefined;
    try {
      results = engine.solveBatch(chunk.map((i) => batch[i]));
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
    }
    const ms = performance.now() - started;
    budget.charge(ms);
    metrics.engineSolves.inc(chunk.length);
    metrics.engineSolveSeconds.observe(ms / 1000);
    chunk.forEach((i, j) => {
      const result = results?.[j];
      if (!result) {
        out[i] = failure ?? new Error('the engine returned no result');
        return;
      }
      out[i] = result;
      fresh.push(result);
      memo.offer(result, haveStore);
    });
    if (next < misses.length) {
      // Aim the next call at one slice, from what this one cost per square.
      const target = ms > 0 ? (squares * SLICE_MS) / ms : MAX_SQUARES_PER_CALL;
      squaresPerCall = Math.min(MAX_SQUARES_PER_CALL, Math.max(MIN_SQUARES_PER_CALL, Math.round(target)));
      await budget.pause();
    }
  }
}

/**
 * The per-request result loader: a DataLoader keyed by the engine's canonical key. All path
 * questions of one request that resolve in the same tick arrive as one batch; the batch function
 * asks the persistent cache for all of them (`getMany`, in bounded chunks), decodes the rows it
 * finds and solves every distinct miss. The fresh results go to the request's `fresh` list, which
 * the cache writer takes once the response has been sent (a question whose result is still waiting
 * there is written first, then read back). Without a store (tests, or a database
 * that failed to open) it simply solves. A cache failure is logged and treated as a miss, and so
 * is a lookup that has not answered within CACHE_READ_WAIT_MS.
 *
 * Where the work runs is the dispatcher's choice (`work/dispatch.ts`): 8 x 8 and other small
 * problems on this thread in slices (through `EngineApi.solveBatch`, one call per slice of
 * small problems), large ones on the worker pool; stored rows are decoded and checked the same
 * way, here when small and on the pool when large; all on the request's engine budget. A result that arrives packed (from a worker or a row) is rebuilt
 * here around its packed layers: no copy of the layers beyond the one message.
 *
 * What is looked up and what is written is the cache policy's choice (`caching/cache-policy.ts`):
 * each question's ask is recorded there; a key the store never wrote is not looked up; a fresh
 * result goes to `fresh` (to be written) only on its question's second ask, when it was costly
 * to solve, or when a saved analysis refers to it (`pinned`).
 *
 * A long list of questions is itself prepared in time slices (`questions.ts`); while one
 * is, the loader holds its batch back (`PreparationGate`), so the list's questions still join the
 * same batch as the request's other questions instead of splitting it.
 */

import { type PackedLayers, type PathResult, solutionFromPacked } from '@chess-paths/engine';
import DataLoader from 'dataloader';
import { DatabaseUnavailableError, type StoredResult } from '../../store/index.js';
import { INLINE_WEIGHT, type WorkDispatcher } from '../work/dispatch.js';
import type { Prepared } from '../work/engine-api.js';
import type { EngineBudget } from '../work/engine-budget.js';
import { remember } from '../work/handles.js';
import { wireOf } from '../work/tasks.js';
import type { Services } from './services.js';

/** Loads results by prepared problem. */
export type ResultLoader = DataLoader<Prepared, PathResult, string>;

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

  /**
   * Holds the batch while `pending` is prepared, then runs `load` on it before letting go, so
   * what `load` asks the loader for joins the held batch; lets go on a rejection too.
   */
  hold<T, R>(pending: Promise<T>, load: (ready: T) => R | Promise<R>): Promise<R> {
    this.enter();
    return pending.then(
      (ready) => {
        try {
          return load(ready);
        } finally {
          this.leave();
        }
      },
      (err: unknown) => {
        this.leave();
        throw err;
      },
    );
  }

  /** Runs `dispatch` now, or once no list is being prepared. */
  whenOpen(dispatch: () => void): void {
    if (this.#preparing === 0) dispatch();
    else this.#held.push(dispatch);
  }
}

/** What one request's loader works with. */
export interface LoaderScope {
  services: Services;
  budget: EngineBudget;
  work: WorkDispatcher;
  /** Results solved (not found in the cache) during this request, to be written. */
  fresh: PathResult[];
  /** Keys a saved analysis refers to: their results are written on their first ask. */
  pinned: Set<string>;
  gate: PreparationGate;
}

/** A fresh loader for one request. */
export function createResultLoader(scope: LoaderScope): ResultLoader {
  return new DataLoader<Prepared, PathResult, string>((batch) => loadResults(scope, batch), {
    cacheKeyFn: (prepared) => prepared.key,
    // DataLoader's own timing (after the current promise jobs), then the gate.
    batchScheduleFn: (dispatch) => {
      void Promise.resolve().then(() => process.nextTick(() => scope.gate.whenOpen(dispatch)));
    },
  });
}

/**
 * Board squares of small problems handed to one `solveBatch` call: 1,024 8 x 8 problems (every
 * batch the default limits allow), a millisecond or two of work.
 */
export const SQUARES_PER_CALL = 65_536;

/** Estimated cost of solving a problem: its board squares. */
function solveWeight(prepared: Prepared): number {
  return prepared.board.files * prepared.board.ranks;
}

/** The batch function: cache lookup and decoding, then the misses solved. */
export async function loadResults(scope: LoaderScope, batch: readonly Prepared[]): Promise<(PathResult | Error)[]> {
  const { metrics } = scope.services;
  metrics.batchSize.observe(batch.length);
  const { cachePolicy: policy } = scope.services;
  const store = scope.services.store();
  const out: (PathResult | Error)[] = new Array(batch.length);
  // Each question's ask recorded (identical questions of one request are one ask).
  const askedBefore = batch.map((prepared) => policy.ask(prepared.key));
  let misses = batch.map((_, i) => i);
  if (store) {
    // A result still waiting in the cache writer's queue is written now and read back.
    const waiting = scope.services.cacheWriter.written(batch.map((prepared) => prepared.key));
    if (waiting) await waiting;
    const lookUp = misses.filter((i) => policy.lookUp(store.cache, batch[i]));
    const found = await loadCached(scope, batch, lookUp, out, store.cache.getMany.bind(store.cache));
    misses = misses.filter((i) => !found.has(i));
    metrics.cacheHits.inc(batch.length - misses.length);
    metrics.cacheMisses.inc(misses.length);
    metrics.cacheLookupsSkipped.inc(batch.length - lookUp.length);
  }
  if (misses.length > 0) await solveMisses(scope, batch, misses, out, store !== undefined, askedBefore);
  return out;
}

type GetMany = (problems: readonly Prepared[]) => Promise<(StoredResult | undefined)[]>;

/**
 * `lookup`'s rows, or a `DatabaseUnavailableError` once `ms` have passed without them
 * (CACHE_READ_WAIT_MS): a lookup takes a millisecond or so, and a database that hangs would
 * otherwise hold every new question for its connection timeout. The late answer is dropped (its
 * outcome still tells the store whether the database works).
 */
function withinWait<T>(lookup: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseUnavailableError(`no answer from the database within ${ms} ms`)), ms);
    timer.unref();
  });
  lookup.catch(() => undefined); // a late failure was already given up on
  return Promise.race([lookup, late]).finally(() => clearTimeout(timer));
}

/** Fills `out` with the results of `batch[wanted[...]]` found in the store; returns their indices. */
async function loadCached(
  scope: LoaderScope,
  batch: readonly Prepared[],
  wanted: readonly number[],
  out: (PathResult | Error)[],
  getMany: GetMany,
): Promise<Set<number>> {
  const { metrics, logger, hot } = scope.services;
  const rows: (StoredResult | undefined)[] = new Array(batch.length);
  if (wanted.length === 0) return new Set();
  try {
    const read = await withinWait(
      getMany(wanted.length === batch.length ? batch : wanted.map((i) => batch[i])),
      scope.services.cacheReadWaitMs,
    );
    wanted.forEach((i, j) => {
      rows[i] = read[j];
    });
  } catch (err) {
    metrics.cacheErrors.inc({ operation: 'get' });
    // An outage is logged once by the store; each question it sends to the engine is not.
    if (err instanceof DatabaseUnavailableError) logger.debug({ err }, 'result cache unavailable; solving instead');
    else logger.warn({ err }, 'result cache lookup failed; solving instead');
  }
  const found = wanted.filter((i) => rows[i] !== undefined);
  const decoded = await scope.work.run(
    'decode',
    found.map((i) => ({ problem: wireOf(batch[i]), layers: (rows[i] as StoredResult).layers })),
    found.map((i) => 64 + (rows[i] as StoredResult).layers.length),
  );
  const served = new Set<number>();
  found.forEach((i, j) => {
    const packed = decoded[j];
    if (packed instanceof Error) {
      if (packed.name === 'EngineBudgetError' || packed.name === 'OverloadedError') {
        out[i] = packed;
        served.add(i);
      } else {
        logger.warn({ key: batch[i].key, err: packed }, 'unreadable cache row treated as a miss');
      }
      return;
    }
    const row = rows[i] as StoredResult;
    const result = solutionFromPacked(batch[i], packed as PackedLayers, { cached: true, pathCount: row.pathCount });
    remember(result, batch[i], packed as PackedLayers);
    out[i] = result;
    served.add(i);
    hot.offer(result, true);
  });
  return served;
}

/** Solves `batch[misses[...]]` into `out`: small problems here in slices, large ones on the pool. */
async function solveMisses(
  scope: LoaderScope,
  batch: readonly Prepared[],
  misses: readonly number[],
  out: (PathResult | Error)[],
  haveStore: boolean,
  askedBefore: readonly boolean[],
): Promise<void> {
  const { services, budget, work, fresh, pinned } = scope;
  const small = misses.filter((i) => solveWeight(batch[i]) <= INLINE_WEIGHT);
  const large = misses.filter((i) => solveWeight(batch[i]) > INLINE_WEIGHT);
  const accept = (i: number, result: PathResult, packed?: PackedLayers) => {
    remember(result, batch[i], packed);
    out[i] = result;
    if (!haveStore || services.cachePolicy.keep(batch[i], result.distance, askedBefore[i], pinned.has(batch[i].key)))
      fresh.push(result);
    else services.metrics.cacheWritesDeferred.inc();
    services.hot.offer(result, haveStore);
  };
  const pooled = work
    .run(
      'solve',
      large.map((i) => wireOf(batch[i])),
      large.map((i) => solveWeight(batch[i])),
    )
    .then((values) => {
      services.metrics.engineSolves.inc(large.length);
      large.forEach((i, j) => {
        const value = values[j];
        if (value instanceof Error) out[i] = value;
        else accept(i, solutionFromPacked(batch[i], value as PackedLayers, { cached: false }), value as PackedLayers);
      });
    });
  // Small problems: one `solveBatch` call per group, paced by the budget's slices.
  for (let next = 0; next < small.length; ) {
    if (budget.sliceUsed) await budget.pause();
    try {
      budget.check();
    } catch (err) {
      for (; next < small.length; next++) out[small[next]] = err as Error;
      break;
    }
    const group: number[] = [];
    for (
      let squares = 0;
      next < small.length && (group.length === 0 || squares + solveWeight(batch[small[next]]) <= SQUARES_PER_CALL);
      next++
    ) {
      squares += solveWeight(batch[small[next]]);
      group.push(small[next]);
    }
    const started = performance.now();
    let results: readonly PathResult[] | undefined;
    let failure: Error | undefined;
    try {
      results = services.engine.solveBatch(group.map((i) => batch[i]));
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
    }
    const ms = performance.now() - started;
    budget.charge(ms);
    services.metrics.engineSolves.inc(group.length);
    services.metrics.engineSolveSeconds.observe(ms / 1000);
    group.forEach((i, j) => {
      const result = results?.[j];
      if (result) accept(i, result);
      else out[i] = failure ?? new Error('the engine returned no result');
    });
  }
  await pooled;
}

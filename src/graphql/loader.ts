/**
 * The per-request result loader: a DataLoader keyed by the engine's canonical key. All path
 * questions of one request that resolve in the same tick arrive as one batch; the batch function
 * asks the persistent cache for all of them at once (`getMany`), solves each distinct miss exactly
 * once, and collects the fresh results; the request's context writes them with one `putMany`
 * after the response has been sent (`persistFresh`), because storing a result reads its path
 * count, which a query may never have asked for. Without a store (tests, or a database that
 * failed to open) it simply solves. A cache failure is logged and treated as a miss: path
 * questions keep being answered from the engine.
 *
 * Solving yields to the event loop every few milliseconds, so one large batch does not hold up
 * other requests' I/O for its whole duration.
 */
import DataLoader from 'dataloader';
import type { PathResult } from '../engine/types.js';
import type { Services } from './context.js';
import type { Prepared } from './engine.js';

/** Loads results by prepared problem, one engine call per distinct key. */
export type ResultLoader = DataLoader<Prepared, PathResult, string>;

/** Longest stretch of solving before yielding to the event loop. */
const SLICE_MS = 15;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A fresh loader for one request; solved (not cached) results are appended to `fresh`. */
export function createResultLoader(services: Services, fresh: PathResult[]): ResultLoader {
  return new DataLoader<Prepared, PathResult, string>((batch) => loadResults(services, batch, fresh), {
    cacheKeyFn: (prepared) => prepared.key,
  });
}

/** The batch function: cache lookup, then one solve per miss (appended to `fresh`). */
export async function loadResults(
  services: Services,
  batch: readonly Prepared[],
  fresh: PathResult[],
): Promise<(PathResult | Error)[]> {
  const { metrics, logger, engine } = services;
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
  let hits = 0;
  let sliceStart = performance.now();
  for (let i = 0; i < batch.length; i++) {
    const hit = found[i];
    if (hit) {
      out[i] = hit;
      services.memo.offer(hit, true);
      hits++;
      continue;
    }
    const started = performance.now();
    try {
      const result = engine.solvePrepared(batch[i]);
      out[i] = result;
      fresh.push(result);
      services.memo.offer(result, store !== undefined);
    } catch (err) {
      out[i] = err instanceof Error ? err : new Error(String(err));
    }
    const now = performance.now();
    metrics.engineSolves.inc();
    metrics.engineSolveSeconds.observe((now - started) / 1000);
    if (now - sliceStart > SLICE_MS && i + 1 < batch.length) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
  if (store) {
    metrics.cacheHits.inc(hits);
    metrics.cacheMisses.inc(batch.length - hits);
  }
  return out;
}

/**
 * Per-request GraphQL context: the long-lived services plus one fresh result loader, so that every
 * path question of a request (aliases, batch lists, Position.paths, Analysis.results) shares one
 * DataLoader and identical questions are solved once per request. Results the engine solved for
 * this request are kept in `fresh` and written to the cache by `persistFresh` once the response
 * is out, as background work the server waits for at shutdown.
 */
import type { Logger } from 'pino';
import type { Limits } from '../config.js';
import type { Metrics } from '../http/metrics.js';
import type { PathResult } from '../engine/types.js';
import type { Store } from '../store/types.js';
import type { EngineApi } from './engine.js';
import { createResultLoader, type ResultLoader } from './loader.js';

/** Long-lived dependencies shared by all requests. */
export interface Services {
  engine: EngineApi;
  /** The store once it is open; undefined while opening, when disabled or when it failed. */
  store(): Store | undefined;
  limits: Limits;
  metrics: Metrics;
  logger: Logger;
  /** Runs a task after the response; shutdown waits for every such task. */
  background(task: () => Promise<unknown>): void;
}

/** What every resolver receives as its context. */
export interface Context {
  services: Services;
  loader: ResultLoader;
  /** Results solved (not found in the cache) during this request. */
  fresh: PathResult[];
}

/** A context for one request. */
export function createContext(services: Services): Context {
  const fresh: PathResult[] = [];
  return { services, loader: createResultLoader(services, fresh), fresh };
}

/** Writes the request's freshly solved results to the cache, in the background. */
export function persistFresh(ctx: Context): void {
  const { services, fresh } = ctx;
  const store = services.store();
  if (!store || fresh.length === 0) return;
  const results = fresh.splice(0);
  services.background(async () => {
    try {
      await store.cache.putMany(results);
    } catch (err) {
      services.metrics.cacheErrors.inc({ operation: 'put' });
      services.logger.warn({ err }, 'result cache write failed; answers were served anyway');
    }
  });
}

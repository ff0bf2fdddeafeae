/**
 * What every request of the server is served with (`Services`, src/graphql/request/services.ts),
 * made from the configuration: the engine and its worker threads (none with `workers: false`, when
 * all engine work runs on the main thread), the caches bounded in bytes, the writer that puts
 * fresh results into the store after the answers, and the admission of heavy requests. The store
 * itself is the database's (./database.ts): the services read it through `store()`, undefined
 * while it is not open. Shutdown (./shutdown.ts) ends them in its own order.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { CacheWriter } from '../graphql/caching/cache-writer.js';
import { boundEngineCaches, createCaches } from '../graphql/caching/server-caches.js';
import type { Services } from '../graphql/request/services.js';
import { Admission } from '../graphql/work/admission.js';
import { WorkDispatcher } from '../graphql/work/dispatch.js';
import { defaultEngine, type EngineApi, warmUpEngine } from '../graphql/work/engine-api.js';
import { EngineBudget } from '../graphql/work/engine-budget.js';
import { EnginePool } from '../graphql/work/pool.js';
import type { Metrics } from '../observability/metrics.js';
import type { Store } from '../store/index.js';

/** The services, and the admission the Apollo server applies (shutdown closes it first). */
export interface ServerServices {
  services: Services;
  admission: Admission;
}

/** Makes the services, starts the worker threads and warms the engine up on the main thread. */
export function createServices(options: {
  config: Config;
  metrics: Metrics;
  logger: Logger;
  /** The store once it is open. */
  store: () => Store | undefined;
  /** The engine (default: the real one). */
  engine?: EngineApi;
  /** False: no worker threads. */
  workers?: boolean;
}): ServerServices {
  const { config, metrics, logger, store } = options;
  // The engine's caches are per thread: bounded here on the main thread, and by each worker.
  const engineCacheBytes = boundEngineCaches(config, metrics);
  const pool =
    options.workers === false
      ? undefined
      : new EnginePool({ threads: config.workerThreads, maxQueue: config.workQueue, engineCacheBytes });
  const cacheWriter = new CacheWriter({
    store,
    metrics,
    logger,
    maxPending: config.cacheWriteQueue,
    gatherMs: config.cacheWriteGatherMs,
    // The writer's own account: no budget, but its encoding runs where its size says.
    work: new WorkDispatcher(pool, new EngineBudget(0)),
  });
  const admission = new Admission({
    slots: config.heavyRequests,
    queue: config.admissionQueue,
    timeoutMs: config.admissionTimeoutMs,
  });
  const services: Services = {
    engine: options.engine ?? defaultEngine,
    pool,
    inFlight: new Set(),
    store,
    limits: config.limits,
    metrics,
    logger,
    ...createCaches(config, metrics, store),
    cacheWriter,
    cacheReadWaitMs: config.cacheReadWaitMs,
  };
  warmUpEngine();
  return { services, admission };
}

/**
 * The long-lived dependencies every request of the GraphQL layer shares, in one interface, so that
 * the per-request modules (context, loader) depend on this description rather than on each other.
 */
import type { Logger } from 'pino';
import type { Limits } from '../../config.js';
import type { Metrics } from '../../observability/metrics.js';
import type { Store } from '../../store/index.js';
import type { CachePolicy } from '../caching/cache-policy.js';
import type { CacheWriter } from '../caching/cache-writer.js';
import type { GameCache } from '../caching/game-cache.js';
import type { HotResults } from '../caching/hot-results.js';
import type { PreparedQueries } from '../caching/prepared-queries.js';
import type { EngineApi } from '../work/engine-api.js';
import type { EngineBudget } from '../work/engine-budget.js';
import type { EnginePool } from '../work/pool.js';

/** Long-lived dependencies shared by all requests. */
export interface Services {
  engine: EngineApi;
  /** Worker threads for heavy engine work; undefined: everything runs on the main thread. */
  pool: EnginePool | undefined;
  /** The store once it is open; undefined while opening, when disabled or when it failed. */
  store(): Store | undefined;
  limits: Limits;
  metrics: Metrics;
  logger: Logger;
  /** Results ready to serve at once. */
  hot: HotResults;
  /** Prepared problems of recently seen query inputs. */
  preparedQueries: PreparedQueries;
  /** What the result cache keeps, and which questions are looked up in it. */
  cachePolicy: CachePolicy;
  /** Writes fresh results to the cache in the background, coalesced. */
  cacheWriter: CacheWriter;
  /** How long a batch of path questions waits for the cache's answer before solving instead, ms. */
  cacheReadWaitMs: number;
  /** Games read from PGN, by text. */
  games: GameCache;
  /** The engine accounts of the requests in flight (shutdown cancels their work). */
  inFlight: Set<EngineBudget>;
}

/**
 * The GraphQL layer's caches that live as long as the server (games read, hot results, prepared
 * problems, the result cache's policy with its keys asked) and the bounds of the engine's own, each made with its setting and watched on
 * `/metrics` (`chess_paths_cache_bytes{cache}` and its siblings).
 */
import { type EngineCacheName, engineCacheSizes, setEngineCacheBytes } from '@chess-paths/engine';
import type { Config } from '../../config.js';
import type { Metrics } from '../../observability/metrics.js';
import type { Store } from '../../store/index.js';
import { CachePolicy } from './cache-policy.js';
import { GameCache } from './game-cache.js';
import { HotResults } from './hot-results.js';
import { PreparedQueries } from './prepared-queries.js';

/** The caches a server's requests share. */
export interface ServerCaches {
  games: GameCache;
  hot: HotResults;
  preparedQueries: PreparedQueries;
  /** What the result cache keeps and which questions are looked up in it. */
  cachePolicy: CachePolicy;
}

/**
 * Makes the caches with their settings and shows their sizes on `/metrics`, with the store's
 * filter of written keys (`written_keys`: it has no setting, it grows with the table; its bound
 * shown is its size).
 */
export function createCaches(config: Config, metrics: Metrics, store?: () => Store | undefined): ServerCaches {
  const caches: ServerCaches = {
    games: new GameCache(config.gameCacheBytes),
    hot: new HotResults(config.resultMemoSize, config.resultMemoBytes),
    preparedQueries: new PreparedQueries(config.resultMemoSize, config.preparedQueryBytes),
    cachePolicy: new CachePolicy(),
  };
  metrics.watchCache('written_keys', () => {
    const size = store?.()?.cache.writtenKeysSize?.() ?? { entries: 0, bytes: 0 };
    return { ...size, maxBytes: size.bytes };
  });
  metrics.watchCache('games', () => caches.games.size());
  metrics.watchCache('hot_results', () => caches.hot.size());
  metrics.watchCache('prepared_queries', () => caches.preparedQueries.size());
  return caches;
}

/**
 * Bounds the engine's caches of this thread (the main thread's) by their settings and shows
 * their sizes on `/metrics`; returns the bounds, for the worker pool to apply in each worker,
 * which keeps its own copy within them. The engine's caches belong to the process, so of
 * several servers in one process (tests), the last one started sets them.
 */
export function boundEngineCaches(config: Config, metrics: Metrics): Record<EngineCacheName, number> {
  const bounds = { betza: config.betzaCacheBytes, boards: config.boardCacheBytes };
  setEngineCacheBytes(bounds);
  metrics.watchCache('betza', () => engineCacheSizes().betza);
  metrics.watchCache('boards', () => engineCacheSizes().boards);
  return bounds;
}

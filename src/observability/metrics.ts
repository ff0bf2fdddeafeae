/**
 * Prometheus metrics (prom-client). Each server gets its own registry, so several servers in one
 * process (the tests) never collide on metric names and each `/metrics` shows only its own counts.
 * The caches in memory are watched where they are made (`watchCache`) and their sizes read when
 * `/metrics` is scraped, so keeping them costs nothing per request.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** A cache's size: entries, their estimated bytes, and its bound in bytes. */
export interface CacheSize {
  entries: number;
  bytes: number;
  maxBytes: number;
}

/** The service's metrics, all under the `chess_paths_` prefix. */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'route' | 'method' | 'status'>;
  httpSeconds: Histogram<'route'>;
  graphqlErrors: Counter<'code'>;
  engineSolves: Counter;
  engineSolveSeconds: Histogram;
  batchSize: Histogram;
  cacheHits: Counter;
  memoHits: Counter;
  responseCacheHits: Counter;
  cacheMisses: Counter;
  /** Misses not looked up: the filter of written keys knew the store had no row. */
  cacheLookupsSkipped: Counter;
  /** Fresh results not written: asked once, cheap to solve again (`caching/cache-policy.ts`). */
  cacheWritesDeferred: Counter;
  cacheErrors: Counter<'operation'>;
  /** Shows a cache's size on `/metrics` under `cache="name"`, read from `size` at each scrape. */
  watchCache(name: string, size: () => CacheSize): void;
}

/** Gauges of the watched caches' bytes, entries and bounds, read when scraped. */
function cacheGauges(registers: Registry[]): (name: string, size: () => CacheSize) => void {
  const caches = new Map<string, () => CacheSize>();
  const gauge = (name: string, help: string, field: keyof CacheSize) =>
    new Gauge({
      name,
      help,
      labelNames: ['cache'] as const,
      registers,
      collect() {
        this.reset();
        for (const [cache, size] of caches) this.set({ cache }, size()[field]);
      },
    });
  gauge('chess_paths_cache_bytes', 'Estimated bytes held by each cache in memory', 'bytes');
  gauge('chess_paths_cache_entries', 'Entries of each cache in memory', 'entries');
  gauge('chess_paths_cache_max_bytes', "Each cache's bound in bytes (its setting; 0: it keeps nothing)", 'maxBytes');
  return (name, size) => {
    caches.set(name, size);
  };
}

/** Creates a registry with the service's metrics and Node's default process metrics. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'chess_paths_' });
  const registers = [registry];
  return {
    registry,
    watchCache: cacheGauges(registers),
    httpRequests: new Counter({
      name: 'chess_paths_http_requests_total',
      help: 'HTTP requests by route, method and status code',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
    }),
    httpSeconds: new Histogram({
      name: 'chess_paths_http_request_duration_seconds',
      help: 'HTTP request durations by route',
      labelNames: ['route'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    graphqlErrors: new Counter({
      name: 'chess_paths_graphql_errors_total',
      help: 'GraphQL errors returned, by extensions.code',
      labelNames: ['code'] as const,
      registers,
    }),
    engineSolves: new Counter({
      name: 'chess_paths_engine_solves_total',
      help: 'Problems solved by the engine (cache misses; one per distinct key per request)',
      registers,
    }),
    engineSolveSeconds: new Histogram({
      name: 'chess_paths_engine_solve_duration_seconds',
      help: 'Duration of one engine solveBatch call (the eager part of each of its solves; lazy fields are computed when read)',
      buckets: [0.00001, 0.00005, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1],
      registers,
    }),
    batchSize: new Histogram({
      name: 'chess_paths_loader_batch_size',
      help: 'Distinct path questions per DataLoader batch',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      registers,
    }),
    cacheHits: new Counter({
      name: 'chess_paths_cache_hits_total',
      help: 'Path questions answered from the result cache',
      registers,
    }),
    memoHits: new Counter({
      name: 'chess_paths_memo_hits_total',
      help: 'Path questions answered from the in-memory memo of hot results (no loader, no store)',
      registers,
    }),
    responseCacheHits: new Counter({
      name: 'chess_paths_response_cache_hits_total',
      help: 'GraphQL requests answered with a kept response (nothing parsed or executed)',
      registers,
    }),
    cacheMisses: new Counter({
      name: 'chess_paths_cache_misses_total',
      help: 'Path questions not in the result cache',
      registers,
    }),
    cacheLookupsSkipped: new Counter({
      name: 'chess_paths_cache_lookups_skipped_total',
      help: 'Path questions not looked up in the result cache: no row was ever written for their key',
      registers,
    }),
    cacheWritesDeferred: new Counter({
      name: 'chess_paths_cache_writes_deferred_total',
      help: 'Fresh results not written to the result cache: asked for the first time and cheap to solve again',
      registers,
    }),
    cacheErrors: new Counter({
      name: 'chess_paths_cache_errors_total',
      help: 'Failed result-cache operations (get: treated as misses; put: not stored; dropped: results dropped from a full write queue)',
      labelNames: ['operation'] as const,
      registers,
    }),
  };
}

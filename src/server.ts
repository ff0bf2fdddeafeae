/**
 * The service's entry point and its lifecycle. The server listens at once, so `/health` can
 * answer 503 while the database opens in the background; until the store is open (or when it
 * failed to open), path questions are answered by the engine alone and analyses report
 * SERVICE_UNAVAILABLE, and a store that failed to open is tried again after DATABASE_RETRY_MS,
 * doubling up to a minute (not after a migration error, which needs a person). Closing is one
 * sequence within SHUTDOWN_TIMEOUT_MS, each step bounded by its share: stop accepting and refuse
 * what arrives (`http/drain.ts`), let requests in flight finish, end the workers, write what fits
 * of the queued cache entries (the rest is only a cache), close the database (ending statements
 * that would hold it) and the rate limiter's connections, let answers still being written finish,
 * cut what is left. Run directly (`node dist/server.js`), it reads the environment and shuts down
 * gracefully on SIGTERM and SIGINT, exiting a second after the timeout at the latest.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createApollo, GRAPHQL_PATH } from './graphql/apollo/server.js';
import { CacheWriter } from './graphql/caching/cache-writer.js';
import { boundEngineCaches, createCaches } from './graphql/caching/server-caches.js';
import { GraphqlGateway } from './graphql/gateway.js';
import { createRateLimiter } from './graphql/limits/rate-limiter.js';
import { isRequestError } from './graphql/request/errors.js';
import type { Services } from './graphql/request/services.js';
import { Admission } from './graphql/work/admission.js';
import { WorkDispatcher } from './graphql/work/dispatch.js';
import { defaultEngine, type EngineApi, warmUpEngine } from './graphql/work/engine-api.js';
import { EngineBudget } from './graphql/work/engine-budget.js';
import { EnginePool, OverloadedError } from './graphql/work/pool.js';
import { HttpDrain } from './http/drain.js';
import { listenError } from './http/listen-error.js';
import { createRequestHandler, type HealthReport } from './http/router.js';
import { createLogger } from './observability/logger.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { unavailableReason } from './store/availability.js';
import { redactUrl } from './store/dialect.js';
import type { Store, StoreOptions } from './store/types.js';

/** Longest wait between two attempts to open the database. */
const MAX_OPEN_RETRY_MS = 60_000;

/** Replaceable parts, for tests. */
export interface ServerDeps {
  /** The engine (default: the real one). */
  engine?: EngineApi;
  /** Opens the store (default: `openStore` of src/store); `null` runs without a database. */
  openStore?: ((options: StoreOptions) => Promise<Store>) | null;
  /** Logger (default: pino at the configured level). */
  logger?: Logger;
  /** False: no worker threads, all engine work on the main thread (default true). */
  workers?: boolean;
}

/** A started server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:4000`. */
  url: string;
  /** The GraphQL endpoint URL. */
  graphqlUrl: string;
  port: number;
  /**
   * Settles when the store has opened (or failed to at the first attempt, or is disabled), and the
   * rate limiter has its PostgreSQL table (or failed to create it at the first attempt).
   */
  ready: Promise<void>;
  metrics: Metrics;
  /** Resolves once the cache writes queued after responses are done. */
  settle(): Promise<void>;
  /** Graceful stop: no new connections, requests in flight finish, database closed. */
  close(): Promise<void>;
}

/** The real store, loaded on first use so engine-only runs never load Prisma. */
function storeOpener(logger: Logger) {
  return async (options: StoreOptions): Promise<Store> => {
    const { openStore } = await import('./store/index.js');
    return openStore(options, { logger: logger.child({ component: 'store' }) });
  };
}

/** Time `/health` waits for the database's answer. */
const HEALTH_TIMEOUT_MS = 2000;

/**
 * Shares of SHUTDOWN_TIMEOUT_MS, counted from the signal: until the first, requests in flight
 * finish (their engine work is cancelled at a third); until the second, queued cache writes;
 * until the third, the database closes (the store forces it in its second half); answers
 * still being written have until the end, when their connections are cut.
 */
const REQUESTS_SHARE = 0.6;
const CACHE_SHARE = 0.8;
const DATABASE_SHARE = 0.95;
/** How long a connection accepted just before shutdown may still send its request, ms. */
const LINGER_MS = 500;
/** After SHUTDOWN_TIMEOUT_MS, how long `main` lets `close()` overrun before it exits anyway, ms. */
const EXIT_MARGIN_MS = 1000;

/** Waits for `promise` at most `ms` (forever when not finite); its rejection is thrown. */
async function within(promise: Promise<unknown> | undefined, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    if (Number.isFinite(ms)) timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

/** Starts the HTTP server with GraphQL, health and metrics; see the file comment. */
export async function startServer(config: Config, deps: ServerDeps = {}): Promise<RunningServer> {
  const logger = deps.logger ?? createLogger(config.logLevel);
  const metrics = createMetrics();
  const openStore = deps.openStore === undefined ? storeOpener(logger) : deps.openStore;
  let store: Store | undefined;
  let database: HealthReport['database'] = openStore ? 'opening' : 'disabled';
  /** Why the database could not be opened, as far as it is safe to say on /health. */
  let openFailure: string | undefined;
  let stopping = false;

  // The engine's caches are per thread: bounded here on the main thread, and by each worker.
  const engineCacheBytes = boundEngineCaches(config, metrics);
  const pool =
    deps.workers === false
      ? undefined
      : new EnginePool({ threads: config.workerThreads, maxQueue: config.workQueue, engineCacheBytes });
  const cacheWriter = new CacheWriter({
    store: () => store,
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
    engine: deps.engine ?? defaultEngine,
    pool,
    inFlight: new Set(),
    store: () => store,
    limits: config.limits,
    metrics,
    logger,
    ...createCaches(config, metrics, () => store),
    cacheWriter,
    cacheReadWaitMs: config.cacheReadWaitMs,
  };
  /** Waits until no cache write is queued or running. */
  const settle = (): Promise<void> => cacheWriter.idle();

  const health = async (): Promise<HealthReport> => {
    if (stopping) return { status: 'stopping', database };
    if (database === 'disabled') return { status: 'ok', database };
    if (database === 'opening') return { status: 'starting', database };
    if (!store) return { status: 'degraded', database, ...(openFailure ? { reason: openFailure } : {}) };
    const current = store;
    const healthy = await withTimeout(current.healthy(), HEALTH_TIMEOUT_MS, false);
    if (healthy) return { status: 'ok', database: 'ok' };
    const reason = current.unavailableReason?.();
    return { status: 'degraded', database: 'unavailable', ...(reason ? { reason } : {}) };
  };

  warmUpEngine();
  const httpServer = createServer();
  httpServer.keepAliveTimeout = 65_000;
  httpServer.headersTimeout = 66_000;
  httpServer.requestTimeout = 60_000;
  // Mutation counts: in memory, or shared by the replicas in PostgreSQL (its own small pool).
  const rateLimiter = createRateLimiter({
    limit: config.rateLimitMutations,
    windowMs: config.rateLimitWindowMs,
    databaseUrl: config.databaseUrl,
    retryMs: config.databaseRetryMs,
    logger: logger.child({ component: 'rate-limit' }),
  });
  const apollo = createApollo({ config, logger, metrics, admission, rateLimiter });
  await apollo.start();
  const gateway = new GraphqlGateway(apollo, services);
  // Requests that arrive once shutdown began are refused by the drain, never run.
  const drain = new HttpDrain(httpServer);
  httpServer.on('request', drain.guard(createRequestHandler({ config, gateway, metrics, logger, health })));

  try {
    await new Promise<void>((resolve, reject) => {
      const failed = (err: NodeJS.ErrnoException) => reject(listenError(err, config));
      httpServer.once('error', failed);
      httpServer.listen(config.port, config.host, () => {
        httpServer.off('error', failed);
        resolve();
      });
    });
  } catch (err) {
    // Nothing was served: what was started for it ends before the failure is reported.
    await Promise.allSettled([apollo.stop(), rateLimiter.close(), pool?.close()]);
    throw err;
  }
  const { port } = httpServer.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ url, graphql: `${url}${GRAPHQL_PATH}`, playground: config.playground }, 'chess-paths listening');

  let retryTimer: NodeJS.Timeout | undefined;
  /** The attempt to open the store in progress (or the last one). */
  let opening: Promise<void> = Promise.resolve();
  const open = (attempt: number): Promise<void> => {
    if (!openStore || stopping) return Promise.resolve();
    opening = openStore({
      databaseUrl: config.databaseUrl,
      poolSize: config.databasePoolSize,
      maxCacheBytes: config.cacheMaxBytes,
      maxAnalysisBytes: config.maxAnalysisBytes,
      maxAnalysesBytes: config.analysesMaxBytes,
      idempotencyWindowMs: config.idempotencyWindowHours * 3_600_000,
      busyTimeoutMs: config.databaseBusyTimeoutMs,
      retryMs: config.databaseRetryMs,
    }).then(
      (opened) => {
        if (stopping) {
          void opened.close();
          return;
        }
        store = opened;
        database = 'ok';
        openFailure = undefined;
        logger.info({ databaseUrl: redactUrl(config.databaseUrl), attempt: attempt + 1 }, 'database ready');
      },
      (err: unknown) => {
        database = 'unavailable';
        const migration = (err as { name?: unknown } | null)?.name === 'MigrationError';
        // The database's own words when they are known to say nothing secret (as while it runs).
        const reason = unavailableReason(err);
        openFailure = migration
          ? 'migration error (see the server log)'
          : `failed to open${reason ? `: ${reason}` : ''} (see the server log)`;
        const retry = !migration && !stopping && config.databaseRetryMs > 0;
        const delay = Math.min(MAX_OPEN_RETRY_MS, config.databaseRetryMs * 2 ** Math.min(attempt, 16));
        logger.error(
          { err, databaseUrl: redactUrl(config.databaseUrl), ...(retry ? { retryInMs: delay } : {}) },
          'database failed to open; serving path queries from the engine only',
        );
        if (retry) {
          retryTimer = setTimeout(() => void open(attempt + 1), delay);
          retryTimer.unref();
        }
      },
    );
    return opening;
  };
  // The rate limiter is ready once its counts are where they belong (or could not be, yet).
  const ready: Promise<void> = Promise.all([open(0), rateLimiter.ready]).then(() => {});

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stopping = true;
      const timeoutMs = config.shutdownTimeoutMs;
      const started = performance.now();
      /** Milliseconds until `share` of the shutdown time has passed. */
      const until = (share: number) => Math.max(0, started + timeoutMs * share - performance.now());
      clearTimeout(retryTimer);
      logger.info('shutting down: finishing requests in flight');
      // No new connections; requests that arrive from now on are refused, and so are those
      // waiting for admission. Those in flight get a third of the time to finish; then their
      // engine work is cancelled, so they answer at once (their unfinished fields fail).
      const drained = drain.stop(Math.min(LINGER_MS, until(REQUESTS_SHARE)));
      admission.close();
      const cancelLate = setTimeout(() => {
        const shuttingDown = new OverloadedError('The service is shutting down: try again in a moment');
        for (const budget of services.inFlight) budget.cancel(shuttingDown);
      }, timeoutMs / 3);
      cancelLate.unref();
      await within(drained, until(REQUESTS_SHARE));
      clearTimeout(cancelLate);
      // Each step is bounded by its share of the time, and one that fails does not stop the next.
      let failure: unknown;
      const step = async (what: string, promise: Promise<unknown> | undefined, ms: number) => {
        try {
          await within(promise, ms);
        } catch (err) {
          failure ??= err;
          logger.warn({ err }, `shutdown: ${what} failed`);
        }
      };
      // Engine work still running fails now, and its requests answer with the error.
      await step('ending the worker threads', pool?.close(), until(CACHE_SHARE));
      // A store still opening is closed by `open` itself once it opens (`stopping` is set).
      await step('waiting for the database to open', opening, until(CACHE_SHARE));
      // Write what fits in the time; the rest is only a cache.
      await step('writing the cache', cacheWriter.flush(until(CACHE_SHARE)), Number.POSITIVE_INFINITY);
      if (store) {
        const opened = store;
        store = undefined;
        database = 'closed';
        // Requests still waiting on the database fail now, and answer with the error.
        await step('closing the database', opened.close(until(DATABASE_SHARE)), until(DATABASE_SHARE));
      }
      await step('closing the rate limiter', rateLimiter.close(), until(1));
      // Answers still being written get the rest of the time; then their connections are cut.
      await within(drained, until(1));
      if (drain.connections > 0) logger.warn({ connections: drain.connections }, 'shutdown: connections cut');
      drain.destroy();
      await step('stopping Apollo', apollo.stop(), until(1));
      if (failure !== undefined) throw failure;
      logger.info('shut down');
    })();
    return closing;
  };

  return { url, graphqlUrl: `${url}${GRAPHQL_PATH}`, port, ready, metrics, settle, close };
}

/** Runs the server from the environment until SIGTERM/SIGINT. */
export async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`chess-paths: configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  let server: RunningServer;
  try {
    server = await startServer(config, { logger });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`chess-paths: configuration error: ${err.message}`);
    process.exit(2);
  }
  let signals = 0;
  const stop = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    logger.info({ signal }, 'signal received');
    // Whatever `close()` waits for, the process ends within the time it was promised.
    setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown overran SHUTDOWN_TIMEOUT_MS: exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + EXIT_MARGIN_MS).unref();
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception');
    process.exit(1);
  });
  process.on('unhandledRejection', (err) => {
    // A request's own limit (budget, answer size) reaching promises graphql-js no longer watched.
    if (isRequestError(err)) logger.debug({ err }, 'late rejection of a cut-off request');
    else logger.error({ err }, 'unhandled promise rejection');
  });
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  void main();
}

/**
 * The service's entry point: `startServer` starts the parts of a server, in the order they must
 * start, and returns what a caller (the command line's `serve`, the tests, the benches) needs to
 * use and stop it. It listens at once, so `/health` can answer 503 while the database opens in
 * the background. Each part is a module of src/server/, which only this file imports:
 * `services.ts` (the engine and its worker threads, caches, the cache writer, admission),
 * `http.ts` (Apollo, the rate limiter and the listening HTTP server), `database.ts` (the store,
 * opened and opened again in the background, and the health report) and `shutdown.ts` (the
 * sequence that stops them all within SHUTDOWN_TIMEOUT_MS). Run directly (`node
 * dist/server.js`), it reads the environment and shuts down gracefully on SIGTERM and SIGINT,
 * exiting a second after the timeout at the latest.
 */
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { type Config, ConfigError, loadConfig } from './config.js';
import { GRAPHQL_PATH } from './graphql/apollo/server.js';
import { isRequestError } from './graphql/request/errors.js';
import type { EngineApi } from './graphql/work/engine-api.js';
import { createLogger } from './observability/logger.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { ServerDatabase, type StoreOpener, storeOpener } from './server/database.js';
import { listen } from './server/http.js';
import { createServices } from './server/services.js';
import { shutDown } from './server/shutdown.js';

/** Replaceable parts, for tests. */
export interface ServerDeps {
  /** The engine (default: the real one). */
  engine?: EngineApi;
  /** Opens the store (default: `openStore` of src/store); `null` runs without a database. */
  openStore?: StoreOpener | null;
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

/** Starts the HTTP server with GraphQL, health and metrics; see the file comment. */
export async function startServer(config: Config, deps: ServerDeps = {}): Promise<RunningServer> {
  const logger = deps.logger ?? createLogger(config.logLevel);
  const metrics = createMetrics();
  const database = new ServerDatabase(
    config,
    deps.openStore === undefined ? storeOpener(logger) : deps.openStore,
    logger,
  );
  const { services, admission } = createServices({
    config,
    metrics,
    logger,
    store: () => database.store,
    engine: deps.engine,
    workers: deps.workers,
  });
  const listening = await listen({ config, logger, metrics, services, admission, health: () => database.health() });
  const { url, port } = listening;

  // The rate limiter is ready once its counts are where they belong (or could not be, yet).
  const ready: Promise<void> = Promise.all([database.open(), listening.rateLimiter.ready]).then(() => {});
  /** Waits until no cache write is queued or running. */
  const settle = (): Promise<void> => services.cacheWriter.idle();
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= shutDown({ timeoutMs: config.shutdownTimeoutMs, logger, services, admission, database, listening });
    return closing;
  };

  return { url, graphqlUrl: `${url}${GRAPHQL_PATH}`, port, ready, metrics, settle, close };
}

/** After SHUTDOWN_TIMEOUT_MS, how long `main` lets `close()` overrun before it exits anyway, ms. */
const EXIT_MARGIN_MS = 1000;

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

/**
 * The server's shutdown: one sequence within SHUTDOWN_TIMEOUT_MS, each step bounded by its share
 * of the time and none stopped by the failure of one before it. Stop accepting and refuse what
 * arrives (src/http/drain.ts), let requests in flight finish (their engine work cancelled at a
 * third of the time), end the worker threads, write what fits of the queued cache entries (the
 * rest is only a cache), close the database (ending statements that would hold it) and the rate
 * limiter's connections, let answers still being written finish, cut what is left, stop Apollo.
 * Kept apart from what it stops so that its order and its shares read as one list.
 */
import type { Logger } from 'pino';
import type { Services } from '../graphql/request/services.js';
import type { Admission } from '../graphql/work/admission.js';
import { OverloadedError } from '../graphql/work/pool.js';
import type { ServerDatabase } from './database.js';
import type { Listening } from './http.js';

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

/** What a shutdown stops. */
export interface ShutdownParts {
  /** SHUTDOWN_TIMEOUT_MS. */
  timeoutMs: number;
  logger: Logger;
  services: Services;
  admission: Admission;
  database: ServerDatabase;
  listening: Listening;
}

/** Shuts the server down; see the file comment. Rejects with the first step's failure, once all ran. */
export async function shutDown(parts: ShutdownParts): Promise<void> {
  const { timeoutMs, logger, services, admission, database } = parts;
  const { drain, apollo, rateLimiter } = parts.listening;
  database.stop();
  const started = performance.now();
  /** Milliseconds until `share` of the shutdown time has passed. */
  const until = (share: number) => Math.max(0, started + timeoutMs * share - performance.now());
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
  await step('ending the worker threads', services.pool?.close(), until(CACHE_SHARE));
  // A store still opening is closed by the database itself once it opens (it was stopped).
  await step('waiting for the database to open', database.opening, until(CACHE_SHARE));
  // Write what fits in the time; the rest is only a cache.
  await step('writing the cache', services.cacheWriter.flush(until(CACHE_SHARE)), Number.POSITIVE_INFINITY);
  // Requests still waiting on the database fail now, and answer with the error.
  const closed = database.close(until(DATABASE_SHARE));
  if (closed) await step('closing the database', closed, until(DATABASE_SHARE));
  await step('closing the rate limiter', rateLimiter.close(), until(1));
  // Answers still being written get the rest of the time; then their connections are cut.
  await within(drained, until(1));
  if (drain.connections > 0) logger.warn({ connections: drain.connections }, 'shutdown: connections cut');
  drain.destroy();
  await step('stopping Apollo', apollo.stop(), until(1));
  if (failure !== undefined) throw failure;
  logger.info('shut down');
}

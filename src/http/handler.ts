/**
 * The HTTP front door on plain `node:http` (Apollo Server 5 ships no framework integration, and
 * `startStandaloneServer` cannot serve /health or /metrics). Routes:
 *
 * - `POST|GET /graphql`: the body is read with a size limit (413 past `MAX_BODY_BYTES`, sent once
 *   the rest of the body has been read and thrown away, within bounds), parsed
 *   as JSON, and handed to `executeHTTPGraphQLRequest`; GET with `Accept: text/html` is the
 *   playground, sent gzip-compressed with an ETag and a cache lifetime. A JSON POST whose exact
 *   text was answered before from memoised results alone gets that response again, before any
 *   parsing (`response-cache.ts`).
 * - `GET /health`: 200 with a small JSON body once the database is ready, 503 before (and while
 *   degraded or stopping).
 * - `GET /metrics`: Prometheus text.
 * - `GET /`: redirect to the playground.
 *
 * Every response is counted and timed by route in the metrics; CORS headers are added only for
 * configured origins.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { HeaderMap, type ApolloServer } from '@apollo/server';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { GRAPHQL_PATH } from '../graphql/apollo.js';
import { createContext, endRequest, persistFresh, type Context, type Services } from '../graphql/context.js';
import { replayable } from '../graphql/replay.js';
import { nextTurn } from '../graphql/turns.js';
import type { Metrics } from '../observability/metrics.js';
import { ResponseCache } from './response-cache.js';

const gzipAsync = promisify(gzip);

/** Methods counted by name; anything else is `OTHER`, so labels stay bounded. */
const KNOWN_METHODS = new Set(['GET', 'POST', 'HEAD', 'OPTIONS']);

/** What `/health` reports. */
export interface HealthReport {
  /** `ok` answers 200; everything else 503. */
  status: 'ok' | 'starting' | 'degraded' | 'stopping';
  database: 'ok' | 'opening' | 'unavailable' | 'disabled' | 'closed';
  /** Why the database is unavailable (SQLite's words, e.g. `database is locked`), when known. */
  reason?: string;
}

/** Dependencies of the request handler. */
export interface HandlerDeps {
  config: Config;
  apollo: ApolloServer<Context>;
  services: Services;
  metrics: Metrics;
  logger: Logger;
  health(): Promise<HealthReport>;
}

/** A request body over the size limit. */
class BodyTooLargeError extends Error {}

/** Most bytes of an over-long body read and thrown away so that its 413 reaches the client. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
/** Longest wait for the rest of an over-long body, ms. */
const MAX_DRAIN_MS = 10_000;

/**
 * Reads and throws away the rest of a request body, up to `MAX_DRAIN_BYTES` and `MAX_DRAIN_MS`.
 * Closing a connection while the client is still sending makes the kernel reset it, and a client
 * that has not read the answer yet then loses it; after draining, the 413 arrives every time.
 * Resolves true when the body ended.
 */
function drainBody(req: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    if (req.complete) {
      resolve(true);
      return;
    }
    let drained = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > MAX_DRAIN_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    const timer = setTimeout(() => finish(false), MAX_DRAIN_MS);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.resume();
  });
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyTooLargeError());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { errors: [{ message, extensions: { code } }] }, headers);
}

/** The compressed playground page, computed once per distinct HTML. */
interface CompressedPage {
  html: string;
  etag: string;
  gzipped: Promise<Buffer>;
}

/** A body at least this long waits for a turn of its own before it is parsed. */
const LARGE_BODY_BYTES = 64 * 1024;

/** Creates the `(req, res)` listener of the HTTP server. */
export function createRequestHandler(deps: HandlerDeps) {
  const { config, apollo, services, metrics, logger } = deps;
  const corsAll = config.corsOrigins.includes('*');
  const corsOrigins = new Set(config.corsOrigins);
  const responseCache = new ResponseCache(config.responseCacheSize);
  let page: CompressedPage | undefined;

  const pageFor = (html: string): CompressedPage => {
    if (page?.html !== html) {
      const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
      page = { html, etag, gzipped: gzipAsync(Buffer.from(html), { level: 9 }) };
    }
    return page;
  };

  const applyCors = (req: IncomingMessage, res: ServerResponse): void => {
    const origin = req.headers.origin;
    if (!origin || (!corsAll && !corsOrigins.has(origin))) return;
    res.setHeader('access-control-allow-origin', corsAll ? '*' : origin);
    res.setHeader('vary', 'Origin');
    res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
    res.setHeader(
      'access-control-allow-headers',
      'content-type, apollo-require-preflight, x-apollo-operation-name, authorization',
    );
    res.setHeader('access-control-max-age', '600');
  };

  const sendHtml = async (req: IncomingMessage, res: ServerResponse, status: number, html: string): Promise<void> => {
    const compressed = pageFor(html);
    const headers: Record<string, string> = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, max-age=300',
      etag: compressed.etag,
      vary: 'Accept, Accept-Encoding',
    };
    if (req.headers['if-none-match'] === compressed.etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      const body = await compressed.gzipped;
      res.writeHead(status, { ...headers, 'content-encoding': 'gzip', 'content-length': body.length });
      res.end(body);
      return;
    }
    res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(html) });
    res.end(html);
  };

  const graphql = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    let body: unknown;
    let cacheKey: string | undefined;
    if (method === 'POST') {
      let raw: Buffer;
      try {
        raw = await readBody(req, config.limits.maxBodyBytes);
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          const ended = await drainBody(req);
          sendError(
            res,
            413,
            'PAYLOAD_TOO_LARGE',
            `Request body is over the limit of ${config.limits.maxBodyBytes} bytes (MAX_BODY_BYTES)`,
            { connection: 'close' },
          );
          if (!ended) res.on('finish', () => req.destroy());
          return;
        }
        throw err;
      }
      const contentType = String(req.headers['content-type'] ?? '');
      // Parsing a large body (and coercing its variables) is one piece of work: one a turn.
      if (raw.length > LARGE_BODY_BYTES) await nextTurn();
      const text = raw.toString('utf8');
      if (/^application\/(.+\+)?json\b/i.test(contentType)) {
        cacheKey = responseCache.keyOf(req.headers.accept, text);
        const kept = cacheKey === undefined ? undefined : responseCache.get(cacheKey);
        if (kept) {
          metrics.responseCacheHits.inc();
          res.writeHead(200, { 'content-type': kept.contentType, 'content-length': Buffer.byteLength(kept.body) });
          res.end(kept.body);
          return;
        }
        if (text.trim() === '') {
          body = undefined;
        } else {
          try {
            body = JSON.parse(text);
          } catch (err) {
            sendError(res, 400, 'BAD_REQUEST', `Request body is not valid JSON: ${(err as Error).message}`);
            return;
          }
        }
      } else {
        body = text;
      }
    }
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    let context: Context | undefined;
    // Whatever happens to the response (sent, or the client gone), the request's work ends with it.
    res.once('close', () => {
      if (context) endRequest(context);
    });
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method, headers, search: url.search, body },
      context: async () => (context = createContext(services, req.socket.remoteAddress)),
    });
    if (context) {
      const done = context;
      res.once('finish', () => persistFresh(done));
    }
    const status = response.status ?? 200;
    const contentType = response.headers.get('content-type') ?? '';
    if (response.body.kind === 'complete' && contentType.startsWith('text/html')) {
      await sendHtml(req, res, status, response.body.string);
      return;
    }
    for (const [key, value] of response.headers) res.setHeader(key, value);
    res.statusCode = status;
    if (response.body.kind === 'complete') {
      if (cacheKey !== undefined && replayable(context?.replay) && status === 200) {
        responseCache.set(cacheKey, { contentType, body: response.body.string });
      }
      res.setHeader('content-length', Buffer.byteLength(response.body.string));
      res.end(response.body.string);
      return;
    }
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  };

  const route = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<string> => {
    const method = req.method ?? 'GET';
    const path = url.pathname;
    applyCors(req, res);
    if (method === 'OPTIONS') {
      res.writeHead(204);
      res.end();
      return path === GRAPHQL_PATH ? 'graphql' : 'other';
    }
    if (path === GRAPHQL_PATH) {
      await graphql(req, res, url);
      return 'graphql';
    }
    if (path === '/health') {
      const report = await deps.health();
      sendJson(res, report.status === 'ok' ? 200 : 503, report, { 'cache-control': 'no-store' });
      return 'health';
    }
    if (path === '/metrics' && (method === 'GET' || method === 'HEAD')) {
      const text = await metrics.registry.metrics();
      res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
      res.end(text);
      return 'metrics';
    }
    if (path === '/' && (method === 'GET' || method === 'HEAD')) {
      res.writeHead(302, { location: GRAPHQL_PATH });
      res.end();
      return 'other';
    }
    sendError(res, 404, 'NOT_FOUND', `No route for ${method} ${path}: use POST ${GRAPHQL_PATH}, GET /health or GET /metrics`);
    return 'other';
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = process.hrtime.bigint();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      sendError(res, 400, 'BAD_REQUEST', 'Malformed request URL');
      return;
    }
    route(req, res, url)
      .catch((err: unknown) => {
        logger.error({ err, method: req.method, url: req.url }, 'request failed');
        if (!res.headersSent) {
          sendError(res, 500, 'INTERNAL_SERVER_ERROR', config.production ? 'Internal server error' : String((err as Error)?.message ?? err));
        } else {
          res.destroy();
        }
        return 'other';
      })
      .then((name) => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const done = () => {
          const method = KNOWN_METHODS.has(req.method ?? '') ? (req.method as string) : 'OTHER';
          metrics.httpRequests.inc({ route: name, method, status: String(res.statusCode) });
          metrics.httpSeconds.observe({ route: name }, seconds);
          if (logger.isLevelEnabled('debug')) {
            logger.debug({ method: req.method, url: req.url, status: res.statusCode, ms: seconds * 1000 }, 'request');
          }
        };
        if (res.writableFinished) done();
        else res.once('finish', done);
      });
  };
}

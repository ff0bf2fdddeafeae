/**
 * The HTTP front door on plain `node:http` (Apollo Server 5 ships no framework integration, and
 * `startStandaloneServer` cannot serve /health or /metrics). It routes, adds CORS headers for
 * configured origins, and counts and times every response by route:
 *
 * - `POST|GET /graphql`: the GraphQL endpoint and its playground (`graphql-route.ts`).
 * - `GET /playground/*`: the playground's files and its service worker, when PLAYGROUND is on (`playground-route.ts`).
 * - `GET /health`: 200 with a small JSON report once the database is ready, 503 before it is
 *   and while it is degraded or the server is stopping.
 * - `GET /metrics`: Prometheus text.
 * - `GET /diagram.svg` and `GET /diagram.png`: the diagram of a path question as an SVG or PNG
 *   image (`diagram-route.ts`).
 * - `GET /` and `GET /viewer/*`: the viewer page and its bundle (`viewer-route.ts`); the page
 *   carries the preview of the question in its query string (`viewer-preview.ts`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { ErrorCode } from '../errors.js';
import { GRAPHQL_PATH } from '../graphql/apollo/server.js';
import type { GraphqlGateway } from '../graphql/gateway.js';
import type { Metrics } from '../observability/metrics.js';
import { corsFor } from './cors.js';
import { DIAGRAM_PATH, DIAGRAM_PNG_PATH, diagramRoute } from './diagram-route.js';
import { graphqlRoute } from './graphql-route.js';
import { isPlaygroundPath, PLAYGROUND_WORKER_PATH, playgroundRoute } from './playground-route.js';
import { sendError, sendJson } from './replies.js';
import { isViewerPath, viewerRoute } from './viewer-route.js';

/** The URL of a request for exactly GRAPHQL_PATH, shared (read, never written). */
const GRAPHQL_URL = new URL(GRAPHQL_PATH, 'http://localhost');

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
  gateway: GraphqlGateway;
  metrics: Metrics;
  logger: Logger;
  health(): Promise<HealthReport>;
}

/** Creates the `(req, res)` listener of the HTTP server. */
export function createRequestHandler(deps: HandlerDeps) {
  const { config, metrics, logger } = deps;
  const applyCors = corsFor(config.corsOrigins);
  const graphql = graphqlRoute(deps);
  const viewer = viewerRoute(undefined, { config });
  const diagram = diagramRoute(deps);
  const playground = config.playground ? playgroundRoute(undefined, GRAPHQL_PATH) : undefined;

  /** Answers one request; resolves to the route's name for the metrics. */
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
    if (path === DIAGRAM_PATH || path === DIAGRAM_PNG_PATH) {
      await diagram(req, res, url);
      return path === DIAGRAM_PATH ? 'diagram' : 'diagram_png';
    }
    if (playground && isPlaygroundPath(path)) {
      await playground(req, res, path);
      // The service worker is asked for on later visits too (browsers look for a new version): counted apart.
      return path === PLAYGROUND_WORKER_PATH ? 'playground_worker' : 'playground';
    }
    if (isViewerPath(path)) {
      await viewer(req, res, path, url);
      return 'viewer';
    }
    const message = `No route for ${method} ${path}: use POST ${GRAPHQL_PATH}, GET ${DIAGRAM_PATH}, GET ${DIAGRAM_PNG_PATH}, GET /health or GET /metrics`;
    sendError(res, 404, ErrorCode.NotFound, message);
    return 'other';
  };

  /** Counts and times a response by route once it is finished. */
  const observe = (req: IncomingMessage, res: ServerResponse, name: string, started: bigint): void => {
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
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = process.hrtime.bigint();
    let url: URL;
    try {
      // The endpoint's own path, as every POST of a front end asks it: parsed once (no route writes to its URL).
      url = req.url === GRAPHQL_PATH ? GRAPHQL_URL : new URL(req.url ?? '/', 'http://localhost');
    } catch {
      sendError(res, 400, ErrorCode.BadRequest, 'Malformed request URL');
      return;
    }
    route(req, res, url)
      .catch((err: unknown) => {
        logger.error({ err, method: req.method, url: req.url }, 'request failed');
        if (!res.headersSent) {
          const message = config.production ? 'Internal server error' : String((err as Error)?.message ?? err);
          sendError(res, 500, ErrorCode.InternalServerError, message);
        } else {
          res.destroy();
        }
        return 'other';
      })
      .then((name) => observe(req, res, name, started));
  };
}

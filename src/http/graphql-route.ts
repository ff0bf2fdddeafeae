/**
 * `POST|GET /graphql`: the bridge from `node:http` to the GraphQL layer's gateway. The body is
 * read within MAX_BODY_BYTES (413 past it), parsed as JSON when its content type says JSON, and
 * handed over with the headers and the query string; Apollo answers GET with `Accept: text/html`
 * with the playground page. A JSON POST whose exact text was answered before from hot results
 * alone gets that response again before any parsing (`response-cache.ts`). When the response is
 * over (sent, or its client gone) the gateway is told, so the request's work ends with it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap } from '@apollo/server';
import type { Config } from '../config.js';
import { ErrorCode } from '../errors.js';
import type { GraphqlGateway } from '../graphql/gateway.js';
import { nextTurn } from '../graphql/turns.js';
import type { Metrics } from '../observability/metrics.js';
import { BodyTooLargeError, drainBody, readBody } from './body.js';
import { htmlPageSender } from './html-page.js';
import { sendError } from './replies.js';
import { ResponseCache } from './response-cache.js';

/** A body at least this long waits for a turn of its own before it is parsed. */
const LARGE_BODY_BYTES = 64 * 1024;

/** Dependencies of the GraphQL route. */
export interface GraphqlRouteDeps {
  config: Config;
  gateway: GraphqlGateway;
  metrics: Metrics;
}

/** Creates the handler of the GraphQL endpoint. */
export function graphqlRoute({ config, gateway, metrics }: GraphqlRouteDeps) {
  const responseCache = new ResponseCache(config.responseCacheSize);
  const sendHtml = htmlPageSender();
  const maxBodyBytes = config.limits.maxBodyBytes;

  /** The parsed body, or undefined after a refusal has been sent; `cacheKey` set when replayable. */
  const readRequest = async (
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ body: unknown; cacheKey?: string } | undefined> => {
    let raw: Buffer;
    try {
      raw = await readBody(req, maxBodyBytes);
    } catch (err) {
      if (!(err instanceof BodyTooLargeError)) throw err;
      const ended = await drainBody(req);
      const message = `Request body is over the limit of ${maxBodyBytes} bytes (MAX_BODY_BYTES)`;
      sendError(res, 413, ErrorCode.PayloadTooLarge, message, { connection: 'close' });
      if (!ended) res.on('finish', () => req.destroy());
      return undefined;
    }
    // Parsing a large body (and coercing its variables) is one piece of work: one a turn.
    if (raw.length > LARGE_BODY_BYTES) await nextTurn();
    const text = raw.toString('utf8');
    if (!/^application\/(.+\+)?json\b/i.test(String(req.headers['content-type'] ?? ''))) return { body: text };
    const cacheKey = responseCache.keyOf(req.headers.accept, text);
    const kept = cacheKey === undefined ? undefined : responseCache.get(cacheKey);
    if (kept) {
      metrics.responseCacheHits.inc();
      res.writeHead(200, { 'content-type': kept.contentType, 'content-length': Buffer.byteLength(kept.body) });
      res.end(kept.body);
      return undefined;
    }
    if (text.trim() === '') return { body: undefined, cacheKey };
    try {
      return { body: JSON.parse(text), cacheKey };
    } catch (err) {
      sendError(res, 400, ErrorCode.BadRequest, `Request body is not valid JSON: ${(err as Error).message}`);
      return undefined;
    }
  };

  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    let body: unknown;
    let cacheKey: string | undefined;
    if (method === 'POST') {
      const read = await readRequest(req, res);
      if (!read) return;
      ({ body, cacheKey } = read);
    }
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const exchange = gateway.begin(req.socket.remoteAddress);
    res.once('close', () => exchange.closed());
    const response = await exchange.execute({ method, headers, search: url.search, body });
    res.once('finish', () => exchange.sent());
    const status = response.status ?? 200;
    const contentType = response.headers.get('content-type') ?? '';
    if (response.body.kind === 'complete' && contentType.startsWith('text/html')) {
      await sendHtml(req, res, status, response.body.string);
      return;
    }
    for (const [key, value] of response.headers) res.setHeader(key, value);
    res.statusCode = status;
    if (response.body.kind === 'complete') {
      if (cacheKey !== undefined && status === 200 && exchange.replayable()) {
        responseCache.set(cacheKey, { contentType, body: response.body.string });
      }
      res.setHeader('content-length', Buffer.byteLength(response.body.string));
      res.end(response.body.string);
      return;
    }
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  };
}

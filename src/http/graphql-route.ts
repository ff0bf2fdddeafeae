/**
 * `POST|GET|HEAD /graphql`: the bridge from `node:http` to the GraphQL layer's gateway. A POST body is
 * read within MAX_BODY_BYTES (413 past it) and must say what it is: JSON (`application/json`,
 * one operation or a batch of at most MAX_BATCH_OPERATIONS) or a bare document
 * (`application/graphql`); anything else is 415, which is also what keeps cross-site HTML forms
 * out (they can only send form and text types). GET needs no such header: it only runs queries.
 * The request goes to the gateway with its headers and query string; Apollo answers GET with
 * `Accept: text/html` with the playground page. A JSON POST whose exact text was answered before
 * from hot results alone (and asked before that) gets that response again before any parsing
 * (`response-cache.ts`). A cacheable GET answer gets an ETag, and a request whose `If-None-Match`
 * matches it gets 304. A large answer is encoded and tagged a piece a turn (`large-text.ts`).
 * When the response is over (sent, or its client gone) the gateway is told, so the request's work
 * ends with it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap } from '@apollo/server';
import etag from 'etag';
import type { Config } from '../config.js';
import { ErrorCode } from '../errors.js';
import { NO_STORE } from '../graphql/caching/http-cache.js';
import type { GraphqlGateway } from '../graphql/gateway.js';
import { nextTurn } from '../graphql/work/turns.js';
import type { Metrics } from '../observability/metrics.js';
import { BodyTooLargeError, drainBody, readBody } from './body.js';
import { clientAddress } from './client-address.js';
import { htmlPageSender } from './html-page.js';
import { isLargeText, piecesEtag, sendPieces, sendText, utf8Pieces } from './large-text.js';
import { appendVary, sendError } from './replies.js';
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
  const responseCache = new ResponseCache(config.responseCacheSize, config.responseCacheBytes);
  metrics.watchCache('responses', () => responseCache.size());
  const sendHtml = htmlPageSender();
  const { maxBodyBytes, maxBatchOperations } = config.limits;

  /** The parsed body, or undefined after a refusal has been sent; `cacheKey` set when replayable. */
  const readRequest = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
  ): Promise<{ body: unknown; cacheKey?: string } | undefined> => {
    let raw: Buffer;
    try {
      raw = await readBody(req, maxBodyBytes);
    } catch (err) {
      if (!(err instanceof BodyTooLargeError)) throw err;
      const ended = await drainBody(req);
      const message = `Request body is over the limit of ${maxBodyBytes} bytes (MAX_BODY_BYTES)`;
      const limit = { limit: 'MAX_BODY_BYTES', max: maxBodyBytes };
      sendError(res, 413, ErrorCode.PayloadTooLarge, message, { connection: 'close' }, limit);
      if (!ended) res.on('finish', () => req.destroy());
      return undefined;
    }
    // Parsing a large body (and coercing its variables) is one piece of work: one a turn.
    if (raw.length > LARGE_BODY_BYTES) await nextTurn();
    const text = raw.toString('utf8');
    const contentType = String(req.headers['content-type'] ?? '');
    if (/^application\/graphql\s*(;|$)/i.test(contentType)) return { body: { query: text } };
    if (!/^application\/(.+\+)?json\s*(;|$)/i.test(contentType)) {
      const given = contentType === '' ? 'none' : JSON.stringify(contentType.slice(0, 100));
      const message = `A POST to ${url.pathname} needs Content-Type application/json (or application/graphql); got ${given}`;
      sendError(res, 415, ErrorCode.BadRequest, message);
      return undefined;
    }
    const { response: kept, key: cacheKey } = responseCache.lookup(req.headers.accept, text);
    if (kept) {
      metrics.responseCacheHits.inc();
      res.statusCode = 200;
      res.setHeader('content-type', kept.contentType);
      res.setHeader('cache-control', NO_STORE); // a replay answers a POST, and POST answers are not cached
      await sendText(res, kept.body);
      return undefined;
    }
    if (text.trim() === '') return { body: undefined, cacheKey };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      sendError(res, 400, ErrorCode.BadRequest, `Request body is not valid JSON: ${(err as Error).message}`);
      return undefined;
    }
    const items: unknown[] = Array.isArray(body) ? body : [body];
    const notRequest = items.findIndex((item) => item === null || typeof item !== 'object' || Array.isArray(item));
    if (notRequest >= 0) {
      const what = Array.isArray(body) ? `item ${notRequest} of the batch is` : 'the body is';
      const message = `A JSON body is one request ({"query": ...}) or an array of them (a batch); ${what} ${shown(items[notRequest])}`;
      sendError(res, 400, ErrorCode.BadRequest, message);
      return undefined;
    }
    if (Array.isArray(body) && body.length > maxBatchOperations) {
      const message = `A batch of ${body.length} operations is over the limit of ${maxBatchOperations} (MAX_BATCH_OPERATIONS)`;
      sendError(
        res,
        400,
        ErrorCode.BadRequest,
        message,
        {},
        { limit: 'MAX_BATCH_OPERATIONS', max: maxBatchOperations },
      );
      return undefined;
    }
    return { body, cacheKey };
  };

  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    // HEAD is a GET whose body Node leaves out (RFC 9110 9.3.2): the same status and headers.
    const asked = (req.method ?? 'GET').toUpperCase();
    const method = asked === 'HEAD' ? 'GET' : asked;
    let body: unknown;
    let cacheKey: string | undefined;
    if (method === 'POST') {
      const read = await readRequest(req, res, url);
      if (!read) return;
      ({ body, cacheKey } = read);
    }
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const exchange = gateway.begin(clientAddress(req, config.trustProxyHops));
    res.once('close', () => exchange.closed());
    const response = await exchange.execute({ method, headers, search: url.search, body });
    res.once('finish', () => exchange.sent());
    // A batch that ran (an array of answers) is 200: each operation's answer carries its own
    // errors and codes, and one operation's refusal (a syntax error, its share of MAX_COST) must
    // not read as the batch's. A batch refused whole (empty, not objects) keeps its status.
    const ranBatch = Array.isArray(body) && response.body.kind === 'complete' && response.body.string.startsWith('[');
    const status = ranBatch ? 200 : (response.status ?? 200);
    const contentType = response.headers.get('content-type') ?? '';
    if (response.body.kind === 'complete' && contentType.startsWith('text/html')) {
      exchange.answered();
      await sendHtml(req, res, status, response.body.string);
      return;
    }
    for (const [key, value] of response.headers) res.setHeader(key, value);
    // A refusal Apollo makes before any operation runs (bad variables JSON in a URL) says nothing of caching.
    if (status >= 400 && !res.hasHeader('cache-control')) res.setHeader('cache-control', NO_STORE);
    res.statusCode = status;
    if (response.body.kind === 'complete') {
      const text = response.body.string;
      if (cacheKey !== undefined && status === 200 && exchange.replayable()) {
        responseCache.set(cacheKey, { contentType, body: text });
      }
      // A large answer is encoded a piece a turn, and hashed likewise when it gets a tag.
      const pieces = isLargeText(text) ? await utf8Pieces(text) : null;
      if (method === 'GET' && status === 200 && response.headers.get('cache-control') !== NO_STORE) {
        // One tag per representation: the same data as JSON and as graphql-response+json differ.
        const prefix = `${contentType}\n`;
        res.setHeader('etag', pieces ? await piecesEtag(prefix, pieces) : etag(prefix + text));
        // The answer depends on Accept (JSON flavours, the playground page): caches key on it too.
        res.setHeader('vary', appendVary(res.getHeader('vary'), 'Accept'));
        if (matchesIfNoneMatch(req.headers['if-none-match'], String(res.getHeader('etag')))) {
          res.statusCode = 304;
          res.removeHeader('content-type');
          exchange.answered();
          res.end();
          return;
        }
      }
      exchange.answered();
      if (pieces) sendPieces(res, pieces);
      else {
        res.setHeader('content-length', Buffer.byteLength(text));
        res.end(text);
      }
      return;
    }
    // Written without waiting for the client: the slices are bytes once made, and the objects
    // they are made of are let go slice by slice.
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    exchange.answered();
    res.end();
  };
}

/** A JSON value that is no request, as a refusal shows it: never written out whole (it may nest deeper than the stack). */
function shown(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value);
  return String(value);
}

/**
 * Whether an `If-None-Match` header names `tag` (RFC 9110 13.1.2: weak comparison, `*` matches
 * any). The origin answers a matching conditional request with 304 whatever `Cache-Control` the
 * request carries: `no-cache`, which fetch adds to every conditional request, speaks to caches
 * on the way, not to the origin.
 */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => opaque(t) === opaque(tag));
}

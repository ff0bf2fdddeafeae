/**
 * `GET /diagram.svg?piece=KING&from=e4&to=a1,h8` and `GET /diagram.png?...`: the diagram of a path
 * question as an embeddable image (`<img src="/diagram.svg?...">`), as SVG or as PNG. The question's
 * parameters (`diagram-question.ts`) are the same for both: `piece`, `from`, `to`, `board`, `mask`,
 * `blocked`, `fen`, `avoidAttacked`, `orientation`, `path`, `betza`; the PNG takes `width` besides
 * (pixels, default PNG_DEFAULT_WIDTH, at most PNG_MAX_WIDTH). Any other parameter is refused.
 *
 * The SVG is the GraphQL layer's picture, drawn on that layer's one road (cost, admission, engine
 * budget, worker pool, its length bounded before drawing against MAX_RESPONSE_BYTES). The PNG is
 * that SVG rasterised (`graphql/work/raster.ts`, resvg with a font of its own) as more engine work
 * of the same request: its size is read from the drawn SVG and refused past PNG_MAX_PIXELS before a
 * pixel is made (400, naming `width` and the widest picture that fits), and it is made on the
 * worker pool, never on the event loop, on the request's engine budget and behind its place at
 * admission, if it holds one. A PNG over MAX_RESPONSE_BYTES is refused like an SVG (422).
 *
 * Answers never change for the same URL: `Cache-Control` is PATH_CACHE_CONTROL, with an ETag and
 * 304 on a matching If-None-Match. The tag is hashed from what the picture is drawn from (the
 * result's key and the drawing's options; for a PNG its width and the rasteriser's and font's
 * versions), so a 304 costs no rasterising, and a HEAD of a PNG answers its headers without one
 * (no Content-Length). Bad input is 400 `text/plain` naming the parameter and the value, e.g.
 * `from: "z9" is not a square on an 8 x 8 board`; a work limit is 422; a busy service 503 with
 * Retry-After; every refusal is `no-store`. Pictures are written as the client takes them.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InputError } from '@chess-paths/engine';
import type { Config } from '../config.js';
import { ErrorCode, ServiceError } from '../errors.js';
import type { GraphqlGateway } from '../graphql/gateway.js';
import { LimitError } from '../graphql/limits/limits.js';
import { pngHeight, RASTER_VERSION } from '../graphql/work/raster.js';
import { clientAddress } from './client-address.js';
import { type AnswerError, type DiagramQuestion, diagramQuestion, pictureOf, single } from './diagram-question.js';
import { matchesIfNoneMatch } from './graphql-route.js';
import { streamBytes, streamText } from './large-text.js';

/** The path of the SVG door. */
export const DIAGRAM_PATH = '/diagram.svg';
/** The path of the PNG door. */
export const DIAGRAM_PNG_PATH = '/diagram.png';

/** Width of a PNG when `width` is not given, pixels: what link previews and chats show well. */
export const PNG_DEFAULT_WIDTH = 1200;
/** Narrowest and widest PNG, pixels. */
export const PNG_MIN_WIDTH = 16;
export const PNG_MAX_WIDTH = 4096;
/** Most pixels of one PNG: 4096 x 4096, 64 MiB while it is drawn (4 bytes a pixel). */
export const PNG_MAX_PIXELS = 4096 * 4096;

/** What each door takes besides the question. */
const SVG_DOOR = { path: DIAGRAM_PATH, own: [] };
const PNG_DOOR = { path: DIAGRAM_PNG_PATH, own: ['width'] };

/** Dependencies of the diagram route. */
export interface DiagramRouteDeps {
  config: Config;
  gateway: GraphqlGateway;
}

/** A refusal: its status, text and headers. */
interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** Creates the handler of `GET /diagram.svg` and `GET /diagram.png`. */
export function diagramRoute({ config, gateway }: DiagramRouteDeps) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const png = url.pathname === DIAGRAM_PNG_PATH;
    const door = png ? PNG_DOOR : SVG_DOOR;
    const method = (req.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      sendText(res, { status: 405, message: `${door.path} answers GET and HEAD only, not ${method}` }, 'GET, HEAD');
      return;
    }
    let question: DiagramQuestion;
    let width = 0;
    try {
      question = diagramQuestion(url.searchParams, config, door);
      if (png) width = pngWidth(url.searchParams);
    } catch (err) {
      if (err instanceof InputError || err instanceof LimitError) {
        sendText(res, { status: 400, message: err.message });
        return;
      }
      throw err;
    }
    // The picture is work like any other: through the GraphQL layer's one road (cost, admission,
    // engine budget, worker pool, answer size), ended when the client leaves.
    const exchange = gateway.begin(clientAddress(req, config.trustProxyHops));
    res.once('close', () => exchange.closed());
    const refuse = (refusal: Refusal) => {
      exchange.answered();
      sendText(res, refusal);
    };
    const response = await exchange.executeOperation(question.operation);
    const answer = response.body.kind === 'single' ? response.body.singleResult : undefined;
    const picture = pictureOf(answer?.data, question);
    if (!picture || 'message' in picture) {
      const retryAfter = response.http.headers.get('retry-after');
      refuse({
        ...refusalOf(picture ?? answer?.errors?.[0], response.http.status),
        ...(retryAfter ? { headers: { 'retry-after': retryAfter } } : {}),
      });
      return;
    }
    const size = png ? svgSize(picture.svg) : undefined;
    if (size) {
      const height = pngHeight(size.width, size.height, width);
      if (width * height > PNG_MAX_PIXELS) {
        refuse({ status: 400, message: overPixels(width, height, size, url.searchParams.has('width')) });
        return;
      }
    }
    const tag = pictureTag(picture.key, question, png ? ['png', width, RASTER_VERSION] : []);
    res.once('finish', () => exchange.sent());
    if (matchesIfNoneMatch(req.headers['if-none-match'], tag)) {
      exchange.answered();
      res.writeHead(304, { 'cache-control': config.pathCacheControl, etag: tag, 'x-content-type-options': 'nosniff' });
      res.end();
      return;
    }
    let bytes: Uint8Array | undefined;
    if (size && method === 'GET') {
      try {
        const drawn = { svg: picture.svg, svgWidth: size.width, svgHeight: size.height };
        bytes = await exchange.rasterize(drawn, width, PNG_MAX_PIXELS);
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        const retryAfter = err.extensions().retryAfter;
        refuse({
          ...refusalOf({ message: err.message, extensions: { code: err.code, ...err.extensions() } }, undefined),
          ...(retryAfter !== undefined ? { headers: { 'retry-after': String(retryAfter) } } : {}),
        });
        return;
      }
      const most = config.limits.maxResponseBytes;
      if (most > 0 && bytes.length > most) {
        refuse({ status: 422, message: overBytes(bytes.length, most) });
        return;
      }
    }
    exchange.answered();
    res.setHeader('cache-control', config.pathCacheControl);
    res.setHeader('etag', tag);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('content-type', png ? 'image/png' : 'image/svg+xml; charset=utf-8');
    res.statusCode = 200;
    if (method === 'HEAD') {
      if (!png) res.setHeader('content-length', Buffer.byteLength(picture.svg));
      res.end();
      return;
    }
    if (bytes) await streamBytes(res, bytes, config.sendStallMs);
    else await streamText(res, picture.svg, config.sendStallMs);
  };
}

/** The `width` of a PNG (PNG_DEFAULT_WIDTH when absent); throws `InputError` naming it. */
function pngWidth(params: URLSearchParams): number {
  const raw = single(params, 'width');
  if (raw === null) return PNG_DEFAULT_WIDTH;
  const range = `from ${PNG_MIN_WIDTH} to ${PNG_MAX_WIDTH}`;
  if (!/^\s*\d{1,9}\s*$/.test(raw)) throw new InputError(['width'], raw, `is not a width in pixels (${range})`);
  const width = Number(raw);
  if (width > PNG_MAX_WIDTH) throw new InputError(['width'], raw, `is over the limit of ${PNG_MAX_WIDTH} pixels`);
  if (width < PNG_MIN_WIDTH)
    throw new InputError(['width'], raw, `is under the least width of ${PNG_MIN_WIDTH} pixels`);
  return width;
}

/** The size of a drawn picture in its user units, from its `svg` element's attributes. */
function svgSize(svg: string): { width: number; height: number } {
  const match = /^<svg [^>]*?width="([\d.]+)" height="([\d.]+)"/.exec(svg.slice(0, 512));
  if (!match) throw new Error('the picture has no width and height');
  return { width: Number(match[1]), height: Number(match[2]) };
}

/** Why a PNG `width` pixels wide of this picture is refused, with the widest that fits. */
function overPixels(width: number, height: number, size: { width: number; height: number }, given: boolean): string {
  let widest = Math.min(PNG_MAX_WIDTH, Math.floor(Math.sqrt((PNG_MAX_PIXELS * size.width) / size.height)));
  while (widest > 1 && widest * pngHeight(size.width, size.height, widest) > PNG_MAX_PIXELS) widest--;
  const value = given ? `"${width}"` : `${width} (the default)`;
  return (
    `width: ${value} makes a PNG of ${width} x ${height} pixels of this picture, over the limit of ` +
    `${PNG_MAX_PIXELS} pixels: give a width of at most ${widest}`
  );
}

/** Why a PNG over MAX_RESPONSE_BYTES is refused. */
function overBytes(bytes: number, most: number): string {
  return `the PNG is ${bytes} bytes, over the limit of ${most} bytes (MAX_RESPONSE_BYTES): give a smaller width`;
}

/** The status and text of a refusal, from the GraphQL error that caused it. */
function refusalOf(error: AnswerError | undefined, httpStatus: number | undefined): Refusal {
  if (!error) return { status: 500, message: 'Internal server error' };
  const code = error.extensions?.code;
  // A question's own error names its GraphQL argument (`query.fen`): here it is the parameter.
  const message = error.message.replace(/^query\./, '');
  if (code === ErrorCode.BadUserInput || code === ErrorCode.BadRequest) return { status: 400, message };
  if (httpStatus !== undefined && httpStatus >= 400) return { status: httpStatus, message };
  if (code === ErrorCode.Overloaded || code === ErrorCode.ServiceUnavailable) return { status: 503, message };
  // Over a work limit (engine budget, answer size, cost): the question is too large to draw here.
  if (error.extensions?.limit !== undefined) return { status: 422, message };
  return { status: 500, message };
}

/** Sends a plain-text answer (a refusal); `allow` for a 405. */
function sendText(res: ServerResponse, refusal: Refusal, allow?: string): void {
  res.writeHead(refusal.status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(refusal.message),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(allow ? { allow } : {}),
    ...refusal.headers,
  });
  res.end(refusal.message);
}

/** Changes whenever the drawing of a question changes: part of every picture's tag. */
const DRAWING_VERSION = 'diagram-4';

/**
 * The picture's entity tag, from what it is drawn from rather than from its bytes: the result's
 * canonical key and the drawing's options (the position's FEN, the mover, orientation, path), and
 * for a PNG what it is made with (`format`: its width, the rasteriser's and the font's versions).
 * The same question always draws the same picture, and hashing a few hundred bytes instead of an
 * 11 MB picture keeps the event loop free.
 */
function pictureTag(key: string, question: DiagramQuestion, format: unknown[]): string {
  const v = question.operation.variables;
  const q = (v.q ?? {}) as { fen?: unknown };
  const drawing = [DRAWING_VERSION, key, v.orientation, v.path, v.fen ?? q.fen ?? null, v.fen ? question.from : null];
  return `"${createHash('sha1')
    .update(JSON.stringify([...drawing, ...format]))
    .digest('base64url')}"`;
}

/**
 * `GET /diagram.svg?piece=KING&from=e4&to=a1,h8`: the diagram of a path question as an embeddable
 * image (`<img src="/diagram.svg?...">`). Optional parameters: `board=10x10`, `mask` (0x + hex),
 * `blocked=c2,d3`, `fen` (its pieces are drawn and block), `orientation=white|black`,
 * `avoidAttacked=true` (with `fen`: the piece standing on `from` moves, and the squares the other
 * colour attacks are impassable and marked; `piece` may then be left out), `path=true` (draw
 * the lexicographically smallest shortest path) and `betza=NN` (a fairy piece in Betza notation:
 * `piece` is then FAIRY, and may be left out). The Betza text goes to the PathQuery as it is, so
 * the engine reads it and refuses what is not of its subset (400, under `betza`); only its length
 * is checked here, against MAX_BETZA_LENGTH, as the board's side and the FEN's length are.
 *
 * Any other parameter is refused (a misspelt one would otherwise be ignored, and its picture
 * cached). Answers never change for the same URL: `Cache-Control` is PATH_CACHE_CONTROL, with an ETag and
 * 304 on a matching If-None-Match. Bad input is 400 `text/plain` naming the parameter and the
 * value, e.g. `from: "z9" is not a square on an 8 x 8 board`. Boards are bounded by MAX_BOARD_SIDE
 * (and FENs by the matching length) before any engine work, so one diagram is bounded work: it is
 * solved on this thread with the engine's public API.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Board,
  type Color,
  InputError,
  ORTHODOX_MOVERS,
  PIECES,
  type Piece,
  parseSquare,
  resolveBoard,
} from '@chess-paths/engine';
import type { Config } from '../config.js';
import { ErrorCode } from '../errors.js';
import type { GraphqlGateway } from '../graphql/gateway.js';
import { checkBetza, checkBoard, checkFen, LimitError } from '../graphql/limits/limits.js';
import { clientAddress } from './client-address.js';
import { matchesIfNoneMatch } from './graphql-route.js';
import { streamText } from './large-text.js';

/** The path of the endpoint. */
export const DIAGRAM_PATH = '/diagram.svg';

/** The parameters a diagram's URL may hold. */
const PARAMETERS = [
  'piece',
  'from',
  'to',
  'board',
  'mask',
  'blocked',
  'fen',
  'avoidAttacked',
  'orientation',
  'path',
  'betza',
];

/** Dependencies of the diagram route. */
export interface DiagramRouteDeps {
  config: Config;
  gateway: GraphqlGateway;
}

/** Creates the handler of `GET /diagram.svg`. */
export function diagramRoute({ config, gateway }: DiagramRouteDeps) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      sendText(res, 405, `${DIAGRAM_PATH} answers GET and HEAD only, not ${method}`, { allow: 'GET, HEAD' });
      return;
    }
    let question: DiagramQuestion;
    try {
      question = diagramQuestion(url.searchParams, config);
    } catch (err) {
      if (err instanceof InputError || err instanceof LimitError) {
        sendText(res, 400, err.message);
        return;
      }
      throw err;
    }
    // The picture is work like any other: through the GraphQL layer's one road (cost, admission,
    // engine budget, worker pool, answer size), ended when the client leaves.
    const exchange = gateway.begin(clientAddress(req, config.trustProxyHops));
    res.once('close', () => exchange.closed());
    const response = await exchange.executeOperation(question.operation);
    const answer = response.body.kind === 'single' ? response.body.singleResult : undefined;
    const picture = pictureOf(answer?.data, question);
    if (!picture || 'message' in picture) {
      exchange.answered();
      const refused = refusalOf(picture ?? answer?.errors?.[0], response.http.status);
      const retryAfter = response.http.headers.get('retry-after');
      sendText(res, refused.status, refused.message, retryAfter ? { 'retry-after': retryAfter } : {});
      return;
    }
    const drawn = picture.svg;
    const tag = pictureTag(picture.key, question);
    res.setHeader('cache-control', config.pathCacheControl);
    res.setHeader('etag', tag);
    res.setHeader('x-content-type-options', 'nosniff');
    res.once('finish', () => exchange.sent());
    exchange.answered();
    if (matchesIfNoneMatch(req.headers['if-none-match'], tag)) {
      res.writeHead(304);
      res.end();
      return;
    }
    res.setHeader('content-type', 'image/svg+xml; charset=utf-8');
    res.statusCode = 200;
    if (method === 'HEAD') {
      res.setHeader('content-length', Buffer.byteLength(drawn));
      res.end();
      return;
    }
    await streamText(res, drawn, config.sendStallMs);
  };
}

/** A GraphQL error as the answer's first error, read by shape. */
interface AnswerError {
  message: string;
  extensions?: Record<string, unknown>;
}

/** The status and text of a refusal, from the GraphQL error that caused it. */
function refusalOf(
  error: AnswerError | undefined,
  httpStatus: number | undefined,
): { status: number; message: string } {
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

/** Sends a plain-text answer (a refusal). */
function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

/**
 * A parameter that holds one value; null when absent. Given twice it is refused, not read as
 * its first: `piece=KING&piece=QUEEN` says two things.
 */
function single(params: URLSearchParams, name: string): string | null {
  const all = params.getAll(name);
  if (all.length > 1) throw new InputError([name], undefined, `is given ${all.length} times: give it once`);
  return all[0] ?? null;
}

/**
 * A list parameter (`a1,h8`), each square checked on the board so errors name the parameter.
 * Given more than once, its lists are joined: `from=e4&from=d4` is `from=e4,d4`.
 */
function squaresOf(params: URLSearchParams, name: string, board: Board, required: boolean): string[] | undefined {
  const all = params.getAll(name);
  const raw = all.length === 0 ? null : all.join(',');
  if (raw === null || raw.trim() === '') {
    if (required)
      throw new InputError([name], raw ?? undefined, 'is missing: give one or more squares, e.g. e4 or a1,h8');
    return undefined;
  }
  const squares = raw.split(',').map((s) => s.trim());
  for (const square of squares) parseSquare(square, board, [name]);
  return squares;
}

/** A `true|false` parameter, in any case (absent: false). */
function flagOf(params: URLSearchParams, name: string): boolean {
  const raw = single(params, name);
  const word = raw?.trim().toLowerCase();
  if (word === undefined || word === 'false' || word === '0') return false;
  if (word === 'true' || word === '1' || word === '') return true;
  throw new InputError([name], raw, 'is not true or false');
}

/** A diagram's question as a GraphQL operation, and what the answer is checked against. */
export interface DiagramQuestion {
  operation: { query: string; variables: Record<string, unknown> };
  /** With `avoidAttacked`: the piece the user named, which must be the one on `from`. */
  piece?: Piece;
  from: string;
}

/** The picture of a path question (`shortestPaths`). */
const PATHS_DIAGRAM = `query Diagram($q: PathQuery!, $orientation: Color!, $path: Boolean!) {
  shortestPaths(query: $q) { key overlay { svg(orientation: $orientation, path: $path) } }
}`;

/** The picture of a position's piece that avoids the attacked squares (`Position.paths`). */
const POSITION_DIAGRAM = `query PositionDiagram($fen: String!, $board: BoardInput, $from: Square!, $to: [Square!]!, $blocked: [Square!], $orientation: Color!, $path: Boolean!) {
  position(fen: $fen, board: $board) {
    paths(from: $from, to: $to, avoidAttacked: true, blocked: $blocked) { key piece overlay { svg(orientation: $orientation, path: $path) } }
  }
}`;

/**
 * Reads the question in `params` (each parameter checked here, so a refusal names it; nothing
 * here is engine work) as the GraphQL operation that draws it; throws `InputError` / `LimitError`.
 */
export function diagramQuestion(params: URLSearchParams, config: Config): DiagramQuestion {
  const limits = config.limits;
  // A misspelt parameter (`orientaton=black`) would be ignored, and its wrong picture cached for a year.
  for (const name of new Set(params.keys())) {
    if (!PARAMETERS.includes(name))
      throw new InputError([name], undefined, `is not a parameter of ${DIAGRAM_PATH}: use ${PARAMETERS.join(', ')}`);
  }
  const boardText = single(params, 'board');
  let board: Board = resolveBoard(null);
  if (boardText !== null) {
    const match = /^\s*(\d{1,9})\s*[xX]\s*(\d{1,9})\s*$/.exec(boardText);
    if (!match) throw new InputError(['board'], boardText, 'is not a board size such as 8x8 or 10x12 (files x ranks)');
    const asked = { files: Number(match[1]), ranks: Number(match[2]) };
    checkBoard(asked, limits, ['board']);
    board = resolveBoard(asked);
  }
  const orientationText = single(params, 'orientation');
  let orientation: Color = 'WHITE';
  if (orientationText !== null) {
    const o = orientationText.trim().toLowerCase();
    if (o !== 'white' && o !== 'black') throw new InputError(['orientation'], orientationText, 'is not white or black');
    orientation = o === 'white' ? 'WHITE' : 'BLACK';
  }
  const fen = single(params, 'fen');
  checkFen(fen, limits, ['fen']);
  const avoidAttacked = flagOf(params, 'avoidAttacked');
  const path = flagOf(params, 'path');
  const pieceText = single(params, 'piece');
  let piece: Piece | undefined;
  if (pieceText !== null) {
    piece = PIECES.find((p) => p === pieceText.trim().toUpperCase());
    if (piece === undefined)
      throw new InputError(['piece'], pieceText, `is not a piece: expected one of ${PIECES.join(', ')}`);
  }
  const betza = single(params, 'betza');
  checkBetza(betza, limits, ['betza']);
  if (betza !== null && piece === undefined) piece = 'FAIRY';
  if (piece === 'FAIRY' && betza === null)
    throw new InputError(['betza'], undefined, 'is missing: piece FAIRY needs a Betza text, e.g. NN (the nightrider)');
  const from = squaresOf(params, 'from', board, true) as string[];
  const to = squaresOf(params, 'to', board, true) as string[];
  const blocked = squaresOf(params, 'blocked', board, false);
  const mask = single(params, 'mask');
  const boardInput = boardText === null ? null : { files: board.files, ranks: board.ranks };

  if (avoidAttacked) {
    if (fen === null) throw new InputError(['avoidAttacked'], 'true', 'needs a fen: the piece on from moves');
    if (betza !== null)
      throw new InputError(['betza'], betza, 'cannot be combined with avoidAttacked (the piece on from moves)');
    if (from.length !== 1) throw new InputError(['from'], from.join(','), 'must be one square with avoidAttacked');
    if (mask !== null)
      throw new InputError(['mask'], mask, 'cannot be combined with avoidAttacked (use blocked instead)');
    const variables = { fen, board: boardInput, from: from[0], to, blocked: blocked ?? null, orientation, path };
    return { operation: { query: POSITION_DIAGRAM, variables }, piece, from: from[0] };
  }
  if (piece === undefined)
    throw new InputError(
      ['piece'],
      pieceText ?? undefined,
      `is missing: expected one of ${ORTHODOX_MOVERS.join(', ')}, or betza for a fairy piece`,
    );
  const q = {
    piece,
    from,
    to,
    board: boardInput,
    fen,
    mask,
    blocked: blocked ?? null,
    ...(betza === null ? {} : { betza }),
  };
  return { operation: { query: PATHS_DIAGRAM, variables: { q, orientation, path } }, from: from[0] };
}

/** The SVG in the answer's data, or the error that stands for it (a named piece that is not the one moving). */
function pictureOf(
  data: Record<string, unknown> | null | undefined,
  question: DiagramQuestion,
): { svg: string; key: string } | AnswerError | undefined {
  type Drawn = { key: string; piece?: Piece; overlay: { svg: string } } | null | undefined;
  const result = (
    question.operation.query === PATHS_DIAGRAM
      ? data?.shortestPaths
      : (data?.position as { paths?: Drawn } | null | undefined)?.paths
  ) as Drawn;
  if (!result) return undefined;
  if (question.piece !== undefined && result.piece !== undefined && question.piece !== result.piece) {
    const error = new InputError(
      ['piece'],
      question.piece,
      `is not the piece on ${question.from} (${result.piece}); leave piece out`,
    );
    return { message: error.message, extensions: { code: ErrorCode.BadUserInput } };
  }
  return { svg: result.overlay.svg, key: result.key };
}

/** Changes whenever the drawing of a question changes: part of every picture's tag. */
const DRAWING_VERSION = 'diagram-3';

/**
 * The picture's entity tag, from what it is drawn from rather than from its bytes: the result's
 * canonical key and the drawing's options (the position's FEN, the mover, orientation, path).
 * The same question always draws the same picture, and hashing a few hundred bytes instead of an
 * 11 MB picture keeps the event loop free.
 */
function pictureTag(key: string, question: DiagramQuestion): string {
  const v = question.operation.variables;
  const q = (v.q ?? {}) as { fen?: unknown };
  const drawing = [DRAWING_VERSION, key, v.orientation, v.path, v.fen ?? q.fen ?? null, v.fen ? question.from : null];
  return `"${createHash('sha1').update(JSON.stringify(drawing)).digest('base64url')}"`;
}

/**
 * `GET /diagram.svg?piece=KING&from=e4&to=a1,h8`: the diagram of a path question as an embeddable
 * image (`<img src="/diagram.svg?...">`). Optional parameters: `board=10x10`, `mask` (0x + hex),
 * `blocked=c2,d3`, `fen` (its pieces are drawn and block), `orientation=white|black`,
 * `avoidAttacked=true` (with `fen`: the piece standing on `from` moves, and the squares the other
 * colour attacks are impassable and marked; `piece` may then be left out) and `path=true` (draw
 * the lexicographically smallest shortest path).
 *
 * Answers never change for the same URL: `Cache-Control` is PATH_CACHE_CONTROL, with an ETag and
 * 304 on a matching If-None-Match. Bad input is 400 `text/plain` naming the parameter and the
 * value, e.g. `from: "z9" is not a square on an 8 x 8 board`. Boards are bounded by MAX_BOARD_SIDE
 * (and FENs by the matching length) before any engine work, so one diagram is bounded work: it is
 * solved on this thread with the engine's public API.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import etag from 'etag';
import type { Config } from '../config.js';
import {
  attackedSquares,
  type Board,
  type Color,
  diagramSpecOf,
  InputError,
  type ParsedPosition,
  type PathQuery,
  PIECES,
  type Piece,
  parseFen,
  parseSquare,
  positionQuery,
  renderDiagram,
  resolveBoard,
  solve,
} from '../engine/index.js';
import { checkBoard, checkFen, LimitError } from '../graphql/limits.js';
import { matchesIfNoneMatch } from './graphql-route.js';

/** The path of the endpoint. */
export const DIAGRAM_PATH = '/diagram.svg';

/** Creates the handler of `GET /diagram.svg`. */
export function diagramRoute({ config }: { config: Config }) {
  return (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    const method = (req.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      sendText(res, 405, `${DIAGRAM_PATH} answers GET and HEAD only, not ${method}`, { allow: 'GET, HEAD' });
      return;
    }
    let svg: string;
    try {
      svg = drawDiagram(url.searchParams, config);
    } catch (err) {
      if (err instanceof InputError || err instanceof LimitError) {
        sendText(res, 400, err.message);
        return;
      }
      throw err;
    }
    const tag = etag(svg);
    const headers = {
      'cache-control': config.pathCacheControl,
      etag: tag,
      'x-content-type-options': 'nosniff',
    };
    if (matchesIfNoneMatch(req.headers['if-none-match'], tag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, {
      ...headers,
      'content-type': 'image/svg+xml; charset=utf-8',
      'content-length': Buffer.byteLength(svg),
    });
    res.end(method === 'HEAD' ? undefined : svg);
  };
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

/** A list parameter (`a1,h8`), each square checked on the board so errors name the parameter. */
function squaresOf(params: URLSearchParams, name: string, board: Board, required: boolean): string[] | undefined {
  const raw = params.get(name);
  if (raw === null || raw.trim() === '') {
    if (required) throw new InputError([name], raw ?? '', 'is missing: give one or more squares, e.g. e4 or a1,h8');
    return undefined;
  }
  const squares = raw.split(',').map((s) => s.trim());
  for (const square of squares) parseSquare(square, board, [name]);
  return squares;
}

/** A `true|false` parameter (absent: false). */
function flagOf(params: URLSearchParams, name: string): boolean {
  const raw = params.get(name);
  if (raw === null || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1' || raw === '') return true;
  throw new InputError([name], raw, 'is not true or false');
}

/** Builds the SVG of the question in `params`; throws `InputError` / `LimitError` on bad input. */
export function drawDiagram(params: URLSearchParams, config: Config): string {
  const limits = config.limits;
  const boardText = params.get('board');
  let board: Board = resolveBoard(null);
  if (boardText !== null) {
    const match = /^\s*(\d{1,9})\s*[xX]\s*(\d{1,9})\s*$/.exec(boardText);
    if (!match) throw new InputError(['board'], boardText, 'is not a board size such as 8x8 or 10x12 (files x ranks)');
    const asked = { files: Number(match[1]), ranks: Number(match[2]) };
    checkBoard(asked, limits, ['board']);
    board = resolveBoard(asked);
  }
  const orientationText = params.get('orientation');
  let orientation: Color = 'WHITE';
  if (orientationText !== null) {
    const o = orientationText.trim().toLowerCase();
    if (o !== 'white' && o !== 'black') throw new InputError(['orientation'], orientationText, 'is not white or black');
    orientation = o === 'white' ? 'WHITE' : 'BLACK';
  }
  const fen = params.get('fen');
  checkFen(fen, limits, ['fen']);
  const position: ParsedPosition | undefined = fen === null ? undefined : parseFen(fen, board, ['fen']);
  const avoidAttacked = flagOf(params, 'avoidAttacked');
  const drawPath = flagOf(params, 'path');
  const pieceText = params.get('piece');
  let piece: Piece | undefined;
  if (pieceText !== null) {
    piece = PIECES.find((p) => p === pieceText.trim().toUpperCase());
    if (piece === undefined)
      throw new InputError(['piece'], pieceText, `is not a piece: expected one of ${PIECES.join(', ')}`);
  }
  const from = squaresOf(params, 'from', board, true) as string[];
  const to = squaresOf(params, 'to', board, true) as string[];
  const blocked = squaresOf(params, 'blocked', board, false);
  const mask = params.get('mask');

  let query: PathQuery;
  let attacked: number[] | undefined;
  if (avoidAttacked) {
    if (position === undefined) throw new InputError(['avoidAttacked'], 'true', 'needs a fen: the piece on from moves');
    if (from.length !== 1) throw new InputError(['from'], from.join(','), 'must be one square with avoidAttacked');
    query = positionQuery(position, from[0], to, true);
    if (piece !== undefined && piece !== query.piece) {
      throw new InputError(['piece'], pieceText, `is not the piece on ${from[0]} (${query.piece}); leave piece out`);
    }
    const index = parseSquare(from[0], board, ['from']);
    const mover = position.pieces.find((p) => p.index === index) as ParsedPosition['pieces'][number];
    const words = attackedSquares(position, mover.color === 'WHITE' ? 'BLACK' : 'WHITE', index);
    attacked = [];
    for (let i = 0; i < board.files * board.ranks; i++) if (((words[i >>> 5] >>> (i & 31)) & 1) === 1) attacked.push(i);
    if (blocked !== undefined) query.blocked = blocked;
    if (mask !== null) {
      throw new InputError(['mask'], mask, 'cannot be combined with avoidAttacked (use blocked instead)');
    }
  } else {
    if (piece === undefined)
      throw new InputError(['piece'], pieceText ?? '', `is missing: expected one of ${PIECES.join(', ')}`);
    query = { piece, from, to, board, fen: fen ?? undefined, mask: mask ?? undefined, blocked };
  }
  const result = solve(query);
  const path = drawPath && result.path ? result.path.squares.map((s) => parseSquare(s, board)) : undefined;
  return renderDiagram(diagramSpecOf(result, { position, attacked, orientation, path }));
}

/**
 * The question of a diagram's URL (`/diagram.svg?piece=KING&from=e4&to=a1,h8`, and the same for
 * `/diagram.png`), read parameter by parameter, so that a refusal names the parameter and the
 * value, into the GraphQL operation that draws it: `shortestPaths { overlay { svg } }`, or, when
 * the piece standing on `from` moves (`avoidAttacked=true`, or a `fen` with no `piece`),
 * `position { paths { overlay { svg } } }`. Nothing here is engine work: boards, FENs and Betza
 * texts are checked against their limits by length before anything is solved.
 *
 * Any parameter the door does not take is refused (a misspelt one would otherwise be ignored,
 * and its picture cached for a year); a parameter that holds one value is refused when given twice.
 */
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
import { checkBetza, checkBoard, checkFen } from '../graphql/limits/limits.js';

/** The parameters of a diagram's question. */
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

/** A GraphQL error as the answer's first error, read by shape. */
export interface AnswerError {
  message: string;
  extensions?: Record<string, unknown>;
}

/**
 * A parameter that holds one value; null when absent. Given twice it is refused, not read as
 * its first: `piece=KING&piece=QUEEN` says two things.
 */
export function single(params: URLSearchParams, name: string): string | null {
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
  /** The piece on `from` moves (`Position.paths`): the answer is read there. */
  position: boolean;
  /** With `avoidAttacked`: the piece the user named, which must be the one on `from`. */
  piece?: Piece;
  from: string;
}

/** The picture of a path question (`shortestPaths`). */
const PATHS_DIAGRAM = `query Diagram($q: PathQuery!, $orientation: Color!, $path: Boolean!) {
  shortestPaths(query: $q) { key overlay { svg(orientation: $orientation, path: $path) } }
}`;

/** The picture of a position's piece (`Position.paths`), avoiding the attacked squares or not. */
const POSITION_DIAGRAM = `query PositionDiagram($fen: String!, $board: BoardInput, $from: Square!, $to: [Square!]!, $blocked: [Square!], $avoid: Boolean!, $orientation: Color!, $path: Boolean!) {
  position(fen: $fen, board: $board) {
    paths(from: $from, to: $to, avoidAttacked: $avoid, blocked: $blocked) { key piece overlay { svg(orientation: $orientation, path: $path) } }
  }
}`;

/**
 * Reads the question in `params` (each parameter checked here, so a refusal names it; nothing
 * here is engine work) as the GraphQL operation that draws it; throws `InputError` / `LimitError`.
 * `door` is the path asked (named in the refusal of an unknown parameter) and the parameters it
 * takes besides the question's (`width` of a PNG), which it reads itself.
 */
export function diagramQuestion(
  params: URLSearchParams,
  config: Config,
  door: { path: string; own: readonly string[] } = { path: '/diagram.svg', own: [] },
): DiagramQuestion {
  const limits = config.limits;
  const known = [...PARAMETERS, ...door.own];
  // A misspelt parameter (`orientaton=black`) would be ignored, and its wrong picture cached for a year.
  for (const name of new Set(params.keys())) {
    if (!known.includes(name))
      throw new InputError([name], undefined, `is not a parameter of ${door.path}: use ${known.join(', ')}`);
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

  // The piece standing on `from` moves: with avoidAttacked, or with a fen and no piece named.
  if (avoidAttacked || (fen !== null && piece === undefined)) {
    if (fen === null) throw new InputError(['avoidAttacked'], 'true', 'needs a fen: the piece on from moves');
    if (betza !== null)
      throw new InputError(['betza'], betza, 'cannot be combined with avoidAttacked (the piece on from moves)');
    const why = avoidAttacked ? 'with avoidAttacked' : 'when the piece on it moves (a fen and no piece)';
    if (from.length !== 1) throw new InputError(['from'], from.join(','), `must be one square ${why}`);
    if (mask !== null) throw new InputError(['mask'], mask, `cannot be combined ${why} (use blocked instead)`);
    const variables = {
      fen,
      board: boardInput,
      from: from[0],
      to,
      blocked: blocked ?? null,
      avoid: avoidAttacked,
      orientation,
      path,
    };
    return { operation: { query: POSITION_DIAGRAM, variables }, position: true, piece, from: from[0] };
  }
  if (piece === undefined)
    throw new InputError(
      ['piece'],
      pieceText ?? undefined,
      `is missing: expected one of ${ORTHODOX_MOVERS.join(', ')}, or betza for a fairy piece, or a fen (the piece on from moves)`,
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
  return { operation: { query: PATHS_DIAGRAM, variables: { q, orientation, path } }, position: false, from: from[0] };
}

/** The SVG in the answer's data, or the error that stands for it (a named piece that is not the one moving). */
export function pictureOf(
  data: Record<string, unknown> | null | undefined,
  question: DiagramQuestion,
): { svg: string; key: string } | AnswerError | undefined {
  type Drawn = { key: string; piece?: Piece; overlay: { svg: string } } | null | undefined;
  const result = (
    question.position ? (data?.position as { paths?: Drawn } | null | undefined)?.paths : data?.shortestPaths
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

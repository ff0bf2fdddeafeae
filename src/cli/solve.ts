/**
 * `chess-paths solve`: one path question from the command line, answered by the library's `solve`
 * and printed as text (distance, path count, smallest path, the seed-style ASCII layers) or as JSON
 * shaped like the GraphQL `PathResult`. Option values go to the engine as given, so the engine's
 * checks and messages are the only ones; its `InputError` is re-addressed from the query's field
 * (`from[1]`) to the option the user typed (`--from`). A fairy piece is `--betza TEXT` (piece
 * FAIRY unless `--piece` says otherwise); its text is bounded like the API's (MAX_BETZA_LENGTH's
 * default), and a piece asked by its Betza text is printed with its canonical text.
 */
import { parseArgs } from 'node:util';
import {
  InputError,
  type PathConnection,
  type PathQuery,
  type PathResult,
  PIECES,
  type Piece,
  renderAscii,
  type SquareSet,
  solve,
} from '@chess-paths/engine';
import { DEFAULTS } from '../config.js';
import { UsageError } from './help.js';

/**
 * Most paths `--paths` lists: the API's page size (MAX_PAGE_SIZE's default). Listing is lazy, but
 * a billion paths is hours of output held in one string; page with `--after` past this.
 */
export const MAX_LISTED_PATHS = 1000;

/** What `solve` was asked, parsed from its arguments. */
export interface SolveRequest {
  query: PathQuery;
  /** How many paths to list (`--paths`), or undefined for none. */
  paths?: number;
  /** Cursor to list after (`--after`). */
  after?: string;
  json: boolean;
}

/** The query fields whose errors are reported under another option name. */
const OPTION_OF: Record<string, string> = { first: 'paths' };

/** The engine's error, naming the option instead of the query field: `--from: "z9" is not ...`. */
export function optionError(err: InputError): InputError {
  const [root, ...rest] = err.argument;
  const option = `--${OPTION_OF[String(root)] ?? root}`;
  // Indices are dropped (the value is quoted, which says which one); sub-fields stay: `--board (files)`.
  const sub = rest.filter((part) => typeof part === 'string');
  return new InputError([sub.length > 0 ? `${option} (${sub.join('.')})` : option], err.value, err.reason);
}

/** `a1,h8` and repeated options -> `['a1', 'h8']`; empty items are dropped. */
function squareList(values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  return values.flatMap((value) => value.split(',').map((name) => name.trim())).filter((name) => name !== '');
}

/** `king`, `KNIGHT`, `white_pawn`, `white-pawn` -> the engine's `Piece`. */
function parsePiece(text: string): Piece {
  const piece = text.trim().toUpperCase().replace(/-/g, '_');
  if ((PIECES as readonly string[]).includes(piece)) return piece as Piece;
  const names = PIECES.map((p) => p.toLowerCase()).join(', ');
  throw new InputError(['--piece'], text, `is not a piece; expected one of ${names}`);
}

/** `10x10` -> `{ files: 10, ranks: 10 }`; the engine checks the range. */
function parseBoard(text: string): { files: number; ranks: number } {
  const match = /^\s*(\d+)\s*[xX]\s*(\d+)\s*$/.exec(text);
  if (!match) throw new InputError(['--board'], text, 'is not a board size FILESxRANKS, e.g. 10x10');
  return { files: Number(match[1]), ranks: Number(match[2]) };
}

function parseCount(text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new InputError(['--paths'], text, 'is not a non-negative integer');
  const count = Number(text);
  if (count > MAX_LISTED_PATHS) {
    throw new InputError(
      ['--paths'],
      text,
      `is over the limit of ${MAX_LISTED_PATHS} paths at a time; list more with --after and the last cursor (--json)`,
    );
  }
  return count;
}

/** The mover: `--piece`, or FAIRY for a `--betza` without one; with its Betza text, within the API's default limit. */
function parseMover(pieceText: string | undefined, betza: string | undefined): Pick<PathQuery, 'piece' | 'betza'> {
  const piece = pieceText === undefined ? 'FAIRY' : parsePiece(pieceText);
  if (betza === undefined) {
    if (piece === 'FAIRY') {
      throw new InputError(['--piece'], pieceText, 'needs --betza TEXT, the piece in Betza notation (e.g. --betza NN)');
    }
    return { piece };
  }
  if (piece !== 'FAIRY') {
    throw new InputError(['--betza'], betza, `is only for a fairy piece, not ${piece}: leave --piece out`);
  }
  const most = DEFAULTS.MAX_BETZA_LENGTH;
  if (betza.length > most) {
    throw new InputError(
      ['--betza'],
      betza,
      `is ${betza.length} characters, over the limit of ${most} (the API's default MAX_BETZA_LENGTH)`,
    );
  }
  return { piece, betza };
}

/** Parses `solve`'s arguments; throws `UsageError` (exit 2) or `InputError` (exit 1). */
export function parseSolveArgs(args: string[]): SolveRequest {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      piece: { type: 'string' },
      betza: { type: 'string' },
      from: { type: 'string', multiple: true },
      to: { type: 'string', multiple: true },
      board: { type: 'string' },
      mask: { type: 'string' },
      blocked: { type: 'string', multiple: true },
      fen: { type: 'string' },
      paths: { type: 'string' },
      after: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const missing = (['piece', 'from', 'to'] as const).filter(
    (name) => values[name] === undefined && !(name === 'piece' && values.betza !== undefined),
  );
  if (missing.length > 0) {
    const named = missing.map((name) => (name === 'piece' ? '--piece (or --betza)' : `--${name}`));
    throw new UsageError(`missing ${named.join(', ')}`, 'solve');
  }
  const from = squareList(values.from) ?? [];
  const to = squareList(values.to) ?? [];
  // The API accepts an empty list (and answers "unreachable"); typed on a command line it is a slip.
  if (from.length === 0) throw new InputError(['--from'], values.from?.join(','), 'names no square');
  if (to.length === 0) throw new InputError(['--to'], values.to?.join(','), 'names no square');
  if (values.after !== undefined && values.paths === undefined) {
    throw new UsageError('--after needs --paths', 'solve');
  }
  const query: PathQuery = {
    ...parseMover(values.piece, values.betza),
    from,
    to,
    ...(values.board !== undefined ? { board: parseBoard(values.board) } : {}),
    ...(values.mask !== undefined ? { mask: values.mask } : {}),
    ...(values.blocked !== undefined ? { blocked: squareList(values.blocked) } : {}),
    ...(values.fen !== undefined ? { fen: values.fen } : {}),
  };
  return {
    query,
    json: values.json === true,
    ...(values.paths !== undefined ? { paths: parseCount(values.paths) } : {}),
    ...(values.after !== undefined ? { after: values.after } : {}),
  };
}

/** A square set as the API shows it (no `indices`, which the schema does not have). */
function squareSetJson(set: SquareSet) {
  return { bitboard: set.bitboard, squares: set.squares, count: set.count };
}

/** The result as the API's `PathResult` would serialize it; bigints as decimal strings. */
export function resultJson(result: PathResult, page?: PathConnection): Record<string, unknown> {
  return {
    key: result.key,
    piece: result.piece,
    betza: result.betza,
    board: { files: result.board.files, ranks: result.board.ranks },
    mask: result.mask,
    sources: squareSetJson(result.sources),
    targets: squareSetJson(result.targets),
    reachable: result.reachable,
    distance: result.distance,
    layers: result.layers.map(squareSetJson),
    squares: squareSetJson(result.squares),
    pathCount: result.pathCount.toString(),
    path: result.path === null ? null : { squares: result.path.squares },
    distances: result.distances,
    ...(page
      ? {
          paths: {
            edges: page.edges.map((edge) => ({ cursor: edge.cursor, node: { squares: edge.node.squares } })),
            pageInfo: page.pageInfo,
            totalCount: page.totalCount.toString(),
          },
        }
      : {}),
    overlay: { ascii: renderAscii(result) },
  };
}

/** The result as text: a few labelled lines, the listed paths, then the layer boards. */
export function resultText(request: SolveRequest, result: PathResult, page?: PathConnection): string {
  const { query } = request;
  // A piece asked by its Betza text is named with the canonical text (`--betza WF` is KING (K)).
  const named = query.betza == null ? '' : `piece: ${result.piece} (${result.betza})\n`;
  if (!result.reachable) return `${named}unreachable: no path from ${query.from.join(',')} to ${query.to.join(',')}\n`;
  const lines = [
    `distance: ${result.distance}`,
    `path count: ${result.pathCount}`,
    `smallest path: ${result.path?.squares.join(' ')}`,
  ];
  if (page) {
    const where = request.after === undefined ? 'first' : 'next';
    lines.push('', `${where} ${page.edges.length} of ${result.pathCount} paths:`);
    for (const edge of page.edges) lines.push(`  ${edge.node.squares.join(' ')}`);
  }
  lines.push('', renderAscii(result));
  return `${named}${lines.join('\n')}\n`;
}

/** Runs `solve` on parsed arguments and returns what to print on stdout. */
export function solveCommand(request: SolveRequest): string {
  let result: PathResult;
  let page: PathConnection | undefined;
  try {
    result = solve(request.query);
    if (request.paths !== undefined) page = result.paths({ first: request.paths, after: request.after ?? null });
  } catch (err) {
    throw err instanceof InputError ? optionError(err) : err;
  }
  if (request.json) return `${JSON.stringify(resultJson(result, page), null, 2)}\n`;
  return resultText(request, result, page);
}

/**
 * `chess-paths solve`: one path question from the command line, answered by the library's `solve`
 * and printed as text (distance, path count, smallest path, the layer boards: ./solve-output.ts)
 * or as JSON shaped like the GraphQL `PathResult`, and drawn to files with `--svg`, `--png`. Option
 * values go to the engine as given, so the engine's checks and messages are the only ones; its
 * `InputError` is re-addressed from the query's field (`from[1]`) to the option the user typed
 * (`--from`). A fairy piece is `--betza TEXT` (piece FAIRY unless `--piece` says otherwise); its
 * text is bounded like the API's (MAX_BETZA_LENGTH's default), and a piece asked by its Betza
 * text is printed with its canonical text.
 */
import { parseArgs } from 'node:util';
import {
  InputError,
  type PathConnection,
  type PathQuery,
  type PathResult,
  PIECES,
  type Piece,
  solve,
} from '@chess-paths/engine';
import { DEFAULTS } from '../config.js';
import { UsageError } from './help.js';
import { parsePngWidth, writeImages } from './image-files.js';
import type { PictureMode } from './picture.js';
import { headText, listPaths, type PictureRequest, pictureText, resultJson } from './solve-output.js';
import type { Session } from './terminal.js';

/**
 * Most paths `--paths` lists: the API's page size (MAX_PAGE_SIZE's default). Listing is lazy, but
 * a billion paths is hours of output held in one string; page with `--after` past this.
 */
export const MAX_LISTED_PATHS = 1000;

/** Most columns `--width` takes: wider than any terminal, narrower than a runaway number. */
const MAX_WIDTH = 100_000;

/** What `solve` was asked, parsed from its arguments. */
export interface SolveRequest extends PictureRequest {
  query: PathQuery;
  /** How many paths to list (`--paths`), or undefined for none. */
  paths?: number;
  /** Cursor to list after (`--after`). */
  after?: string;
  json: boolean;
  /** Files to write the picture to (`--svg`, `--png`), and the PNG's width (`--png-width`). */
  svg?: string;
  png?: string;
  pngWidth?: number;
}

/** The query fields whose errors are reported under another option name. */
const OPTION_OF: Record<string, string> = { first: 'paths' };

/** The engine's error, naming the option instead of the query field: `--from: "z9" is not ...`. */
export function optionError(err: InputError): InputError {
  const [root, ...rest] = err.argument;
  // An error of the command's own (a file of --svg) already names its option.
  if (String(root).startsWith('--')) return err;
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

/** `--width 120` -> 120 columns. */
function parseWidth(text: string): number {
  const width = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!(width >= 1 && width <= MAX_WIDTH)) {
    throw new InputError(['--width'], text, `is not a number of columns from 1 to ${MAX_WIDTH}`);
  }
  return width;
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
    // --no-picture: a boolean option also takes its negation (`--no-json` is accepted too, and harmless).
    allowNegative: true,
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
      picture: { type: 'boolean' },
      plain: { type: 'boolean', default: false },
      width: { type: 'string' },
      svg: { type: 'string' },
      png: { type: 'string' },
      'png-width': { type: 'string' },
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
  const picture: PictureMode = values.picture === undefined ? 'auto' : values.picture ? 'always' : 'never';
  for (const option of ['svg', 'png'] as const) {
    if (values[option] === '') throw new InputError([`--${option}`], '', 'names no file');
  }
  if (values['png-width'] !== undefined && values.png === undefined) {
    throw new UsageError('--png-width needs --png', 'solve');
  }
  return {
    query,
    json: values.json === true,
    picture,
    plain: values.plain === true,
    ...(values.width !== undefined ? { width: parseWidth(values.width) } : {}),
    ...(values.svg !== undefined ? { svg: values.svg } : {}),
    ...(values.png !== undefined ? { png: values.png } : {}),
    ...(values['png-width'] !== undefined ? { pngWidth: parsePngWidth(values['png-width']) } : {}),
    ...(values.paths !== undefined ? { paths: parseCount(values.paths) } : {}),
    ...(values.after !== undefined ? { after: values.after } : {}),
  };
}

/**
 * Runs `solve` on parsed arguments: solves, writes the asked files, then yields what to print on
 * stdout piece by piece. Everything that can fail on the user's input (the query, the cursor, a
 * file) fails before the first piece, so an error never follows half an answer.
 */
export function solveCommand(request: SolveRequest, session: Session): Iterable<string> {
  const { progress } = session;
  let result: PathResult;
  let page: PathConnection | undefined;
  let written: string[];
  try {
    result = solve(request.query);
    if (request.paths !== undefined) page = listPaths(result, request.paths, request.after, progress);
    written = writeImages({ ...request, fen: request.query.fen }, result, progress);
  } catch (err) {
    throw err instanceof InputError ? optionError(err) : err;
  }
  if (request.json) return [`${JSON.stringify(resultJson(result, page), null, 2)}\n`];
  const { from, to, betza } = request.query;
  const head = headText(result, { from, to, betza: betza != null, after: request.after }, page);
  const picture = pictureText(request, result, session);
  return (function* () {
    yield head;
    yield* picture;
    if (written.length > 0) yield `\n${written.join('\n')}\n`;
  })();
}

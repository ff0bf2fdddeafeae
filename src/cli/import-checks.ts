/**
 * What `chess-paths import` checks in each row of a file beyond its format, so that an edited or
 * damaged export cannot put into a database what the service would never have written there.
 *
 * - An analysis is checked as `saveAnalysis` checks its input, with the limits of the
 *   configuration the server would run with: a title that is not blank, title and notes within
 *   MAX_TEXT_LENGTH and valid Unicode, a FEN the engine reads, a game in PGN that plays (within
 *   MAX_PGN_BYTES and MAX_PLIES), its queries within MAX_BATCH_SIZE and each one a question the
 *   engine prepares (a board within MAX_BOARD_SIDE, squares on it, a known piece, a Betza text
 *   it reads, and no field the API's `PathQuery` input does not have), and each result key the
 *   key of its query. An analysis that passed none of this would fail every page of `analyses`
 *   that asks for its results. (The numbers, times and text of every row, within what the API
 *   serves and the database stores, are the store's to check: src/store/transfer/fields.ts.)
 * - A cached result is a cache: the service answers from it without solving again, so a row
 *   whose layers, distance or path count are not its question's would be served as the answer.
 *   Each row's question is solved here (its path count counted when the row has one) and the
 *   row refused unless it holds exactly that answer under that question's key. A large cache
 *   takes the time of solving it once.
 *
 * The checks are the engine's and the service's own (`src/graphql/limits`), so a refusal reads as
 * the API's would, under the analysis's id or the result's key.
 */
import {
  decodeLayers,
  InputError,
  type PackedLayers,
  type PathQuery,
  packLayers,
  parseFen,
  playGame,
  prepareCanonical,
  prepareQuery,
  readPgn,
  solvePrepared,
} from '@chess-paths/engine';
import type { Limits } from '../config.js';
import {
  checkBatch,
  checkFen,
  checkPgn,
  checkPlies,
  checkQuery,
  checkText,
  LimitError,
} from '../graphql/limits/limits.js';
import { type ImportRow, type RowCheck, readPieceColumn } from '../store/index.js';

type AnalysisRow = Extract<ImportRow, { kind: 'analysis' }>['row'];
type CachedRow = Extract<ImportRow, { kind: 'cachedResult' }>['row'];

/** The check of every row against `limits`; see the file comment. */
export function importChecks(limits: Limits): RowCheck {
  return (item) => (item.kind === 'analysis' ? analysisRefusal(item.row, limits) : cachedResultRefusal(item.row));
}

/** A refusal a user can act on (the input's or a limit's), as opposed to a bug. */
function isRefusal(error: unknown): error is Error {
  return error instanceof InputError || error instanceof LimitError;
}

/** Why the analysis would not have been saved, or undefined. */
export function analysisRefusal(row: AnalysisRow, limits: Limits): string | undefined {
  const where = `the analysis ${JSON.stringify(row.id)}`;
  try {
    if (row.title.trim() === '') return `${where}: its title is empty (an analysis needs a title)`;
    checkText(row.title, limits, ['title']);
    checkText(row.notes, limits, ['notes']);
    if (row.fen !== null) {
      checkFen(row.fen, limits, ['fen']);
      try {
        parseFen(row.fen);
      } catch (error) {
        if (error instanceof InputError) throw new InputError(['fen'], row.fen, `is not a valid FEN: ${error.message}`);
        throw error;
      }
    }
    if (row.pgn !== null && row.pgn.trim() !== '') {
      checkPgn(row.pgn, limits, ['pgn']);
      const text = readPgn(row.pgn);
      checkPlies(text.moves.length, limits, ['pgn']);
      playGame(text);
    }
    const queries = JSON.parse(row.queries) as PathQuery[];
    const keys = JSON.parse(row.resultKeys) as string[];
    checkBatch(queries.length, limits, ['queries']);
    for (let i = 0; i < queries.length; i++) {
      const unknown = unknownField(queries[i]);
      if (unknown !== undefined) return `${where}: queries[${i}]${unknown}`;
      checkQuery(queries[i], limits, ['queries', i]);
      let key: string;
      try {
        key = prepareQuery(queries[i]).key;
      } catch (error) {
        throw error instanceof InputError ? error.under('queries', i) : error;
      }
      if (keys[i] !== key) return `${where}: resultKeys[${i}] is ${keys[i]}, but the key of queries[${i}] is ${key}`;
    }
    return undefined;
  } catch (error) {
    if (isRefusal(error)) return `${where}: ${error.message}`;
    throw error;
  }
}

/** The fields of the API's `PathQuery` input, and of its `BoardInput`: all a stored question can hold. */
const QUERY_FIELDS = new Set(['piece', 'from', 'to', 'board', 'mask', 'blocked', 'fen', 'betza']);
const BOARD_FIELDS = new Set(['files', 'ranks']);

/**
 * Where a query has a field the API's input types do not (the engine would ignore it, but no
 * save ever stored one), e.g. `.board has a field "x"...`, or undefined.
 */
function unknownField(query: PathQuery): string | undefined {
  const extra = Object.keys(query).find((name) => !QUERY_FIELDS.has(name));
  if (extra !== undefined) {
    return ` has a field ${JSON.stringify(extra)} a path question does not have (${[...QUERY_FIELDS].join(', ')})`;
  }
  const board: unknown = query.board;
  if (typeof board !== 'object' || board === null) return undefined;
  const extraSide = Object.keys(board).find((name) => !BOARD_FIELDS.has(name));
  if (extraSide === undefined) return undefined;
  return `.board has a field ${JSON.stringify(extraSide)} a board does not have (files, ranks)`;
}

/** True when two packed layer lists hold the same squares in the same layers. */
function sameLayers(a: PackedLayers, b: PackedLayers): boolean {
  return (
    a.starts.length === b.starts.length &&
    a.squares.length === b.squares.length &&
    a.starts.every((v, i) => v === b.starts[i]) &&
    a.squares.every((v, i) => v === b.squares[i])
  );
}

/** Why the cached result is not its question's answer, or undefined. */
export function cachedResultRefusal(row: CachedRow): string | undefined {
  const where = `the cached result ${row.key}`;
  let prepared: ReturnType<typeof prepareCanonical>;
  try {
    const { files, ranks, mask, sources, targets } = row;
    prepared = prepareCanonical({ ...readPieceColumn(row.piece), files, ranks, mask, sources, targets });
  } catch (error) {
    return `${where} does not hold a question the engine reads (${(error as Error).message})`;
  }
  if (prepared.key !== row.key) return `${where} is filed under the wrong key: its question's key is ${prepared.key}`;
  const solved = solvePrepared(prepared);
  let stored: PackedLayers;
  try {
    stored = decodeLayers(row.layers, row.files * row.ranks);
  } catch (error) {
    return `${where} holds layers that cannot be read (${(error as Error).message})`;
  }
  if (!sameLayers(stored, packLayers(solved))) return `${where} holds layers that are not its question's answer`;
  if (row.distance !== solved.distance) {
    return `${where} says distance ${row.distance}, but its question's distance is ${solved.distance}`;
  }
  if (row.pathCount !== null && BigInt(row.pathCount) !== solved.pathCount) {
    return `${where} says ${row.pathCount} shortest paths, but its question has ${solved.pathCount}`;
  }
  return undefined;
}

/**
 * Strict reading of one line of an export (`./format.ts`): an unknown or missing field,
 * a wrong type, a number, time or text out of what the API serves and the database stores (a
 * version over 2^31 - 1, a time before 1970: `./fields.ts`), a malformed time, hash,
 * bitboard or base64, an analysis over `MAX_ANALYSIS_BYTES`
 * (counted as a save counts it), a cache row a board that small never has, and, for PostgreSQL,
 * a NUL character are refused with the line's number (`TransferError`), since an import must
 * apply whole or not at all. A line that passes comes back as the columns to write.
 */
import { analysisBytes } from '../analysis-budget.js';
import { cacheRowBytes } from '../cache-budget.js';
import { readPieceColumn, SMALL_BOARD_SQUARES, SMALL_ROW_BYTES } from '../result-cache.js';
import { Fields, MAX_INT, preview } from './fields.js';
import {
  type AnalysisColumns,
  type CachedResultColumns,
  type EndLine,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type HeaderLine,
  TransferError,
} from './format.js';

const HEX64 = /^[0-9a-f]{64}$/;
const DECIMAL = /^(0|[1-9][0-9]*)$/;
const BITBOARD = /^0x[0-9a-f]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Ids the service makes are UUIDs; any printable text up to this length is taken. */
const MAX_ID_LENGTH = 255;
/** True when `text` has a control character (C0 or DEL), which no id contains. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Budgets an import checks each line against (`MAX_ANALYSIS_BYTES`). */
export interface LineLimits {
  maxAnalysisBytes: number;
  /**
   * True for a PostgreSQL target, whose text columns cannot hold the NUL character (SQLite's
   * can): an analysis with one is refused with its line rather than failing the transaction.
   */
  noNul?: boolean;
}

/** Refuses a NUL character in the named text fields, when the target cannot store one. */
function checkNul(fields: Fields, limits: LineLimits, values: Record<string, string | null>): void {
  if (!limits.noNul) return;
  for (const [name, value] of Object.entries(values)) {
    if (value?.includes('\u0000')) {
      throw new TransferError(
        `the ${fields.what.replace(/^the /, '')} field "${name}" holds a NUL character (\\u0000), which PostgreSQL cannot store in text; edit it out on the source first`,
        fields.line,
      );
    }
  }
}

/** What a parsed line is, ready to write. */
export type ParsedLine =
  | { type: 'header'; header: HeaderLine }
  | { type: 'analysis'; columns: AnalysisColumns }
  | { type: 'cachedResult'; columns: CachedResultColumns }
  | { type: 'end'; end: EndLine };

/** Parses and checks line `line` (its text without the newline); throws `TransferError`. */
export function parseLine(text: string, line: number, limits: LineLimits): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TransferError(`not valid JSON (${(error as Error).message})`, line);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TransferError('not a JSON object', line);
  }
  const object = value as Record<string, unknown>;
  switch (object.type) {
    case 'header':
      return { type: 'header', header: parseHeader(new Fields(object, line, 'the header')) };
    case 'analysis':
      return { type: 'analysis', columns: parseAnalysis(new Fields(object, line, 'the analysis'), limits) };
    case 'cachedResult':
      return {
        type: 'cachedResult',
        columns: parseCachedResult(new Fields(object, line, 'the cached result'), limits),
      };
    case 'end': {
      const fields = new Fields(object, line, 'the end line');
      fields.string('type');
      const end: EndLine = {
        type: 'end',
        analyses: fields.integer('analyses', 0),
        cachedResults: fields.integer('cachedResults', 0),
      };
      fields.done();
      return { type: 'end', end };
    }
    default:
      throw new TransferError(
        `"type" ${preview(object.type)} is not one of "header", "analysis", "cachedResult", "end"`,
        line,
      );
  }
}

function parseHeader(fields: Fields): HeaderLine {
  fields.string('type');
  const format = fields.string('format');
  if (format !== EXPORT_FORMAT) fields.fail('format', JSON.stringify(EXPORT_FORMAT));
  const version = fields.integer('version', 1);
  if (version !== EXPORT_VERSION) {
    throw new TransferError(
      `the file is version ${version} of the format; this chess-paths reads version ${EXPORT_VERSION} (a newer chess-paths wrote it?)`,
      fields.line,
    );
  }
  const exportedAt = fields.date('exportedAt').toISOString();
  const cache = fields.boolean('cache');
  fields.done();
  return { type: 'header', format: EXPORT_FORMAT, version, exportedAt, cache };
}

function parseAnalysis(fields: Fields, limits: LineLimits): AnalysisColumns {
  fields.string('type');
  const id = fields.string('id');
  if (id.length === 0 || id.length > MAX_ID_LENGTH || hasControl(id)) {
    fields.fail('id', `1 to ${MAX_ID_LENGTH} characters without control characters`);
  }
  const title = fields.string('title');
  const notes = fields.nullableString('notes');
  const fen = fields.nullableString('fen');
  const pgn = fields.nullableString('pgn');
  const queries = fields.array('queries');
  queries.forEach((query, i) => {
    if (!isQueryShaped(query)) {
      throw new TransferError(
        `the analysis field "queries": item ${i} is not a path question (an object with a string "piece" and arrays "from" and "to")`,
        fields.line,
      );
    }
  });
  const resultKeys = fields.array('resultKeys');
  resultKeys.forEach((key, i) => {
    if (typeof key !== 'string' || key.length === 0) {
      throw new TransferError(`the analysis field "resultKeys": item ${i} is not a cache key`, fields.line);
    }
  });
  if (resultKeys.length !== queries.length) {
    throw new TransferError(
      `the analysis has ${queries.length} queries but ${resultKeys.length} resultKeys (one key per query)`,
      fields.line,
    );
  }
  const version = fields.integer('version', 1, MAX_INT);
  const createdAt = fields.date('createdAt');
  const updatedAt = fields.date('updatedAt');
  const editTokenHash = fields.matching('editTokenHash', HEX64, 'a hex SHA-256 (64 lower-case hex digits)');
  fields.done();
  checkNul(fields, limits, { title, notes, fen, pgn });
  const text = {
    title,
    notes,
    fen,
    pgn,
    queries: JSON.stringify(queries),
    resultKeys: JSON.stringify(resultKeys),
  };
  const bytes = analysisBytes(text);
  if (bytes > limits.maxAnalysisBytes) {
    throw new TransferError(
      `the analysis ${JSON.stringify(id)} would store ${bytes} bytes, over the limit of ${limits.maxAnalysisBytes} (MAX_ANALYSIS_BYTES)`,
      fields.line,
    );
  }
  return { id, ...text, editTokenHash, createdAt, updatedAt, version, bytes };
}

/** An object with a string `piece` and arrays `from` and `to`: what every stored question has. */
function isQueryShaped(query: unknown): boolean {
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return false;
  const q = query as Record<string, unknown>;
  return typeof q.piece === 'string' && Array.isArray(q.from) && Array.isArray(q.to);
}

function parseCachedResult(fields: Fields, limits: LineLimits): CachedResultColumns {
  fields.string('type');
  const key = fields.matching('key', HEX64, 'a hex SHA-256 (64 lower-case hex digits)');
  const piece = fields.string('piece');
  if (piece.length === 0) fields.fail('piece', 'a piece');
  const files = fields.integer('files', 1, 256);
  const ranks = fields.integer('ranks', 1, 256);
  const mask = fields.matching('mask', BITBOARD, 'a bitboard (0x and hex digits)');
  const sources = fields.matching('sources', BITBOARD, 'a bitboard (0x and hex digits)');
  const targets = fields.matching('targets', BITBOARD, 'a bitboard (0x and hex digits)');
  const distance = fields.nullableInteger('distance', 0, MAX_INT);
  const pathCount = fields.nullableString('pathCount');
  if (pathCount !== null && !DECIMAL.test(pathCount)) fields.fail('pathCount', 'decimal digits or null');
  const createdAt = fields.date('createdAt');
  const hitCount = fields.integer('hitCount', 0, MAX_INT);
  const lastHitAt = fields.date('lastHitAt');
  const base64 = fields.string('layers');
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) fields.fail('layers', 'standard base64');
  fields.done();
  checkNul(fields, limits, { piece });
  const decoded = Buffer.from(base64, 'base64');
  const layers = new Uint8Array(decoded.byteLength);
  layers.set(decoded);
  const bytes = cacheRowBytes({
    key,
    problem: {
      ...readPieceColumn(piece),
      files,
      ranks,
      mask,
      sources,
      targets,
    },
    distance,
    layers,
    pathCount: pathCount === null ? undefined : BigInt(pathCount),
  });
  if (files * ranks <= SMALL_BOARD_SQUARES && bytes > SMALL_ROW_BYTES) {
    throw new TransferError(
      `the cached result ${key} of a ${files} x ${ranks} board would store ${bytes} bytes, over the ${SMALL_ROW_BYTES} a row of a board that small can hold`,
      fields.line,
    );
  }
  return {
    key,
    piece,
    files,
    ranks,
    mask,
    sources,
    targets,
    distance,
    pathCount,
    createdAt,
    hitCount,
    lastHitAt,
    layers,
    bytes,
  };
}

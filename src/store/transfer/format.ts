/**
 * The format of `chess-paths export` and `chess-paths import`: JSON Lines, one JSON object a line,
 * each naming its `type`:
 *
 * 1. `{"type":"header","format":"chess-paths-export","version":1,"exportedAt":"...","cache":false}`
 * 2. one `{"type":"analysis",...}` line per saved analysis: its id, title, notes, FEN, PGN,
 *    queries (the path questions, as JSON), resultKeys, version, createdAt and updatedAt (ISO 8601,
 *    milliseconds, UTC) and editTokenHash (the hex SHA-256 of its edit token: the token itself is
 *    never stored, so never exported);
 * 3. with `--cache`, one `{"type":"cachedResult",...}` line per row of the result cache, its
 *    layers (opaque bytes of the engine's compact encoding) as standard base64;
 * 4. `{"type":"end","analyses":N,"cachedResults":M}`, so that a file cut at a line boundary is
 *    told from a whole one.
 *
 * Reading is strict (`./parse.ts`). `bytes` is not in the format (the importing store
 * computes it, as a save does), nor is anything the service does not need to keep (idempotency
 * records, running totals, migration history).
 */

/** The `format` of the header line. */
export const EXPORT_FORMAT = 'chess-paths-export';
/** The version of the format this build writes and reads. */
export const EXPORT_VERSION = 1;

/** An export or import that cannot go on; `line` is the file's 1-based line it is about. */
export class TransferError extends Error {
  override readonly name = 'TransferError';
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
  }
}

/** The header line. */
export interface HeaderLine {
  type: 'header';
  format: typeof EXPORT_FORMAT;
  version: number;
  exportedAt: string;
  cache: boolean;
}

/** An analysis as its line holds it. */
export interface AnalysisLine {
  type: 'analysis';
  id: string;
  title: string;
  notes: string | null;
  fen: string | null;
  pgn: string | null;
  queries: unknown[];
  resultKeys: string[];
  version: number;
  createdAt: string;
  updatedAt: string;
  editTokenHash: string;
}

/** A result cache row as its line holds it. */
export interface CachedResultLine {
  type: 'cachedResult';
  key: string;
  piece: string;
  files: number;
  ranks: number;
  mask: string;
  sources: string;
  targets: string;
  distance: number | null;
  pathCount: string | null;
  createdAt: string;
  hitCount: number;
  lastHitAt: string;
  /** Standard base64. */
  layers: string;
}

/** The last line. */
export interface EndLine {
  type: 'end';
  analyses: number;
  cachedResults: number;
}

export type ExportLine = HeaderLine | AnalysisLine | CachedResultLine | EndLine;

/** An `Analysis` row as Prisma reads it. */
export interface AnalysisRowData {
  id: string;
  title: string;
  notes: string | null;
  fen: string | null;
  pgn: string | null;
  queries: string;
  resultKeys: string;
  editTokenHash: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

/** A `CachedResult` row as Prisma reads it (without `bytes`). */
export interface CachedResultRowData {
  key: string;
  piece: string;
  files: number;
  ranks: number;
  mask: string;
  sources: string;
  targets: string;
  distance: number | null;
  pathCount: string | null;
  createdAt: Date;
  hitCount: number;
  lastHitAt: Date;
  layers: Uint8Array;
}

/** The header of an export made now. */
export function headerLine(cache: boolean, now: Date = new Date()): HeaderLine {
  return { type: 'header', format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: now.toISOString(), cache };
}

/** The line of an analysis row (its JSON columns parsed, so the line is plain nested JSON). */
export function analysisLine(row: AnalysisRowData): AnalysisLine {
  return {
    type: 'analysis',
    id: row.id,
    title: row.title,
    notes: row.notes,
    fen: row.fen,
    pgn: row.pgn,
    queries: JSON.parse(row.queries) as unknown[],
    resultKeys: JSON.parse(row.resultKeys) as string[],
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    editTokenHash: row.editTokenHash,
  };
}

/** The line of a cache row. */
export function cachedResultLine(row: CachedResultRowData): CachedResultLine {
  return {
    type: 'cachedResult',
    key: row.key,
    piece: row.piece,
    files: row.files,
    ranks: row.ranks,
    mask: row.mask,
    sources: row.sources,
    targets: row.targets,
    distance: row.distance,
    pathCount: row.pathCount,
    createdAt: row.createdAt.toISOString(),
    hitCount: row.hitCount,
    lastHitAt: row.lastHitAt.toISOString(),
    layers: Buffer.from(row.layers.buffer, row.layers.byteOffset, row.layers.byteLength).toString('base64'),
  };
}

/** The columns an analysis line writes (what `Analysis` holds; `bytes` computed as a save does). */
export interface AnalysisColumns extends AnalysisRowData {
  bytes: number;
}

/** The columns a cache line writes. */
export interface CachedResultColumns extends Omit<CachedResultRowData, 'layers'> {
  layers: Uint8Array<ArrayBuffer>;
  bytes: number;
}

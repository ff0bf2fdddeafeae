/**
 * `chess-paths import`: writes the analyses (and cached results) of an export file into a
 * database, whole or not at all, keeping their ids, versions, timestamps and edit-token hashes,
 * so an edit token given by the old database works on the new one.
 *
 * Two passes over the file, each streaming (one line and one batch in memory):
 *
 * 1. `checkExportFile` reads every line without touching the database: the header first, then
 *    analyses and cached results, then the end line whose counts must match; any line that is
 *    not JSON, has a wrong or unknown field, a wrong type, or an analysis over
 *    `MAX_ANALYSIS_BYTES` is refused with its number, and nothing has been written. The caller
 *    may check each row's content too (`RowCheck`): the store knows the columns, not what makes
 *    a question, a game or a result valid.
 * 2. One transaction reads the file again in batches (`BATCH_ROWS` rows, `BATCH_BYTES` bytes):
 *    for each batch it reads the rows of the same ids already in the database, skips those equal
 *    to the file's (so a second import changes nothing), refuses one that differs (naming the
 *    line and the fields), and inserts the rest in one multi-row INSERT. After the last batch it
 *    checks the analyses' total against `ANALYSES_MAX_BYTES`. Any refusal rolls the whole
 *    transaction back; one by the database itself is reported on one line (`databaseRefusal`).
 *
 * On PostgreSQL the running totals' insert triggers are paused for the transaction (see
 * `pauseTotalsTrigger`), so that a large import takes seconds, not minutes. Other writers of the
 * tables (the service's saves and cache writes) wait for the import's commit either way: the
 * totals row, or the paused table, is locked from the first write to the commit.
 *
 * Cached results are a cache: a row whose key is already in the database is left as it is,
 * whatever it holds. The cache's budget (`CACHE_MAX_BYTES`) is the service's to keep: its next
 * cache write evicts the least recently used rows until the table is within it.
 */
import type { Readable } from 'node:stream';
import { readTotals } from '../totals.js';
import type { TransferDatabase } from './database.js';
import {
  type AnalysisColumns,
  type CachedResultColumns,
  type EndLine,
  type HeaderLine,
  TransferError,
} from './format.js';
import { readLines } from './lines.js';
import { type LineLimits, parseLine } from './parse.js';
import { databaseRefusal, pauseTotalsTrigger, restoreTotals, writeAnalyses, writeCache } from './write.js';

/** Most rows written per statement. */
export const BATCH_ROWS = 256;
/** Most stored bytes per batch (a larger row alone). */
export const BATCH_BYTES = 4 * 1024 * 1024;
/** How long the import's transaction may last, ms. */
const IMPORT_TIMEOUT_MS = 24 * 3600 * 1000;

/** Budgets and bounds of an import. */
export interface ImportLimits extends LineLimits {
  /** Most bytes of all analyses together (`ANALYSES_MAX_BYTES`; 0: no limit). */
  maxAnalysesBytes: number;
  /** Longest line read, bytes (default from `maxAnalysisBytes`: see `maxLineBytes`). */
  maxLineBytes?: number;
}

/** The longest line an export of analyses within `maxAnalysisBytes` can hold, with room for cache rows. */
export function maxLineBytes(limits: LineLimits): number {
  // JSON escapes at most 6 bytes per byte of text (\u0000); cache rows are base64 (4/3).
  return Math.max(64 * 1024 * 1024, 6 * limits.maxAnalysisBytes + 64 * 1024);
}

/** What the file holds, found by `checkExportFile`. */
export interface CheckedFile {
  header: HeaderLine;
  end: EndLine;
}

/** How many rows an import added, and how many it found already there, equal. */
export interface ImportSummary {
  analyses: { added: number; unchanged: number };
  cachedResults: { added: number; unchanged: number };
}

/** One row of an export file, as parsed. */
export type ImportRow = { kind: 'analysis'; row: AnalysisColumns } | { kind: 'cachedResult'; row: CachedResultColumns };

/** The caller's check of a row's content: why the row is refused, or undefined when it is not. */
export type RowCheck = (row: ImportRow) => string | undefined;

type Item = ImportRow & { line: number };

/**
 * The rows of the file in order, checked line by line: the header, rows, the end line and
 * nothing after it, with counts that match. Throws `TransferError` naming the line.
 */
async function* rowsOf(
  input: Readable,
  limits: ImportLimits,
  seen: { header?: HeaderLine; end?: EndLine },
  check?: RowCheck,
) {
  let analyses = 0;
  let cachedResults = 0;
  let last = 0;
  for await (const { line, text } of readLines(input, limits.maxLineBytes ?? maxLineBytes(limits))) {
    last = line;
    if (seen.end) throw new TransferError('the file goes on after its end line', line);
    if (text.trim() === '') throw new TransferError('is empty (every line is one JSON object)', line);
    const parsed = parseLine(text, line, limits);
    if (line === 1) {
      if (parsed.type !== 'header') {
        throw new TransferError('is not the header of a chess-paths export ({"type":"header",...})', line);
      }
      seen.header = parsed.header;
      continue;
    }
    if (parsed.type === 'header') throw new TransferError('a second header', line);
    if (parsed.type === 'end') {
      if (parsed.end.analyses !== analyses || parsed.end.cachedResults !== cachedResults) {
        throw new TransferError(
          `the end line counts ${parsed.end.analyses} analyses and ${parsed.end.cachedResults} cached results, ` +
            `but the file holds ${analyses} and ${cachedResults}`,
          line,
        );
      }
      seen.end = parsed.end;
      continue;
    }
    let item: Item;
    if (parsed.type === 'analysis') {
      analyses++;
      item = { line, kind: 'analysis', row: parsed.columns };
    } else {
      if (!seen.header?.cache)
        throw new TransferError('a cached result in an export whose header says "cache": false', line);
      cachedResults++;
      item = { line, kind: 'cachedResult', row: parsed.columns };
    }
    const refused = check?.(item);
    if (refused !== undefined) throw new TransferError(refused, line);
    yield item;
  }
  if (last === 0) throw new TransferError('the file is empty: it is not a chess-paths export');
  if (!seen.end) {
    throw new TransferError(
      `the file ends after line ${last} without its end line ({"type":"end",...}): it was cut short`,
      last,
    );
  }
}

/** Pass 1: reads and checks the whole file (each row's content with `check`, if given), writing nothing. */
export async function checkExportFile(input: Readable, limits: ImportLimits, check?: RowCheck): Promise<CheckedFile> {
  const seen: { header?: HeaderLine; end?: EndLine } = {};
  for await (const _ of rowsOf(input, limits, seen, check)) {
    // Each row is checked as it is parsed; nothing is kept.
  }
  return { header: seen.header as HeaderLine, end: seen.end as EndLine };
}

/**
 * Imports the export that `open` reads (called once per pass: the file is read twice): checks it
 * whole, with `check` (unless `checked`: the caller ran `checkExportFile` on the same file), then writes it in
 * one transaction. Throws `TransferError` (nothing written) when the file or its contents are
 * refused.
 */
export async function importStore(
  db: TransferDatabase,
  open: () => Readable,
  limits: ImportLimits,
  options: {
    checked?: boolean;
    check?: RowCheck;
    /** Runs after the last row is written, before the commit: a throw rolls the import back. */
    beforeCommit?: () => void;
  } = {},
): Promise<ImportSummary> {
  limits = { ...limits, noNul: db.dialect === 'postgresql' };
  if (!options.checked) await checkExportFile(open(), limits, options.check);
  try {
    return await writeFile(db, open, limits, options.beforeCommit);
  } catch (error) {
    // What the batches did not already name (pausing a trigger, the totals, the commit): still
    // one line in the database's words, not Prisma's message of several.
    const reason = databaseRefusal(error);
    if (reason === undefined) throw error;
    throw new TransferError(`the database refused the import: ${reason}; nothing was imported`);
  }
}

/** Pass 2: the transaction that writes the checked file (see the file comment). */
function writeFile(
  db: TransferDatabase,
  open: () => Readable,
  limits: ImportLimits,
  beforeCommit: (() => void) | undefined,
): Promise<ImportSummary> {
  const { dialect } = db;
  return db.prisma.$transaction(
    async (tx) => {
      const summary: ImportSummary = {
        analyses: { added: 0, unchanged: 0 },
        cachedResults: { added: 0, unchanged: 0 },
      };
      const added = { analyses: { rows: 0, bytes: 0 }, cache: { rows: 0, bytes: 0 } };
      const paused = {
        Analysis: dialect === 'postgresql' && (await pauseTotalsTrigger(tx, 'Analysis')),
        CachedResult: false,
      };
      let analyses: { line: number; row: AnalysisColumns }[] = [];
      let cache: { line: number; row: CachedResultColumns }[] = [];
      let analysisBytes = 0;
      let cacheBytes = 0;
      const flushAnalyses = async () => {
        if (analyses.length === 0) return;
        const done = await writeAnalyses(tx, dialect, analyses);
        summary.analyses.added += done.added;
        summary.analyses.unchanged += done.unchanged;
        added.analyses.rows += done.added;
        added.analyses.bytes += done.bytes;
        analyses = [];
        analysisBytes = 0;
      };
      const flushCache = async () => {
        if (cache.length === 0) return;
        if (dialect === 'postgresql' && summary.cachedResults.added + summary.cachedResults.unchanged === 0) {
          paused.CachedResult = await pauseTotalsTrigger(tx, 'CachedResult');
        }
        const done = await writeCache(tx, dialect, cache);
        summary.cachedResults.added += done.added;
        summary.cachedResults.unchanged += done.unchanged;
        added.cache.rows += done.added;
        added.cache.bytes += done.bytes;
        cache = [];
        cacheBytes = 0;
      };
      for await (const item of rowsOf(open(), limits, {})) {
        if (item.kind === 'analysis') {
          if (analyses.length >= BATCH_ROWS || (analyses.length > 0 && analysisBytes + item.row.bytes > BATCH_BYTES)) {
            await flushAnalyses();
          }
          analyses.push(item);
          analysisBytes += item.row.bytes;
        } else {
          if (cache.length >= BATCH_ROWS || (cache.length > 0 && cacheBytes + item.row.bytes > BATCH_BYTES)) {
            await flushCache();
          }
          cache.push(item);
          cacheBytes += item.row.bytes;
        }
      }
      await flushAnalyses();
      await flushCache();
      if (paused.Analysis) await restoreTotals(tx, 'Analysis', added.analyses);
      if (paused.CachedResult) await restoreTotals(tx, 'CachedResult', added.cache);
      if (limits.maxAnalysesBytes > 0 && added.analyses.bytes > 0) {
        const total = (await readTotals(tx)).analysisBytes;
        if (total > limits.maxAnalysesBytes) {
          throw new TransferError(
            `importing these analyses (${added.analyses.bytes} bytes) would bring all analyses to ${total} bytes, over the limit of ` +
              `${limits.maxAnalysesBytes} (ANALYSES_MAX_BYTES); nothing was imported`,
          );
        }
      }
      beforeCommit?.();
      return summary;
    },
    { timeout: IMPORT_TIMEOUT_MS, maxWait: 10_000 },
  );
}

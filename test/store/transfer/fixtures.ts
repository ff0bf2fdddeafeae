/**
 * Shared by the export and import tests (not a test itself): analyses of every shape saved
 * through the store's own `save` and `update`, an export into a string, an import from a string,
 * and a database's whole content (every analysis, the running totals, chosen cache rows) read
 * through the store, so that "equal" and "nothing written" are compared on what the service sees.
 */
import { Readable, Writable } from 'node:stream';
import type { PathQuery } from '@chess-paths/engine';
import {
  type AnalysisRecord,
  type OpenedStore,
  openStore,
  type StoredResult,
  type StoreTotals,
} from '../../../src/store/index.js';
import { openTransferDatabase } from '../../../src/store/transfer/database.js';
import { type ExportCounts, exportStore } from '../../../src/store/transfer/export.js';
import { type ImportLimits, type ImportSummary, importStore } from '../../../src/store/transfer/import.js';
import { questionOf, recordingLogger, syntheticResult } from '../../support/store-fixtures.js';

/** Budgets of the stores these tests open. */
export const BUDGETS = { maxCacheBytes: 1 << 24, maxAnalysisBytes: 1 << 20, maxAnalysesBytes: 0 };

/** Import limits matching `BUDGETS`. */
export const LIMITS: ImportLimits = { maxAnalysisBytes: BUDGETS.maxAnalysisBytes, maxAnalysesBytes: 0 };

/** Opens the store on `url` with `BUDGETS` and a quiet logger. */
export function openTestStore(url: string): Promise<OpenedStore> {
  return openStore({ databaseUrl: url, ...BUDGETS }, { logger: recordingLogger() });
}

const QUERIES: PathQuery[] = [
  { piece: 'KNIGHT', from: ['a1'], to: ['h8'] },
  { piece: 'ROOK', from: ['a1'], to: ['h8'], board: { files: 10, ranks: 10 }, blocked: ['b1'], mask: null },
  { piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'] },
];

/** An analysis saved on the source, with the token its save gave. */
export interface SavedFixture {
  id: string;
  token: string;
}

/**
 * Saves `n` analyses of varied shapes (notes and FEN present or null, a PGN, quotes, newlines,
 * non-ASCII and astral characters, up to three queries) and updates every third one twice, so
 * versions and updatedAt differ from creation.
 */
export async function saveFixtures(store: OpenedStore, n = 7): Promise<SavedFixture[]> {
  const saved: SavedFixture[] = [];
  for (let i = 0; i < n; i++) {
    const queries = QUERIES.slice(0, (i % 3) + 1);
    const { analysis, editToken } = await store.analyses.save({
      title: i % 2 === 0 ? `Analysis ${i}: "quoted" \\ back` : `Étude ${i} ♞ 𝄞\nsecond line`,
      notes: i % 3 === 0 ? null : `notes ${i}\twith a tab\tand a \u2028 separator`,
      fen: i % 4 === 0 ? '8/8/8/8/8/8/8/N7 w - - 0 1' : null,
      pgn: i === 1 ? '1. e4 e5 2. Nf3 Nc6 *' : null,
      queries,
      resultKeys: queries.map((_, q) => `${String(i % 10).repeat(63)}${q}`),
    });
    if (i % 3 === 2) {
      await store.analyses.update(analysis.id, editToken, { notes: `changed ${i}` });
      await store.analyses.update(analysis.id, editToken, { title: `Retitled ${i}` });
    }
    saved.push({ id: analysis.id, token: editToken });
  }
  return saved;
}

/** `count` synthetic cache rows (some with a path count, some without, one unreachable). */
export function cacheFixtures(count = 5): StoredResult[] {
  return Array.from({ length: count }, (_, i) => {
    const result = syntheticResult(i, 40 + i, i % 2 === 0 ? BigInt(i) * 12345678901234567890n : undefined);
    return i === 3 ? { ...result, distance: null } : result;
  });
}

/** Every analysis of the store, newest first, through the store's own paging. */
export async function allAnalyses(store: OpenedStore): Promise<AnalysisRecord[]> {
  const out: AnalysisRecord[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await store.analyses.list({ first: 50, after });
    out.push(...page.edges.map((edge) => edge.node));
    if (!page.hasNextPage) return out;
    after = page.endCursor;
  }
}

/** What a database holds, as the store reads it. */
export interface Content {
  analyses: AnalysisRecord[];
  totals: StoreTotals;
  cache: (StoredResult | undefined)[];
}

/** Opens `url`, reads its content (the given cache rows looked up), closes it. */
export async function contentOf(url: string, cacheRows: StoredResult[] = []): Promise<Content> {
  const store = await openTestStore(url);
  try {
    return {
      analyses: await allAnalyses(store),
      totals: await store.totals(),
      cache: await store.cache.getMany(cacheRows.map(questionOf)),
    };
  } finally {
    await store.close();
  }
}

/** A writable that keeps what it is given; `highWaterMark` small so backpressure is exercised. */
export function memoryWritable(options: { delayMs?: number; highWaterMark?: number } = {}): {
  stream: Writable;
  text: () => string;
  peakBuffered: () => number;
} {
  const chunks: Buffer[] = [];
  let peak = 0;
  const stream = new Writable({
    highWaterMark: options.highWaterMark ?? 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      peak = Math.max(peak, stream.writableLength);
      if (options.delayMs) setTimeout(callback, options.delayMs);
      else callback();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8'), peakBuffered: () => peak };
}

/** Exports `url` into a string. */
export async function exportText(url: string, cache = false): Promise<{ text: string; counts: ExportCounts }> {
  const db = await openTransferDatabase(url, { busyTimeoutMs: 5000, create: false });
  try {
    const out = memoryWritable();
    const counts = await exportStore(db, out.stream, { cache });
    return { text: out.text(), counts };
  } finally {
    await db.close();
  }
}

/** Imports `text` into `url`. */
export async function importText(
  url: string,
  text: string,
  limits: ImportLimits = LIMITS,
  options: Parameters<typeof importStore>[3] = {},
): Promise<ImportSummary> {
  const db = await openTransferDatabase(url, { busyTimeoutMs: 5000, create: true });
  try {
    return await importStore(db, () => Readable.from([Buffer.from(text, 'utf8')]), limits, options);
  } finally {
    await db.close();
  }
}

/** The lines of an export, parsed. */
export function linesOf(text: string): Record<string, any>[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

/** Lines back into a file's text (one object a line, a newline after each). */
export function textOf(lines: unknown[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

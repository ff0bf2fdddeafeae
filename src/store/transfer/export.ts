/**
 * `chess-paths export`: every saved analysis (and with `cache`, every cached result) as the lines
 * of `./format.ts`, streamed in bounded memory.
 *
 * Rows are read in keyset pages in primary-key order: a page of ids and their stored sizes
 * (`bytes`, no text), then the rows themselves in chunks of at most `READ_ROWS` rows and
 * `READ_BYTES` stored bytes (a larger row alone), written to the output as they come; a write the
 * output cannot take yet waits for its `drain` (backpressure), so a slow disk or pipe holds the
 * reading back instead of filling memory. What the process holds is a page of ids and one chunk
 * of rows, whatever the number of analyses.
 *
 * The whole export reads one snapshot: on PostgreSQL a REPEATABLE READ, read-only transaction
 * (replicas keep writing meanwhile; what they commit after it began is not in this export), on
 * SQLite the command's exclusive hold of the file.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { chunkBy } from '../chunks.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { TransferDatabase } from './database.js';
import { analysisLine, cachedResultLine, type EndLine, headerLine } from './format.js';

/** Ids (and sizes) per keyset page. */
export const PAGE_IDS = 1000;
/** Most rows per read of whole rows. */
export const READ_ROWS = 256;
/** Most stored bytes per read of whole rows; a larger row is read alone. */
export const READ_BYTES = 4 * 1024 * 1024;
/** How long the export's transaction may last, ms: long enough for any table the budgets allow. */
const EXPORT_TIMEOUT_MS = 24 * 3600 * 1000;

/** What an export wrote. */
export interface ExportCounts {
  analyses: number;
  cachedResults: number;
}

/** Writes `text`, waiting for `drain` when the stream's buffer is full; rejects on its error or close. */
async function write(out: Writable, text: string): Promise<void> {
  if (out.destroyed || out.writableEnded) throw new Error('the output was closed before the export was written');
  if (out.write(text)) return;
  const stop = new AbortController();
  try {
    await Promise.race([
      once(out, 'drain', { signal: stop.signal }),
      once(out, 'close', { signal: stop.signal }).then(() => {
        throw new Error('the output was closed before the export was written');
      }),
    ]);
  } finally {
    stop.abort();
  }
}

type Tx = Pick<PrismaClient, 'analysis' | 'cachedResult'>;

/** Every analysis, id order, in bounded chunks. */
async function exportAnalyses(tx: Tx, out: Writable): Promise<number> {
  let count = 0;
  let after: string | undefined;
  for (;;) {
    const page = await tx.analysis.findMany({
      where: after === undefined ? {} : { id: { gt: after } },
      orderBy: { id: 'asc' },
      take: PAGE_IDS,
      select: { id: true, bytes: true },
    });
    if (page.length === 0) return count;
    after = page[page.length - 1].id;
    for (const chunk of chunkBy(page, READ_ROWS, READ_BYTES, (row) => row.bytes)) {
      const rows = await tx.analysis.findMany({
        where: { id: { in: chunk.map((row) => row.id) } },
        orderBy: { id: 'asc' },
      });
      let text = '';
      for (const row of rows) text += `${JSON.stringify(analysisLine(row))}\n`;
      await write(out, text);
      count += rows.length;
    }
  }
}

/** Every cache row, key order, in bounded chunks. */
async function exportCache(tx: Tx, out: Writable): Promise<number> {
  let count = 0;
  let after: string | undefined;
  for (;;) {
    const page = await tx.cachedResult.findMany({
      where: after === undefined ? {} : { key: { gt: after } },
      orderBy: { key: 'asc' },
      take: PAGE_IDS,
      select: { key: true, bytes: true },
    });
    if (page.length === 0) return count;
    after = page[page.length - 1].key;
    for (const chunk of chunkBy(page, READ_ROWS, READ_BYTES, (row) => row.bytes)) {
      const rows = await tx.cachedResult.findMany({
        where: { key: { in: chunk.map((row) => row.key) } },
        orderBy: { key: 'asc' },
      });
      let text = '';
      for (const row of rows) text += `${JSON.stringify(cachedResultLine(row))}\n`;
      await write(out, text);
      count += rows.length;
    }
  }
}

/** Options of `exportStore`. */
export interface ExportOptions {
  /** Also the result cache's rows. */
  cache: boolean;
  /** The header's time (default now). */
  now?: Date;
}

/** Writes the whole export to `out` (which it does not end); resolves with what it wrote. */
export async function exportStore(db: TransferDatabase, out: Writable, options: ExportOptions): Promise<ExportCounts> {
  const run = async (tx: Tx): Promise<ExportCounts> => {
    await write(out, `${JSON.stringify(headerLine(options.cache, options.now))}\n`);
    const analyses = await exportAnalyses(tx, out);
    const cachedResults = options.cache ? await exportCache(tx, out) : 0;
    const end: EndLine = { type: 'end', analyses, cachedResults };
    await write(out, `${JSON.stringify(end)}\n`);
    return { analyses, cachedResults };
  };
  if (db.dialect === 'sqlite') return run(db.prisma);
  return db.prisma.$transaction(
    async (tx) => {
      // The first statement of the transaction, so it applies to all of it (one snapshot).
      await tx.$executeRawUnsafe('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      return run(tx);
    },
    { timeout: EXPORT_TIMEOUT_MS, maxWait: 10_000 },
  );
}

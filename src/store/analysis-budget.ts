/**
 * Byte budgets of saved analyses, so that nobody can fill the disk through the API.
 *
 * An analysis's stored size (`bytes`, a column of its row) is the UTF-8 bytes of its title, notes,
 * FEN, queries JSON and result-keys JSON, plus a fixed `ANALYSIS_ROW_OVERHEAD` for the columns the
 * caller does not choose (id, token hash, timestamps) and the index entries; the overhead makes
 * many tiny analyses count too. The migration computes the same sum in SQL for older rows.
 *
 * The total of all analyses is `StoreTotals.analysisBytes`, kept by triggers in the transaction of
 * every write. `checkTotal` runs inside that transaction, after the write: the write took the
 * database's write lock, so the total it reads includes every committed save and no concurrent
 * save can slip in between the check and the commit; throwing rolls the write back.
 */

import { StorageLimitError } from './errors.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { readTotals } from './totals.js';

/** Bytes counted per analysis beyond its text: id, token hash, timestamps, record header, index entries. */
export const ANALYSIS_ROW_OVERHEAD = 256;

/** The stored text of an analysis, as its row holds it. */
export interface AnalysisText {
  title: string;
  notes: string | null;
  fen: string | null;
  /** Absent: no game. */
  pgn?: string | null;
  /** JSON. */
  queries: string;
  /** JSON. */
  resultKeys: string;
}

/** The stored size of an analysis (see the file comment). */
export function analysisBytes(text: AnalysisText): number {
  return (
    ANALYSIS_ROW_OVERHEAD +
    Buffer.byteLength(text.title, 'utf8') +
    (text.notes === null ? 0 : Buffer.byteLength(text.notes, 'utf8')) +
    (text.fen === null ? 0 : Buffer.byteLength(text.fen, 'utf8')) +
    (text.pgn == null ? 0 : Buffer.byteLength(text.pgn, 'utf8')) +
    Buffer.byteLength(text.queries, 'utf8') +
    Buffer.byteLength(text.resultKeys, 'utf8')
  );
}

/** The two budgets; see the file comment. */
export class AnalysisBudget {
  /**
   * @param maxOne most bytes of one analysis (`MAX_ANALYSIS_BYTES`, at least 1)
   * @param maxTotal most bytes of all analyses (`ANALYSES_MAX_BYTES`; 0: no limit)
   */
  constructor(
    readonly maxOne: number,
    readonly maxTotal: number,
  ) {
    if (!Number.isSafeInteger(maxOne) || maxOne < 1)
      throw new RangeError(`maxAnalysisBytes must be a positive integer, got ${maxOne}`);
    if (!Number.isSafeInteger(maxTotal) || maxTotal < 0)
      throw new RangeError(`maxAnalysesBytes must be a non-negative integer, got ${maxTotal}`);
  }

  /** Throws `StorageLimitError` (`MAX_ANALYSIS_BYTES`) when one analysis of `bytes` is too large. */
  checkOne(bytes: number): void {
    if (bytes > this.maxOne) {
      throw new StorageLimitError(
        `this analysis would store ${bytes} bytes, over the limit of ${this.maxOne} (MAX_ANALYSIS_BYTES)`,
        'MAX_ANALYSIS_BYTES',
        this.maxOne,
      );
    }
  }

  /**
   * Inside the transaction that just wrote an analysis of `bytes` (replacing one of
   * `previousBytes`, 0 for a new one): throws `StorageLimitError` (`ANALYSES_MAX_BYTES`) when the
   * write grew the total past the budget. A write that does not grow it always passes, so an
   * analysis can still be shrunk when the budget was lowered below what is stored.
   */
  async checkTotal(tx: Pick<PrismaClient, '$queryRawUnsafe'>, bytes: number, previousBytes: number): Promise<void> {
    if (this.maxTotal === 0 || bytes <= previousBytes) return;
    const total = (await readTotals(tx)).analysisBytes;
    if (total > this.maxTotal) {
      const what =
        previousBytes === 0
          ? `saving this analysis (${bytes} bytes)`
          : `this change (${bytes - previousBytes} more bytes)`;
      throw new StorageLimitError(
        `${what} would bring all analyses to ${total} bytes, over the limit of ${this.maxTotal} (ANALYSES_MAX_BYTES)`,
        'ANALYSES_MAX_BYTES',
        this.maxTotal,
      );
    }
  }
}

/**
 * The running totals of the store (`StoreTotals`, one row): rows and bytes of the result cache and
 * of the saved analyses. SQLite triggers (migration `20261123000000_byte_budgets`) keep them in the
 * transaction of every insert, update and delete, so reading them never scans a table.
 */
import type { PrismaClient } from './generated/prisma/client.js';

/** The totals, as numbers. */
export interface StoreTotals {
  cacheRows: number;
  cacheBytes: number;
  analysisRows: number;
  analysisBytes: number;
}

/** Reads the running totals (one row). */
export async function readTotals(prisma: Pick<PrismaClient, '$queryRawUnsafe'>): Promise<StoreTotals> {
  const rows = await prisma.$queryRawUnsafe<Record<string, bigint | number>[]>(
    'SELECT "cacheRows", "cacheBytes", "analysisRows", "analysisBytes" FROM "StoreTotals" WHERE "id" = 1',
  );
  const row = rows[0];
  if (!row) throw new Error('StoreTotals has no row: the database was not migrated by this version');
  return {
    cacheRows: Number(row.cacheRows),
    cacheBytes: Number(row.cacheBytes),
    analysisRows: Number(row.analysisRows),
    analysisBytes: Number(row.analysisBytes),
  };
}

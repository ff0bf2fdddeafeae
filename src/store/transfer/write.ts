/**
 * The writes of an import (`./import.ts`), inside its transaction: one batch of
 * analyses or cache rows at a time, compared with the rows of the same ids already there and the
 * rest inserted in one multi-row INSERT (Prisma's `createMany` builds its query in the client,
 * row by row, several times slower on large imports); and, on PostgreSQL, the pause of the
 * running totals' insert triggers (see `pauseTotalsTrigger`). A statement the database refuses
 * is reported on one line with the lines of its batch (`databaseRefusal`).
 */
import { type Dialect, placeholders } from '../dialect.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { type AnalysisColumns, type CachedResultColumns, TransferError } from './format.js';

/** The transaction's client, as far as the writes use it. */
export type Tx = Pick<PrismaClient, 'analysis' | 'cachedResult' | '$queryRawUnsafe' | '$executeRawUnsafe'>;

/** One level of a Prisma, driver-adapter or driver error, as far as `databaseRefusal` reads it. */
interface ErrorLevel {
  name?: unknown;
  message?: unknown;
  originalCode?: unknown;
  originalMessage?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
  cause?: unknown;
}

/** Errors of Prisma, its driver adapters and the drivers (better-sqlite3's, pg's). */
const DATABASE_ERROR = /^(PrismaClient\w*Error|DriverAdapterError|SqliteError|DatabaseError)$/;

/** `text` on one line, and not a page long. */
function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/**
 * What the database said when it refused a statement of the import, on one line: its own message
 * and code from inside Prisma's error (whose message spans several lines and names Prisma's
 * method rather than what failed), or undefined for an error that is not the database's (a bug,
 * which keeps its stack; a `TransferError`).
 */
export function databaseRefusal(error: unknown): string | undefined {
  if (!(error instanceof Error) || !DATABASE_ERROR.test(error.name)) return undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const level = current as ErrorLevel;
    if (typeof level.originalMessage === 'string') {
      const code = typeof level.originalCode === 'string' ? ` (${level.originalCode})` : '';
      return oneLine(`${level.originalMessage}${code}`);
    }
    current = level.meta?.driverAdapterError?.cause ?? level.cause;
  }
  return oneLine(error.message.replace(/^\s*Invalid `[^`]*` invocation:/, ''));
}

/**
 * Runs the statements of one batch of rows; a database error becomes a `TransferError` naming
 * the batch's lines: the file's checks passed, and the database refused them all the same (a
 * full disk, a constraint or trigger an operator added), so the user needs what it said and where.
 */
async function writingLines<T>(
  batch: readonly { line: number }[],
  what: [one: string, many: string],
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const reason = databaseRefusal(error);
    if (reason === undefined) throw error;
    const first = batch[0].line;
    const last = batch[batch.length - 1].line;
    const message = `the database refused ${batch.length === 1 ? `this ${what[0]}` : `these ${what[1]}`}: ${reason}; nothing was imported`;
    throw first === last
      ? new TransferError(message, first)
      : new TransferError(`lines ${first} to ${last}: ${message}`);
  }
}

/** The fields of an analysis that differ between the file's row and the database's. */
function differences(file: AnalysisColumns, stored: Omit<AnalysisColumns, 'bytes'>): string[] {
  const out: string[] = [];
  // The JSON columns compared as JSON: a row stored by an older version may space it otherwise.
  const canonical = (text: string) => JSON.stringify(JSON.parse(text));
  stored = { ...stored, queries: canonical(stored.queries), resultKeys: canonical(stored.resultKeys) };
  const same = (a: unknown, b: unknown) =>
    a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
  for (const name of [
    'title',
    'notes',
    'fen',
    'pgn',
    'queries',
    'resultKeys',
    'editTokenHash',
    'version',
    'createdAt',
    'updatedAt',
  ] as const) {
    if (!same(file[name], stored[name])) out.push(name);
  }
  return out;
}

const ANALYSIS_COLUMNS = [
  'id',
  'title',
  'notes',
  'fen',
  'pgn',
  'queries',
  'resultKeys',
  'editTokenHash',
  'createdAt',
  'updatedAt',
  'bytes',
  'version',
] as const;

const CACHE_COLUMNS = [
  'key',
  'piece',
  'files',
  'ranks',
  'mask',
  'sources',
  'targets',
  'distance',
  'pathCount',
  'bytes',
  'createdAt',
  'hitCount',
  'lastHitAt',
  'layers',
] as const;

/** One multi-row INSERT of `rows` into `table`. */
async function insertRows<Row extends object>(
  tx: Tx,
  dialect: Dialect,
  table: string,
  columns: readonly (keyof Row & string)[],
  rows: readonly Row[],
): Promise<void> {
  if (rows.length === 0) return;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const sql = placeholders(
    dialect,
    `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`,
  );
  const params = rows.flatMap((row) => columns.map((column) => row[column]));
  await tx.$executeRawUnsafe(sql, ...params);
}

/** Writes one batch of analyses; resolves with the rows added and their bytes. */
export function writeAnalyses(
  tx: Tx,
  dialect: Dialect,
  batch: { line: number; row: AnalysisColumns }[],
): Promise<{ added: number; unchanged: number; bytes: number }> {
  return writingLines(batch, ['analysis', 'analyses'], () => writeAnalysisBatch(tx, dialect, batch));
}

async function writeAnalysisBatch(
  tx: Tx,
  dialect: Dialect,
  batch: { line: number; row: AnalysisColumns }[],
): Promise<{ added: number; unchanged: number; bytes: number }> {
  const stored = new Map(
    (await tx.analysis.findMany({ where: { id: { in: batch.map((item) => item.row.id) } } })).map((row) => [
      row.id,
      row,
    ]),
  );
  const fresh = new Map<string, { line: number; row: AnalysisColumns }>();
  let unchanged = 0;
  for (const item of batch) {
    const earlier = stored.get(item.row.id) ?? fresh.get(item.row.id)?.row;
    if (!earlier) {
      fresh.set(item.row.id, item);
      continue;
    }
    const differ = differences(item.row, earlier);
    if (differ.length > 0) {
      const where = stored.has(item.row.id)
        ? 'the analysis with this id already in the database (or earlier in this file)'
        : `line ${fresh.get(item.row.id)?.line}`;
      throw new TransferError(
        `the analysis ${JSON.stringify(item.row.id)} differs from ${where} (${differ.join(', ')}); nothing was imported`,
        item.line,
      );
    }
    unchanged++;
  }
  const rows = [...fresh.values()].map((item) => item.row);
  await insertRows(tx, dialect, 'Analysis', ANALYSIS_COLUMNS, rows);
  return { added: rows.length, unchanged, bytes: rows.reduce((sum, row) => sum + row.bytes, 0) };
}

/** Writes one batch of cache rows: keys already there are left alone. */
export function writeCache(
  tx: Tx,
  dialect: Dialect,
  batch: { line: number; row: CachedResultColumns }[],
): Promise<{ added: number; unchanged: number; bytes: number }> {
  return writingLines(batch, ['cached result', 'cached results'], () => writeCacheBatch(tx, dialect, batch));
}

async function writeCacheBatch(
  tx: Tx,
  dialect: Dialect,
  batch: { row: CachedResultColumns }[],
): Promise<{ added: number; unchanged: number; bytes: number }> {
  const present = new Set(
    (
      await tx.cachedResult.findMany({
        where: { key: { in: batch.map((item) => item.row.key) } },
        select: { key: true },
      })
    ).map((row) => row.key),
  );
  const fresh = new Map<string, CachedResultColumns>();
  for (const { row } of batch) if (!present.has(row.key) && !fresh.has(row.key)) fresh.set(row.key, row);
  const rows = [...fresh.values()];
  await insertRows(tx, dialect, 'CachedResult', CACHE_COLUMNS, rows);
  return {
    added: rows.length,
    unchanged: batch.length - rows.length,
    bytes: rows.reduce((sum, row) => sum + row.bytes, 0),
  };
}

/**
 * PostgreSQL: the running totals' insert trigger of `table`, switched off for this transaction
 * when this connection may (it owns the table) and the trigger is the one the migrations made.
 * Each firing updates the one `StoreTotals` row, and PostgreSQL keeps every version of a row
 * updated again and again in one transaction, walking them all at the next update: 100,000
 * inserts take minutes instead of seconds. Switched off, the import adds its rows and bytes to
 * the totals once, at the end (`restoreTotals`). `ALTER TABLE ... DISABLE TRIGGER` is
 * transactional and holds a lock that keeps other writers of the table waiting until the commit,
 * so no other transaction ever writes the table without its trigger; a rollback restores it.
 * Resolves false (the triggers then count each row) when it cannot.
 */
export async function pauseTotalsTrigger(tx: Tx, table: 'Analysis' | 'CachedResult'): Promise<boolean> {
  const trigger = `${table}_totals_insert`;
  const rows = await tx.$queryRawUnsafe<{ owner: boolean; present: boolean }[]>(
    `SELECT pg_has_role(current_user, c.relowner, 'USAGE') AS owner,
            EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = $2 AND t.tgenabled <> 'D') AS present
       FROM pg_class c WHERE c.oid = to_regclass($1)`,
    `"${table}"`,
    trigger,
  );
  if (!rows[0]?.owner || !rows[0]?.present) return false;
  await tx.$executeRawUnsafe(`ALTER TABLE "${table}" DISABLE TRIGGER "${trigger}"`);
  return true;
}

/** Adds what the paused trigger did not count to the totals, and switches the trigger on again. */
export async function restoreTotals(
  tx: Tx,
  table: 'Analysis' | 'CachedResult',
  added: { rows: number; bytes: number },
): Promise<void> {
  const [rows, bytes] = table === 'Analysis' ? ['analysisRows', 'analysisBytes'] : ['cacheRows', 'cacheBytes'];
  if (added.rows > 0) {
    await tx.$executeRawUnsafe(
      `UPDATE "StoreTotals" SET "${rows}" = "${rows}" + $1, "${bytes}" = "${bytes}" + $2 WHERE "id" = 1`,
      added.rows,
      added.bytes,
    );
  }
  await tx.$executeRawUnsafe(`ALTER TABLE "${table}" ENABLE TRIGGER "${table}_totals_insert"`);
}

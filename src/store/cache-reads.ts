/**
 * Reads of whole result-cache rows on SQLite without Prisma: the one statement the hot path of a
 * cache lookup runs, prepared once per number of keys on the service's own connection (the one
 * Prisma's adapter opened, `./connection.ts`) and kept.
 *
 * Through Prisma, every lookup worked out and interpreted its query plan and had the adapter
 * prepare the same SQL again, several times what SQLite itself spends on the read. Here it is
 * one prepared statement run with the keys bound: the same SQL, the same connection (so the same
 * lock, transactions and data as Prisma's statements), the same columns with the same types
 * (integers as numbers, the BLOB as bytes). A failure is better-sqlite3's own `SqliteError`, with
 * the SQLite code the availability guard reads (`./availability.ts`). Without an open connection
 * (the adapter closed it, or hides it) `read` says so and the caller reads through Prisma.
 */
import type Database from 'better-sqlite3';
import { ConnectionStatements } from './connection-statements.js';

/** A result-cache row as the cache reads it. */
export interface CachedRow {
  key: string;
  piece: string;
  files: number;
  ranks: number;
  mask: string;
  sources: string;
  targets: string;
  distance: number | null;
  pathCount: string | null;
  layers: Uint8Array;
}

/** The columns of a whole-row read, in the order of `CachedRow` (the BLOB last). */
export const ROW_COLUMNS = [
  'key',
  'piece',
  'files',
  'ranks',
  'mask',
  'sources',
  'targets',
  'distance',
  'pathCount',
  'layers',
] as const;

/** The SQL of a read of whole rows for `count` keys. */
export function rowReadSql(count: number): string {
  const columns = ROW_COLUMNS.map((c) => `"${c}"`).join(', ');
  const keys = Array.from({ length: count }, () => '?').join(', ');
  return `SELECT ${columns} FROM "main"."CachedResult" WHERE "key" IN (${keys})`;
}

/** A statement run, as Prisma's query event reports one (for the store's `onQuery`). */
export interface QueryEvent {
  query: string;
  params: string;
  duration: number;
}

/** Whole-row reads on the connection `database()` gives; see the file comment. */
export class SqliteRowReads {
  readonly #database: () => Database.Database | undefined;
  readonly #onQuery: ((event: QueryEvent) => void) | undefined;
  /** Statements by number of keys. */
  readonly #statements = new ConnectionStatements<number>();

  constructor(database: () => Database.Database | undefined, onQuery?: (event: QueryEvent) => void) {
    this.#database = database;
    this.#onQuery = onQuery;
  }

  /** The rows of `keys` (those present, in no particular order), or undefined without an open connection. */
  read(keys: readonly string[]): CachedRow[] | undefined {
    const db = this.#database();
    if (!db) return undefined;
    if (keys.length === 0) return [];
    // The adapter turns on safe integers for the connection; these columns are small numbers.
    const statement = this.#statements.get(db, keys.length, () =>
      db.prepare(rowReadSql(keys.length)).safeIntegers(false),
    );
    const started = this.#onQuery ? performance.now() : 0;
    const rows = statement.all(...keys) as CachedRow[];
    for (const row of rows) {
      const bytes = row.layers as unknown;
      // A Buffer of its own memory: handed on as the plain bytes Prisma gives.
      if (bytes instanceof Uint8Array) row.layers = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    this.#onQuery?.({
      query: rowReadSql(keys.length),
      params: JSON.stringify(keys),
      duration: performance.now() - started,
    });
    return rows;
  }
}

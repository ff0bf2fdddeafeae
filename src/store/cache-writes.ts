/**
 * Writes of result-cache rows on SQLite without Prisma: the multi-row upsert of a chunk of rows
 * and the eviction statement that goes with it, run as one transaction of statements prepared once
 * (per number of rows) on the service's own connection (the one Prisma's adapter opened,
 * `./connection.ts`).
 *
 * Through Prisma, a write of a hundred rows worked out and interpreted a query plan over some
 * thirteen hundred parameters and had the adapter prepare the statement again: tens of
 * microseconds of the event loop per row, for a write SQLite does in a few. Here it is the same
 * SQL in one transaction, with the values bound as Prisma's adapter binds them
 * (dates as ISO 8601 text with `+00:00`, bytes as a BLOB), so rows written either way read, sort
 * and evict alike. better-sqlite3 runs it synchronously: nothing else on the event loop runs in
 * between. A transaction Prisma holds open on the connection (an interactive transaction awaiting
 * its next statement) would take these statements in; then `write` declines, and the caller
 * writes through Prisma, which waits for that transaction to end. A failure is better-sqlite3's
 * own `SqliteError`, with the SQLite code the availability guard reads (`./availability.ts`).
 */
import type Database from 'better-sqlite3';
import type { QueryEvent } from './cache-reads.js';
import { ConnectionStatements } from './connection-statements.js';

/** A date as Prisma's SQLite adapter binds it (its default `iso8601` timestamp format). */
export function sqliteTimestamp(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}

/** What `write` runs: the upsert and its values, then the eviction statement if any. */
export interface RowsWrite {
  /** The upsert of the rows. */
  upsertSql: string;
  /** Its values, bound in order. */
  values: readonly unknown[];
  /** The eviction statement and its one value, run after the upsert in the same transaction. */
  evict?: { sql: string; value: number };
}

/** Row writes on the connection `database()` gives; see the file comment. */
export class SqliteRowWrites {
  readonly #database: () => Database.Database | undefined;
  readonly #onQuery: ((event: QueryEvent) => void) | undefined;
  /** Statements by SQL text. */
  readonly #statements = new ConnectionStatements<string>();

  constructor(database: () => Database.Database | undefined, onQuery?: (event: QueryEvent) => void) {
    this.#database = database;
    this.#onQuery = onQuery;
  }

  /**
   * Runs the write in one transaction and returns how many rows the eviction statement deleted
   * (0 without one), or undefined when it cannot run here (no open connection, or a transaction
   * already open on it): then nothing was written.
   */
  write({ upsertSql, values, evict }: RowsWrite): number | undefined {
    const db = this.#database();
    if (!db?.open || db.inTransaction) return undefined;
    const upsert = this.#statement(db, upsertSql);
    const evictStatement = evict ? this.#statement(db, evict.sql) : undefined;
    const bound = values.map(bindable);
    const report = this.#onQuery;
    const started = report ? performance.now() : 0;
    const deleted = db.transaction(() => {
      upsert.run(...bound);
      return evictStatement && evict ? Number(evictStatement.run(evict.value).changes) : 0;
    })();
    if (report) {
      // Reported as Prisma reports a batch transaction: its statements in order.
      const duration = performance.now() - started;
      report({ query: 'BEGIN', params: '[]', duration: 0 });
      report({ query: upsertSql, params: JSON.stringify(values), duration });
      if (evict) report({ query: evict.sql, params: JSON.stringify([evict.value]), duration: 0 });
      report({ query: 'COMMIT', params: '[]', duration: 0 });
    }
    return deleted;
  }

  #statement(db: Database.Database, sql: string): Database.Statement {
    return this.#statements.get(db, sql, () => db.prepare(sql));
  }
}

/** A value as better-sqlite3 binds it the way Prisma's adapter would. */
function bindable(value: unknown): unknown {
  if (value instanceof Date) return sqliteTimestamp(value);
  if (value instanceof Uint8Array && !Buffer.isBuffer(value))
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return value;
}

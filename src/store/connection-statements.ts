/**
 * Statements prepared once on the service's own SQLite connection and kept, for the statements
 * the store runs without Prisma (`./cache-reads.ts`, `./cache-writes.ts`). They belong to the
 * connection they were prepared on: when the adapter hands out another one (it reopened), the
 * kept ones are dropped. At most `MAX_STATEMENTS` are kept (past it, all are dropped and made
 * again as needed: the keys are few, one per number of rows).
 */
import type Database from 'better-sqlite3';

/** Most statements kept. */
const MAX_STATEMENTS = 256;

/** Prepared statements by key, for one connection at a time. */
export class ConnectionStatements<K> {
  #statements = new Map<K, Database.Statement>();
  #preparedOn: Database.Database | undefined;

  /** The statement kept for `key` on `db`, made by `prepare` the first time. */
  get(db: Database.Database, key: K, prepare: () => Database.Statement): Database.Statement {
    if (db !== this.#preparedOn) {
      this.#statements = new Map();
      this.#preparedOn = db;
    }
    let statement = this.#statements.get(key);
    if (!statement) {
      if (this.#statements.size >= MAX_STATEMENTS) this.#statements.clear();
      statement = prepare();
      this.#statements.set(key, statement);
    }
    return statement;
  }
}

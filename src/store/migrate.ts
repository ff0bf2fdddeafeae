/**
 * The project's own migrator: applies `prisma/migrations/<name>/migration.sql` in name order and
 * keeps Prisma's `_prisma_migrations` table exactly as `prisma migrate deploy` does, so that the
 * history it writes is accepted by Prisma's own tooling on a machine that has the schema engine.
 *
 * For each pending migration: insert its row (id, checksum, started_at, migration_name), run the
 * script as it is (never inside a transaction: `PRAGMA foreign_keys=OFF` is ignored inside one and
 * a table-rebuild migration would then cascade deletes), then count the step and set
 * `finished_at`. On error the message goes to `logs` and start-up stops. Timestamps are stored as
 * Unix milliseconds, as Prisma's SQLite schema engine stores them.
 *
 * Refuses to start, with a message saying what to do, when an applied migration's `migration.sql`
 * changed (checksum), when a migration is recorded as failed or unfinished, or when a database that
 * has tables but no migration history is pointed at.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

/** `prisma/migrations` of this package: from `src/store` and from `dist/store` alike. */
export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/** Minimal logger (pino's signature). */
export interface StoreLogger {
  info?(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface MigrateOptions {
  /** Directory holding `<timestamp>_<name>/migration.sql`; default `DEFAULT_MIGRATIONS_DIR`. */
  migrationsDir?: string;
  /** Busy timeout while waiting for another process's lock, in ms (default 5000). */
  busyTimeoutMs?: number;
  logger?: StoreLogger;
}

/** A migration found on disk. */
export interface LocalMigration {
  name: string;
  /** Lower-case hex SHA-256 of the raw bytes of `migration.sql`. */
  checksum: string;
  script: string;
}

export interface MigrateResult {
  /** Names of the migrations applied by this run, in order. */
  applied: string[];
  /** Names of every migration the database now has (not rolled back), in history order. */
  all: string[];
}

/** A migration problem that must stop start-up. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/** Prisma's own DDL for the history table on SQLite (schema engine, `create_migrations_table`). */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
);`;

/** Lower-case hex SHA-256 of the given bytes: Prisma's migration checksum. */
export function migrationChecksum(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Reads the migrations directory: every subdirectory, in name order, must hold `migration.sql`. */
export function readMigrations(migrationsDir: string = DEFAULT_MIGRATIONS_DIR): LocalMigration[] {
  if (!existsSync(migrationsDir) || !statSync(migrationsDir).isDirectory()) {
    throw new MigrationError(`Migrations directory not found: ${migrationsDir}`);
  }
  const names = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return names.map((name) => {
    const file = join(migrationsDir, name, 'migration.sql');
    if (!existsSync(file)) {
      throw new MigrationError(`Migration "${name}" has no migration.sql (expected ${file})`);
    }
    const bytes = readFileSync(file);
    return { name, checksum: migrationChecksum(bytes), script: bytes.toString('utf8') };
  });
}

export interface HistoryRow {
  id: string;
  checksum: string;
  finished_at: unknown;
  migration_name: string;
  logs: string | null;
  rolled_back_at: unknown;
}

/**
 * Brings the SQLite database at `file` up to date with the migrations directory, on a connection
 * of its own (closed before returning; it also switches the database to WAL).
 *
 * When the history shows nothing to do, it only reads (other processes may have the database
 * open). When there is work (no history table yet, a pending migration, or a row not finished),
 * it takes Prisma's lock, `locking_mode=EXCLUSIVE`, which waits (busy timeout) until no other
 * connection has the database open, re-reads the history and applies what is still pending; so
 * two processes starting at once apply each migration once.
 */
export function migrate(file: string, options: MigrateOptions = {}): MigrateResult {
  const migrations = readMigrations(options.migrationsDir);
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const db = new Database(file, { timeout: busyTimeoutMs });
  try {
    db.pragma('journal_mode = WAL');
    const quick = tableExists(db, '_prisma_migrations') ? readHistory(db) : null;
    if (quick && !needsWork(quick, migrations)) {
      return { applied: [], all: checkHistory(file, quick, migrations, options.logger) };
    }

    // Prisma's schema engine locks the same way; the lock is held until the connection closes.
    db.pragma('locking_mode = EXCLUSIVE');
    try {
      db.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      if (isBusy(error)) {
        throw new MigrationError(
          `Migrations need exclusive access to ${file}, but another connection kept it open for ` +
            `${busyTimeoutMs} ms. Stop the other processes using the database (older instances, sqlite3 ` +
            'shells, Prisma Studio) and start again.',
        );
      }
      throw error;
    }
    try {
      if (!tableExists(db, '_prisma_migrations')) {
        const other = db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
          .pluck()
          .all() as string[];
        if (other.length > 0) {
          throw new MigrationError(
            `The database ${file} has tables (${other.join(', ')}) but no _prisma_migrations history, ` +
              'so its schema is unknown. Point DATABASE_URL at a new file, or baseline it with ' +
              '`prisma migrate resolve --applied <migration>` on a machine with the Prisma schema engine.',
          );
        }
        db.exec(CREATE_MIGRATIONS_TABLE);
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }

    const applied = checkHistory(file, readHistory(db), migrations, options.logger);
    const done = new Set(applied);
    const insert = db.prepare(
      'INSERT INTO "_prisma_migrations" ("id", "checksum", "started_at", "migration_name") VALUES (?, ?, ?, ?)',
    );
    const step = db.prepare(
      'UPDATE "_prisma_migrations" SET "applied_steps_count" = "applied_steps_count" + 1 WHERE "id" = ?',
    );
    const finish = db.prepare('UPDATE "_prisma_migrations" SET "finished_at" = ? WHERE "id" = ?');
    const fail = db.prepare('UPDATE "_prisma_migrations" SET "logs" = ? WHERE "id" = ?');

    const newlyApplied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      const id = randomUUID();
      insert.run(id, migration.checksum, Date.now(), migration.name);
      try {
        db.exec(migration.script);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (db.inTransaction) db.exec('ROLLBACK');
        fail.run(`Migration ${migration.name} failed to apply: ${message}`, id);
        throw new MigrationError(`Migration "${migration.name}" failed to apply to ${file}: ${message}`);
      }
      step.run(id);
      finish.run(Date.now(), id);
      newlyApplied.push(migration.name);
      options.logger?.info?.({ migration: migration.name }, 'applied migration');
    }
    return { applied: newlyApplied, all: [...applied, ...newlyApplied] };
  } finally {
    db.close();
  }
}

function readHistory(db: Database.Database): HistoryRow[] {
  return db
    .prepare(
      'SELECT id, checksum, finished_at, migration_name, logs, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at ASC',
    )
    .all() as HistoryRow[];
}

/** True when a migration is pending or a history row is unfinished. */
export function needsWork(rows: HistoryRow[], migrations: LocalMigration[]): boolean {
  const live = rows.filter((row) => row.rolled_back_at == null);
  if (live.some((row) => row.finished_at == null)) return true;
  const applied = new Set(live.map((row) => row.migration_name));
  return migrations.some((m) => !applied.has(m.name));
}

/**
 * Validates the history against the directory (`where` names the database in messages) and
 * returns the names of the applied migrations:
 * an unfinished row or a changed checksum is a `MigrationError`; a row without a directory is
 * only reported.
 */
export function checkHistory(
  file: string,
  rows: HistoryRow[],
  migrations: LocalMigration[],
  logger: StoreLogger | undefined,
): string[] {
  const failed = rows.find((row) => row.finished_at == null && row.rolled_back_at == null);
  if (failed) {
    throw new MigrationError(
      `Migration "${failed.migration_name}" is recorded in ${file} as started but not finished` +
        (failed.logs ? ` (${failed.logs})` : '') +
        '. Fix the database by hand, then mark the migration rolled back or applied ' +
        '(`prisma migrate resolve`, or set rolled_back_at / finished_at in _prisma_migrations).',
    );
  }
  const local = new Map(migrations.map((m) => [m.name, m]));
  const applied: string[] = [];
  for (const row of rows) {
    if (row.rolled_back_at != null) continue;
    applied.push(row.migration_name);
    const migration = local.get(row.migration_name);
    if (!migration) {
      logger?.warn(
        { migration: row.migration_name },
        'database has a migration that is not in the migrations directory (is this an older build?)',
      );
      continue;
    }
    if (migration.checksum !== row.checksum) {
      throw new MigrationError(
        `Migration "${row.migration_name}" was changed after it was applied to ${file}: ` +
          `_prisma_migrations records checksum ${row.checksum}, but its migration.sql now hashes to ` +
          `${migration.checksum}. Restore the original migration.sql and put the change in a new migration.`,
      );
    }
  }
  return applied;
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

function tableExists(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

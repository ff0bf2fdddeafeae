/**
 * The migrator for PostgreSQL: applies `prisma/postgresql/migrations/<name>/migration.sql` in
 * name order and keeps Prisma's `_prisma_migrations` history exactly as `prisma migrate deploy`
 * does on PostgreSQL (same table, same checksums), with the same refusals as the SQLite migrator
 * (`migrate.ts`): a changed migration, a failed or unfinished one, tables without a history.
 *
 * Several replicas start at once on one database, so the whole run holds a session-level
 * advisory lock (the key Prisma's own migrate uses, so the two never run together either): the
 * first replica applies what is pending, the others wait, then find nothing left to do. Each
 * migration runs in a transaction of its own with its history row, so a failed one leaves
 * neither half a schema nor a row claiming it (PostgreSQL's DDL is transactional).
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { redactUrl } from './dialect.js';
import {
  checkHistory,
  type HistoryRow,
  type MigrateResult,
  MigrationError,
  needsWork,
  readMigrations,
  type StoreLogger,
} from './migrate.js';

/** `prisma/postgresql/migrations` of this package: from `src/store` and from `dist/store` alike. */
export const DEFAULT_POSTGRES_MIGRATIONS_DIR = fileURLToPath(
  new URL('../../prisma/postgresql/migrations', import.meta.url),
);

/** The advisory lock key of Prisma's migrate on PostgreSQL. */
const ADVISORY_LOCK_KEY = 72707369;

/**
 * Tables of the service that are not in the Prisma schema, so not a sign of an unknown schema:
 * the mutation rate limiter's counts, a table its library creates itself (possibly before the
 * first migration, as replicas start).
 */
const OWN_TABLES = ['rate_limit_mutations'];

/** Prisma's own DDL for the history table on PostgreSQL. */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
);`;

/** Options of `migratePostgres`. */
export interface PostgresMigrateOptions {
  /** Directory of the PostgreSQL migrations; default `DEFAULT_POSTGRES_MIGRATIONS_DIR`. */
  migrationsDir?: string;
  /** How long to wait for the connection, ms (default 10 000). */
  connectTimeoutMs?: number;
  logger?: StoreLogger;
}

/** Brings the PostgreSQL database at `url` up to date with the migrations directory. */
export async function migratePostgres(url: string, options: PostgresMigrateOptions = {}): Promise<MigrateResult> {
  const migrations = readMigrations(options.migrationsDir ?? DEFAULT_POSTGRES_MIGRATIONS_DIR);
  const where = `the PostgreSQL database ${redactUrl(url)}`;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000 });
  // An error on an idle client (the server restarting) must not crash the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const quick = (await historyExists(client)) ? await readHistory(client) : null;
    if (quick && !needsWork(quick, migrations)) {
      return { applied: [], all: checkHistory(where, quick, migrations, options.logger) };
    }
    await client.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
    try {
      if (!(await historyExists(client))) {
        const other = await client.query<{ name: string }>(
          `SELECT table_name AS name FROM information_schema.tables
           WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND NOT (table_name = ANY($1))
           ORDER BY table_name`,
          [OWN_TABLES],
        );
        if (other.rows.length > 0) {
          throw new MigrationError(
            `${where} has tables (${other.rows.map((r) => r.name).join(', ')}) but no _prisma_migrations ` +
              'history, so its schema is unknown. Point DATABASE_URL at a new database, or baseline it with ' +
              '`prisma migrate resolve --applied <migration>` on a machine with the Prisma schema engine.',
          );
        }
        await client.query(CREATE_MIGRATIONS_TABLE);
      }
      // Re-read under the lock: another replica may have applied everything meanwhile.
      const applied = checkHistory(where, await readHistory(client), migrations, options.logger);
      const done = new Set(applied);
      const newlyApplied: string[] = [];
      for (const migration of migrations) {
        if (done.has(migration.name)) continue;
        const id = randomUUID();
        try {
          await client.query('BEGIN');
          await client.query(
            'INSERT INTO "_prisma_migrations" ("id", "checksum", "started_at", "migration_name") VALUES ($1, $2, now(), $3)',
            [id, migration.checksum, migration.name],
          );
          await client.query(migration.script);
          await client.query(
            'UPDATE "_prisma_migrations" SET "applied_steps_count" = 1, "finished_at" = now() WHERE "id" = $1',
            [id],
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          const message = error instanceof Error ? error.message : String(error);
          throw new MigrationError(`Migration "${migration.name}" failed to apply to ${where}: ${message}`);
        }
        newlyApplied.push(migration.name);
        options.logger?.info?.({ migration: migration.name }, 'applied migration');
      }
      return { applied: newlyApplied, all: [...applied, ...newlyApplied] };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function historyExists(client: pg.Client): Promise<boolean> {
  const result = await client.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present");
  return result.rows[0]?.present === true;
}

async function readHistory(client: pg.Client): Promise<HistoryRow[]> {
  const result = await client.query<HistoryRow>(
    'SELECT id, checksum, finished_at, migration_name, logs, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at ASC',
  );
  return result.rows;
}

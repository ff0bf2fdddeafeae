/**
 * The PostgreSQL migrator (`migratePostgres`) against the machine's real server, each test on a
 * fresh database of its own: from empty, with Prisma's `_prisma_migrations` history written as
 * `prisma migrate deploy` writes it (so Prisma's own tooling accepts it); re-runs applying
 * nothing; several replicas starting at once on one empty database (each migration applied once,
 * the others waiting on the advisory lock, which is Prisma's own); and the refusals: a changed
 * migration, tables without a history, a failed migration (rolled back whole, no row claiming it)
 * and an unfinished one. The SQLite migrator is `migrate.test.ts`.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { MigrationError } from '../../src/store/migrate.js';
import { DEFAULT_POSTGRES_MIGRATIONS_DIR, migratePostgres } from '../../src/store/migrate-postgres.js';
import { createTestDatabase, queryPostgres, skipPostgres, type TestDatabase } from '../support/postgres.js';
import { recordingLogger, tempDir } from '../support/store-fixtures.js';

/** The advisory lock key of Prisma's migrate on PostgreSQL (schema engine, `advisory_lock`). */
const PRISMA_ADVISORY_LOCK_KEY = 72707369;

function migrationNames(): string[] {
  return readdirSync(DEFAULT_POSTGRES_MIGRATIONS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

interface HistoryRow {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
}

describe.skipIf(skipPostgres)('migratePostgres', () => {
  let db: TestDatabase;
  let dir: string;
  let cleanup: () => void;
  beforeEach(async () => {
    db = await createTestDatabase();
    ({ dir, cleanup } = tempDir());
  });
  afterEach(async () => {
    cleanup();
    await db.drop();
  });

  const history = () =>
    queryPostgres<HistoryRow>(db.url, 'SELECT * FROM "_prisma_migrations" ORDER BY "started_at", "migration_name"');
  const sql = (text: string, params: unknown[] = []) => queryPostgres(db.url, text, params);
  /** Sessions of this test's database waiting for the migrator's advisory lock (Prisma's key). */
  const WAITING_FOR_LOCK = `SELECT COUNT(*)::int AS n FROM pg_locks
    WHERE locktype = 'advisory' AND NOT granted AND classid = 0 AND objid = ${PRISMA_ADVISORY_LOCK_KEY}
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

  /** A copy of the committed migrations, plus the extra ones given (name -> script). */
  function migrationsWith(extra: Record<string, string> = {}): string {
    const copy = join(dir, `migrations-${Object.keys(extra).length}-${Math.random().toString(36).slice(2)}`);
    cpSync(DEFAULT_POSTGRES_MIGRATIONS_DIR, copy, { recursive: true });
    for (const [name, script] of Object.entries(extra)) {
      mkdirSync(join(copy, name));
      writeFileSync(join(copy, name, 'migration.sql'), script);
    }
    return copy;
  }

  it('finds the committed PostgreSQL migrations relative to the package', () => {
    expect(DEFAULT_POSTGRES_MIGRATIONS_DIR.replace(/\\/g, '/')).toMatch(/\/prisma\/postgresql\/migrations$/);
    expect(migrationNames().length).toBeGreaterThan(0);
    expect(readFileSync(join(DEFAULT_POSTGRES_MIGRATIONS_DIR, 'migration_lock.toml'), 'utf8')).toMatch(
      /provider = "postgresql"/,
    );
  });

  it('applies every migration to an empty database and records them as Prisma does', async () => {
    const before = Date.now();
    const result = await migratePostgres(db.url, { logger: recordingLogger() });
    expect(result).toEqual({ applied: migrationNames(), all: migrationNames() });

    const rows = await history();
    expect(rows.map((r) => r.migration_name)).toEqual(migrationNames());
    for (const row of rows) {
      const raw = readFileSync(join(DEFAULT_POSTGRES_MIGRATIONS_DIR, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(raw).digest('hex'));
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(row.logs).toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      expect(row.started_at).toBeInstanceOf(Date);
      // The server's clock is this machine's; PostgreSQL keeps microseconds, Date.now() whole ms.
      expect(row.started_at.getTime()).toBeGreaterThanOrEqual(before - 1);
      expect(row.finished_at?.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
    }

    // The history table exactly as Prisma's schema engine creates it on PostgreSQL.
    const columns = await sql(
      `SELECT column_name AS name, data_type AS type, character_maximum_length AS length,
              is_nullable AS nullable, column_default AS "default"
       FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns).toEqual([
      { name: 'id', type: 'character varying', length: 36, nullable: 'NO', default: null },
      { name: 'checksum', type: 'character varying', length: 64, nullable: 'NO', default: null },
      { name: 'finished_at', type: 'timestamp with time zone', length: null, nullable: 'YES', default: null },
      { name: 'migration_name', type: 'character varying', length: 255, nullable: 'NO', default: null },
      { name: 'logs', type: 'text', length: null, nullable: 'YES', default: null },
      { name: 'rolled_back_at', type: 'timestamp with time zone', length: null, nullable: 'YES', default: null },
      { name: 'started_at', type: 'timestamp with time zone', length: null, nullable: 'NO', default: 'now()' },
      { name: 'applied_steps_count', type: 'integer', length: null, nullable: 'NO', default: '0' },
    ]);
    const tables = await sql(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    expect(tables.map((t) => t.name)).toEqual([
      'Analysis',
      'CachedResult',
      'IdempotentSave',
      'StoreTotals',
      '_prisma_migrations',
    ]);
    expect(await sql('SELECT * FROM "StoreTotals"')).toEqual([
      { id: 1, cacheRows: '0', cacheBytes: '0', analysisRows: '0', analysisBytes: '0' }, // BIGINT comes as text
    ]);
  });

  it('is idempotent: a second run applies nothing and leaves the history as it was', async () => {
    await migratePostgres(db.url);
    const first = await history();
    expect(await migratePostgres(db.url)).toEqual({ applied: [], all: migrationNames() });
    expect(await migratePostgres(db.url)).toEqual({ applied: [], all: migrationNames() });
    expect(await history()).toEqual(first);
  });

  it('five replicas migrating one empty database at once all succeed, and each migration is applied once', async () => {
    // A slow second migration keeps the first replica inside the lock until the four others wait
    // for it (or 30 s passed), and records how many did; a third checks that the order holds
    // under the lock.
    const waitForOthers = `DO $$ BEGIN
      FOR i IN 1..3000 LOOP
        EXIT WHEN (${WAITING_FOR_LOCK}) >= 4;
        PERFORM pg_sleep(0.01);
      END LOOP;
    END $$;`;
    const migrationsDir = migrationsWith({
      '29990101000000_slow': `${waitForOthers}\nCREATE TABLE "Slow" ("id" INTEGER);\nINSERT INTO "Slow" ${WAITING_FOR_LOCK};\n`,
      '29990101000001_after': 'ALTER TABLE "Slow" ADD COLUMN "note" TEXT;\n',
    });
    const names = [...migrationNames(), '29990101000000_slow', '29990101000001_after'];
    const results = await Promise.all(Array.from({ length: 5 }, () => migratePostgres(db.url, { migrationsDir })));
    for (const result of results) expect(result.all).toEqual(names);
    // Exactly one replica applied each migration; every other one found nothing left to do.
    expect(results.flatMap((r) => r.applied).sort()).toEqual([...names].sort());
    expect(results.filter((r) => r.applied.length > 0)).toHaveLength(1);
    expect(await sql('SELECT "id" FROM "Slow"')).toEqual([{ id: 4 }]); // the four others waited on the lock
    const rows = await history();
    expect(rows.map((r) => r.migration_name).sort()).toEqual([...names].sort());
    expect(rows.every((r) => r.finished_at !== null && r.applied_steps_count === 1)).toBe(true);
  });

  it('five stores opened at once on one empty database all work, and each migration is applied once', async () => {
    const opened = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        openStore(
          { databaseUrl: db.url, maxCacheBytes: 1 << 20, maxAnalysisBytes: 1 << 20, maxAnalysesBytes: 0, poolSize: 2 },
          { logger: recordingLogger() },
        ),
      ),
    );
    const stores = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    try {
      expect(opened.map((o) => (o.status === 'rejected' ? String(o.reason) : 'opened'))).toEqual(
        Array(5).fill('opened'),
      );
      for (const [i, store] of stores.entries()) {
        expect(await store.healthy()).toBe(true);
        await store.analyses.save({ title: `replica ${i}`, queries: [], resultKeys: [] });
      }
      expect((await stores[0].analyses.list({ first: 10 })).totalCount).toBe(5);
    } finally {
      for (const store of stores) await store.close();
    }
    const rows = await history();
    expect(rows.map((r) => r.migration_name)).toEqual(migrationNames());
  });

  it("waits for Prisma's own migrate: the lock key is Prisma's", async () => {
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK_KEY]);
      let done = false;
      const running = migratePostgres(db.url).finally(() => {
        done = true;
      });
      await vi.waitFor(async () => expect(await sql(WAITING_FOR_LOCK)).toEqual([{ n: 1 }]), {
        timeout: 30_000,
        interval: 20,
      });
      expect(done).toBe(false); // waiting for the lock
      expect(await sql('SELECT to_regclass(\'"Analysis"\') IS NULL AS absent')).toEqual([{ absent: true }]);
      await holder.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK_KEY]);
      expect((await running).applied).toEqual(migrationNames());
    } finally {
      await holder.end();
    }
  });

  it('applies only the new migration when one is added later', async () => {
    await migratePostgres(db.url);
    const migrationsDir = migrationsWith({
      '29990101000000_add_note': 'ALTER TABLE "Analysis" ADD COLUMN "extra" TEXT;\n',
    });
    expect((await migratePostgres(db.url, { migrationsDir })).applied).toEqual(['29990101000000_add_note']);
    expect((await history()).map((r) => r.migration_name)).toEqual([...migrationNames(), '29990101000000_add_note']);
  });

  it('refuses to start when an applied migration was changed, and accepts the original bytes again', async () => {
    const migrationsDir = migrationsWith();
    await migratePostgres(db.url, { migrationsDir });
    const name = migrationNames()[0];
    appendFileSync(join(migrationsDir, name, 'migration.sql'), '\n-- edited\n');
    const error = await migratePostgres(db.url, { migrationsDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(new RegExp(`"${name}" was changed after it was applied`));
    cpSync(DEFAULT_POSTGRES_MIGRATIONS_DIR, migrationsDir, { recursive: true });
    expect((await migratePostgres(db.url, { migrationsDir })).applied).toEqual([]);
  });

  it('refuses a database that has tables but no migration history, and creates nothing in it', async () => {
    await sql('CREATE TABLE "Something" ("id" INTEGER)');
    const error = await migratePostgres(db.url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/has tables \(Something\) but no _prisma_migrations history/);
    expect(await sql("SELECT to_regclass('_prisma_migrations') IS NULL AS absent")).toEqual([{ absent: true }]);
  });

  it('migrates a database where the rate limiter already made its table (a replica that started first)', async () => {
    await sql(
      'CREATE TABLE "rate_limit_mutations" ("key" varchar(255) PRIMARY KEY, "points" integer, "expire" bigint)',
    );
    expect((await migratePostgres(db.url)).applied).toEqual(migrationNames());
  });

  it('rolls a failing migration back whole (no half schema, no history row), and fails again on the next run', async () => {
    await migratePostgres(db.url);
    const migrationsDir = migrationsWith({
      '29990101000000_broken': 'CREATE TABLE "Ok" ("id" INTEGER);\nCREATE TABLE "Broken" (;\n',
    });
    for (let run = 0; run < 2; run++) {
      const error = await migratePostgres(db.url, { migrationsDir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as Error).message).toMatch(/"29990101000000_broken" failed to apply .*syntax error/);
      expect(await sql('SELECT to_regclass(\'"Ok"\') IS NULL AS absent')).toEqual([{ absent: true }]);
      expect((await history()).map((r) => r.migration_name)).toEqual(migrationNames());
    }
  });

  it('refuses a history with an unfinished migration (as a crashed `prisma migrate deploy` leaves it)', async () => {
    await migratePostgres(db.url);
    await sql(
      `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "logs") VALUES ($1, $2, $3, 'crashed')`,
      ['00000000-0000-4000-8000-000000000000', 'f'.repeat(64), '29990101000000_half'],
    );
    await expect(migratePostgres(db.url)).rejects.toThrow(
      /"29990101000000_half" is recorded .* as started but not finished \(crashed\)/,
    );
  });
});

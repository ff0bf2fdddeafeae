/**
 * The project's migrator against real SQLite files: from empty, re-run, Prisma's history table
 * kept exactly, a changed migration refused, a failed migration recorded and refused, and the
 * data migrations (nullable path count; byte budgets dropping old-format cache rows).
 */

import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analysisBytes } from '../../src/store/analysis-budget.js';
import { openStore } from '../../src/store/index.js';
import { DEFAULT_MIGRATIONS_DIR, MigrationError, migrate, readMigrations } from '../../src/store/migrate.js';
import { questionOf, recordingLogger, syntheticResult, tempDir } from '../support/store-fixtures.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

function migrationNames(): string[] {
  return readdirSync(DEFAULT_MIGRATIONS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

function history(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT * FROM _prisma_migrations ORDER BY started_at').all() as {
      id: string;
      checksum: string;
      finished_at: number | null;
      migration_name: string;
      logs: string | null;
      rolled_back_at: number | null;
      started_at: number;
      applied_steps_count: number;
    }[];
  } finally {
    db.close();
  }
}

/** A migrations directory holding only the first `count` committed migrations. */
function firstMigrations(count: number): string {
  const only = join(dir, `first-${count}`);
  mkdirSync(only);
  for (const name of migrationNames().slice(0, count))
    cpSync(join(DEFAULT_MIGRATIONS_DIR, name), join(only, name), { recursive: true });
  return only;
}

function copyMigrations(): string {
  const copy = join(dir, 'migrations');
  cpSync(DEFAULT_MIGRATIONS_DIR, copy, { recursive: true });
  return copy;
}

describe('migrate', () => {
  it('finds the committed migrations relative to the package, not the working directory', () => {
    expect(DEFAULT_MIGRATIONS_DIR.replace(/\\/g, '/')).toMatch(/\/prisma\/migrations$/);
    expect(migrationNames().length).toBeGreaterThan(0);
    expect(readFileSync(join(DEFAULT_MIGRATIONS_DIR, 'migration_lock.toml'), 'utf8')).toMatch(/provider = "sqlite"/);
  });

  it('applies every migration to an empty database and records them as Prisma does', () => {
    const file = join(dir, 'db.sqlite');
    const before = Date.now();
    const result = migrate(file);
    expect(result.applied).toEqual(migrationNames());

    const rows = history(file);
    expect(rows.map((r) => r.migration_name)).toEqual(migrationNames());
    for (const row of rows) {
      const raw = readFileSync(join(DEFAULT_MIGRATIONS_DIR, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(raw).digest('hex'));
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.logs).toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      expect(row.started_at).toBeGreaterThanOrEqual(before);
      expect(row.finished_at).toBeGreaterThanOrEqual(row.started_at);
    }

    const db = new Database(file, { readonly: true });
    try {
      const columns = db
        .prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(\'_prisma_migrations\')')
        .all();
      expect(columns).toEqual([
        { name: 'id', type: 'TEXT', notnull: 1, dflt_value: null, pk: 1 },
        { name: 'checksum', type: 'TEXT', notnull: 1, dflt_value: null, pk: 0 },
        { name: 'finished_at', type: 'DATETIME', notnull: 0, dflt_value: null, pk: 0 },
        { name: 'migration_name', type: 'TEXT', notnull: 1, dflt_value: null, pk: 0 },
        { name: 'logs', type: 'TEXT', notnull: 0, dflt_value: null, pk: 0 },
        { name: 'rolled_back_at', type: 'DATETIME', notnull: 0, dflt_value: null, pk: 0 },
        { name: 'started_at', type: 'DATETIME', notnull: 1, dflt_value: 'current_timestamp', pk: 0 },
        { name: 'applied_steps_count', type: 'INTEGER UNSIGNED', notnull: 1, dflt_value: '0', pk: 0 },
      ]);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
      expect(tables).toEqual(['Analysis', 'CachedResult', 'IdempotentSave', 'StoreTotals', '_prisma_migrations']);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });

  it('is idempotent: a second run applies nothing and leaves the history as it was', () => {
    const file = join(dir, 'db.sqlite');
    migrate(file);
    const first = history(file);
    expect(migrate(file).applied).toEqual([]);
    expect(migrate(file).all).toEqual(migrationNames());
    expect(history(file)).toEqual(first);
  });

  it('makes CachedResult.pathCount nullable, keeping the rows stored before', () => {
    const [, nullable] = migrationNames();
    expect(nullable).toMatch(/_cached_result_path_count_nullable$/);
    const file = join(dir, 'db.sqlite');
    migrate(file, { migrationsDir: firstMigrations(1) });
    const db = new Database(file);
    db.prepare(
      `INSERT INTO "CachedResult" ("key", "piece", "files", "ranks", "mask", "sources", "targets", "distance", "layerCount", "layers", "pathCount", "hitCount")
       VALUES ('k', 'KING', 1, 1, '0x1', '0x1', '0x1', 0, 1, X'01', '1', 7)`,
    ).run();
    db.close();

    expect(migrate(file, { migrationsDir: firstMigrations(2) }).applied).toEqual([nullable]);
    const after = new Database(file);
    try {
      const column = after
        .prepare(`SELECT "notnull" FROM pragma_table_info('CachedResult') WHERE name = 'pathCount'`)
        .pluck()
        .get();
      expect(column).toBe(0);
      expect(after.prepare('SELECT "key", "pathCount", "hitCount" FROM "CachedResult"').all()).toEqual([
        { key: 'k', pathCount: '1', hitCount: 7 },
      ]);
      const indexes = after
        .prepare(`SELECT name FROM pragma_index_list('CachedResult') WHERE origin = 'c'`)
        .pluck()
        .all();
      expect(indexes).toEqual(['CachedResult_lastHitAt_idx']);
      after.prepare(`UPDATE "CachedResult" SET "pathCount" = NULL`).run();
    } finally {
      after.close();
    }
  });

  it('byte budgets: drops the old-format cache rows, sizes the analyses, keeps running totals; new rows work', async () => {
    const names = migrationNames();
    const budgets = names.indexOf('20261123000000_byte_budgets');
    expect(budgets).toBe(2);
    const file = join(dir, 'db.sqlite');
    migrate(file, { migrationsDir: firstMigrations(budgets) });
    const analyses = [
      {
        id: 'a1',
        title: 'Échecs ♞',
        notes: 'naïve',
        fen: null,
        queries: '[{"piece":"KING","from":["a1"],"to":["h8"]}]',
        resultKeys: '["k1"]',
      },
      { id: 'a2', title: 't', notes: null, fen: '8/8/8/8/8/8/8/8 w - - 0 1', queries: '[]', resultKeys: '[]' },
    ];
    const db = new Database(file);
    for (let i = 0; i < 3; i++) {
      db.prepare(
        `INSERT INTO "CachedResult" ("key", "piece", "files", "ranks", "mask", "sources", "targets", "distance", "layerCount", "layers", "pathCount", "hitCount")
         VALUES (?, 'KING', 8, 8, '0xffffffffffffffff', '0x1', '0x80', 7, 8, zeroblob(64), NULL, 3)`,
      ).run(`old${i}`);
    }
    const insert = db.prepare(
      `INSERT INTO "Analysis" ("id", "title", "notes", "fen", "queries", "resultKeys", "editTokenHash", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, 'h', CURRENT_TIMESTAMP)`,
    );
    for (const a of analyses) insert.run(a.id, a.title, a.notes, a.fen, a.queries, a.resultKeys);
    db.close();

    expect(migrate(file).applied).toEqual(names.slice(budgets));
    const after = new Database(file);
    try {
      expect(after.prepare('SELECT COUNT(*) FROM "CachedResult"').pluck().get()).toBe(0);
      const columns = after.prepare(`SELECT name FROM pragma_table_info('CachedResult')`).pluck().all();
      expect(columns).not.toContain('layerCount');
      expect(columns.at(-1)).toBe('layers');
      const sizes = after.prepare('SELECT "id", "bytes" FROM "Analysis" ORDER BY "id"').all();
      expect(sizes).toEqual(analyses.map((a) => ({ id: a.id, bytes: analysisBytes(a) })));
      // analysis_version: existing analyses start at version 1.
      expect(after.prepare('SELECT "version" FROM "Analysis"').pluck().all()).toEqual([1, 1]);
      const totals = after.prepare('SELECT * FROM "StoreTotals"').all();
      const sum = analyses.reduce((n, a) => n + analysisBytes(a), 0);
      expect(totals).toEqual([{ id: 1, cacheRows: 0, cacheBytes: 0, analysisRows: 2, analysisBytes: sum }]);
      const indexes = after
        .prepare(`SELECT name FROM pragma_index_list('CachedResult') WHERE origin = 'c'`)
        .pluck()
        .all();
      expect(indexes).toEqual(['CachedResult_lastHitAt_key_idx']);
      // The triggers keep the totals: a delete frees its bytes.
      after.prepare(`DELETE FROM "Analysis" WHERE "id" = 'a2'`).run();
      expect(after.prepare('SELECT "analysisRows", "analysisBytes" FROM "StoreTotals"').get()).toEqual({
        analysisRows: 1,
        analysisBytes: analysisBytes(analyses[0]),
      });
    } finally {
      after.close();
    }

    // New rows work, and the store serves them.
    const store = await openStore(
      { databaseUrl: `file:${file}`, maxCacheBytes: 1 << 20, maxAnalysisBytes: 1 << 20, maxAnalysesBytes: 0 },
      { logger: recordingLogger() },
    );
    try {
      const row = syntheticResult(1, 100);
      await store.cache.putMany([row]);
      expect((await store.cache.getMany([questionOf(row)]))[0]?.layers).toEqual(row.layers);
      expect(await store.totals()).toMatchObject({ cacheRows: 1, analysisRows: 1 });
      expect((await store.analyses.get('a1'))?.title).toBe('Échecs ♞');
    } finally {
      await store.close();
    }
  });

  it('applies only the new migration when one is added later', () => {
    const migrationsDir = copyMigrations();
    const file = join(dir, 'db.sqlite');
    migrate(file, { migrationsDir });
    mkdirSync(join(migrationsDir, '29990101000000_add_note'));
    writeFileSync(
      join(migrationsDir, '29990101000000_add_note', 'migration.sql'),
      '-- AlterTable\nALTER TABLE "Analysis" ADD COLUMN "extra" TEXT;\n',
    );
    expect(migrate(file, { migrationsDir }).applied).toEqual(['29990101000000_add_note']);
    expect(history(file).map((r) => r.migration_name)).toEqual([...migrationNames(), '29990101000000_add_note']);
  });

  it('refuses to start when an applied migration was changed', () => {
    const migrationsDir = copyMigrations();
    const file = join(dir, 'db.sqlite');
    migrate(file, { migrationsDir });
    const name = migrationNames()[0];
    appendFileSync(join(migrationsDir, name, 'migration.sql'), '\n-- edited\n');
    expect(() => migrate(file, { migrationsDir })).toThrow(MigrationError);
    expect(() => migrate(file, { migrationsDir })).toThrow(new RegExp(`"${name}" was changed after it was applied`));
    // The original bytes are accepted again.
    cpSync(DEFAULT_MIGRATIONS_DIR, migrationsDir, { recursive: true });
    expect(migrate(file, { migrationsDir }).applied).toEqual([]);
  });

  it('records a failing migration in logs, stops, and refuses later runs until resolved', () => {
    const migrationsDir = copyMigrations();
    const file = join(dir, 'db.sqlite');
    migrate(file, { migrationsDir });
    mkdirSync(join(migrationsDir, '29990101000000_broken'));
    writeFileSync(
      join(migrationsDir, '29990101000000_broken', 'migration.sql'),
      'CREATE TABLE "Ok" ("id" INTEGER);\nCREATE TABLE "Broken" (;\n',
    );
    expect(() => migrate(file, { migrationsDir })).toThrow(/"29990101000000_broken" failed to apply/);
    const row = history(file).find((r) => r.migration_name === '29990101000000_broken');
    expect(row?.finished_at).toBeNull();
    expect(row?.applied_steps_count).toBe(0);
    expect(row?.logs).toMatch(/syntax error/);
    expect(() => migrate(file, { migrationsDir })).toThrow(/started but not finished/);
  });

  it('runs a script outside any transaction, so PRAGMA foreign_keys=OFF takes effect', () => {
    const migrationsDir = copyMigrations();
    const file = join(dir, 'db.sqlite');
    mkdirSync(join(migrationsDir, '29990101000000_fk'));
    // A table rebuild as Prisma writes it: with foreign keys still on, dropping the parent would
    // cascade-delete the child rows.
    writeFileSync(
      join(migrationsDir, '29990101000000_fk', 'migration.sql'),
      [
        'PRAGMA foreign_keys=ON;',
        'CREATE TABLE "Parent" ("id" INTEGER NOT NULL PRIMARY KEY);',
        'CREATE TABLE "Child" ("id" INTEGER NOT NULL PRIMARY KEY, "parentId" INTEGER NOT NULL,',
        '  CONSTRAINT "Child_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Parent" ("id") ON DELETE CASCADE);',
        'INSERT INTO "Parent" VALUES (1);',
        'INSERT INTO "Child" VALUES (1, 1);',
        'PRAGMA defer_foreign_keys=ON;',
        'PRAGMA foreign_keys=OFF;',
        'CREATE TABLE "new_Parent" ("id" INTEGER NOT NULL PRIMARY KEY, "name" TEXT);',
        'INSERT INTO "new_Parent" ("id") SELECT "id" FROM "Parent";',
        'DROP TABLE "Parent";',
        'ALTER TABLE "new_Parent" RENAME TO "Parent";',
        'PRAGMA foreign_keys=ON;',
        'PRAGMA defer_foreign_keys=OFF;',
        '',
      ].join('\n'),
    );
    migrate(file, { migrationsDir });
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) FROM "Child"').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });

  it('starts beside other open connections when nothing is pending, and explains when a pending migration cannot get the lock', () => {
    const migrationsDir = copyMigrations();
    const file = join(dir, 'db.sqlite');
    migrate(file, { migrationsDir });
    const other = new Database(file);
    try {
      other.prepare('SELECT COUNT(*) FROM "CachedResult"').get();
      expect(migrate(file, { migrationsDir, busyTimeoutMs: 50 }).applied).toEqual([]);

      mkdirSync(join(migrationsDir, '29990101000000_more'));
      writeFileSync(
        join(migrationsDir, '29990101000000_more', 'migration.sql'),
        'CREATE TABLE "More" ("id" INTEGER);\n',
      );
      expect(() => migrate(file, { migrationsDir, busyTimeoutMs: 50 })).toThrow(/need exclusive access/);
    } finally {
      other.close();
    }
    expect(migrate(file, { migrationsDir }).applied).toEqual(['29990101000000_more']);
  });

  it('refuses a database that has tables but no migration history', () => {
    const file = join(dir, 'db.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE "Something" ("id" INTEGER)');
    db.close();
    expect(() => migrate(file)).toThrow(/no _prisma_migrations history/);
  });

  it('reads checksums from the raw bytes of migration.sql', () => {
    for (const migration of readMigrations()) {
      const raw = readFileSync(join(DEFAULT_MIGRATIONS_DIR, migration.name, 'migration.sql'));
      expect(migration.checksum).toBe(createHash('sha256').update(raw).digest('hex'));
    }
  });
});

/**
 * An analysis's version at its limit, on SQLite and on PostgreSQL alike: 2^31 - 1 is the last
 * version (the API's `Int`, PostgreSQL's `INTEGER`), which an import may write. An update there is
 * refused with `VersionLimitError` (STORAGE_LIMIT_EXCEEDED) and writes nothing, and the analysis
 * is still read and listed; an update at 2^31 - 2 reaches the last version. The rows are put at
 * the limit by writing the database directly, with the store closed (on SQLite it holds the
 * file alone).
 */
import Database from 'better-sqlite3';
import { beforeEach, expect, it } from 'vitest';
import { ErrorCode } from '../../src/errors.js';
import {
  ConflictError,
  databaseFileFromUrl,
  ForbiddenError,
  type OpenedStore,
  VersionLimitError,
} from '../../src/store/index.js';
import { describeEachDatabase, queryPostgres, useTestStores } from '../support/postgres.js';

const MAX_VERSION = 2 ** 31 - 1;

describeEachDatabase('analysis versions at the limit', (database) => {
  const stores = useTestStores(database);
  let store: OpenedStore;
  beforeEach(async () => {
    store = await stores.open();
  });

  /** Runs one statement (`?` parameters) on a connection of its own, with the store closed, then reopens it. */
  async function writeDirectly(sql: string, params: unknown[]): Promise<void> {
    await stores.close(store);
    if (database.dialect === 'postgresql') {
      let i = 0;
      await queryPostgres(
        stores.url(),
        sql.replace(/\?/g, () => `$${++i}`),
        params,
      );
    } else {
      const db = new Database(databaseFileFromUrl(stores.url()));
      try {
        db.prepare(sql).run(...params);
      } finally {
        db.close();
      }
    }
    store = await stores.open();
  }

  /** The stored row as a connection of its own reads it (the store is closed first). */
  async function storedRow(id: string): Promise<Record<string, unknown>> {
    await stores.close(store);
    if (database.dialect === 'postgresql') {
      const [row] = await queryPostgres(stores.url(), 'SELECT * FROM "Analysis" WHERE id = $1', [id]);
      return row;
    }
    const db = new Database(databaseFileFromUrl(stores.url()), { readonly: true });
    try {
      return db.prepare('SELECT * FROM "Analysis" WHERE id = ?').get(id) as Record<string, unknown>;
    } finally {
      db.close();
    }
  }

  /** Saves an analysis and sets its version directly. */
  async function savedAt(version: number) {
    const saved = await store.analyses.save({ title: 'Old one', notes: 'kept', queries: [], resultKeys: [] });
    await writeDirectly('UPDATE "Analysis" SET "version" = ? WHERE "id" = ?', [version, saved.analysis.id]);
    const analysis = await store.analyses.get(saved.analysis.id);
    expect(analysis?.version).toBe(version);
    return { analysis: analysis!, editToken: saved.editToken };
  }

  it('refuses an update at the last version, naming it, and writes nothing; the analysis is still read and listed', async () => {
    const { analysis, editToken } = await savedAt(MAX_VERSION);
    const other = await store.analyses.save({ title: 'Other', queries: [], resultKeys: [] });

    const error = await store.analyses.update(analysis.id, editToken, { title: 'New title' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionLimitError);
    const refused = error as VersionLimitError;
    expect(refused.code).toBe(ErrorCode.StorageLimitExceeded);
    expect(refused.code).toBe('STORAGE_LIMIT_EXCEEDED');
    expect(refused.extensions()).toEqual({ currentVersion: MAX_VERSION, max: MAX_VERSION });
    expect(refused.message).toMatch(/version 2147483647, the last version an analysis can have/);
    expect(refused.message).toMatch(/nothing was written/);
    expect(refused.message).toMatch(/as a new analysis/);

    // The same with the version it read, and with every kind of field.
    await expect(
      store.analyses.update(analysis.id, editToken, { notes: null, fen: null, pgn: null }, MAX_VERSION),
    ).rejects.toBeInstanceOf(VersionLimitError);
    // A stale expectedVersion is still a conflict, and a stranger still only learns that.
    await expect(store.analyses.update(analysis.id, editToken, { title: 'x' }, 1)).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(store.analyses.update(analysis.id, other.editToken, { title: 'x' })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    // An update that changes nothing needs no new version: it answers the analysis as it is.
    expect(await store.analyses.update(analysis.id, editToken, {})).toEqual(analysis);

    expect(await store.analyses.get(analysis.id)).toEqual(analysis);
    const page = await store.analyses.list({ first: 10 });
    expect(page.totalCount).toBe(2);
    expect(page.edges.map((e) => e.node).find((n) => n.id === analysis.id)).toEqual(analysis);
    // A copy saved as a new analysis starts again at version 1 and updates as usual.
    const copy = await store.analyses.save({ title: 'New title', notes: 'kept', queries: [], resultKeys: [] });
    expect((await store.analyses.update(copy.analysis.id, copy.editToken, { notes: 'on' })).version).toBe(2);

    const row = await storedRow(analysis.id);
    expect(Number(row.version)).toBe(MAX_VERSION);
    expect(row.title).toBe('Old one');
    expect(row.notes).toBe('kept');
    expect(new Date(row.updatedAt as string | number | Date).getTime()).toBe(analysis.updatedAt.getTime());
  });

  it('updates at the version before the last one to the last one, and no further', async () => {
    const { analysis, editToken } = await savedAt(MAX_VERSION - 1);
    const updated = await store.analyses.update(analysis.id, editToken, { title: 'Last' }, MAX_VERSION - 1);
    expect(updated).toMatchObject({ title: 'Last', version: MAX_VERSION });
    expect(await store.analyses.get(analysis.id)).toEqual(updated);
    expect((await store.analyses.list({ first: 1 })).edges[0].node).toEqual(updated);
    await expect(store.analyses.update(analysis.id, editToken, { title: 'Past it' })).rejects.toBeInstanceOf(
      VersionLimitError,
    );
    const row = await storedRow(analysis.id);
    expect(Number(row.version)).toBe(MAX_VERSION);
    expect(row.title).toBe('Last');
  });
});

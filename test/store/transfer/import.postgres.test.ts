/**
 * Import into PostgreSQL and the running totals: an import switches off the totals' insert
 * triggers for its transaction and adds its rows to `StoreTotals` once (per-row updates of that
 * one row in one transaction take quadratic time), so after an import, a refused import, and an
 * import by a user who does not own the tables (the triggers then count each row), the triggers
 * are on and the totals equal the tables' real counts and sums.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, queryPostgres, skipPostgres, type TestDatabase } from '../../support/postgres.js';
import { cacheFixtures, exportText, importText, LIMITS, openTestStore, saveFixtures } from './fixtures.js';

/** The triggers of the two tables, and whether each is on. */
async function triggers(url: string): Promise<Record<string, string>> {
  const rows = await queryPostgres<{ name: string; enabled: string }>(
    url,
    `SELECT tgname AS name, tgenabled AS enabled FROM pg_trigger
      WHERE tgrelid IN ('"Analysis"'::regclass, '"CachedResult"'::regclass) AND NOT tgisinternal ORDER BY tgname`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.enabled]));
}

/** `StoreTotals` against the tables' real counts and sums. */
async function totalsAndTruth(url: string) {
  const [totals] = await queryPostgres(
    url,
    'SELECT "analysisRows"::int AS ar, "analysisBytes"::int AS ab, "cacheRows"::int AS cr, "cacheBytes"::int AS cb FROM "StoreTotals"',
  );
  const [truth] = await queryPostgres(
    url,
    `SELECT (SELECT count(*) FROM "Analysis")::int AS ar, (SELECT coalesce(sum(bytes), 0) FROM "Analysis")::int AS ab,
            (SELECT count(*) FROM "CachedResult")::int AS cr, (SELECT coalesce(sum(bytes), 0) FROM "CachedResult")::int AS cb`,
  );
  return { totals, truth };
}

describe.skipIf(skipPostgres)('import into PostgreSQL: running totals', () => {
  let source: TestDatabase;
  let target: TestDatabase;
  let exported: string;
  beforeEach(async () => {
    source = await createTestDatabase();
    target = await createTestDatabase();
    const store = await openTestStore(source.url);
    await saveFixtures(store, 6);
    await store.cache.putMany(cacheFixtures(4));
    await store.close();
    exported = (await exportText(source.url, true)).text;
    // The target already holds analyses of its own.
    const other = await openTestStore(target.url);
    await saveFixtures(other, 2);
    await other.close();
  });
  afterEach(async () => {
    await source.drop();
    await target.drop();
  });

  it('keeps the totals right and the triggers on, after an import and after a refused one', async () => {
    const on = await triggers(target.url);
    expect(Object.values(on)).toEqual(Array(6).fill('O'));
    await importText(target.url, exported);
    let { totals, truth } = await totalsAndTruth(target.url);
    expect(totals).toEqual(truth);
    expect(truth).toMatchObject({ ar: 8, cr: 4 });
    expect(await triggers(target.url)).toEqual(on);

    // Refused inside the transaction, after the rows were written with the trigger off.
    const fresh = await createTestDatabase();
    try {
      await expect(importText(fresh.url, exported, { ...LIMITS, maxAnalysesBytes: 1000 })).rejects.toThrow(
        /ANALYSES_MAX_BYTES/,
      );
      ({ totals, truth } = await totalsAndTruth(fresh.url));
      expect(totals).toEqual(truth);
      expect(truth).toMatchObject({ ar: 0, cr: 0 });
      expect(await triggers(fresh.url)).toEqual(on);
    } finally {
      await fresh.drop();
    }
    // And the service's own writes are counted by the triggers again.
    const store = await openTestStore(target.url);
    await saveFixtures(store, 1);
    await store.close();
    ({ totals, truth } = await totalsAndTruth(target.url));
    expect(totals).toEqual(truth);
  });

  it('counts each row through the triggers when the user does not own the tables', async () => {
    const role = `chess_paths_importer_${randomBytes(4).toString('hex')}`;
    await queryPostgres(target.url, `CREATE ROLE ${role} LOGIN`);
    try {
      await queryPostgres(target.url, `GRANT USAGE ON SCHEMA public TO ${role}`);
      await queryPostgres(target.url, `GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO ${role}`);
      const url = new URL(target.url);
      url.username = role;
      const summary = await importText(url.toString(), exported);
      expect(summary.analyses.added).toBe(6);
      const { totals, truth } = await totalsAndTruth(target.url);
      expect(totals).toEqual(truth);
      expect(Object.values(await triggers(target.url))).toEqual(Array(6).fill('O'));
    } finally {
      await target.drop();
      await queryPostgres(source.url, `DROP ROLE IF EXISTS ${role}`);
    }
  });
});

/**
 * `chess-paths import` takes only what the API can serve and the database can store, on SQLite
 * and on PostgreSQL: the built command in a child process, as the other transfer tests run it.
 * A version past GraphQL's 32-bit `Int`, a time before 1970, a hit count past `INTEGER`, an id
 * that is not Unicode are refused with one line naming the line and the field, exit 1, nothing
 * written; the largest values taken are then listed and answered by a real server on the
 * imported database, a page continuing past an analysis created at 1970-01-01T00:00:00.000Z.
 * A statement the database refuses all the same (here a trigger or a constraint added by hand)
 * is one line naming the batch's lines, not Prisma's message.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { AnalysisLine, CachedResultLine } from '../src/store/transfer/format.js';
import { requireBuiltCli, runCli } from './support/cli-process.js';
import { analysisLine, cachedResultLine, exportFile } from './support/export-lines.js';
import { describeEachDatabase, queryPostgres, type TestDatabase } from './support/postgres.js';
import { tempDir } from './support/store-fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

beforeAll(requireBuiltCli);

const MAX_INT = 2 ** 31 - 1;
const KNIGHT = { piece: 'KNIGHT', from: ['g8'], to: ['e5'] } as const;

describeEachDatabase('chess-paths import: what the API can serve', (database) => {
  let target: TestDatabase;
  let files: { dir: string; cleanup: () => void };
  const servers: TestServer[] = [];
  beforeEach(async () => {
    target = await database.create();
    files = tempDir('chess-paths-cli-ranges-');
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    await target.drop();
    files.cleanup();
  });

  /** Runs `chess-paths import` of these lines into the test's database. */
  async function importLines(lines: (AnalysisLine | CachedResultLine)[]) {
    const file = join(files.dir, 'import.jsonl');
    writeFileSync(file, exportFile(lines));
    return runCli(['import', '--database', target.url, file]);
  }

  /** The ids of the analyses in the test's database, through `chess-paths export`. */
  async function storedIds(): Promise<string[]> {
    const run = await runCli(['export', '--database', target.url]);
    expect(run.status, run.stderr).toBe(0);
    return run.stdout
      .split('\n')
      .filter((text) => text.includes('"type":"analysis"'))
      .map((text) => (JSON.parse(text) as AnalysisLine).id);
  }

  /** Expects the import of `lines` refused with exactly `message`, and the database as it was. */
  async function expectRefused(lines: (AnalysisLine | CachedResultLine)[], message: string): Promise<void> {
    const run = await importLines(lines);
    expect(run.stderr).toBe(`chess-paths import: ${message}\n`);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(await storedIds()).toEqual(['kept']);
  }

  it('refuses a version past GraphQL’s Int (or below 1), naming the line and the field, writing nothing', async () => {
    expect((await importLines([analysisLine({ id: 'kept' })])).status).toBe(0);
    const over = [analysisLine({ id: 'fine' }), analysisLine({ id: 'over', version: MAX_INT + 1 })];
    await expectRefused(
      over,
      'line 3: the analysis field "version": 2147483648 is not an integer from 1 to 2147483647',
    );
    await expectRefused(
      [analysisLine({ id: 'zero', version: 0 })],
      'line 2: the analysis field "version": 0 is not an integer from 1 to 2147483647',
    );
  });

  it('refuses times, counts and text the API or the database cannot hold, naming the line and the field', async () => {
    expect((await importLines([analysisLine({ id: 'kept' })])).status).toBe(0);
    await expectRefused(
      [analysisLine({ id: 'old', createdAt: '1969-12-31T23:59:59.999Z' })],
      'line 2: the analysis field "createdAt": "1969-12-31T23:59:59.999Z" is not a time from 1970-01-01T00:00:00.000Z on',
    );
    await expectRefused(
      [analysisLine({ id: 'fine' }), cachedResultLine(KNIGHT, { lastHitAt: '0000-01-01T00:00:00.000Z' })],
      'line 3: the cached result field "lastHitAt": "0000-01-01T00:00:00.000Z" is not a time from 1970-01-01T00:00:00.000Z on',
    );
    await expectRefused(
      [cachedResultLine(KNIGHT, { hitCount: MAX_INT + 1 })],
      'line 2: the cached result field "hitCount": 2147483648 is not an integer from 0 to 2147483647',
    );
    await expectRefused(
      [cachedResultLine(KNIGHT, { distance: MAX_INT + 1 })],
      'line 2: the cached result field "distance": 2147483648 is not an integer from 0 to 2147483647',
    );
    await expectRefused(
      [analysisLine({ id: 'half\ud800' })],
      'line 2: the analysis field "id" holds an unpaired UTF-16 surrogate (U+D800 at 4): not valid Unicode text, which the database cannot store as it is',
    );
  });

  it('takes the largest values, which a server on the database then lists and answers', async () => {
    const run = await importLines([
      analysisLine({ id: 'max', version: MAX_INT, createdAt: '1970-01-01T00:00:00.000Z' }),
      analysisLine({ id: 'newer', updatedAt: '9999-12-31T23:59:59.999Z' }),
      cachedResultLine(KNIGHT, { hitCount: MAX_INT, lastHitAt: '9999-12-31T23:59:59.999Z' }),
    ]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(
      /: 2 analyses added, 0 already there and equal; 1 cached result added, 0 already there\n$/,
    );
    const served = await startTestServer({ env: { DATABASE_URL: target.url } });
    servers.push(served);
    const page = `query($after: String) { analyses(first: 1, after: $after) {
      totalCount pageInfo { hasNextPage endCursor } edges { node { id version createdAt updatedAt results { distance } } } } }`;
    const first = await served.gql(page);
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.analyses).toMatchObject({
      totalCount: 2,
      pageInfo: { hasNextPage: true },
      edges: [{ node: { id: 'newer', version: 1, updatedAt: '9999-12-31T23:59:59.999Z', results: [{ distance: 6 }] } }],
    });
    const second = await served.gql(page, { after: first.body.data.analyses.pageInfo.endCursor });
    expect(second.body.errors).toBeUndefined();
    expect(second.body.data.analyses.edges).toEqual([
      {
        node: {
          id: 'max',
          version: MAX_INT,
          createdAt: '1970-01-01T00:00:00.000Z',
          updatedAt: '2026-11-28T06:00:00.000Z',
          results: [{ distance: 6 }],
        },
      },
    ]);
    // The page after the analysis created at the epoch: its cursor still reads.
    const third = await served.gql(page, { after: second.body.data.analyses.pageInfo.endCursor });
    expect(third.body.errors).toBeUndefined();
    expect(third.body.data.analyses).toMatchObject({ pageInfo: { hasNextPage: false }, edges: [] });
    const one = await served.gql('{ analysis(id: "max") { version } }');
    expect(one.body).toEqual({ data: { analysis: { version: MAX_INT } } });
  });

  it('turns a refusal by the database itself into one line naming the lines, writing nothing', async () => {
    expect((await importLines([analysisLine({ id: 'kept' })])).status).toBe(0);
    // What no check of the file can foresee: a rule the operator added to the database.
    if (database.dialect === 'sqlite') {
      const sqlite = new Database(target.url.slice('file:'.length));
      sqlite.exec(
        `CREATE TRIGGER "no_forbidden" BEFORE INSERT ON "Analysis" WHEN NEW."title" = 'forbidden'
           BEGIN SELECT RAISE(ABORT, 'no title "forbidden" here'); END`,
      );
      sqlite.close();
    } else {
      await queryPostgres(
        target.url,
        `ALTER TABLE "Analysis" ADD CONSTRAINT "no_forbidden" CHECK ("title" <> 'forbidden')`,
      );
    }
    const said =
      database.dialect === 'sqlite'
        ? 'no title "forbidden" here (SQLITE_CONSTRAINT_TRIGGER)'
        : 'new row for relation "Analysis" violates check constraint "no_forbidden" (23514)';
    const lines = [analysisLine({ id: 'a' }), analysisLine({ id: 'b', title: 'forbidden' })];
    await expectRefused(lines, `lines 2 to 3: the database refused these analyses: ${said}; nothing was imported`);
    await expectRefused(
      [analysisLine({ id: 'b', title: 'forbidden' })],
      `line 2: the database refused this analysis: ${said}; nothing was imported`,
    );
    if (database.dialect !== 'postgresql') return;
    // A refusal outside the batches: a trigger deferred to the end of the transaction.
    await queryPostgres(
      target.url,
      `CREATE FUNCTION "refuse"() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused
at the end'; END $$ LANGUAGE plpgsql`,
    );
    await queryPostgres(
      target.url,
      `CREATE CONSTRAINT TRIGGER "at_the_end" AFTER INSERT ON "Analysis" DEFERRABLE INITIALLY DEFERRED
         FOR EACH ROW EXECUTE FUNCTION "refuse"()`,
    );
    const late = await importLines([analysisLine({ id: 'a' })]);
    expect(late.status).toBe(1);
    expect(late.stderr).toMatch(
      /^chess-paths import: the database refused the import: [^\n]+; nothing was imported\n$/,
    );
    expect(await storedIds()).toEqual(['kept']);
  });
});

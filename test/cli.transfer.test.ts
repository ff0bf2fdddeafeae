/**
 * `chess-paths export` and `chess-paths import` as the installed package runs them: the built
 * `dist/cli.js` in a child process (`npm run build` first), with their exit codes. Analyses are
 * saved through a real server on SQLite, moved to PostgreSQL with the commands, and read, updated
 * and refused through a real server on the imported database: the edit tokens given on SQLite
 * work there, a wrong one is FORBIDDEN, and the results are the same. Also: `--help`, usage
 * errors (2), a damaged file (1, the line named, nothing written, not even a new SQLite file),
 * standard input and output, DATABASE_URL as the default, a SQLite file held by a running server
 * (1, saying to stop it), and an import into PostgreSQL while a server serves it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli as cli, expectNoStack, requireBuiltCli } from './support/cli-process.js';
import { createTestDatabase, skipPostgres, type TestDatabase } from './support/postgres.js';
import { tempDir } from './support/store-fixtures.js';
import { SEED_QUERY, startTestServer, type TestServer } from './support/test-server.js';

beforeAll(requireBuiltCli);

const ANALYSIS = `id title notes version createdAt updatedAt results { distance pathCount }`;

describe('chess-paths export and import: help and usage', () => {
  it('--help for both, and the commands in the main help', async () => {
    const exportHelp = await cli(['export', '--help']);
    expect(exportHelp.status).toBe(0);
    expect(exportHelp.stdout).toMatch(/^Usage: chess-paths export \[--database URL\] \[--out FILE\] \[--cache\]/);
    const importHelp = await cli(['import', '-h']);
    expect(importHelp.status).toBe(0);
    expect(importHelp.stdout).toMatch(/^Usage: chess-paths import \[--database URL\] \[FILE \| -\]/);
    const main = await cli(['--help']);
    expect(main.stdout).toMatch(/\n {2}export {3}/);
    expect(main.stdout).toMatch(/\n {2}import {3}/);
  });

  it('a command line not understood exits 2', async () => {
    const unknown = await cli(['export', '--bogus']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^chess-paths export: Unknown option '--bogus'/);
    const two = await cli(['import', 'a', 'b']);
    expect(two.status).toBe(2);
    expect(two.stderr).toMatch(/one FILE at a time/);
  });

  it('a bad --database is named as --database, not as DATABASE_URL', async () => {
    const run = await cli(['export', '--database', 'bogus://x']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^chess-paths export: --database "bogus:\/\/x" /);
    expect(run.stderr).not.toContain('DATABASE_URL=');
  });
});

describe.skipIf(skipPostgres)('chess-paths export and import: moving house', () => {
  const dirs: (() => void)[] = [];
  const databases: TestDatabase[] = [];
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    for (const db of databases.splice(0)) await db.drop();
    for (const cleanup of dirs.splice(0)) cleanup();
  });
  const dir = () => {
    const made = tempDir('chess-paths-cli-transfer-');
    dirs.push(made.cleanup);
    return made.dir;
  };
  const postgres = async () => {
    const db = await createTestDatabase();
    databases.push(db);
    return db;
  };
  const server = async (databaseUrl: string) => {
    // No mutation rate limit: a test below saves in a loop.
    const started = await startTestServer({ env: { DATABASE_URL: databaseUrl, RATE_LIMIT_MUTATIONS: '0' } });
    servers.push(started);
    return started;
  };
  const stop = async (t: TestServer) => {
    servers.splice(servers.indexOf(t), 1);
    await t.close();
  };

  /** Saves `n` analyses through `t`; returns their ids and tokens. */
  async function save(t: TestServer, n: number): Promise<{ id: string; token: string }[]> {
    const out: { id: string; token: string }[] = [];
    for (let i = 0; i < n; i++) {
      const saved = await t.gql(
        `mutation($title: String!) { saveAnalysis(input: { title: $title, notes: "n${i}", queries: [${SEED_QUERY}] }) { analysis { id } editToken } }`,
        { title: `moving ${i} ♞` },
      );
      expect(saved.body.errors).toBeUndefined();
      out.push({ id: saved.body.data.saveAnalysis.analysis.id, token: saved.body.data.saveAnalysis.editToken });
    }
    // One updated, so a version above 1 moves too.
    const updated = await t.gql(
      `mutation($id: ID!, $token: String!) { updateAnalysis(id: $id, editToken: $token, input: { notes: "edited" }) { version } }`,
      {
        id: out[0].id,
        token: out[0].token,
      },
    );
    expect(updated.body.data.updateAnalysis.version).toBe(2);
    return out;
  }

  /** Every analysis a server answers, by id. */
  async function analysesOf(t: TestServer, ids: string[]): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const id of ids) out.push((await t.gql(`{ analysis(id: "${id}") { ${ANALYSIS} } }`)).body.data.analysis);
    return out;
  }

  it('moves analyses from SQLite to PostgreSQL and back, tokens working and results equal', async () => {
    const home = dir();
    const sqliteUrl = `file:${join(home, 'old.db')}`;
    const old = await server(sqliteUrl);
    const saved = await save(old, 4);
    const ids = saved.map((s) => s.id);
    const before = await analysesOf(old, ids);
    await stop(old);

    const file = join(home, 'analyses.jsonl');
    const exported = await cli(['export', '--database', sqliteUrl, '--out', file, '--cache']);
    // The server wrote the one result its analyses share to its cache (in the background, so
    // perhaps not before it stopped).
    expect(exported.stderr).toMatch(/^exported 4 analyses and [01] cached results? from /);
    expect(exported.stderr).toContain(`from ${sqliteUrl} to ${file}\n`);
    expect(exported.status).toBe(0);
    expect(readdirSync(home).filter((name) => name.includes('.partial-'))).toEqual([]);
    expect(readFileSync(file, 'utf8')).not.toContain(saved[0].token);

    const db = await postgres();
    const first = await cli(['import', '--database', db.url, file]);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(
      /: 4 analyses added, 0 already there and equal(; 1 cached result added, 0 already there)?\n$/,
    );
    const second = await cli(['import', file], { env: { DATABASE_URL: db.url } });
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(
      /: 0 analyses added, 4 already there and equal(; 0 cached results added, 1 already there)?\n$/,
    );

    const moved = await server(db.url);
    expect(await analysesOf(moved, ids)).toEqual(before);
    const update = `mutation($id: ID!, $token: String!) { updateAnalysis(id: $id, editToken: $token, input: { title: "after the move" }) { title version } }`;
    const wrong = await moved.gql(update, { id: saved[1].id, token: saved[2].token });
    expect(wrong.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const right = await moved.gql(update, { id: saved[1].id, token: saved[1].token });
    expect(right.body.data.updateAnalysis).toEqual({ title: 'after the move', version: 2 });
    const after = await analysesOf(moved, ids);
    await stop(moved);

    // Back again, through standard output and standard input.
    const out = await cli(['export', '--database', db.url]);
    expect(out.status).toBe(0);
    const back = `file:${join(home, 'back.db')}`;
    const imported = await cli(['import', '--database', back, '-'], { input: out.stdout });
    expect(imported.status).toBe(0);
    const returned = await server(back);
    expect(await analysesOf(returned, ids)).toEqual(after);
  });

  it('refuses a damaged file with exit 1 and its line, writing nothing (not even a new database)', async () => {
    const home = dir();
    const sqliteUrl = `file:${join(home, 'old.db')}`;
    const old = await server(sqliteUrl);
    await save(old, 3);
    await stop(old);
    const exported = await cli(['export', '--database', sqliteUrl]);
    const lines = exported.stdout.split('\n');

    const cut = `${lines.slice(0, 3).join('\n')}\n${lines[3].slice(0, 30)}`;
    const target = `file:${join(home, 'new.db')}`;
    const refused = await cli(['import', '--database', target], { input: cut });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      'chess-paths import: line 4: the file ends in the middle of this line (no newline after it): it was cut short\n',
    );
    expect(existsSync(join(home, 'new.db'))).toBe(false);

    const typed = [...lines];
    typed[2] = typed[2].replace(/"version":\d+/, '"version":"1"');
    const db = await postgres();
    const file = join(home, 'typed.jsonl');
    writeFileSync(file, typed.join('\n'));
    const wrongType = await cli(['import', '--database', db.url, file]);
    expect(wrongType.status).toBe(1);
    expect(wrongType.stderr).toMatch(
      /^chess-paths import: line 3: the analysis field "version": "1" is not an integer/,
    );
    expectNoStack(wrongType.stderr);
    // Nothing written: the whole (undamaged) file then imports every analysis.
    writeFileSync(file, exported.stdout);
    const whole = await cli(['import', '--database', db.url, file]);
    expect(whole.stdout).toMatch(/: 3 analyses added, 0 already there/);
  });

  it('refuses a SQLite file a running server holds (exit 1, saying to stop it), and leaves it alone', async () => {
    const home = dir();
    const url = `file:${join(home, 'served.db')}`;
    const running = await server(url);
    const saved = await save(running, 1);
    const emptyExport = `${JSON.stringify({ type: 'header', format: 'chess-paths-export', version: 1, exportedAt: new Date().toISOString(), cache: false })}\n${JSON.stringify({ type: 'end', analyses: 0, cachedResults: 0 })}\n`;
    const run = await cli(['import', '--database', url], {
      input: emptyExport,
      env: { DATABASE_BUSY_TIMEOUT_MS: '200' },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /in use by another process \(database is locked.*\)\. A running chess-paths service holds its SQLite file alone: stop it/,
    );
    const exported = await cli(['export', '--database', url], { env: { DATABASE_BUSY_TIMEOUT_MS: '200' } });
    expect(exported.status).toBe(1);
    expect(exported.stdout).toBe('');
    // The server goes on as before.
    expect((await analysesOf(running, [saved[0].id]))[0]).toMatchObject({ id: saved[0].id, version: 2 });
  });

  it('imports into PostgreSQL while a server serves it, which then answers the analyses', async () => {
    const home = dir();
    const sqliteUrl = `file:${join(home, 'old.db')}`;
    const old = await server(sqliteUrl);
    const saved = await save(old, 5);
    const before = await analysesOf(
      old,
      saved.map((s) => s.id),
    );
    await stop(old);
    const file = join(home, 'analyses.jsonl');
    expect((await cli(['export', '--database', sqliteUrl, '--out', file])).status).toBe(0);

    const db = await postgres();
    const live = await server(db.url);
    const own = await save(live, 2);
    // The server keeps answering and saving while the import runs.
    let importing = true;
    const meanwhile = (async () => {
      let answered = 0;
      while (importing) {
        const res = await live.gql(
          `mutation { saveAnalysis(input: { title: "meanwhile", queries: [] }) { analysis { id } } }`,
        );
        expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
        answered++;
      }
      return answered;
    })();
    const run = await cli(['import', '--database', db.url, file]);
    importing = false;
    expect(await meanwhile).toBeGreaterThan(0);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/: 5 analyses added, 0 already there/);
    expect(
      await analysesOf(
        live,
        saved.map((s) => s.id),
      ),
    ).toEqual(before);
    expect((await analysesOf(live, [own[1].id]))[0]).toMatchObject({ id: own[1].id });
  });
});

/**
 * The server on PostgreSQL, end to end over HTTP: analyses are saved and read, `/health` is ok;
 * when PostgreSQL goes away (a TCP proxy between the server and the machine's PostgreSQL is cut)
 * analyses answer SERVICE_UNAVAILABLE, path questions are still answered and `/health` says 503
 * `degraded`; once PostgreSQL is back, the same server recovers without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, skipPostgres, type TestDatabase } from './support/postgres.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { SEED_QUERY, startTestServer, type TestServer } from './support/test-server.js';

const SAVE = `mutation { saveAnalysis(input: { title: "pg", queries: [${SEED_QUERY}] }) { analysis { id } editToken } }`;
const PATHS = `{ shortestPaths(query: ${SEED_QUERY}) { distance } }`;

/** Polls `check` until it holds or `ms` pass (the server's retry interval is short here). */
async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(skipPostgres)('the server on PostgreSQL', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let t: TestServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    proxy = new TcpProxy();
    await proxy.open();
    t = await startTestServer({
      database: true,
      env: { DATABASE_URL: proxy.url(db.url), DATABASE_RETRY_MS: '200', DATABASE_BUSY_TIMEOUT_MS: '1000' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.cut();
    await db?.drop();
  });

  const health = async () => {
    const res = await fetch(`${t.url}/health`);
    return { status: res.status, body: (await res.json()) as { status: string; database: string } };
  };

  it('saves and reads analyses, and is healthy', async () => {
    const saved = await t.gql(SAVE);
    expect(saved.body.errors).toBeUndefined();
    const { id } = saved.body.data.saveAnalysis.analysis;
    const read = await t.gql(`{ analysis(id: "${id}") { title version results { distance } } }`);
    expect(read.body.data.analysis).toEqual({ title: 'pg', version: 1, results: [{ distance: 4 }] });
    expect((await health()).status).toBe(200);
  });

  it('answers paths but not analyses while PostgreSQL is away, says so on /health, and recovers alone', async () => {
    await proxy.cut();
    const save = await t.gql(SAVE);
    expect(save.body.errors?.[0].extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect((await t.gql(PATHS)).body).toEqual({ data: { shortestPaths: { distance: 4 } } });
    await eventually(async () => (await health()).status === 503);
    expect((await health()).body.status).toBe('degraded');

    await proxy.open();
    await eventually(async () => (await health()).status === 200);
    const again = await t.gql(SAVE);
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.saveAnalysis.analysis.id).toEqual(expect.any(String));
  });
});

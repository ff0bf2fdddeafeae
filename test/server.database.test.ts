/**
 * The service with its database unavailable, over real HTTP against real SQLite files: read-only,
 * full (another connection cannot lock it: the server holds it exclusively). Path questions keep
 * being answered by the engine, saves
 * fail with SERVICE_UNAVAILABLE and a message saying why (no stack, no driver text), `/health`
 * says degraded with the reason, nothing blocks, and all of it recovers once the database is back.
 * Also a database that fails to open at start-up and is opened on a later attempt.
 */

import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { PrismaClient } from '../src/store/generated/prisma/client.js';
import { databaseFileFromUrl, openStore } from '../src/store/index.js';
import type { StoreOptions } from '../src/store/types.js';
import { type GqlResponse, startTestServer, type TestServer } from './support/test-server.js';

const quiet = { warn: () => {}, error: () => {}, info: () => {} };
const SAVE = `mutation($notes: String) { saveAnalysis(input: { title: "t", notes: $notes, queries: [{ piece: KNIGHT, from: ["b1"], to: ["c3"] }] }) { analysis { id } editToken } }`;
const PATHS = (to: string) =>
  `{ shortestPaths(query: { piece: QUEEN, from: ["a1"], to: ["${to}"] }) { distance cached } }`;

/** Starts a server on the real store, handing out the database file and the Prisma client. */
async function startWithDatabase(env: Record<string, string> = {}) {
  let file = '';
  let prisma!: PrismaClient;
  const t = await startTestServer({
    env: { DATABASE_BUSY_TIMEOUT_MS: '50', DATABASE_RETRY_MS: '200', ...env },
    deps: {
      openStore: (options: StoreOptions) => {
        file = databaseFileFromUrl(options.databaseUrl);
        return openStore(options, { logger: quiet, onConnected: (client) => void (prisma = client) });
      },
    },
  });
  return { t, file, prisma };
}

async function health(url: string) {
  const res = await fetch(`${url}/health`);
  return { status: res.status, body: await res.json() };
}

/** Polls /health until it is 200 (the trial write runs at most every DATABASE_RETRY_MS). */
async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await health(url)).status === 200) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('never healthy again');
}

function expectUnavailable(res: GqlResponse, reason: RegExp): void {
  expect(res.status).toBe(200);
  expect(res.body.errors).toHaveLength(1);
  const [error] = res.body.errors!;
  expect(error.extensions?.code).toBe('SERVICE_UNAVAILABLE');
  expect(error.extensions?.reason).toMatch(reason);
  expect(error.message).toMatch(
    /^The database is unavailable \(.+\); try again later\. Path questions are still answered\.$/,
  );
  expect(error.message).toContain(`(${error.extensions?.reason})`);
  // No stack trace and nothing of the driver's or Prisma's own text.
  expect(JSON.stringify(res.body)).not.toMatch(/stacktrace|prisma|invocation|\.ts:|SQLITE_/i);
}

/** Path questions are answered meanwhile, and quickly: nothing waits on the database. */
async function expectPathsAnswered(t: TestServer, to: string): Promise<void> {
  const started = performance.now();
  const res = await t.gql(PATHS(to));
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data.shortestPaths.distance).toBeGreaterThan(0);
  await t.server.settle(); // its cache write is refused at once, not after a lock wait
  expect(performance.now() - started).toBeLessThan(1000);
}

describe('database unavailable', () => {
  it('holds its database exclusively: another connection can take no lock while it runs, saves go on, no -shm file', async () => {
    const { t, file } = await startWithDatabase();
    try {
      expect((await t.gql(SAVE)).body.errors).toBeUndefined();
      const other = new Database(file, { timeout: 0 });
      try {
        expect(() => other.prepare('BEGIN IMMEDIATE').run()).toThrow(/locked/);
      } finally {
        other.close();
      }
      const saved = await t.gql(SAVE);
      expect(saved.body.errors).toBeUndefined();
      expect(saved.body.data.saveAnalysis.editToken).toMatch(/^[\w-]{40,}$/);
      expect(await health(t.url)).toEqual({ status: 200, body: { status: 'ok', database: 'ok' } });
      // The WAL index lives in the server's memory: no shared-memory file to lose (SIGBUS).
      expect(existsSync(`${file}-shm`)).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('read-only: saves, updates and deletes fail, reads and paths work, then it recovers', async () => {
    const { t, prisma } = await startWithDatabase();
    try {
      const first = (await t.gql(SAVE)).body.data.saveAnalysis;
      await prisma.$executeRawUnsafe('PRAGMA query_only = ON');

      expectUnavailable(await t.gql(SAVE), /^attempt to write a readonly database$/);
      expect(await health(t.url)).toMatchObject({
        status: 503,
        body: { status: 'degraded', reason: 'attempt to write a readonly database' },
      });
      await expectPathsAnswered(t, 'g7');
      const read = await t.gql(`{ analysis(id: "${first.analysis.id}") { id results { distance } } }`);
      expect(read.body).toEqual({ data: { analysis: { id: first.analysis.id, results: [{ distance: 1 }] } } });
      await new Promise((r) => setTimeout(r, 250)); // the next write is a trial, and fails
      const update = await t.gql(
        `mutation { updateAnalysis(id: "${first.analysis.id}", editToken: "${first.editToken}", input: { title: "u" }) { id } }`,
      );
      expectUnavailable(update, /readonly/);
      const del = await t.gql(
        `mutation { deleteAnalysis(id: "${first.analysis.id}", editToken: "${first.editToken}") }`,
      );
      expectUnavailable(del, /readonly/);

      await prisma.$executeRawUnsafe('PRAGMA query_only = OFF');
      await waitHealthy(t.url);
      const updated = await t.gql(
        `mutation { updateAnalysis(id: "${first.analysis.id}", editToken: "${first.editToken}", input: { title: "u" }) { title } }`,
      );
      expect(updated.body).toEqual({ data: { updateAnalysis: { title: 'u' } } });
    } finally {
      await t.close();
    }
  });

  it('full: a save that needs room fails, /health degraded, then room comes back', async () => {
    const { t, prisma } = await startWithDatabase();
    const notes = 'n'.repeat(10_000);
    try {
      // Use up the pages freed by the migrations, then let the file grow no more.
      for (let i = 0; i < 3; i++) expect((await t.gql(SAVE, { notes })).body.errors).toBeUndefined();
      const [{ page_count: pages }] = await prisma.$queryRawUnsafe<{ page_count: bigint }[]>('PRAGMA page_count');
      await prisma.$queryRawUnsafe(`PRAGMA max_page_count = ${Number(pages)}`);

      expectUnavailable(await t.gql(SAVE, { notes }), /^database or disk is full$/);
      await new Promise((r) => setTimeout(r, 250)); // a trial write is due: it needs room too, and fails
      expect(await health(t.url)).toEqual({
        status: 503,
        body: { status: 'degraded', database: 'unavailable', reason: 'database or disk is full' },
      });
      await expectPathsAnswered(t, 'f7');

      await prisma.$queryRawUnsafe('PRAGMA max_page_count = 1073741823');
      await waitHealthy(t.url);
      expect((await t.gql(SAVE, { notes })).body.errors).toBeUndefined();
      expect((await t.gql('{ analyses(first: 1) { totalCount } }')).body.data.analyses.totalCount).toBe(4);
    } finally {
      await t.close();
    }
  });
});

describe('a database that fails to open', () => {
  it('is opened again after DATABASE_RETRY_MS, and /health turns ok', async () => {
    let attempts = 0;
    const t = await startTestServer({
      env: { DATABASE_RETRY_MS: '50' },
      deps: {
        openStore: async (options: StoreOptions) => {
          attempts++;
          if (attempts < 3) throw Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
          return openStore(options, { logger: quiet });
        },
      },
    });
    try {
      expect(await health(t.url)).toEqual({
        status: 503,
        body: { status: 'degraded', database: 'unavailable', reason: 'failed to open (see the server log)' },
      });
      const early = await t.gql(SAVE);
      expect(early.body.errors?.[0].extensions?.code).toBe('SERVICE_UNAVAILABLE');
      await waitHealthy(t.url);
      expect(attempts).toBe(3);
      expect((await t.gql(SAVE)).body.errors).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('is not retried after a migration error', async () => {
    let attempts = 0;
    const t = await startTestServer({
      env: { DATABASE_RETRY_MS: '20' },
      deps: {
        openStore: async () => {
          attempts++;
          throw Object.assign(new Error('Migration "x" was changed after it was applied'), { name: 'MigrationError' });
        },
      },
    });
    try {
      await new Promise((r) => setTimeout(r, 150));
      expect(attempts).toBe(1);
      expect(await health(t.url)).toEqual({
        status: 503,
        body: { status: 'degraded', database: 'unavailable', reason: 'migration error (see the server log)' },
      });
    } finally {
      await t.close();
    }
  });
});

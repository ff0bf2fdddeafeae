/**
 * The service with its database unavailable, over real HTTP against real SQLite files: read-only,
 * full (another connection cannot lock it: the server holds it exclusively). Path questions keep
 * being answered by the engine, saves
 * fail with SERVICE_UNAVAILABLE and a message saying why (no stack, no driver text), `/health`
 * says degraded with the reason, nothing blocks, and all of it recovers once the database is back.
 * Also a database that fails to open at start-up and is opened on a later attempt.
 *
 * The store's retry window (DATABASE_RETRY_MS) runs on a clock the test moves, so whether a write
 * is refused or is a trial does not depend on how fast the machine is.
 */

import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import type { PrismaClient } from '../src/store/generated/prisma/client.js';
import { DatabaseUnavailableError, databaseFileFromUrl, openStore } from '../src/store/index.js';
import type { StoreOptions } from '../src/store/types.js';
import { type GqlResponse, startTestServer, type TestServer } from './support/test-server.js';

const quiet = { warn: () => {}, error: () => {}, info: () => {} };
const SAVE = `mutation($notes: String) { saveAnalysis(input: { title: "t", notes: $notes, queries: [{ piece: KNIGHT, from: ["b1"], to: ["c3"] }] }) { analysis { id } editToken } }`;
const PATHS = (to: string) =>
  `{ shortestPaths(query: { piece: QUEEN, from: ["a1"], to: ["${to}"] }) { distance cached } }`;

/** DATABASE_RETRY_MS of `startWithDatabase`'s servers. */
const RETRY_MS = 200;

/**
 * Starts a server on the real store, handing out the database file, the Prisma client, the
 * store's clock (ms; it moves only when the test advances it) and how many cache writes the
 * store refused by itself (no trial due, so no driver error behind the refusal).
 */
async function startWithDatabase(env: Record<string, string> = {}) {
  let file = '';
  let prisma!: PrismaClient;
  const clock = { now: 1_000_000 };
  const refused = { cacheWrites: 0 };
  const t = await startTestServer({
    env: { DATABASE_BUSY_TIMEOUT_MS: '50', DATABASE_RETRY_MS: String(RETRY_MS), ...env },
    deps: {
      openStore: async (options: StoreOptions) => {
        file = databaseFileFromUrl(options.databaseUrl);
        const store = await openStore(options, {
          logger: quiet,
          now: () => clock.now,
          onConnected: (client) => void (prisma = client),
        });
        const putMany = store.cache.putMany;
        store.cache.putMany = (results) =>
          putMany(results).catch((err: unknown) => {
            if (err instanceof DatabaseUnavailableError && err.cause === undefined) refused.cacheWrites++;
            throw err;
          });
        return store;
      },
    },
  });
  return { t, file, prisma, clock, refused };
}

async function health(url: string) {
  const res = await fetch(`${url}/health`);
  return { status: res.status, body: await res.json() };
}

/** Polls /health until it is 200 (the store is opened again every DATABASE_RETRY_MS, and more). */
async function waitHealthy(url: string): Promise<void> {
  await vi.waitFor(async () => expect((await health(url)).status).toBe(200), { timeout: 30_000, interval: 50 });
}

const HEALTHY = { status: 200, body: { status: 'ok', database: 'ok' } };

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

/** Path questions are answered meanwhile, and nothing waits on the database. */
async function expectPathsAnswered(t: TestServer, refused: { cacheWrites: number }, to: string): Promise<void> {
  const before = refused.cacheWrites;
  const started = performance.now();
  // Asked twice: its second ask is when its result is written (`caching/cache-policy.ts`).
  for (let ask = 0; ask < 2; ask++) {
    const res = await t.gql(PATHS(to));
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.shortestPaths.distance).toBeGreaterThan(0);
  }
  await t.server.settle();
  expect(refused.cacheWrites).toBe(before + 1); // its cache write is refused at once, without a round trip
  // It takes a few ms; 10 s would be a hang, not a slow machine.
  expect(performance.now() - started).toBeLessThan(10_000);
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
      expect(await health(t.url)).toEqual(HEALTHY);
      // The WAL index lives in the server's memory: no shared-memory file to lose (SIGBUS).
      expect(existsSync(`${file}-shm`)).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('read-only: saves, updates and deletes fail, reads and paths work, then it recovers', async () => {
    const { t, prisma, clock, refused } = await startWithDatabase();
    try {
      const first = (await t.gql(SAVE)).body.data.saveAnalysis;
      await prisma.$executeRawUnsafe('PRAGMA query_only = ON');

      expectUnavailable(await t.gql(SAVE), /^attempt to write a readonly database$/);
      expect(await health(t.url)).toMatchObject({
        status: 503,
        body: { status: 'degraded', reason: 'attempt to write a readonly database' },
      });
      await expectPathsAnswered(t, refused, 'g7');
      const read = await t.gql(`{ analysis(id: "${first.analysis.id}") { id results { distance } } }`);
      expect(read.body).toEqual({ data: { analysis: { id: first.analysis.id, results: [{ distance: 1 }] } } });
      clock.now += RETRY_MS; // the next write is a trial, and fails
      const update = await t.gql(
        `mutation { updateAnalysis(id: "${first.analysis.id}", editToken: "${first.editToken}", input: { title: "u" }) { id } }`,
      );
      expectUnavailable(update, /readonly/);
      const del = await t.gql(
        `mutation { deleteAnalysis(id: "${first.analysis.id}", editToken: "${first.editToken}") }`,
      );
      expectUnavailable(del, /readonly/);

      await prisma.$executeRawUnsafe('PRAGMA query_only = OFF');
      clock.now += RETRY_MS; // /health runs a trial write, and it passes
      expect(await health(t.url)).toEqual(HEALTHY);
      const updated = await t.gql(
        `mutation { updateAnalysis(id: "${first.analysis.id}", editToken: "${first.editToken}", input: { title: "u" }) { title } }`,
      );
      expect(updated.body).toEqual({ data: { updateAnalysis: { title: 'u' } } });
    } finally {
      await t.close();
    }
  });

  it('full: a save that needs room fails, /health degraded, then room comes back', async () => {
    const { t, prisma, clock, refused } = await startWithDatabase();
    const notes = 'n'.repeat(10_000);
    try {
      // Use up the pages freed by the migrations, then let the file grow no more.
      for (let i = 0; i < 3; i++) expect((await t.gql(SAVE, { notes })).body.errors).toBeUndefined();
      const [{ page_count: pages }] = await prisma.$queryRawUnsafe<{ page_count: bigint }[]>('PRAGMA page_count');
      await prisma.$queryRawUnsafe(`PRAGMA max_page_count = ${Number(pages)}`);

      expectUnavailable(await t.gql(SAVE, { notes }), /^database or disk is full$/);
      clock.now += RETRY_MS; // a trial write is due: it needs room too, and fails
      expect(await health(t.url)).toEqual({
        status: 503,
        body: { status: 'degraded', database: 'unavailable', reason: 'database or disk is full' },
      });
      await expectPathsAnswered(t, refused, 'f7');

      await prisma.$queryRawUnsafe('PRAGMA max_page_count = 1073741823');
      clock.now += RETRY_MS;
      expect(await health(t.url)).toEqual(HEALTHY);
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
    let letOpen!: () => void;
    const mayOpen = new Promise<void>((resolve) => {
      letOpen = resolve;
    });
    const t = await startTestServer({
      env: { DATABASE_RETRY_MS: '50' },
      deps: {
        openStore: async (options: StoreOptions) => {
          attempts++;
          if (attempts < 3) throw Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
          await mayOpen; // the third attempt succeeds once the test has seen the server without it
          return openStore(options, { logger: quiet });
        },
      },
    });
    try {
      expect(await health(t.url)).toEqual({
        status: 503,
        // SQLite's words (not a secret); the rest is in the log.
        body: {
          status: 'degraded',
          database: 'unavailable',
          reason: 'failed to open: unable to open database file (see the server log)',
        },
      });
      const early = await t.gql(SAVE);
      expect(early.body.errors?.[0].extensions?.code).toBe('SERVICE_UNAVAILABLE');
      letOpen();
      await waitHealthy(t.url);
      expect(attempts).toBe(3);
      expect((await t.gql(SAVE)).body.errors).toBeUndefined();
    } finally {
      letOpen();
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
      // Longer than the 20 ms retry delay, and started after the first attempt failed: a retry's
      // timer, due earlier, would fire first (timers fire in order of their due time) and count
      // its attempt at once, however late a loaded machine runs them.
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

/**
 * The mutation rate limit shared by replicas in PostgreSQL (DATABASE_URL=postgresql://…): two
 * limiters, as two replicas would have, share one count per address; a refused request takes
 * nothing; concurrent takes never pass the limit; replicas starting at once all get the table;
 * a window of 1001 ms works (the library counts in seconds); with PostgreSQL unreachable, or
 * refusing connections in the middle of a run, each replica's insurance limiter still limits,
 * nothing throws, and the shared count comes back with the database. Then over HTTP with two in-process servers (without
 * a store, which the limit does not need: it runs before the resolvers), whose shutdown ends the
 * limiter's connections.
 *
 * Needs PostgreSQL at 127.0.0.1:5432 with trust auth for `postgres` (TEST_POSTGRES_URL, the
 * server's URL as test/support/postgres.ts reads it, overrides; this file does not import that
 * module, which loads the store). The file creates a database with a random name and drops it at
 * the end. Without a reachable server the tests are skipped with a message, except in CI (`CI`
 * set).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createRateLimiter,
  RATE_LIMIT_TABLE,
  type RateLimiter,
  type RateLimitLogger,
} from '../../../src/graphql/limits/rate-limiter.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/** The server (its `postgres` database when the URL names none). */
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DATABASE = `chess_paths_rate_limit_${randomBytes(6).toString('hex')}`;
const DATABASE_URL = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DATABASE}`;
  return url.toString();
})();
/** Nothing listens on port 1. */
const UNREACHABLE_URL = 'postgresql://postgres@127.0.0.1:1/chess_paths';

const reachable = await (async () => {
  const probe = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await probe.connect();
    return true;
  } catch {
    return false;
  } finally {
    await probe.end().catch(() => {});
  }
})();
const skip = !reachable && !process.env.CI;
if (skip) console.warn(`Skipping the PostgreSQL rate-limit tests: no PostgreSQL answers at ${ADMIN_URL}.`);

let admin: pg.Client;
/** A client of the test database. */
let db: pg.Client;

beforeAll(async () => {
  if (skip) return;
  admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${DATABASE}"`);
  db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
});

afterAll(async () => {
  if (skip) return;
  await db?.end();
  await admin.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
  await admin.end();
});

/** Limiters made by a test, closed at its end. */
function limiters() {
  const made: RateLimiter[] = [];
  return {
    make(options: {
      limit: number;
      windowMs?: number;
      databaseUrl?: string;
      retryMs?: number;
      logger?: RateLimitLogger;
      now?: () => number;
    }) {
      const limiter = createRateLimiter({ windowMs: 60_000, databaseUrl: DATABASE_URL, ...options });
      made.push(limiter);
      return limiter;
    },
    close: () => Promise.all(made.map((l) => l.close())),
  };
}

/** Points stored for `key` in an open window (undefined: no row, or its window ended). */
async function storedPoints(key: string): Promise<number | undefined> {
  const { rows } = await db.query(`SELECT points FROM "${RATE_LIMIT_TABLE}" WHERE key = $1 AND expire > $2`, [
    key,
    Date.now(),
  ]);
  return rows[0]?.points;
}

/** The limiters' connections to the test database that PostgreSQL still lists. */
async function limiterBackends(): Promise<number[]> {
  const { rows } = await admin.query(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'chess-paths rate limit'`,
    [DATABASE],
  );
  return rows.map((row) => row.pid);
}

/** Collects the process's unhandled errors while `run` runs. */
async function noUnhandledErrors(run: () => Promise<void>): Promise<void> {
  const seen: unknown[] = [];
  const record = (err: unknown) => seen.push(err);
  process.on('unhandledRejection', record);
  process.on('uncaughtException', record);
  try {
    await run();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off('unhandledRejection', record);
    process.off('uncaughtException', record);
  }
  expect(seen).toEqual([]);
}

function recordingLogger() {
  const lines: string[] = [];
  const logger: RateLimitLogger = {
    info: (_obj, msg) => lines.push(`info ${msg}`),
    warn: (_obj, msg) => lines.push(`warn ${msg}`),
    error: (_obj, msg) => lines.push(`error ${msg}`),
  };
  return { logger, lines };
}

describe.skipIf(skip)('rate limiters sharing PostgreSQL', () => {
  it('share one count per address: 2 units on A and 1 on B fit, the 4th is refused on either', async () => {
    const l = limiters();
    try {
      const a = l.make({ limit: 3 });
      const b = l.make({ limit: 3 });
      await Promise.all([a.ready, b.ready]); // both create the table at once
      expect([a.store, a.shared, b.store, b.shared]).toEqual(['postgres', true, 'postgres', true]);

      expect(await a.take('198.51.100.1', 2)).toEqual({ allowed: true });
      const tooMany = await b.take('198.51.100.1', 2); // 1 left: refused, and takes nothing
      expect(tooMany.allowed).toBe(false);
      expect(await b.take('198.51.100.1', 1)).toEqual({ allowed: true });
      for (const limiter of [a, b]) {
        const refused = await limiter.take('198.51.100.1', 1);
        expect(refused.allowed).toBe(false);
        if (refused.allowed) continue;
        expect(refused.retryAfterMs).toBeGreaterThan(0);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
      }
      expect(await storedPoints('198.51.100.1')).toBe(3);
      expect(await b.take('198.51.100.2', 3)).toEqual({ allowed: true }); // another address
      expect(await a.take('198.51.100.3', 4)).toEqual({ allowed: false, retryAfterMs: 60_000 }); // never fits
      expect(await storedPoints('198.51.100.3')).toBeUndefined();
      expect([a.localSize, b.localSize]).toEqual([0, 0]); // the insurance was never asked
    } finally {
      await l.close();
    }
  });

  it('concurrent takes on two replicas never pass the limit, and refused units come back', async () => {
    const l = limiters();
    try {
      const a = l.make({ limit: 5 });
      const b = l.make({ limit: 5 });
      await Promise.all([a.ready, b.ready]);
      const decisions = await Promise.all(
        Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).take('198.51.100.10', 1 + (i % 3))),
      );
      const allowed = decisions.filter((d) => d.allowed).length;
      expect(allowed).toBeGreaterThan(0);
      const points = (await storedPoints('198.51.100.10')) ?? 0;
      expect(points).toBeLessThanOrEqual(5);
      // What is stored is exactly what was allowed.
      const allowedUnits = decisions.reduce((sum, d, i) => sum + (d.allowed ? 1 + (i % 3) : 0), 0);
      expect(points).toBe(allowedUnits);
    } finally {
      await l.close();
    }
  });

  it('replicas starting at once all count in PostgreSQL', async () => {
    const l = limiters();
    try {
      for (let round = 0; round < 5; round++) {
        await db.query(`DROP TABLE IF EXISTS "${RATE_LIMIT_TABLE}"`);
        const replicas = Array.from({ length: 8 }, () => l.make({ limit: 3 }));
        await Promise.all(replicas.map((r) => r.ready));
        expect(replicas.map((r) => r.shared)).toEqual(Array(8).fill(true));
      }
    } finally {
      await l.close();
    }
  });

  it('keeps windows that are no whole number of seconds (1001 ms: 1.001 s in the library)', async () => {
    const l = limiters();
    // The library stamps and reads windows with Date.now(): held still here, and moved by hand.
    let clock = Date.now();
    const now = vi.spyOn(Date, 'now').mockImplementation(() => clock);
    try {
      const a = l.make({ limit: 2, windowMs: 1001 });
      await a.ready;
      expect(await a.take('198.51.100.20', 2)).toEqual({ allowed: true });
      expect(await a.take('198.51.100.20', 1)).toEqual({ allowed: false, retryAfterMs: 1001 });
      expect(await storedPoints('198.51.100.20')).toBe(2);
      clock += 1000; // a whole second is not the window
      expect(await a.take('198.51.100.20', 1)).toEqual({ allowed: false, retryAfterMs: 1 });
      expect(await storedPoints('198.51.100.20')).toBe(2);
      expect(a.localSize).toBe(0);
      clock += 1; // 1001 ms: it ends
      expect(await a.take('198.51.100.20', 2)).toEqual({ allowed: true });
    } finally {
      now.mockRestore();
      await l.close();
    }
  });
});

describe.skipIf(skip)('PostgreSQL unavailable: the insurance limiter of each replica', () => {
  it('limits per replica when PostgreSQL cannot be reached, and nothing throws', async () => {
    await noUnhandledErrors(async () => {
      const l = limiters();
      const { logger, lines } = recordingLogger();
      try {
        const a = l.make({ limit: 2, databaseUrl: UNREACHABLE_URL, logger });
        await a.ready;
        expect(a.store).toBe('postgres');
        expect(a.shared).toBe(false);
        expect(await a.take('198.51.100.30', 2)).toEqual({ allowed: true });
        const refused = await a.take('198.51.100.30', 1);
        expect(refused.allowed).toBe(false);
        if (!refused.allowed) expect(refused.retryAfterMs).toBeGreaterThan(0);
        expect(await a.take('198.51.100.31', 1)).toEqual({ allowed: true });
        expect(a.localSize).toBe(2);
        expect(lines).toContain(
          'warn rate limit: cannot create its PostgreSQL table; mutations are limited per replica meanwhile',
        );
        expect(lines.filter((line) => line.startsWith('error'))).toEqual([]);
      } finally {
        await l.close();
      }
    });
  });

  it('falls back when PostgreSQL refuses connections mid-run, and shares the count again once it is back', async () => {
    await noUnhandledErrors(async () => {
      const l = limiters();
      const { logger, lines } = recordingLogger();
      // The clock of the DATABASE_RETRY_MS pause, moved by hand.
      let clock = 0;
      try {
        const a = l.make({ limit: 3, retryMs: 200, logger, now: () => clock });
        await a.ready;
        expect(await a.take('198.51.100.40', 1)).toEqual({ allowed: true });
        expect(a.shared).toBe(true);

        // The database refuses new connections and cuts the open ones (idle ones error in the pool).
        await admin.query(`ALTER DATABASE "${DATABASE}" ALLOW_CONNECTIONS false`);
        try {
          await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'chess-paths rate limit'`,
            [DATABASE],
          );
          // The backends are gone (a signalled backend may still answer until it has exited).
          await expect.poll(async () => (await limiterBackends()).length, { timeout: 10_000, interval: 20 }).toBe(0);
          // The insurance counts from zero for this replica.
          for (let i = 0; i < 3; i++) expect(await a.take('198.51.100.40', 1)).toEqual({ allowed: true });
          expect((await a.take('198.51.100.40', 1)).allowed).toBe(false);
          expect(lines).toContain(
            'warn rate limit: PostgreSQL unavailable; mutations are limited per replica until it answers',
          );
        } finally {
          await admin.query(`ALTER DATABASE "${DATABASE}" ALLOW_CONNECTIONS true`);
        }

        // Within DATABASE_RETRY_MS of the last failure the insurance still decides alone, without
        // asking PostgreSQL (which answers again): the count there is not touched.
        clock += 199;
        expect((await a.take('198.51.100.40', 1)).allowed).toBe(false);
        expect(lines).not.toContain('info rate limit: PostgreSQL answers again; mutation limits are shared again');
        expect(await storedPoints('198.51.100.40')).toBe(1);
        clock += 1; // past DATABASE_RETRY_MS
        expect(await a.take('198.51.100.40', 2)).toEqual({ allowed: true }); // 1 + 2 in PostgreSQL
        expect(lines).toContain('info rate limit: PostgreSQL answers again; mutation limits are shared again');
        expect((await a.take('198.51.100.40', 1)).allowed).toBe(false);
        expect(await storedPoints('198.51.100.40')).toBe(3);
        expect(lines.filter((line) => line.startsWith('error'))).toEqual([]);
      } finally {
        await l.close();
      }
    });
  });
});

describe.skipIf(skip)('two servers on one PostgreSQL over HTTP', () => {
  const DELETE = 'mutation { deleteAnalysis(id: "x", editToken: "y") }';

  it('share the limit: 2 mutations on A and 1 on B, then 429 RATE_LIMITED on either', async () => {
    const servers: TestServer[] = [];
    let opened = 0;
    try {
      for (let i = 0; i < 2; i++) {
        servers.push(
          await startTestServer({
            database: false,
            env: { DATABASE_URL, RATE_LIMIT_MUTATIONS: '3', RATE_LIMIT_WINDOW_MS: '60000' },
          }),
        );
      }
      const [a, b] = servers;
      opened = Date.now(); // the window opens with the first mutation, after this
      for (const t of [a, a, b]) {
        const res = await t.gql(DELETE);
        expect(res.status).toBe(200);
        expect(res.body.errors?.[0].extensions?.code).toBe('SERVICE_UNAVAILABLE'); // no store here
      }
      for (const t of [a, b]) {
        const res = await fetch(`${t.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: DELETE }),
        });
        expect(res.status).toBe(429);
        // The rest of the window in whole seconds: at most 60, at least what is left of it.
        const retryAfter = Number(res.headers.get('retry-after'));
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(retryAfter).toBeGreaterThanOrEqual(Math.max(1, Math.ceil((60_000 - (Date.now() - opened)) / 1000)));
        const body = (await res.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
        expect(body.errors[0].extensions).toEqual({
          code: 'RATE_LIMITED',
          limit: 'RATE_LIMIT_MUTATIONS',
          max: 3,
          retryAfterSeconds: expect.any(Number),
        });
        expect(body.errors[0].message).toMatch(
          /^Too many mutations from this address: the limit is 3 per 60 s \(RATE_LIMIT_MUTATIONS, RATE_LIMIT_WINDOW_MS\) and this request needs 1; try again in \d+ s$/,
        );
      }
      expect(await storedPoints('127.0.0.1')).toBe(3);
    } finally {
      await Promise.all(servers.map((t) => t.close()));
    }
    // Shutting down ended the limiters' pools. A backend leaves pg_stat_activity a moment after its
    // client hung up, so this waits for it rather than reading once.
    await expect.poll(async () => (await limiterBackends()).length, { timeout: 10_000 }).toBe(0);
  });

  it('answers 429, not 500, with PostgreSQL unreachable', async () => {
    await noUnhandledErrors(async () => {
      const t = await startTestServer({
        database: false,
        env: { DATABASE_URL: UNREACHABLE_URL, RATE_LIMIT_MUTATIONS: '2' },
      });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) statuses.push((await t.gql(DELETE)).status);
        expect(statuses).toEqual([200, 200, 429, 429]);
      } finally {
        await t.close();
      }
    });
  });
});

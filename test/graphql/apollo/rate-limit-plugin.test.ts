/**
 * The mutation rate limit over real HTTP: at the limit and past it (HTTP 429, Retry-After,
 * RATE_LIMITED, nothing done), aliased mutations counted per field, queries never limited, other
 * client addresses unaffected, the window reopening, and RATE_LIMIT_MUTATIONS=0 turning it off.
 * Plus the counting and the windows on their own, in memory (the limiter SQLite deployments use);
 * PostgreSQL's shared counts are tested in rate-limit.postgres.test.ts.
 */
import { request } from 'node:http';
import { type FragmentDefinitionNode, type OperationDefinitionNode, parse } from 'graphql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countRootFields } from '../../../src/graphql/apollo/rate-limit-plugin.js';
import { createRateLimiter } from '../../../src/graphql/limits/rate-limiter.js';
import { type GqlResponse, SEED_QUERY, startTestServer } from '../../support/test-server.js';

const SAVE = 'mutation { saveAnalysis(input: { title: "t", queries: [] }) { analysis { id } } }';
const COUNT = '{ analyses(first: 0) { totalCount } }';

/** POSTs a GraphQL request from a given local address (any 127.x.y.z reaches the loopback server). */
function postFrom(
  url: string,
  localAddress: string,
  query: string,
): Promise<GqlResponse & { headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ query });
    const req = request(
      `${url}/graphql`,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('mutation rate limit (RATE_LIMIT_MUTATIONS per RATE_LIMIT_WINDOW_MS)', () => {
  it('allows the limit, refuses past it with 429 and RATE_LIMITED, and never limits queries', async () => {
    const t = await startTestServer({ env: { RATE_LIMIT_MUTATIONS: '3', RATE_LIMIT_WINDOW_MS: '60000' } });
    try {
      const opened = Date.now(); // the window opens with the first save, after this (on this clock)
      for (let i = 0; i < 3; i++) {
        const ok = await t.gql(SAVE);
        expect(ok.status).toBe(200);
        expect(ok.body.errors).toBeUndefined();
      }
      const res = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: SAVE }),
      });
      expect(res.status).toBe(429);
      // The rest of the window, in whole seconds rounded up: at most 60, and at least what is left
      // of it however slowly these requests ran.
      const elapsedMs = Date.now() - opened;
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(retryAfter).toBeGreaterThanOrEqual(Math.max(1, Math.ceil((60_000 - elapsedMs) / 1000)));
      const body = (await res.json()) as GqlResponse['body'];
      expect(body.data).toBeUndefined();
      expect(body.errors).toHaveLength(1);
      expect(body.errors![0].extensions).toEqual({
        code: 'RATE_LIMITED',
        limit: 'RATE_LIMIT_MUTATIONS',
        max: 3,
        retryAfterSeconds: expect.any(Number),
      });
      expect(body.errors![0].message).toMatch(
        /^Too many mutations from this address: the limit is 3 per 60 s \(RATE_LIMIT_MUTATIONS, RATE_LIMIT_WINDOW_MS\) and this request needs 1; try again in \d+ s$/,
      );
      expect((await t.gql(COUNT)).body.data.analyses.totalCount).toBe(3); // nothing saved

      // Queries go on, however many.
      for (let i = 0; i < 20; i++) {
        const q = await t.gql(`{ shortestPaths(query: ${SEED_QUERY}) { distance } analyses(first: 1) { totalCount } }`);
        expect(q.status).toBe(200);
        expect(q.body.errors).toBeUndefined();
      }
      expect(await t.metric('chess_paths_graphql_errors_total', { code: 'RATE_LIMITED' })).toBe(1);
      expect(await t.metric('chess_paths_http_requests_total', { route: 'graphql', status: '429' })).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('counts each aliased mutation field, and refuses a request that does not fit as a whole', async () => {
    const t = await startTestServer({ env: { RATE_LIMIT_MUTATIONS: '3' } });
    try {
      const two =
        'mutation { a: saveAnalysis(input: { title: "a", queries: [] }) { editToken } ...More } fragment More on Mutation { b: saveAnalysis(input: { title: "b", queries: [] }) { editToken } __typename }';
      expect((await t.gql(two)).body.errors).toBeUndefined();
      const refused = await t.gql(two);
      expect(refused.status).toBe(429);
      expect(refused.body.errors?.[0].message).toContain('this request needs 2');
      expect((await t.gql(COUNT)).body.data.analyses.totalCount).toBe(2);
      expect((await t.gql(SAVE)).body.errors).toBeUndefined(); // the one unit left
    } finally {
      await t.close();
    }
  });

  it('keeps a window per client address, and opens a new one when it ends', async () => {
    // The in-memory limiter (rate-limiter-flexible) reads the wall clock through Date.now(): the
    // test moves it, so the window ends when the test says, not when the machine gets to it.
    let skipped = 0;
    const realNow = Date.now.bind(Date);
    const now = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + skipped);
    const t = await startTestServer({ env: { RATE_LIMIT_MUTATIONS: '2', RATE_LIMIT_WINDOW_MS: '60000' } });
    try {
      for (let i = 0; i < 2; i++) expect((await postFrom(t.url, '127.0.0.1', SAVE)).status).toBe(200);
      expect((await postFrom(t.url, '127.0.0.1', SAVE)).status).toBe(429);
      const other = await postFrom(t.url, '127.0.0.2', SAVE);
      expect(other.status).toBe(200);
      expect(other.body.errors).toBeUndefined();

      skipped += 30_000; // half the window: still refused
      expect((await postFrom(t.url, '127.0.0.1', SAVE)).status).toBe(429);
      skipped += 30_000; // a minute (and the real time taken) after the first save: its window is over
      expect((await postFrom(t.url, '127.0.0.1', SAVE)).status).toBe(200);
    } finally {
      now.mockRestore();
      await t.close();
    }
  });

  it('is off with RATE_LIMIT_MUTATIONS=0', async () => {
    const t = await startTestServer({ database: false, env: { RATE_LIMIT_MUTATIONS: '0' } });
    try {
      for (let i = 0; i < 80; i++) {
        const res = await t.gql('mutation { deleteAnalysis(id: "x", editToken: "y") }');
        expect(res.body.errors?.[0].extensions?.code).toBe('SERVICE_UNAVAILABLE'); // no database here, but not limited
      }
    } finally {
      await t.close();
    }
  });
});

describe('RateLimiter (in memory) and countRootFields', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const memory = (limit: number, windowMs: number) =>
    createRateLimiter({ limit, windowMs, databaseUrl: 'file:./unused.db' });

  it('fixed windows: units fit or are refused whole, with the time left', async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date', 'setTimeout', 'clearTimeout', 'performance'] });
    const limiter = memory(5, 1000);
    expect(limiter.store).toBe('memory');
    expect(await limiter.take('a', 3)).toEqual({ allowed: true });
    expect(await limiter.take('a', 3)).toEqual({ allowed: false, retryAfterMs: 1000 });
    vi.advanceTimersByTime(600);
    expect(await limiter.take('a', 2)).toEqual({ allowed: true }); // the refused 3 took nothing
    expect(await limiter.take('a', 1)).toEqual({ allowed: false, retryAfterMs: 400 });
    expect(await limiter.take('b', 5)).toEqual({ allowed: true });
    expect(await limiter.take('c', 6)).toEqual({ allowed: false, retryAfterMs: 1000 }); // never fits
    vi.advanceTimersByTime(400);
    expect(await limiter.take('a', 5)).toEqual({ allowed: true });
    const off = memory(0, 1000);
    expect(off.store).toBe('off');
    expect(await off.take('a', 1000)).toEqual({ allowed: true });
    await limiter.close();
    await off.close();
  });

  it('concurrent requests of one address never go past the limit, and refused units come back', async () => {
    const limiter = memory(5, 60_000);
    const decisions = await Promise.all(Array.from({ length: 12 }, () => limiter.take('a', 2)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(2);
    expect(await limiter.take('a', 1)).toEqual({ allowed: true }); // 4 taken, 1 left
    expect((await limiter.take('a', 1)).allowed).toBe(false);
    await limiter.close();
  });

  it('forgets windows when they end', async () => {
    const limiter = memory(1, 200);
    for (let i = 0; i < 10_000; i++) await limiter.take(`10.0.${i >> 8}.${i & 255}`, 1);
    expect(limiter.localSize).toBe(10_000);
    // Each entry is dropped by its own timer once its window ends (however long the loop took).
    await vi.waitFor(() => expect(limiter.localSize).toBe(0), { timeout: 10_000, interval: 20 });
    await limiter.take('192.0.2.1', 1);
    expect(limiter.localSize).toBe(1);
    await limiter.close();
  });

  it('counts root fields through fragments, once per alias, __typename free', () => {
    const document = parse(
      `mutation { a: f b: f __typename ... on Mutation { c: f ...F } ...F } fragment F on Mutation { d: f ...F }`,
      { noLocation: true },
    );
    const operation = document.definitions[0] as OperationDefinitionNode;
    const fragments = new Map([['F', document.definitions[1] as FragmentDefinitionNode]]);
    expect(countRootFields(operation.selectionSet, fragments)).toBe(4);
  });
});

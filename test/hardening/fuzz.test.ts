/**
 * Hostile input, generated: fast-check draws thousands of malformed and adversarial requests and
 * sends them over real HTTP to the real server running as a child process (random port, its own
 * throw-away SQLite file, the shipped limits except a body limit of 8 MiB, so that batches of 10^5
 * queries reach the GraphQL layer, and no mutation rate limit, so that valid saves succeed).
 *
 * The families, grouped by what they attack, are in test/support/fuzz/: `families-syntax.ts`
 * (broken JSON bodies and envelopes, broken GraphQL syntax, deep, aliased, directive-laden and
 * fragment-cyclic documents, huge strings), `families-values.ts` (path queries with wrong types
 * and unknown squares, pieces and fields, as variables and as literals, bitboards with bits past
 * the board or absurd lengths, FENs with wrong rank counts and run-lengths, Betza texts, boards of
 * 0 to 10^6 files, batches of up to 10^5 queries, `first` up to 10^9 and past Int, forged
 * cursors) and `families-transport.ts` (wrong content types, GET with and without preflight
 * headers, other methods and routes, analysis mutations with forged ids and tokens), with unicode
 * everywhere; the values they draw from are in `values.ts`, and sending, judging and the tally in
 * `client.ts`.
 *
 * Every request must get a 4xx, or a GraphQL response whose every error carries an
 * `extensions.code` other than INTERNAL_SERVER_ERROR: never a 5xx, never a timeout (15 s per
 * request), never a dead process. Generators that can produce a valid request by chance (a
 * batch of at most 500 good queries, `first: 1000`, a valid FEN) say so, and such requests may
 * succeed. Afterwards the seed example must still be answered exactly, `/health` must be 200, the
 * process alive, and /metrics must count no 5xx and no INTERNAL_SERVER_ERROR.
 *
 * Scale with FUZZ_SCALE (default 1: about 5,000 requests); FUZZ_SEED fixes fast-check's seed.
 * A summary (requests per family, outcomes by status and code, slowest answer, peak RSS) is
 * printed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from '../support/child-server.js';
import {
  caseOf,
  codesOf,
  createFuzzClient,
  FAMILY_TIME_LIMIT_MS,
  type FuzzClient,
  REQUEST_TIMEOUT_MS,
} from '../support/fuzz/client.js';
import { brokenGraphql, brokenJson, hugeStrings, shapes } from '../support/fuzz/families-syntax.js';
import { http, mutations } from '../support/fuzz/families-transport.js';
import { batches, betzas, bitboards, boards, fens, pages, wrongTypes } from '../support/fuzz/families-values.js';
import { type Case, gqlBody, MUTATIONS, post, SEED_DOC, VALID_QUERIES } from '../support/fuzz/values.js';
import { sumMetric } from '../support/test-server.js';

const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
const BODY_LIMIT = 8 * 1024 * 1024;

let server: ChildServer;
let client: FuzzClient;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chess-paths-fuzz-'));
  server = await startChildServer({
    // Mutation rate limiting off: the round-trip property needs its saves to succeed (429s are
    // 4xx answers anyway; the limiter has its own tests in test/graphql/apollo/rate-limit-plugin.test.ts).
    env: {
      DATABASE_URL: `file:${join(dir, 'fuzz.db')}`,
      LOG_LEVEL: 'warn',
      MAX_BODY_BYTES: String(BODY_LIMIT),
      RATE_LIMIT_MUTATIONS: '0',
    },
  });
  client = createFuzzClient(server, { bodyLimit: BODY_LIMIT, seed: SEED, scale: SCALE });
  // /health answered 503 ("starting") while the child was polled during start-up.
  serverErrorsAtStart = serverErrorLines(await (await fetch(`${server.url}/metrics`)).text());
});

let serverErrorsAtStart: string[] = [];
/** Counters of responses with a 5xx status, from /metrics. */
function serverErrorLines(metrics: string): string[] {
  return metrics.split('\n').filter((line) => /^chess_paths_http_requests_total\{.*status="5\d\d"/.test(line));
}

afterAll(async () => {
  client?.printSummary();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const FAMILIES: [string, fc.Arbitrary<Case>, number][] = [
  ['broken JSON bodies and envelopes', brokenJson, 500],
  ['broken GraphQL syntax and invalid documents', brokenGraphql, 600],
  ['wrong types, unknown squares, pieces and fields', wrongTypes, 800],
  ['bitboards of every length, bits past the board', bitboards, 300],
  ['FENs with wrong rank counts and run-lengths', fens, 500],
  ['Betza texts in questions and diagrams', betzas, 300],
  ['boards of 0 to 10^6 files', boards, 300],
  ['batches of 0 to 10^5 queries', batches, 150],
  ['page sizes up to 10^9 and forged cursors', pages, 400],
  ['deep, aliased, fragment-cyclic and directive-laden documents', shapes, 400],
  ['huge strings and bodies past the limit', hugeStrings, 40],
  ['content types, GET, CSRF, methods, routes, headers', http, 500],
  ['analysis mutations with forged ids, tokens and inputs', mutations, 400],
];

describe('fuzz: every hostile request gets a 4xx or a coded GraphQL error, never a 500, a hang or a crash', () => {
  for (const [name, arb, n] of FAMILIES) {
    it(
      name,
      async () => {
        await client.fuzz(arb, runs(n));
        expect(server.alive(), server.log().slice(-3000)).toBe(true);
      },
      FAMILY_TIME_LIMIT_MS + 2 * REQUEST_TIMEOUT_MS,
    );
  }

  it(
    'valid titles and notes in any script round-trip exactly',
    async () => {
      const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '');
      await fc.assert(
        fc.asyncProperty(
          text,
          fc.option(fc.string({ unit: 'grapheme', maxLength: 200 }), { nil: null }),
          async (title, notes) => {
            const c = caseOf(
              post(
                'unicode round trip',
                gqlBody(MUTATIONS.save, { i: { title, notes, queries: [VALID_QUERIES[0]] } }),
                true,
              ),
            );
            const reply = await client.send(c);
            client.record(c, reply);
            expect(client.judge(c, reply)).toBeUndefined();
            const id =
              (reply.json?.data as { saveAnalysis: { analysis: { id: string } } } | undefined)?.saveAnalysis.analysis
                .id ?? '';
            const readBack = await client.send(
              caseOf(
                post(
                  'unicode round trip',
                  gqlBody('query($id: ID!) { analysis(id: $id) { title notes } }', { id }),
                  true,
                ),
              ),
            );
            expect(readBack.json?.data).toEqual({ analysis: { title, notes } });
          },
        ),
        {
          numRuns: runs(100),
          seed: SEED,
          endOnFailure: true,
          interruptAfterTimeLimit: FAMILY_TIME_LIMIT_MS,
          markInterruptAsFailure: false,
        },
      );
    },
    FAMILY_TIME_LIMIT_MS + 2 * REQUEST_TIMEOUT_MS,
  );

  it('afterwards: the seed example is answered exactly, /health is 200, nothing counted as a 5xx or an internal error', async () => {
    expect(server.alive()).toBe(true);
    const reply = await client.send({ family: 'final check', body: gqlBody(SEED_DOC), maySucceed: true });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      data: {
        shortestPaths: {
          distance: 4,
          layers: [
            { squares: ['e4'] },
            { squares: ['d3', 'd4', 'e5', 'f5'] },
            { squares: ['c2', 'c3', 'f6', 'g6'] },
            { squares: ['b1', 'b2', 'g7', 'h7'] },
            { squares: ['a1', 'h8'] },
          ],
        },
      },
    });
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok' });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(serverErrorLines(metrics), 'responses with a 5xx status counted by the server').toEqual(serverErrorsAtStart);
    expect(sumMetric(metrics, 'chess_paths_graphql_errors_total', { code: 'INTERNAL_SERVER_ERROR' })).toBe(0);
    expect(client.requestCount()).toBeGreaterThan(runs(3000));
  });
});

/**
 * Failures the fuzz found, pinned as plain examples (kept out of the generators above so that a
 * failure of one of them does not stop a whole family at its first case). All three were real
 * bugs, since fixed; these are now regression tests. They run after the final check.
 */
describe('found by the fuzz', () => {
  // Was: a subscription operation (the schema has no Subscription type) passed validation and
  // failed in graphql-js's execute() with a plain GraphQLError ("Schema is not configured to
  // execute subscription operation."), reported as INTERNAL_SERVER_ERROR: a client's mistake
  // counted and logged as an internal failure.
  it('a subscription operation is refused as the client’s error, not INTERNAL_SERVER_ERROR', async () => {
    const reply = await client.send({ family: 'pinned', body: gqlBody('subscription { x }') });
    expect(codesOf(reply), reply.text.slice(0, 300)).not.toContain('INTERNAL_SERVER_ERROR');
    expect(codesOf(reply).length + (reply.status >= 400 && reply.status < 500 ? 1 : 0)).toBeGreaterThan(0);
  });

  // Was: a persisted-query extension the client got wrong was answered HTTP 400 but with
  // extensions.code INTERNAL_SERVER_ERROR ("Internal server error" in production), logged at error
  // level and counted as an internal error: Apollo throws these without a code.
  it.each([
    ['a persistedQuery that is not an object', '{"query":"{ __typename }","extensions":{"persistedQuery":5}}'],
    [
      'an unsupported persistedQuery version',
      '{"query":"{ __typename }","extensions":{"persistedQuery":{"version":2,"sha256Hash":"x"}}}',
    ],
    [
      'a sha256Hash that does not match the query',
      '{"query":"{ __typename }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}',
    ],
  ])('%s is the client’s error (4xx, a client error code), not INTERNAL_SERVER_ERROR', async (_name, body) => {
    const reply = await client.send({ family: 'pinned', body });
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(codesOf(reply), reply.text.slice(0, 300)).not.toContain('INTERNAL_SERVER_ERROR');
  });

  // Was: a title or notes holding an unpaired UTF-16 surrogate (valid JSON: "x\ud800y") was
  // accepted, and SQLite's UTF-8 conversion stored each lone surrogate as three U+FFFD: the saved
  // text silently differed from the text sent. Now refused with BAD_USER_INPUT.
  it('a title with an unpaired surrogate is refused with BAD_USER_INPUT or stored exactly', async () => {
    const title = 'x\ud800y';
    const reply = await client.send({
      family: 'pinned',
      body: gqlBody(MUTATIONS.save, { i: { title, notes: '\udc00', queries: [] } }),
      maySucceed: true,
    });
    const codes = codesOf(reply);
    if (codes.length > 0) {
      expect(codes).toEqual(['BAD_USER_INPUT']);
      return;
    }
    const id =
      (reply.json?.data as { saveAnalysis: { analysis: { id: string } } } | undefined)?.saveAnalysis.analysis.id ?? '';
    const readBack = await client.send({
      family: 'pinned',
      body: gqlBody('query($id: ID!) { analysis(id: $id) { title notes } }', { id }),
      maySucceed: true,
    });
    expect(readBack.json?.data).toEqual({ analysis: { title, notes: '\udc00' } });
  });
});

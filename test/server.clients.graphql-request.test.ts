/**
 * The server as `graphql-request` 7 users meet it, over real HTTP to a real server: a
 * `GraphQLClient` with its default POST, and one with `method: 'GET'` (the operation in the
 * query string, no content type, no preflight header; mutations still go as POST). For both:
 * queries with variables, partial answers as graphql-request surfaces them (a thrown
 * `ClientError` whose `response` holds the partial data and the errors, or `rawRequest` with
 * `errorPolicy: 'all'`), saving an analysis and updating it with its edit token, and cursor paging
 * of paths and of analyses; and `batchRequests`, several operations in one POST with a JSON array
 * body. Every HTTP request is recorded through the client's `fetch`, so a test that claims GET or
 * one batched request proves it. Expected answers come from the independent reference BFS.
 */
import { ClientError, GraphQLClient } from 'graphql-request';
import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_TEXTS,
  describeRequest,
  expectAnalysesNewestFirst,
  expectCaching,
  expectOnlyOffBoardError,
  expectPagesOfPaths,
  OFF_BOARD_MESSAGE,
  QUESTIONS,
  referenceAnswer,
  selectedAnswer,
  useServerWithDatabase,
} from './support/client-fixtures.js';

/**
 * Resolves once the clock reads later than `ms`. Analyses are listed by creation time (in ms),
 * ties by their random id: saves a test lists in order must not share a millisecond.
 */
async function clockPast(ms: number): Promise<void> {
  while (Date.now() <= ms) await new Promise((resolve) => setTimeout(resolve, 1));
}

const served = useServerWithDatabase();

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

type Method = 'POST' | 'GET';

/** A client sending queries with `method`, and the log of its requests. */
function graphqlClient(method: Method, options: { errorPolicy?: 'none' | 'all' } = {}) {
  const { url, fetch, log } = served.connect();
  const client = new GraphQLClient(url, { method, fetch, ...options });
  return { client, log };
}

/** The `ClientError` a request throws (fails the test when it resolves or throws something else). */
async function clientError(promise: Promise<unknown>): Promise<ClientError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ClientError) return err;
    throw err;
  }
  throw new Error('expected a ClientError');
}

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

const { KNIGHT, ROOK, BLOCKED_KNIGHT, SEED, OFF_BOARD } = QUESTIONS;

// graphql-request's `gql` only joins a template's text: the texts are its documents as they are.
const { SHORTEST, GOOD_AND_BAD, BATCH, PATHS_PAGE, SAVE, UPDATE, READ, ANALYSES_PAGE } = DOCUMENT_TEXTS;

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe.each<Method>(['POST', 'GET'])('graphql-request GraphQLClient with method %s', (method) => {
  it('sends queries with variables and gets the reference answers', async () => {
    const { client, log } = graphqlClient(method);
    const knight = await client.request<{ shortestPaths: unknown }>(SHORTEST, { query: KNIGHT });
    const seed = await client.request<{ shortestPaths: unknown }>(SHORTEST, { query: SEED });
    expect(knight.shortestPaths).toEqual(selectedAnswer(referenceAnswer('KNIGHT', ['b1'], ['g8'])));
    expect(seed.shortestPaths).toEqual(selectedAnswer(referenceAnswer('KING', ['e4'], ['a1', 'h8'])));

    expect(log.map((r) => [r.method, r.status])).toEqual([
      [method, 200],
      [method, 200],
    ]);
    const variables =
      method === 'GET' ? JSON.parse(log[0].url.searchParams.get('variables') ?? 'null') : log[0].body.variables;
    expect(variables).toEqual({ query: KNIGHT });
    if (method === 'GET') {
      expect(log[0].body).toBeUndefined();
      expect(log[0].url.searchParams.get('query')).toContain('shortestPaths');
      // A plain GET: nothing that would have passed Apollo's CSRF preflight check.
      expect(log[0].requestHeaders.get('content-type')).toBeNull();
      expect(log[0].requestHeaders.get('apollo-require-preflight')).toBeNull();
      expect(log[0].requestHeaders.get('x-apollo-operation-name')).toBeNull();
      // Path answers never change: a GET answer of path questions may be kept by any cache.
      for (const sent of log) expectCaching(sent, 'cacheable');
    }
  });

  it('throws a ClientError holding the good alias and the bad alias’s error', async () => {
    const { client, log } = graphqlClient(method);
    const error = await clientError(client.request(GOOD_AND_BAD, { good: BLOCKED_KNIGHT, bad: OFF_BOARD }));
    expect(error.response.status).toBe(200);
    expect(error.response.data).toEqual({
      good: selectedAnswer(referenceAnswer('KNIGHT', ['b1'], ['g8'], ['d2'])),
      bad: null,
    });
    expect(error.response.errors).toHaveLength(1);
    expect(error.response.errors?.[0]).toMatchObject({
      message: OFF_BOARD_MESSAGE,
      path: ['bad'],
      extensions: { code: 'BAD_USER_INPUT', argument: 'query.from[0]' },
    });
    expect(log.map((r) => r.method)).toEqual([method]);
  });

  it('returns partial data and errors from rawRequest with errorPolicy all', async () => {
    const { client, log } = graphqlClient(method, { errorPolicy: 'all' });
    const result = await client.rawRequest<{ shortestPathsBatch: unknown[] }>(BATCH, {
      queries: [KNIGHT, OFF_BOARD, ROOK],
    });
    expect(result.status).toBe(200);
    expect(result.data.shortestPathsBatch).toEqual([
      selectedAnswer(referenceAnswer('KNIGHT', ['b1'], ['g8'])),
      null,
      selectedAnswer(referenceAnswer('ROOK', ['a1'], ['h8'])),
    ]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors?.[0]).toMatchObject({
      path: ['shortestPathsBatch', 1],
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(result.errors?.[0].message).toContain('"e9" is not a square on an 8 x 8 board');
    expect(log.map((r) => r.method)).toEqual([method]);
  });

  it('saves an analysis and updates it with its edit token over POST; a wrong token is FORBIDDEN', async () => {
    const { client, log } = graphqlClient(method);
    const title = `graphql-request ${method}: rook`;
    const saved = await client.request<{
      saveAnalysis: { editToken: string; analysis: { id: string; title: string; results: unknown[] } };
    }>(SAVE, { input: { title, queries: [ROOK, KNIGHT] } });
    const { editToken, analysis } = saved.saveAnalysis;
    const rook = referenceAnswer('ROOK', ['a1'], ['h8']);
    const knight = referenceAnswer('KNIGHT', ['b1'], ['g8']);
    expect(analysis.title).toBe(title);
    expect(analysis.results).toEqual([
      { distance: rook.distance, pathCount: rook.pathCount },
      { distance: knight.distance, pathCount: knight.pathCount },
    ]);

    const wrong = await clientError(
      client.request(UPDATE, { id: analysis.id, token: `${editToken}x`, input: { title: 'stolen' } }),
    );
    expect(wrong.response.data ?? null).toBeNull();
    expect(wrong.response.errors?.[0]).toMatchObject({ path: ['updateAnalysis'], extensions: { code: 'FORBIDDEN' } });
    const unchanged = await client.request<{ analysis: { title: string } }>(READ, { id: analysis.id });
    expect(unchanged.analysis.title).toBe(title);

    const updated = await client.request<{ updateAnalysis: unknown }>(UPDATE, {
      id: analysis.id,
      token: editToken,
      input: { title: `${title}, renamed`, queries: [SEED] },
    });
    const seed = referenceAnswer('KING', ['e4'], ['a1', 'h8']);
    const results = [{ distance: seed.distance, pathCount: seed.pathCount }];
    expect(updated.updateAnalysis).toEqual({ id: analysis.id, title: `${title}, renamed`, results });
    const read = await client.request<{ analysis: unknown }>(READ, { id: analysis.id });
    expect(read.analysis).toEqual({ id: analysis.id, title: `${title}, renamed`, results });

    // graphql-request sends mutations as POST whatever the client's method; queries with it.
    expect(log.map(describeRequest)).toEqual([
      'POST Save',
      'POST Update',
      `${method} Read`,
      'POST Update',
      `${method} Read`,
    ]);
    if (method === 'GET') {
      // Nothing between the client and the server may keep an answer about analyses.
      for (const sent of log.filter((r) => r.method === 'GET')) expectCaching(sent, 'no-store');
    }
  });

  it('pages through every shortest path with paths(first, after), in order, without repeats', async () => {
    const { client, log } = graphqlClient(method);
    // The knight around d2: 4 paths, in pages of 1 so every cursor is used.
    const expected = referenceAnswer('KNIGHT', ['b1'], ['g8']);
    const pages = await expectPagesOfPaths(
      async (after) => {
        const page: { shortestPaths: any } = await client.request(PATHS_PAGE, { query: KNIGHT, first: 1, after });
        expect(page.shortestPaths.paths.edges).toHaveLength(1);
        return page.shortestPaths;
      },
      expected,
      10,
    );
    expect(pages).toBe(expected.paths.length);
    expect(log.every((r) => r.method === method && r.status === 200)).toBe(true);
  });

  it('pages through analyses with analyses(first, after), newest first', async () => {
    const { client, log } = graphqlClient(method);
    const tag = `graphql-request-${method}-${Math.random().toString(36).slice(2)}`;
    for (const n of [1, 2, 3]) {
      await client.request(SAVE, { input: { title: `${tag} ${n}`, queries: [SEED] } });
      await clockPast(Date.now());
    }
    await expectAnalysesNewestFirst(tag, async (after) => {
      const page: { analyses: any } = await client.request(ANALYSES_PAGE, { first: 2, after });
      return page.analyses;
    });
    expect(log.every((r) => r.method === (r.body?.operationName === 'Save' ? 'POST' : method))).toBe(true);
  });
});

describe('graphql-request batchRequests', () => {
  /** One operation's answer in a batch: its data and, with errorPolicy all, its errors. */
  type Member = {
    data: { shortestPaths: unknown };
    errors?: { message: string; path?: unknown; extensions?: unknown }[];
  };

  it('sends several operations in one POST with a JSON array body, each answered in order', async () => {
    const { client, log } = graphqlClient('POST');
    const results = await client.batchRequests<[Member, Member, Member]>([
      { document: SHORTEST, variables: { query: SEED } },
      { document: SHORTEST, variables: { query: BLOCKED_KNIGHT } },
      { document: SHORTEST, variables: { query: ROOK } },
    ]);
    expect(results.map((r) => r.data.shortestPaths)).toEqual([
      selectedAnswer(referenceAnswer('KING', ['e4'], ['a1', 'h8'])),
      selectedAnswer(referenceAnswer('KNIGHT', ['b1'], ['g8'], ['d2'])),
      selectedAnswer(referenceAnswer('ROOK', ['a1'], ['h8'])),
    ]);
    expect(log).toHaveLength(1);
    expect([log[0].method, log[0].status]).toEqual(['POST', 200]);
    expect(log[0].body.map((op: { variables: unknown }) => op.variables)).toEqual([
      { query: SEED },
      { query: BLOCKED_KNIGHT },
      { query: ROOK },
    ]);
  });

  it('answers the other operations of a batch when one is bad (errorPolicy all)', async () => {
    const { client, log } = graphqlClient('POST', { errorPolicy: 'all' });
    const results = await client.batchRequests<[Member, Member, Member]>([
      { document: SHORTEST, variables: { query: KNIGHT } },
      { document: SHORTEST, variables: { query: OFF_BOARD } },
      { document: SHORTEST, variables: { query: SEED } },
    ]);
    expect(results.map((r) => r.data.shortestPaths)).toEqual([
      selectedAnswer(referenceAnswer('KNIGHT', ['b1'], ['g8'])),
      null,
      selectedAnswer(referenceAnswer('KING', ['e4'], ['a1', 'h8'])),
    ]);
    expect(results[0].errors).toBeUndefined();
    expect(results[2].errors).toBeUndefined();
    expectOnlyOffBoardError(results[1].errors, ['shortestPaths']);
    expect(log).toHaveLength(1);
    expect(log[0].body).toHaveLength(3);
  });
});

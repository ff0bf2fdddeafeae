/**
 * The server as Apollo Client 4 users of `HttpLink` with `useGETForQueries` meet it, over real
 * HTTP to a real server: queries as GET, mutations still POST. Queries with variables, partial
 * answers (one alias or one batch entry bad, the rest answered), saving an analysis and updating
 * it with its edit token, and cursor paging of paths and of analyses. Our own tests post JSON by
 * hand; these catch what only a real client does (its URL encoding, headers) and how it surfaces
 * partial data. Every HTTP request is recorded through the client's `fetch`, so a test that claims
 * GET proves it rather than passing on a silent fallback to POST. Expected answers come from the
 * independent reference BFS, never from the server. BatchHttpLink and the persisted-queries link
 * are server.clients.apollo.batch-and-persisted.test.ts's.
 */
import { type ApolloClient, gql, HttpLink } from '@apollo/client';
import { describe, expect, it } from 'vitest';
import { type Answer, client, expectAnswer, graphQLErrors } from './support/apollo-client.js';
import {
  describeRequest,
  expectAnalysesNewestFirst,
  expectCaching,
  expectPagesOfPaths,
  OFF_BOARD_MESSAGE,
  parseDocuments,
  QUESTIONS,
  type RecordedRequest,
  referenceAnswer,
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

/** The client's `HttpLink` with queries as GET, and the log of its requests. */
function getClient(): { apollo: ApolloClient; log: RecordedRequest[] } {
  const { url, fetch, log } = served.connect();
  const link = new HttpLink({ uri: url, useGETForQueries: true, fetch });
  return { apollo: client(link), log };
}

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

const { KNIGHT, ROOK, BLOCKED_KNIGHT, SEED, OFF_BOARD } = QUESTIONS;
const { SHORTEST, GOOD_AND_BAD, BATCH, PATHS_PAGE, SAVE, UPDATE, READ, ANALYSES_PAGE } = parseDocuments(gql);

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe('Apollo Client HttpLink with useGETForQueries', () => {
  it('sends queries with variables as GET and gets the reference answers', async () => {
    const { apollo, log } = getClient();
    const knight = await apollo.query<{ shortestPaths: Answer }>({ query: SHORTEST, variables: { query: KNIGHT } });
    const rook = await apollo.query<{ shortestPaths: Answer }>({ query: SHORTEST, variables: { query: ROOK } });
    expect(knight.error).toBeUndefined();
    expectAnswer(knight.data?.shortestPaths, referenceAnswer('KNIGHT', ['b1'], ['g8']));
    expectAnswer(rook.data?.shortestPaths, referenceAnswer('ROOK', ['a1'], ['h8']));

    // Two GETs with the operation in the query string, no body: not a fallback to POST. (Apollo
    // sends `content-type: application/json` even on GET, so the GETs without any such header are
    // the urql and graphql-request tests'.)
    expect(log.map((r) => [r.method, r.status])).toEqual([
      ['GET', 200],
      ['GET', 200],
    ]);
    expect(log[0].body).toBeUndefined();
    expect(log[0].url.searchParams.get('operationName')).toBe('Shortest');
    expect(log[0].url.searchParams.get('query')).toContain('shortestPaths');
    expect(JSON.parse(log[0].url.searchParams.get('variables') ?? 'null')).toEqual({ query: KNIGHT });
    expectCaching(log[0], 'cacheable');
    expectCaching(log[1], 'cacheable');
  });

  it('answers the good alias and nulls the bad one (errorPolicy all), with the error naming it', async () => {
    const { apollo, log } = getClient();
    const result = await apollo.query<{ good: Answer | null; bad: Answer | null }>({
      query: GOOD_AND_BAD,
      variables: { good: BLOCKED_KNIGHT, bad: OFF_BOARD },
      errorPolicy: 'all',
    });
    expectAnswer(result.data?.good, referenceAnswer('KNIGHT', ['b1'], ['g8'], ['d2']));
    expect(result.data?.bad).toBeNull();
    const errors = graphQLErrors(result.error);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      message: OFF_BOARD_MESSAGE,
      path: ['bad'],
      extensions: { code: 'BAD_USER_INPUT', argument: 'query.from[0]' },
    });
    expect(log.map((r) => [r.method, r.status])).toEqual([['GET', 200]]);

    // With the default policy the same answer is an error: partial data is what errorPolicy buys.
    const strict = await rejection(
      apollo.query({ query: GOOD_AND_BAD, variables: { good: BLOCKED_KNIGHT, bad: OFF_BOARD } }),
    );
    expect(graphQLErrors(strict)[0].message).toBe(OFF_BOARD_MESSAGE);
  });

  it('answers a batch with a bad entry: null at its index, the error path names the index', async () => {
    const { apollo, log } = getClient();
    const result = await apollo.query<{ shortestPathsBatch: (Answer | null)[] }>({
      query: BATCH,
      variables: { queries: [SEED, OFF_BOARD, ROOK] },
      errorPolicy: 'all',
    });
    const batch = result.data?.shortestPathsBatch ?? [];
    expect(batch).toHaveLength(3);
    expectAnswer(batch[0], referenceAnswer('KING', ['e4'], ['a1', 'h8']));
    expect(batch[1]).toBeNull();
    expectAnswer(batch[2], referenceAnswer('ROOK', ['a1'], ['h8']));
    const errors = graphQLErrors(result.error);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ path: ['shortestPathsBatch', 1], extensions: { code: 'BAD_USER_INPUT' } });
    expect(errors[0].message).toContain('"e9" is not a square on an 8 x 8 board');
    expect(log.map((r) => r.method)).toEqual(['GET']);
  });

  it('saves an analysis and updates it with its edit token over POST; a wrong token is FORBIDDEN', async () => {
    const { apollo, log } = getClient();
    const saved = await apollo.mutate<{
      saveAnalysis: { editToken: string; analysis: { id: string; title: string; results: Answer[] } };
    }>({
      mutation: SAVE,
      variables: { input: { title: 'apollo: knight', queries: [KNIGHT, SEED] } },
    });
    const { editToken, analysis } = saved.data?.saveAnalysis ?? expect.unreachable('no saveAnalysis');
    const knight = referenceAnswer('KNIGHT', ['b1'], ['g8']);
    const seed = referenceAnswer('KING', ['e4'], ['a1', 'h8']);
    expect(analysis.title).toBe('apollo: knight');
    expect(analysis.results.map((r) => [r.distance, r.pathCount])).toEqual([
      [knight.distance, knight.pathCount],
      [seed.distance, seed.pathCount],
    ]);

    const wrong = await rejection(
      apollo.mutate({
        mutation: UPDATE,
        variables: { id: analysis.id, token: 'not-the-token', input: { title: 'x' } },
      }),
    );
    expect(graphQLErrors(wrong)[0]).toMatchObject({ path: ['updateAnalysis'], extensions: { code: 'FORBIDDEN' } });
    const unchanged = await apollo.query<{ analysis: { title: string } }>({
      query: READ,
      variables: { id: analysis.id },
    });
    expect(unchanged.data?.analysis.title).toBe('apollo: knight');

    const updated = await apollo.mutate<{ updateAnalysis: { id: string; title: string; results: Answer[] } }>({
      mutation: UPDATE,
      variables: { id: analysis.id, token: editToken, input: { title: 'apollo: rook', queries: [ROOK] } },
    });
    const rook = referenceAnswer('ROOK', ['a1'], ['h8']);
    expect(updated.data?.updateAnalysis).toMatchObject({
      id: analysis.id,
      title: 'apollo: rook',
      results: [{ distance: rook.distance, pathCount: rook.pathCount }],
    });
    const read = await apollo.query<{ analysis: { title: string; results: Answer[] } }>({
      query: READ,
      variables: { id: analysis.id },
    });
    expect(read.data?.analysis).toMatchObject({
      title: 'apollo: rook',
      results: [{ distance: rook.distance, pathCount: rook.pathCount }],
    });

    // Mutations went as POST despite useGETForQueries; the reads between them as GET.
    expect(log.map(describeRequest)).toEqual(['POST Save', 'POST Update', 'GET Read', 'POST Update', 'GET Read']);
    // A browser must not answer the read after the update from its cache.
    for (const read of log.filter((r) => r.method === 'GET')) expectCaching(read, 'no-store');
  });

  it('pages through every shortest path with paths(first, after), in order, without repeats', async () => {
    const { apollo, log } = getClient();
    const expected = referenceAnswer('KING', ['e4'], ['a1', 'h8']);
    const pages = await expectPagesOfPaths(
      async (after) => {
        const page: { data?: any } = await apollo.query({
          query: PATHS_PAGE,
          variables: { query: SEED, first: 3, after },
        });
        return page.data.shortestPaths;
      },
      expected,
      10,
    );
    // 8 paths in pages of 3: 3 + 3 + 2, in the reference's (lexicographic) order.
    expect(pages).toBe(Math.ceil(expected.paths.length / 3));
    expect(log.every((r) => r.method === 'GET')).toBe(true);
  });

  it('pages through analyses with analyses(first, after), newest first', async () => {
    const { apollo, log } = getClient();
    const tag = `apollo-list-${Math.random().toString(36).slice(2)}`;
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const saved: { data?: any } = await apollo.mutate({
        mutation: SAVE,
        variables: { input: { title: `${tag} ${n}`, queries: [ROOK] } },
      });
      ids.push(saved.data.saveAnalysis.analysis.id);
      await clockPast(Date.now());
    }
    // Ours, newest first: saved 1, 2, 3, so listed 3, 2, 1.
    const listed = await expectAnalysesNewestFirst(tag, async (after) => {
      const page: { data?: any } = await apollo.query({ query: ANALYSES_PAGE, variables: { first: 2, after } });
      return page.data.analyses;
    });
    expect(listed.filter((a) => ids.includes(a.id))).toHaveLength(3);
    expect(log.filter((r) => r.method === 'GET').length).toBeGreaterThan(0);
    expect(log.every((r) => r.method === (r.body?.operationName === 'Save' ? 'POST' : 'GET'))).toBe(true);
  });
});

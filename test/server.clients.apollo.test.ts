/**
 * The server as Apollo Client 4 users meet it, over real HTTP to a real server: `HttpLink` with
 * `useGETForQueries` (queries as GET, mutations still POST), `BatchHttpLink` (several operations
 * in one POST with a JSON array body), and the persisted-queries link sending hashed queries as
 * GET. For each: queries with variables, partial answers (one alias, one batch entry or one HTTP
 * batch member bad, the rest answered), saving an analysis and updating it with its edit token,
 * and cursor paging of paths and of analyses. Our own tests post JSON by hand; these catch what
 * only a real client does (its URL encoding, headers, batching, APQ retries) and how it surfaces
 * partial data. Every HTTP request is recorded through the client's `fetch`, so a test that
 * claims GET or one batched request proves it rather than passing on a silent fallback to POST.
 * Expected answers come from the independent reference BFS, never from the server.
 */
import { createHash } from 'node:crypto';
import { ApolloClient, type ApolloLink, CombinedGraphQLErrors, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import type { GraphQLFormattedError } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  describeRequest,
  type ExpectedAnswer,
  expectAnalysesNewestFirst,
  expectCaching,
  expectOnlyOffBoardError,
  expectPagesOfPaths,
  OFF_BOARD_MESSAGE,
  parseDocuments,
  QUESTIONS,
  type RecordedRequest,
  referenceAnswer,
  selectedAnswerWithTypenames,
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

/** A client on `link`; no cache between requests, so every query in a test reaches the server. */
function client(link: ApolloLink): ApolloClient {
  return new ApolloClient({
    link,
    cache: new InMemoryCache(),
    defaultOptions: { query: { fetchPolicy: 'no-cache' }, mutate: { fetchPolicy: 'no-cache' } },
  });
}

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

/** The GraphQL errors of an Apollo error, or a failure naming what came instead. */
function graphQLErrors(error: unknown): readonly GraphQLFormattedError[] {
  if (!CombinedGraphQLErrors.is(error)) throw new Error(`expected GraphQL errors, got ${String(error)}`);
  return error.errors;
}

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

const { KNIGHT, ROOK, BLOCKED_KNIGHT, SEED, OFF_BOARD } = QUESTIONS;

interface Answer {
  distance: number | null;
  pathCount: string;
  path: { squares: string[] } | null;
}

const { SHORTEST, GOOD_AND_BAD, BATCH, PATHS_PAGE, SAVE, UPDATE, READ, ANALYSES_PAGE } = parseDocuments(gql);

/** Checks an answer as Apollo Client gives it against the reference's. */
function expectAnswer(actual: Answer | null | undefined, expected: ExpectedAnswer): void {
  expect(actual).toEqual(selectedAnswerWithTypenames(expected));
}

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

describe('Apollo Client BatchHttpLink', () => {
  /**
   * A client whose batch is sent as soon as it holds `size` operations: the operations started
   * together share one request by count, not by arriving within a time window. (The interval, far
   * longer than any test, only sends a batch left short, which then fails the test's count.)
   */
  function batchClient(size: number): { apollo: ApolloClient; log: RecordedRequest[] } {
    const { url, fetch, log } = served.connect();
    const link = new BatchHttpLink({ uri: url, batchMax: size, batchInterval: 120_000, fetch });
    return { apollo: client(link), log };
  }

  it('sends operations started together as one POST with a JSON array body, each answered', async () => {
    const { apollo, log } = batchClient(3);
    const [knight, rook, seed] = await Promise.all(
      [KNIGHT, ROOK, SEED].map((query) =>
        apollo.query<{ shortestPaths: Answer }>({ query: SHORTEST, variables: { query } }),
      ),
    );
    expectAnswer(knight.data?.shortestPaths, referenceAnswer('KNIGHT', ['b1'], ['g8']));
    expectAnswer(rook.data?.shortestPaths, referenceAnswer('ROOK', ['a1'], ['h8']));
    expectAnswer(seed.data?.shortestPaths, referenceAnswer('KING', ['e4'], ['a1', 'h8']));

    expect(log).toHaveLength(1);
    expect(log[0].method).toBe('POST');
    expect(log[0].status).toBe(200);
    expect(Array.isArray(log[0].body)).toBe(true);
    expect(log[0].body.map((op: { variables: unknown }) => op.variables)).toEqual([
      { query: KNIGHT },
      { query: ROOK },
      { query: SEED },
    ]);
  });

  it('runs a mutation batched with a query every time, even when the same batch is sent twice', async () => {
    // The server replays the answers of repeated POST bodies made only of hot path results; a
    // batch holding a mutation must never be one of them, or the second save would not happen.
    const { apollo, log } = batchClient(2);
    const title = `apollo: batched save ${Math.random().toString(36).slice(2)}`;
    const send = () =>
      Promise.all([
        apollo.query<{ shortestPaths: Answer }>({ query: SHORTEST, variables: { query: KNIGHT } }),
        apollo.mutate<{ saveAnalysis: { editToken: string; analysis: { id: string; title: string } } }>({
          mutation: SAVE,
          variables: { input: { title, queries: [KNIGHT] } },
        }),
      ]);
    const [knight1, saved1] = await send();
    const [knight2, saved2] = await send();
    expect(log).toHaveLength(2);
    expect(log[0].body).toHaveLength(2);
    expect(log[1].body).toEqual(log[0].body);

    const expected = referenceAnswer('KNIGHT', ['b1'], ['g8']);
    expectAnswer(knight1.data?.shortestPaths, expected);
    expectAnswer(knight2.data?.shortestPaths, expected);
    const first = saved1.data?.saveAnalysis ?? expect.unreachable('no first save');
    const second = saved2.data?.saveAnalysis ?? expect.unreachable('no second save');
    expect(first.analysis.title).toBe(title);
    expect(second.analysis.title).toBe(title);
    expect(second.analysis.id).not.toBe(first.analysis.id);
    expect(second.editToken).not.toBe(first.editToken);
    // Both are stored.
    for (const { analysis } of [first, second]) {
      const { body } = await served.server.gql('query($id: ID!) { analysis(id: $id) { id title } }', {
        id: analysis.id,
      });
      expect(body.data.analysis).toEqual({ id: analysis.id, title });
    }
  });

  it('answers the other members of a batch when one is bad', async () => {
    const { apollo, log } = batchClient(3);
    const [good, bad, other] = await Promise.all([
      apollo.query<{ shortestPaths: Answer | null }>({ query: SHORTEST, variables: { query: BLOCKED_KNIGHT } }),
      apollo.query<{ shortestPaths: Answer | null }>({
        query: SHORTEST,
        variables: { query: OFF_BOARD },
        errorPolicy: 'all',
      }),
      apollo.query<{ shortestPaths: Answer | null }>({ query: SHORTEST, variables: { query: ROOK } }),
    ]);
    expect(good.error).toBeUndefined();
    expectAnswer(good.data?.shortestPaths, referenceAnswer('KNIGHT', ['b1'], ['g8'], ['d2']));
    expect(other.error).toBeUndefined();
    expectAnswer(other.data?.shortestPaths, referenceAnswer('ROOK', ['a1'], ['h8']));
    expect(bad.data?.shortestPaths).toBeNull();
    expectOnlyOffBoardError(graphQLErrors(bad.error), ['shortestPaths']);
    expect(log).toHaveLength(1);
    expect(log[0].body).toHaveLength(3);
  });
});

describe('Apollo Client persisted-queries link with useGETForHashedQueries', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  function apqClient(): { apollo: ApolloClient; log: RecordedRequest[] } {
    const { url, fetch, log } = served.connect();
    const http = new HttpLink({ uri: url, fetch });
    const link = new PersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(http);
    return { apollo: client(link), log };
  }

  /** The persisted-query extension of a recorded request (query string for GET, body for POST). */
  function persistedQuery(sent: RecordedRequest): { version: number; sha256Hash: string } | undefined {
    const extensions =
      sent.method === 'GET' ? JSON.parse(sent.url.searchParams.get('extensions') ?? '{}') : sent.body.extensions;
    return extensions?.persistedQuery;
  }

  it('registers an unknown hash through the full query, then answers the hash alone over GET', async () => {
    // A document of its own, so no other test of this server has registered its hash.
    const DOCUMENT = gql`
      query PersistedDistance($query: PathQuery!) {
        persisted: shortestPaths(query: $query) { distance pathCount path { squares } }
      }
    `;
    const first = apqClient();
    const knight = await first.apollo.query<{ persisted: Answer }>({ query: DOCUMENT, variables: { query: KNIGHT } });
    expectAnswer(knight.data?.persisted, referenceAnswer('KNIGHT', ['b1'], ['g8']));
    // The hash alone as GET, not known yet; then the link's retry with the full query as POST.
    expect(first.log.map((r) => [r.method, r.status])).toEqual([
      ['GET', 200],
      ['POST', 200],
    ]);
    const [miss, registration] = first.log;
    expect(miss.url.searchParams.has('query')).toBe(false);
    // A cache keeping the miss would answer "not found" for this URL long after registration.
    expectCaching(miss, 'no-store');
    const hash = persistedQuery(miss)?.sha256Hash;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(registration.body.query).toContain('PersistedDistance');
    expect(persistedQuery(registration)?.sha256Hash).toBe(hash);
    expect(sha256(registration.body.query)).toBe(hash);

    // A new client (a new page load): one GET with the hash and other variables, answered.
    const second = apqClient();
    const rook = await second.apollo.query<{ persisted: Answer }>({ query: DOCUMENT, variables: { query: ROOK } });
    expect(rook.error).toBeUndefined();
    expectAnswer(rook.data?.persisted, referenceAnswer('ROOK', ['a1'], ['h8']));
    expect(second.log.map((r) => [r.method, r.status])).toEqual([['GET', 200]]);
    expect(second.log[0].url.searchParams.has('query')).toBe(false);
    expect(persistedQuery(second.log[0])?.sha256Hash).toBe(hash);
    expect(JSON.parse(second.log[0].url.searchParams.get('variables') ?? 'null')).toEqual({ query: ROOK });
    // What hashed GETs are for: a short URL a CDN can keep.
    expectCaching(second.log[0], 'cacheable');
  });

  it('keeps partial answers of a persisted query: the good alias answered, the bad one null', async () => {
    const { apollo, log } = apqClient();
    const variables = { good: SEED, bad: OFF_BOARD };
    // Register the document, then ask again by hash alone.
    await apollo.query({ query: GOOD_AND_BAD, variables, errorPolicy: 'all' });
    log.length = 0;
    const result = await apollo.query<{ good: Answer | null; bad: Answer | null }>({
      query: GOOD_AND_BAD,
      variables,
      errorPolicy: 'all',
    });
    expect(log.map((r) => [r.method, r.url.searchParams.has('query')])).toEqual([['GET', false]]);
    expectAnswer(result.data?.good, referenceAnswer('KING', ['e4'], ['a1', 'h8']));
    expect(result.data?.bad).toBeNull();
    expect(graphQLErrors(result.error)).toEqual([
      expect.objectContaining({ message: OFF_BOARD_MESSAGE, path: ['bad'] }),
    ]);
  });

  it('sends mutations as POST even with useGETForHashedQueries', async () => {
    const { apollo, log } = apqClient();
    const saved = await apollo.mutate<{ saveAnalysis: { analysis: { title: string; results: Answer[] } } }>({
      mutation: SAVE,
      variables: { input: { title: 'apollo: persisted', queries: [BLOCKED_KNIGHT] } },
    });
    const blocked = referenceAnswer('KNIGHT', ['b1'], ['g8'], ['d2']);
    expect(saved.data?.saveAnalysis.analysis).toMatchObject({
      title: 'apollo: persisted',
      results: [{ distance: blocked.distance, pathCount: blocked.pathCount }],
    });
    expect(log.length).toBeGreaterThan(0);
    expect(log.every((r) => r.method === 'POST')).toBe(true);
  });
});

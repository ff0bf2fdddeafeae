/**
 * The server as Apollo Client 4 users of its request-shaping links meet it, over real HTTP to a
 * real server: `BatchHttpLink` (several operations in one POST with a JSON array body), and the
 * persisted-queries link sending hashed queries as GET. For each: queries with variables, partial
 * answers (one HTTP batch member or one alias bad, the rest answered), and saving an analysis, a
 * mutation batched with a query or sent as POST beside hashed GETs. Our own tests post JSON by
 * hand; these catch what only a real client does (its batching, APQ retries) and how it surfaces
 * partial data. Every HTTP request is recorded through the client's `fetch`, so a test that claims
 * GET or one batched request proves it rather than passing on a silent fallback. Expected answers
 * come from the independent reference BFS, never from the server. `HttpLink` alone is
 * server.clients.apollo.http-link.test.ts's.
 */
import { createHash } from 'node:crypto';
import { type ApolloClient, gql, HttpLink } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { describe, expect, it } from 'vitest';
import { type Answer, client, expectAnswer, graphQLErrors } from './support/apollo-client.js';
import {
  expectCaching,
  expectOnlyOffBoardError,
  OFF_BOARD_MESSAGE,
  parseDocuments,
  QUESTIONS,
  type RecordedRequest,
  referenceAnswer,
  useServerWithDatabase,
} from './support/client-fixtures.js';

const served = useServerWithDatabase();

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

const { KNIGHT, ROOK, BLOCKED_KNIGHT, SEED, OFF_BOARD } = QUESTIONS;
const { SHORTEST, GOOD_AND_BAD, SAVE } = parseDocuments(gql);

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

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

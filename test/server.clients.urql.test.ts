/**
 * The server as `@urql/core` users meet it, over real HTTP to a real server: a `Client` set up as
 * urql's docs do (`cacheExchange` then `fetchExchange`) with its defaults. urql 6 sends a query as
 * GET while the URL stays under 2,048 characters (`preferGetMethod: 'within-url-limit'` by
 * default), with no content type and no preflight header, and as POST past that; mutations always
 * as POST. Checked: queries with variables both ways, partial answers as urql surfaces them
 * (`result.data` beside `result.error.graphQLErrors`), saving an analysis and updating it with its
 * edit token (and urql's document cache dropping a stale read after the update), and cursor
 * paging of paths and of analyses. Every HTTP request is recorded through the client's `fetch`,
 * so a test that claims GET proves it. Expected answers come from the independent reference BFS.
 */
import { Client, type CombinedError, cacheExchange, fetchExchange, gql, type OperationResult } from '@urql/core';
import { describe, expect, it } from 'vitest';
import {
  type AnalysesPage,
  describeRequest,
  expectAnalysesNewestFirst,
  expectCaching,
  expectPagesOfPaths,
  OFF_BOARD_MESSAGE,
  type PathsPage,
  parseDocuments,
  QUESTIONS,
  referenceAnswer,
  selectedAnswerWithTypenames,
  squareName,
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

/** A client as urql's docs set one up, with its defaults, and the log of its requests. */
function urqlClient() {
  const { url, fetch, log } = served.connect();
  const client = new Client({ url, exchanges: [cacheExchange, fetchExchange], fetch });
  return { client, log };
}

/** The GraphQL errors of a urql result, or a failure saying there were none. */
function graphQLErrors(error: CombinedError | undefined) {
  if (!error) throw new Error('expected an error');
  expect(error.networkError).toBeUndefined();
  return error.graphQLErrors;
}

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

const { KNIGHT, ROOK, BLOCKED_KNIGHT, SEED, OFF_BOARD } = QUESTIONS;

const { SHORTEST, GOOD_AND_BAD, BATCH, PATHS_PAGE, SAVE, UPDATE, READ, ANALYSES_PAGE } = parseDocuments(gql<any>);

const DISTANCES = gql`
  query Distances($queries: [PathQuery!]!) {
    shortestPathsBatch(queries: $queries) { distance }
  }
`;

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe('urql Client with cacheExchange and fetchExchange', () => {
  it('sends a short query with variables as GET, with no preflight header, and gets the reference answer', async () => {
    const { client, log } = urqlClient();
    const result = await client.query(SHORTEST, { query: KNIGHT }).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.shortestPaths).toEqual(selectedAnswerWithTypenames(referenceAnswer('KNIGHT', ['b1'], ['g8'])));

    expect(log).toHaveLength(1);
    const [sent] = log;
    expect([sent.method, sent.status]).toEqual(['GET', 200]);
    expect(sent.body).toBeUndefined();
    expect(sent.url.searchParams.get('query')).toContain('shortestPaths');
    expect(JSON.parse(sent.url.searchParams.get('variables') ?? 'null')).toEqual({ query: KNIGHT });
    // A plain GET: nothing that would have passed Apollo's CSRF preflight check.
    expect(sent.requestHeaders.get('content-type')).toBeNull();
    expect(sent.requestHeaders.get('apollo-require-preflight')).toBeNull();
    expect(sent.requestHeaders.get('x-apollo-operation-name')).toBeNull();
    expectCaching(sent, 'cacheable');

    // The same question again is urql's own cache hit: no second request.
    const again = await client.query(SHORTEST, { query: KNIGHT }).toPromise();
    expect(again.data?.shortestPaths).toEqual(result.data?.shortestPaths);
    expect(log).toHaveLength(1);
  });

  it('sends a query whose URL would pass 2,048 characters as POST, and it is answered too', async () => {
    const { client, log } = urqlClient();
    // The king from e4 to each of the 64 squares: far too long for a URL.
    const targets = Array.from({ length: 64 }, (_, i) => squareName(i));
    const queries = targets.map((to) => ({ piece: 'KING', from: ['e4'], to: [to] }));
    const result = await client.query(DISTANCES, { queries }).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.shortestPathsBatch.map((r: { distance: number }) => r.distance)).toEqual(
      targets.map((to) => referenceAnswer('KING', ['e4'], [to]).distance),
    );
    expect(log.map((r) => [r.method, r.status])).toEqual([['POST', 200]]);
    expect(log[0].body.variables.queries).toHaveLength(64);
  });

  it('gives the good alias in result.data and the bad one in result.error.graphQLErrors', async () => {
    const { client, log } = urqlClient();
    const result = await client.query(GOOD_AND_BAD, { good: BLOCKED_KNIGHT, bad: OFF_BOARD }).toPromise();
    expect(result.data?.good).toEqual(selectedAnswerWithTypenames(referenceAnswer('KNIGHT', ['b1'], ['g8'], ['d2'])));
    expect(result.data?.bad).toBeNull();
    const errors = graphQLErrors(result.error);
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toBe(OFF_BOARD_MESSAGE);
    expect(errors[0].path).toEqual(['bad']);
    expect(errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'query.from[0]' });
    expect(log.map((r) => [r.method, r.status])).toEqual([['GET', 200]]);
  });

  it('answers a batch with a bad entry: null at its index, the error path names the index', async () => {
    const { client, log } = urqlClient();
    const result = await client.query(BATCH, { queries: [ROOK, SEED, OFF_BOARD, KNIGHT] }).toPromise();
    expect(result.data?.shortestPathsBatch).toEqual([
      selectedAnswerWithTypenames(referenceAnswer('ROOK', ['a1'], ['h8'])),
      selectedAnswerWithTypenames(referenceAnswer('KING', ['e4'], ['a1', 'h8'])),
      null,
      selectedAnswerWithTypenames(referenceAnswer('KNIGHT', ['b1'], ['g8'])),
    ]);
    const errors = graphQLErrors(result.error);
    expect(errors).toHaveLength(1);
    expect(errors[0].path).toEqual(['shortestPathsBatch', 2]);
    expect(errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(errors[0].message).toContain('"e9" is not a square on an 8 x 8 board');
    expect(log.map((r) => r.method)).toEqual(['GET']);
  });

  it('saves an analysis and updates it with its edit token over POST; a wrong token is FORBIDDEN', async () => {
    const { client, log } = urqlClient();
    const saved = await client.mutation(SAVE, { input: { title: 'urql: seed', queries: [SEED] } }).toPromise();
    expect(saved.error).toBeUndefined();
    const { editToken, analysis } = saved.data.saveAnalysis;
    const seed = referenceAnswer('KING', ['e4'], ['a1', 'h8']);
    expect(analysis).toMatchObject({
      title: 'urql: seed',
      results: [{ distance: seed.distance, pathCount: seed.pathCount }],
    });

    const read = await client.query(READ, { id: analysis.id }).toPromise();
    expect(read.data?.analysis.title).toBe('urql: seed');

    const wrong = await client
      .mutation(UPDATE, { id: analysis.id, token: 'not-the-token', input: { title: 'stolen' } })
      .toPromise();
    expect(wrong.data?.updateAnalysis ?? null).toBeNull();
    const [forbidden] = graphQLErrors(wrong.error);
    expect(forbidden.path).toEqual(['updateAnalysis']);
    expect(forbidden.extensions.code).toBe('FORBIDDEN');
    // Past urql's cache, straight from the server: unchanged.
    const unchanged = await client.query(READ, { id: analysis.id }, { requestPolicy: 'network-only' }).toPromise();
    expect(unchanged.data?.analysis.title).toBe('urql: seed');

    const updated = await client
      .mutation(UPDATE, {
        id: analysis.id,
        token: editToken,
        input: { title: 'urql: blocked knight', queries: [BLOCKED_KNIGHT, ROOK] },
      })
      .toPromise();
    expect(updated.error).toBeUndefined();
    const blocked = referenceAnswer('KNIGHT', ['b1'], ['g8'], ['d2']);
    const rook = referenceAnswer('ROOK', ['a1'], ['h8']);
    const results = [
      { distance: blocked.distance, pathCount: blocked.pathCount },
      { distance: rook.distance, pathCount: rook.pathCount },
    ];
    expect(updated.data?.updateAnalysis).toMatchObject({ id: analysis.id, title: 'urql: blocked knight', results });

    // The update returned an Analysis, so urql's cache dropped the cached read: this one goes to
    // the server again (cache-first, the default) and sees the update.
    const fresh = await client.query(READ, { id: analysis.id }).toPromise();
    expect(fresh.data?.analysis).toMatchObject({ title: 'urql: blocked knight', results });

    expect(log.map(describeRequest)).toEqual([
      'POST Save',
      'GET Read',
      'POST Update',
      'GET Read',
      'POST Update',
      'GET Read',
    ]);
    // Nothing between urql and the server may keep an answer about analyses.
    for (const sent of log.filter((r) => r.method === 'GET')) expectCaching(sent, 'no-store');
  });

  it('pages through every shortest path with paths(first, after), in order, without repeats', async () => {
    const { client, log } = urqlClient();
    // The knight from corner to corner: more paths than one page holds, few enough to list.
    const query = { piece: 'KNIGHT', from: ['a1'], to: ['h8'] };
    const expected = referenceAnswer('KNIGHT', ['a1'], ['h8']);
    const first = 25;
    const pages = await expectPagesOfPaths(
      async (after) => {
        const page: OperationResult<{ shortestPaths: PathsPage }> = await client
          .query(PATHS_PAGE, { query, first, after })
          .toPromise();
        expect(page.error).toBeUndefined();
        const result = page.data?.shortestPaths ?? expect.unreachable('no shortestPaths');
        // Every page but the last is full.
        if (result.paths.pageInfo.hasNextPage) expect(result.paths.edges).toHaveLength(first);
        return result;
      },
      expected,
      20,
    );
    expect(pages).toBe(Math.ceil(expected.paths.length / first));
    expect(log.every((r) => r.method === 'GET' && r.status === 200)).toBe(true);
  });

  it('pages through analyses with analyses(first, after), newest first', async () => {
    const { client, log } = urqlClient();
    const tag = `urql-list-${Math.random().toString(36).slice(2)}`;
    for (const n of [1, 2, 3]) {
      const saved = await client.mutation(SAVE, { input: { title: `${tag} ${n}`, queries: [KNIGHT] } }).toPromise();
      expect(saved.error).toBeUndefined();
      await clockPast(Date.now());
    }
    await expectAnalysesNewestFirst(tag, async (after) => {
      const page: OperationResult<{ analyses: AnalysesPage }> = await client
        .query(ANALYSES_PAGE, { first: 2, after })
        .toPromise();
      expect(page.error).toBeUndefined();
      return page.data?.analyses ?? expect.unreachable('no analyses');
    });
    expect(log.every((r) => r.method === (r.body?.operationName === 'Save' ? 'POST' : 'GET'))).toBe(true);
  });
});

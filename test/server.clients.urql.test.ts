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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ReferencePiece,
  referenceOpenBoard,
  referenceParseSquare,
  referenceSolve,
  referenceSquareName,
} from './support/reference-bfs.js';
import { startTestServer, type TestServer } from './support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ database: true });
});
afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** One HTTP request a client made, and what came back. */
interface Sent {
  method: string;
  url: URL;
  /** The request's headers, as the client set them. */
  requestHeaders: Headers;
  /** The parsed JSON body of a POST; undefined for GET. */
  body: any;
  status: number;
  headers: Headers;
}

/** A `fetch` for a client that records each request (method, URL, headers, body) and its response. */
function recordingFetch(log: Sent[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const response = await fetch(input, init);
    const requestHeaders = new Headers(input instanceof Request ? input.headers : init?.headers);
    log.push({ method, url, requestHeaders, body, status: response.status, headers: response.headers });
    return response;
  };
}

/** A client as urql's docs set one up, with its defaults, and the log of its requests. */
function urqlClient(): { client: Client; log: Sent[] } {
  const log: Sent[] = [];
  const client = new Client({
    url: `${t.url}/graphql`,
    exchanges: [cacheExchange, fetchExchange],
    fetch: recordingFetch(log),
  });
  return { client, log };
}

/** The GraphQL errors of a urql result, or a failure saying there were none. */
function graphQLErrors(error: CombinedError | undefined) {
  if (!error) throw new Error('expected an error');
  expect(error.networkError).toBeUndefined();
  return error.graphQLErrors;
}

/** A GET answer of path questions only may be cached publicly, with an ETag to revalidate. */
function expectCacheable(sent: Sent): void {
  expect(sent.method).toBe('GET');
  const cacheControl = sent.headers.get('cache-control') ?? '';
  expect(cacheControl).toMatch(/\bpublic\b/);
  expect(Number(/\bmax-age=(\d+)/.exec(cacheControl)?.[1] ?? 0)).toBeGreaterThan(0);
  expect(sent.headers.get('etag')).toBeTruthy();
}

const BOARD = { files: 8, ranks: 8 };

function squareIndex(name: string): number {
  const index = referenceParseSquare(name, BOARD);
  if (index === null) throw new Error(`${name} is not a square`);
  return index;
}

/** The reference BFS's answer to a question on an open 8 x 8 board (minus `blocked`). */
function reference(piece: ReferencePiece, from: string[], to: string[], blocked: string[] = []) {
  const passable = referenceOpenBoard(BOARD);
  for (const square of blocked) passable[squareIndex(square)] = false;
  const answer = referenceSolve({
    piece,
    ...BOARD,
    passable,
    sources: from.map(squareIndex),
    targets: to.map(squareIndex),
  });
  const names = (path: number[]) => path.map((i) => referenceSquareName(i, BOARD));
  return {
    distance: answer.distance,
    pathCount: answer.pathCount.toString(),
    path: answer.path ? names(answer.path) : null,
    paths: [...answer.enumeratePaths()].map(names),
  };
}

/** A reference answer in the shape the documents below select (urql adds `__typename`). */
function answer(expected: ReturnType<typeof reference>) {
  return {
    __typename: 'PathResult',
    distance: expected.distance,
    pathCount: expected.pathCount,
    path: expected.path === null ? null : { __typename: 'Path', squares: expected.path },
  };
}

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

const KNIGHT = { piece: 'KNIGHT', from: ['b1'], to: ['g8'] } as const;
const ROOK = { piece: 'ROOK', from: ['a1'], to: ['h8'] } as const;
const BLOCKED_KNIGHT = { piece: 'KNIGHT', from: ['b1'], to: ['g8'], blocked: ['d2'] } as const;
const SEED = { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] } as const;
/** Off the board: a field error for its own field only. */
const OFF_BOARD = { piece: 'KNIGHT', from: ['e9'], to: ['a1'] } as const;
const OFF_BOARD_MESSAGE = 'query.from[0]: "e9" is not a square on an 8 x 8 board';

const SHORTEST = gql`
  query Shortest($query: PathQuery!) {
    shortestPaths(query: $query) { distance pathCount path { squares } }
  }
`;

const GOOD_AND_BAD = gql`
  query GoodAndBad($good: PathQuery!, $bad: PathQuery!) {
    good: shortestPaths(query: $good) { distance pathCount path { squares } }
    bad: shortestPaths(query: $bad) { distance pathCount path { squares } }
  }
`;

const BATCH = gql`
  query Batch($queries: [PathQuery!]!) {
    shortestPathsBatch(queries: $queries) { distance pathCount path { squares } }
  }
`;

const DISTANCES = gql`
  query Distances($queries: [PathQuery!]!) {
    shortestPathsBatch(queries: $queries) { distance }
  }
`;

const PATHS_PAGE = gql`
  query PathsPage($query: PathQuery!, $first: Int!, $after: String) {
    shortestPaths(query: $query) {
      pathCount
      paths(first: $first, after: $after) {
        totalCount
        edges { cursor node { squares } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`;

const SAVE = gql`
  mutation Save($input: SaveAnalysisInput!) {
    saveAnalysis(input: $input) { editToken analysis { id title results { distance pathCount } } }
  }
`;

const UPDATE = gql`
  mutation Update($id: ID!, $token: String!, $input: UpdateAnalysisInput!) {
    updateAnalysis(id: $id, editToken: $token, input: $input) { id title results { distance pathCount } }
  }
`;

const READ = gql`
  query Read($id: ID!) {
    analysis(id: $id) { id title results { distance pathCount } }
  }
`;

const ANALYSES_PAGE = gql`
  query AnalysesPage($first: Int!, $after: String) {
    analyses(first: $first, after: $after) {
      totalCount
      edges { cursor node { id title } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

/** The selections of PATHS_PAGE and ANALYSES_PAGE. */
interface PathsPage {
  shortestPaths: {
    pathCount: string;
    paths: {
      totalCount: string;
      edges: { cursor: string; node: { squares: string[] } }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  };
}
interface AnalysesPage {
  analyses: {
    totalCount: number;
    edges: { cursor: string; node: { id: string; title: string } }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/** What a recorded request was: its method and operation name, wherever the client put it. */
function described(sent: Sent): string {
  return `${sent.method} ${sent.body?.operationName ?? sent.url.searchParams.get('operationName')}`;
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe('urql Client with cacheExchange and fetchExchange', () => {
  it('sends a short query with variables as GET, with no preflight header, and gets the reference answer', async () => {
    const { client, log } = urqlClient();
    const result = await client.query(SHORTEST, { query: KNIGHT }).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.shortestPaths).toEqual(answer(reference('KNIGHT', ['b1'], ['g8'])));

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
    expectCacheable(sent);

    // The same question again is urql's own cache hit: no second request.
    const again = await client.query(SHORTEST, { query: KNIGHT }).toPromise();
    expect(again.data?.shortestPaths).toEqual(result.data?.shortestPaths);
    expect(log).toHaveLength(1);
  });

  it('sends a query whose URL would pass 2,048 characters as POST, and it is answered too', async () => {
    const { client, log } = urqlClient();
    // The king from e4 to each of the 64 squares: far too long for a URL.
    const targets = Array.from({ length: 64 }, (_, i) => referenceSquareName(i, BOARD));
    const queries = targets.map((to) => ({ piece: 'KING', from: ['e4'], to: [to] }));
    const result = await client.query(DISTANCES, { queries }).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.shortestPathsBatch.map((r: { distance: number }) => r.distance)).toEqual(
      targets.map((to) => reference('KING', ['e4'], [to]).distance),
    );
    expect(log.map((r) => [r.method, r.status])).toEqual([['POST', 200]]);
    expect(log[0].body.variables.queries).toHaveLength(64);
  });

  it('gives the good alias in result.data and the bad one in result.error.graphQLErrors', async () => {
    const { client, log } = urqlClient();
    const result = await client.query(GOOD_AND_BAD, { good: BLOCKED_KNIGHT, bad: OFF_BOARD }).toPromise();
    expect(result.data?.good).toEqual(answer(reference('KNIGHT', ['b1'], ['g8'], ['d2'])));
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
      answer(reference('ROOK', ['a1'], ['h8'])),
      answer(reference('KING', ['e4'], ['a1', 'h8'])),
      null,
      answer(reference('KNIGHT', ['b1'], ['g8'])),
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
    const seed = reference('KING', ['e4'], ['a1', 'h8']);
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
    const blocked = reference('KNIGHT', ['b1'], ['g8'], ['d2']);
    const rook = reference('ROOK', ['a1'], ['h8']);
    const results = [
      { distance: blocked.distance, pathCount: blocked.pathCount },
      { distance: rook.distance, pathCount: rook.pathCount },
    ];
    expect(updated.data?.updateAnalysis).toMatchObject({ id: analysis.id, title: 'urql: blocked knight', results });

    // The update returned an Analysis, so urql's cache dropped the cached read: this one goes to
    // the server again (cache-first, the default) and sees the update.
    const fresh = await client.query(READ, { id: analysis.id }).toPromise();
    expect(fresh.data?.analysis).toMatchObject({ title: 'urql: blocked knight', results });

    expect(log.map(described)).toEqual(['POST Save', 'GET Read', 'POST Update', 'GET Read', 'POST Update', 'GET Read']);
    // Nothing between urql and the server may keep an answer about analyses.
    for (const sent of log.filter((r) => r.method === 'GET')) {
      expect(sent.headers.get('cache-control')).toMatch(/\bno-store\b/);
      expect(sent.headers.get('etag')).toBeNull();
    }
  });

  it('pages through every shortest path with paths(first, after), in order, without repeats', async () => {
    const { client, log } = urqlClient();
    // The knight from corner to corner: more paths than one page holds, few enough to list.
    const query = { piece: 'KNIGHT', from: ['a1'], to: ['h8'] };
    const expected = reference('KNIGHT', ['a1'], ['h8']);
    const first = 25;
    const seen: string[][] = [];
    const cursors = new Set<string>();
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page: OperationResult<PathsPage> = await client.query(PATHS_PAGE, { query, first, after }).toPromise();
      expect(page.error).toBeUndefined();
      const result = page.data?.shortestPaths ?? expect.unreachable('no shortestPaths');
      expect(result.pathCount).toBe(expected.pathCount);
      expect(result.paths.totalCount).toBe(expected.pathCount);
      for (const edge of result.paths.edges) {
        expect(cursors.has(edge.cursor)).toBe(false);
        cursors.add(edge.cursor);
        seen.push(edge.node.squares);
      }
      pages++;
      if (!result.paths.pageInfo.hasNextPage) break;
      expect(result.paths.edges).toHaveLength(first);
      after = result.paths.pageInfo.endCursor;
      expect(pages).toBeLessThan(20);
    }
    expect(pages).toBe(Math.ceil(expected.paths.length / first));
    expect(seen).toHaveLength(Number(expected.pathCount));
    expect(seen).toEqual(expected.paths);
    expect(new Set(seen.map((p) => p.join(' '))).size).toBe(seen.length);
    expect(log.every((r) => r.method === 'GET' && r.status === 200)).toBe(true);
  });

  it('pages through analyses with analyses(first, after), newest first', async () => {
    const { client, log } = urqlClient();
    const tag = `urql-list-${Math.random().toString(36).slice(2)}`;
    for (const n of [1, 2, 3]) {
      const saved = await client.mutation(SAVE, { input: { title: `${tag} ${n}`, queries: [KNIGHT] } }).toPromise();
      expect(saved.error).toBeUndefined();
    }
    const listed: { id: string; title: string }[] = [];
    let after: string | null = null;
    let totalCount = -1;
    for (;;) {
      const page: OperationResult<AnalysesPage> = await client.query(ANALYSES_PAGE, { first: 2, after }).toPromise();
      expect(page.error).toBeUndefined();
      const connection = page.data?.analyses ?? expect.unreachable('no analyses');
      totalCount = connection.totalCount;
      listed.push(...connection.edges.map((e) => e.node));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
      expect(listed.length).toBeLessThan(1000);
    }
    expect(listed).toHaveLength(totalCount);
    expect(new Set(listed.map((a) => a.id)).size).toBe(listed.length);
    expect(listed.filter((a) => a.title.startsWith(tag)).map((a) => a.title)).toEqual([
      `${tag} 3`,
      `${tag} 2`,
      `${tag} 1`,
    ]);
    expect(log.every((r) => r.method === (r.body?.operationName === 'Save' ? 'POST' : 'GET'))).toBe(true);
  });
});

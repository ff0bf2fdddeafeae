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
import { ClientError, GraphQLClient, gql } from 'graphql-request';
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

type Method = 'POST' | 'GET';

/** A client sending queries with `method`, and the log of its requests. */
function graphqlClient(method: Method, options: { errorPolicy?: 'none' | 'all' } = {}) {
  const log: Sent[] = [];
  const client = new GraphQLClient(`${t.url}/graphql`, { method, fetch: recordingFetch(log), ...options });
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

/** What a recorded request was: its method and operation name, wherever the client put it. */
function described(sent: Sent): string {
  return `${sent.method} ${sent.body?.operationName ?? sent.url.searchParams.get('operationName')}`;
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

/** A reference answer in the shape the documents below select. */
function answer(expected: ReturnType<typeof reference>) {
  return {
    distance: expected.distance,
    pathCount: expected.pathCount,
    path: expected.path === null ? null : { squares: expected.path },
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

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe.each<Method>(['POST', 'GET'])('graphql-request GraphQLClient with method %s', (method) => {
  it('sends queries with variables and gets the reference answers', async () => {
    const { client, log } = graphqlClient(method);
    const knight = await client.request<{ shortestPaths: unknown }>(SHORTEST, { query: KNIGHT });
    const seed = await client.request<{ shortestPaths: unknown }>(SHORTEST, { query: SEED });
    expect(knight.shortestPaths).toEqual(answer(reference('KNIGHT', ['b1'], ['g8'])));
    expect(seed.shortestPaths).toEqual(answer(reference('KING', ['e4'], ['a1', 'h8'])));

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
      for (const sent of log) {
        expect(sent.headers.get('cache-control')).toMatch(/\bpublic\b/);
        expect(Number(/\bmax-age=(\d+)/.exec(sent.headers.get('cache-control') ?? '')?.[1] ?? 0)).toBeGreaterThan(0);
        expect(sent.headers.get('etag')).toBeTruthy();
      }
    }
  });

  it('throws a ClientError holding the good alias and the bad alias’s error', async () => {
    const { client, log } = graphqlClient(method);
    const error = await clientError(client.request(GOOD_AND_BAD, { good: BLOCKED_KNIGHT, bad: OFF_BOARD }));
    expect(error.response.status).toBe(200);
    expect(error.response.data).toEqual({ good: answer(reference('KNIGHT', ['b1'], ['g8'], ['d2'])), bad: null });
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
      answer(reference('KNIGHT', ['b1'], ['g8'])),
      null,
      answer(reference('ROOK', ['a1'], ['h8'])),
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
    const rook = reference('ROOK', ['a1'], ['h8']);
    const knight = reference('KNIGHT', ['b1'], ['g8']);
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
    const seed = reference('KING', ['e4'], ['a1', 'h8']);
    const results = [{ distance: seed.distance, pathCount: seed.pathCount }];
    expect(updated.updateAnalysis).toEqual({ id: analysis.id, title: `${title}, renamed`, results });
    const read = await client.request<{ analysis: unknown }>(READ, { id: analysis.id });
    expect(read.analysis).toEqual({ id: analysis.id, title: `${title}, renamed`, results });

    // graphql-request sends mutations as POST whatever the client's method; queries with it.
    expect(log.map(described)).toEqual(['POST Save', 'POST Update', `${method} Read`, 'POST Update', `${method} Read`]);
    if (method === 'GET') {
      // Nothing between the client and the server may keep an answer about analyses.
      for (const sent of log.filter((r) => r.method === 'GET')) {
        expect(sent.headers.get('cache-control')).toMatch(/\bno-store\b/);
        expect(sent.headers.get('etag')).toBeNull();
      }
    }
  });

  it('pages through every shortest path with paths(first, after), in order, without repeats', async () => {
    const { client, log } = graphqlClient(method);
    // The knight around d2: 4 paths, in pages of 1 so every cursor is used.
    const expected = reference('KNIGHT', ['b1'], ['g8']);
    const seen: string[][] = [];
    const cursors = new Set<string>();
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page: { shortestPaths: any } = await client.request(PATHS_PAGE, { query: KNIGHT, first: 1, after });
      const result = page.shortestPaths;
      expect(result.pathCount).toBe(expected.pathCount);
      expect(result.paths.totalCount).toBe(expected.pathCount);
      expect(result.paths.edges).toHaveLength(1);
      for (const edge of result.paths.edges) {
        expect(cursors.has(edge.cursor)).toBe(false);
        cursors.add(edge.cursor);
        seen.push(edge.node.squares);
      }
      pages++;
      if (!result.paths.pageInfo.hasNextPage) break;
      after = result.paths.pageInfo.endCursor;
      expect(pages).toBeLessThan(10);
    }
    expect(pages).toBe(expected.paths.length);
    expect(seen).toHaveLength(Number(expected.pathCount));
    expect(seen).toEqual(expected.paths);
    expect(new Set(seen.map((p) => p.join(' '))).size).toBe(seen.length);
    expect(log.every((r) => r.method === method && r.status === 200)).toBe(true);
  });

  it('pages through analyses with analyses(first, after), newest first', async () => {
    const { client, log } = graphqlClient(method);
    const tag = `graphql-request-${method}-${Math.random().toString(36).slice(2)}`;
    for (const n of [1, 2, 3]) {
      await client.request(SAVE, { input: { title: `${tag} ${n}`, queries: [SEED] } });
    }
    const listed: { id: string; title: string }[] = [];
    let after: string | null = null;
    let totalCount = -1;
    for (;;) {
      const page: { analyses: any } = await client.request(ANALYSES_PAGE, { first: 2, after });
      const connection = page.analyses;
      totalCount = connection.totalCount;
      listed.push(...connection.edges.map((e: { node: { id: string; title: string } }) => e.node));
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
      answer(reference('KING', ['e4'], ['a1', 'h8'])),
      answer(reference('KNIGHT', ['b1'], ['g8'], ['d2'])),
      answer(reference('ROOK', ['a1'], ['h8'])),
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
      answer(reference('KNIGHT', ['b1'], ['g8'])),
      null,
      answer(reference('KING', ['e4'], ['a1', 'h8'])),
    ]);
    expect(results[0].errors).toBeUndefined();
    expect(results[2].errors).toBeUndefined();
    expect(results[1].errors).toEqual([
      expect.objectContaining({
        message: OFF_BOARD_MESSAGE,
        path: ['shortestPaths'],
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
    expect(log).toHaveLength(1);
    expect(log[0].body).toHaveLength(3);
  });
});

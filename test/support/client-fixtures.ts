/**
 * What the tests of real GraphQL client libraries share (`test/server.clients.*.test.ts`: Apollo
 * Client, urql, graphql-request): the server, started with a database for each file, and for each
 * client a connection whose `fetch` records every HTTP request, so a test that claims GET or one
 * batched request proves it; the questions they ask and the GraphQL documents they send (as text,
 * each client parsing it with its own `gql`); the answers expected, from the independent
 * reference BFS on an open 8 x 8 board, never from the server; the checks of caching headers and
 * of the off-board error; and paging through a connection to its end. In one place so that the
 * three clients are held to the same questions and the same checks.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import {
  type ReferencePiece,
  referenceOpenBoard,
  referenceParseSquare,
  referenceSolve,
  referenceSquareName,
} from '../../packages/engine/test/support/reference-bfs.js';
import { startTestServer, type TestServer } from './test-server.js';

// ---------------------------------------------------------------------------------------------
// The server, and a recorded connection to it for each client
// ---------------------------------------------------------------------------------------------

/** One HTTP request a client made, and what came back. */
export interface RecordedRequest {
  method: string;
  url: URL;
  /** The request's headers, as the client set them. */
  requestHeaders: Headers;
  /** The parsed JSON body of a POST; undefined for GET. */
  body: any;
  status: number;
  headers: Headers;
}

/** What a client is given to reach the server: the URL, and a `fetch` recording every request in `log`. */
export interface RecordedConnection {
  /** The URL of the server's GraphQL endpoint. */
  url: string;
  /** Sends a request and records it and its response in `log`. */
  fetch: typeof fetch;
  /** Every request made through `fetch`, in order. */
  log: RecordedRequest[];
}

/** The server a test file's clients talk to. */
export interface ServerUnderTest {
  /** The running server (inside tests and hooks only: it starts in `beforeAll`). */
  readonly server: TestServer;
  /** A new connection to its GraphQL endpoint for one client, with a log of its own. */
  connect(): RecordedConnection;
}

/** Starts a real server with a database before the calling file's tests, and closes it after them. */
export function useServerWithDatabase(): ServerUnderTest {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer({ database: true });
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('the server is started in beforeAll');
      return server;
    },
    connect() {
      const log: RecordedRequest[] = [];
      return { url: `${this.server.url}/graphql`, fetch: recordingFetch(log), log };
    },
  };
}

/** A `fetch` for a client that records each request (method, URL, headers, body) and its response. */
function recordingFetch(log: RecordedRequest[]): typeof fetch {
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

/** What a recorded request was: its method and operation name, wherever the client put it. */
export function describeRequest(sent: RecordedRequest): string {
  return `${sent.method} ${sent.body?.operationName ?? sent.url.searchParams.get('operationName')}`;
}

/**
 * Checks an answer's caching headers. `cacheable`: a GET answer made only of path questions may be
 * kept by browsers, proxies and CDNs (path answers never change), so it says so publicly with a
 * lifetime and carries an ETag to revalidate. `no-store`: an answer about analyses changes with
 * every update (or a persisted-query miss would outlive the registration), so no cache may keep it.
 */
export function expectCaching(sent: RecordedRequest, caching: 'cacheable' | 'no-store'): void {
  if (caching === 'cacheable') {
    expect(sent.method).toBe('GET');
    const cacheControl = sent.headers.get('cache-control') ?? '';
    expect(cacheControl).toMatch(/\bpublic\b/);
    expect(Number(/\bmax-age=(\d+)/.exec(cacheControl)?.[1] ?? 0)).toBeGreaterThan(0);
    expect(sent.headers.get('etag')).toBeTruthy();
  } else {
    expect(sent.headers.get('cache-control')).toMatch(/\bno-store\b/);
    expect(sent.headers.get('etag')).toBeNull();
  }
}

// ---------------------------------------------------------------------------------------------
// Questions and expected answers
// ---------------------------------------------------------------------------------------------

/** The board every question here is asked on: 8 x 8, open but for a question's `blocked`. */
const BOARD_SIZE = { files: 8, ranks: 8 };

/** The questions (`PathQuery` inputs) the tests ask, by name. */
export const QUESTIONS = {
  /** A knight from b1 to g8. */
  KNIGHT: { piece: 'KNIGHT', from: ['b1'], to: ['g8'] },
  /** A rook from a1 to h8. */
  ROOK: { piece: 'ROOK', from: ['a1'], to: ['h8'] },
  /** The knight from b1 to g8 with d2 blocked. */
  BLOCKED_KNIGHT: { piece: 'KNIGHT', from: ['b1'], to: ['g8'], blocked: ['d2'] },
  /** A king from e4 to a1 or h8, four moves to either: eight shortest paths. */
  SEED: { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] },
  /** Off the board: a field error for its own field only (its message is OFF_BOARD_MESSAGE). */
  OFF_BOARD: { piece: 'KNIGHT', from: ['e9'], to: ['a1'] },
} as const;

/** The message of the error for QUESTIONS.OFF_BOARD. */
export const OFF_BOARD_MESSAGE = 'query.from[0]: "e9" is not a square on an 8 x 8 board';

/** Checks that `errors` is QUESTIONS.OFF_BOARD's error alone, at `path`. */
export function expectOnlyOffBoardError(errors: unknown, path: (string | number)[]): void {
  expect(errors).toEqual([
    expect.objectContaining({
      message: OFF_BOARD_MESSAGE,
      path,
      extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
    }),
  ]);
}

/** The name of the square at `index` on the board (`a1` is 0, `b1` is 1). */
export function squareName(index: number): string {
  return referenceSquareName(index, BOARD_SIZE);
}

/** The index of a named square on the board (throws for a name that is not a square). */
function squareIndex(name: string): number {
  const index = referenceParseSquare(name, BOARD_SIZE);
  if (index === null) throw new Error(`${name} is not a square`);
  return index;
}

/** A reference answer in the server's terms: square names, and the path count as a string. */
export interface ExpectedAnswer {
  distance: number | null;
  pathCount: string;
  /** The first shortest path, or null when there is none. */
  path: string[] | null;
  /** Every shortest path, in the reference's (lexicographic) order. */
  paths: string[][];
}

/** The reference BFS's answer to a question on an open 8 x 8 board (minus `blocked`). */
export function referenceAnswer(
  piece: ReferencePiece,
  from: string[],
  to: string[],
  blocked: string[] = [],
): ExpectedAnswer {
  const passable = referenceOpenBoard(BOARD_SIZE);
  for (const square of blocked) passable[squareIndex(square)] = false;
  const answer = referenceSolve({
    piece,
    ...BOARD_SIZE,
    passable,
    sources: from.map(squareIndex),
    targets: to.map(squareIndex),
  });
  const names = (path: number[]) => path.map(squareName);
  return {
    distance: answer.distance,
    pathCount: answer.pathCount.toString(),
    path: answer.path ? names(answer.path) : null,
    paths: [...answer.enumeratePaths()].map(names),
  };
}

/** A reference answer in the shape `{ distance pathCount path { squares } }` selects. */
export function selectedAnswer(expected: ExpectedAnswer) {
  return {
    distance: expected.distance,
    pathCount: expected.pathCount,
    path: expected.path === null ? null : { squares: expected.path },
  };
}

/** The same, with the `__typename`s that Apollo Client and urql add to every object. */
export function selectedAnswerWithTypenames(expected: ExpectedAnswer) {
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

const SHORTEST = `
  query Shortest($query: PathQuery!) {
    shortestPaths(query: $query) { distance pathCount path { squares } }
  }
`;

const GOOD_AND_BAD = `
  query GoodAndBad($good: PathQuery!, $bad: PathQuery!) {
    good: shortestPaths(query: $good) { distance pathCount path { squares } }
    bad: shortestPaths(query: $bad) { distance pathCount path { squares } }
  }
`;

const BATCH = `
  query Batch($queries: [PathQuery!]!) {
    shortestPathsBatch(queries: $queries) { distance pathCount path { squares } }
  }
`;

const PATHS_PAGE = `
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

const SAVE = `
  mutation Save($input: SaveAnalysisInput!) {
    saveAnalysis(input: $input) { editToken analysis { id title results { distance pathCount } } }
  }
`;

const UPDATE = `
  mutation Update($id: ID!, $token: String!, $input: UpdateAnalysisInput!) {
    updateAnalysis(id: $id, editToken: $token, input: $input) { id title results { distance pathCount } }
  }
`;

const READ = `
  query Read($id: ID!) {
    analysis(id: $id) { id title results { distance pathCount } }
  }
`;

const ANALYSES_PAGE = `
  query AnalysesPage($first: Int!, $after: String) {
    analyses(first: $first, after: $after) {
      totalCount
      edges { cursor node { id title } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

/** The text of the documents every client sends, by name. */
export const DOCUMENT_TEXTS = { SHORTEST, GOOD_AND_BAD, BATCH, PATHS_PAGE, SAVE, UPDATE, READ, ANALYSES_PAGE };

/** The documents of DOCUMENT_TEXTS, by name, each parsed with a client's own `gql`. */
export function parseDocuments<Document>(
  parse: (text: string) => Document,
): Record<keyof typeof DOCUMENT_TEXTS, Document> {
  const entries = Object.entries(DOCUMENT_TEXTS).map(([name, text]) => [name, parse(text)]);
  return Object.fromEntries(entries) as Record<keyof typeof DOCUMENT_TEXTS, Document>;
}

// ---------------------------------------------------------------------------------------------
// Paging
// ---------------------------------------------------------------------------------------------

/** What PATHS_PAGE selects of `shortestPaths`. */
export interface PathsPage {
  pathCount: string;
  paths: {
    totalCount: string;
    edges: { cursor: string; node: { squares: string[] } }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/** What ANALYSES_PAGE selects of `analyses`. */
export interface AnalysesPage {
  totalCount: number;
  edges: { cursor: string; node: { id: string; title: string } }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/**
 * Pages through every shortest path from the first page (`after` null) to the last, and checks
 * each page's counts against `expected`, that no cursor repeats, that there are fewer than
 * `maxPages` pages, and that the paths seen are the reference's, in order, each once. Returns
 * the number of pages.
 */
export async function expectPagesOfPaths(
  fetchPage: (after: string | null) => Promise<PathsPage>,
  expected: ExpectedAnswer,
  maxPages: number,
): Promise<number> {
  const seen: string[][] = [];
  const cursors = new Set<string>();
  let after: string | null = null;
  let pages = 0;
  for (;;) {
    const result = await fetchPage(after);
    expect(result.pathCount).toBe(expected.pathCount);
    expect(result.paths.totalCount).toBe(expected.pathCount);
    for (const edge of result.paths.edges) {
      expect(cursors.has(edge.cursor)).toBe(false);
      cursors.add(edge.cursor);
      seen.push(edge.node.squares);
    }
    pages++;
    if (!result.paths.pageInfo.hasNextPage) break;
    after = result.paths.pageInfo.endCursor;
    expect(pages).toBeLessThan(maxPages);
  }
  expect(seen).toHaveLength(Number(expected.pathCount));
  expect(seen).toEqual(expected.paths);
  expect(new Set(seen.map((p) => p.join(' '))).size).toBe(seen.length);
  return pages;
}

/**
 * Pages through every saved analysis from the first page to the last, and checks that as many
 * were listed as the total count says, none twice, and the three saved with titles `${tag} 1`,
 * `2` and `3` (in that order) newest first. Returns all of them in the order listed.
 */
export async function expectAnalysesNewestFirst(
  tag: string,
  fetchPage: (after: string | null) => Promise<AnalysesPage>,
): Promise<{ id: string; title: string }[]> {
  const listed: { id: string; title: string }[] = [];
  let after: string | null = null;
  let totalCount = -1;
  for (;;) {
    const connection = await fetchPage(after);
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
  return listed;
}

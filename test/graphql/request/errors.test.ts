/**
 * Every error path of the API over real HTTP: bad input (a GraphQL error with extensions.code
 * BAD_USER_INPUT and a message naming the argument and the value, for literals and variables
 * alike), the service's limits and graphql-armor's (each at the limit and just past it, with the
 * limit's variable named), HTTP-level failures (body size, JSON, CSRF, unknown routes), and
 * unexpected failures (INTERNAL_SERVER_ERROR, without stack traces in production).
 */

import * as engine from '@chess-paths/engine';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mazeQuery } from '../../../packages/engine/test/support/maze.js';
import { type GqlResponse, startTestServer, type TestServer } from '../../support/test-server.js';

let t: TestServer;
/** A server with tiny limits, to test each limit at and past its value cheaply. */
let small: TestServer;

beforeAll(async () => {
  t = await startTestServer({ database: false });
  small = await startTestServer({
    database: false,
    env: {
      MAX_BOARD_SIDE: '16',
      MAX_BATCH_SIZE: '3',
      MAX_PAGE_SIZE: '10',
      MAX_DEPTH: '4',
      MAX_ALIASES: '2',
      MAX_COST: '120',
      MAX_TOKENS: '60',
      MAX_DIRECTIVES: '2',
      MAX_BODY_BYTES: '600',
    },
  });
});
afterAll(async () => {
  await Promise.all([t?.close(), small?.close()]);
});

/** The single error of a response. */
function onlyError(res: GqlResponse) {
  expect(res.body.errors, JSON.stringify(res.body)).toHaveLength(1);
  return res.body.errors![0];
}

async function expectBadInput(
  server: TestServer,
  query: string,
  message: string | RegExp,
  variables?: Record<string, unknown>,
) {
  const res = await server.gql(query, variables);
  const error = onlyError(res);
  expect(error.extensions?.code).toBe('BAD_USER_INPUT');
  if (typeof message === 'string') expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
  return error;
}

describe('bad input: BAD_USER_INPUT naming the argument and the value', () => {
  it('an off-board square, in a literal and in a variable', async () => {
    const error = await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "z9"] }) { distance } }',
      'query.to[1]: "z9" is not a square on an 8 x 8 board',
    );
    expect(error.extensions?.argument).toBe('query.to[1]');
    await expectBadInput(
      t,
      'query($q: PathQuery!) { shortestPaths(query: $q) { distance } }',
      'query.from[0]: "a01" is not a square on an 8 x 8 board',
      { q: { piece: 'KING', from: ['a01'], to: ['h8'] } },
    );
  });

  it('a bad blocked square, mask, FEN and board side', async () => {
    await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"], blocked: ["i1"] }) { distance } }',
      'query.blocked[0]: "i1" is not a square on an 8 x 8 board',
    );
    await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: KING, board: { files: 2, ranks: 2 }, from: ["a1"], to: ["b2"], mask: "0xff" }) { distance } }',
      /^query\.mask: "0xff" has a square beyond the 2 x 2 board/,
    );
    await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"], mask: "0xzz" }) { distance } }',
      /^query\.mask: "0xzz" /,
    );
    await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"], fen: "8/8/8 w - - 0 1" }) { distance } }',
      /^query\.fen: "8\/8\/8 w - - 0 1" has 3 ranks/,
    );
    await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: KING, board: { files: 0, ranks: 8 }, from: ["a1"], to: ["a2"] }) { distance } }',
      /^query\.board\.files: 0 is not a board side/,
    );
  });

  it('the offending query of a batch, by index', async () => {
    await expectBadInput(
      t,
      'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }',
      'queries[2].to[0]: "h9" is not a square on an 8 x 8 board',
      {
        q: [
          { piece: 'KING', from: ['a1'], to: ['h8'] },
          { piece: 'ROOK', from: ['a1'], to: ['h8'] },
          { piece: 'KING', from: ['a1'], to: ['h9'] },
        ],
      },
    );
  });

  it('wrong types and unknown values, as literals and as variables', async () => {
    await expectBadInput(t, '{ shortestPaths(query: { piece: PAWN, from: ["a1"], to: ["h8"] }) { distance } }', /PAWN/);
    await expectBadInput(
      t,
      'query($q: PathQuery!) { shortestPaths(query: $q) { distance } }',
      /"PAWN".*q\.piece|q\.piece.*PAWN/s,
      { q: { piece: 'PAWN', from: ['a1'], to: ['h8'] } },
    );
    await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: KING, from: [5], to: ["h8"] }) { distance } }',
      /Square must be a string/,
    );
    await expectBadInput(
      t,
      'query($q: PathQuery!) { shortestPaths(query: $q) { distance } }',
      /q\.from\[0\].*Square must be a string/s,
      { q: { piece: 'KING', from: [5], to: ['h8'] } },
    );
    await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: KING, from: ["a1"] }) { distance } }',
      /PathQuery\.to.*was not provided/,
    );
    await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"], colour: WHITE }) { distance } }',
      /"colour" is not defined/,
    );
    await expectBadInput(
      t,
      'query($q: PathQuery!) { shortestPaths(query: $q) { distance } }',
      /longer than 16 characters/,
      { q: { piece: 'KING', from: ['a'.repeat(10_000)], to: ['h8'] } },
    );
  });

  it('a bad page size or cursor of paths', async () => {
    await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"] }) { paths(first: -1) { totalCount } } }',
      'paths.first: -1 is negative: a page holds 0 or more items',
    );
    await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"] }) { paths(after: "nonsense") { totalCount } } }',
      /^paths\.after: "nonsense" is not a cursor/,
    );
  });

  it('positions: a bad FEN, an off-board or empty from square', async () => {
    await expectBadInput(
      t,
      '{ position(fen: "8/8/8/8/8/8/8/9 w - - 0 1") { turn } }',
      /^fen: "8\/8\/8\/8\/8\/8\/8\/9 w - - 0 1" has 9 squares in rank 1/,
    );
    await expectBadInput(
      t,
      '{ position(fen: "8/8/8/8/8/8/8/K7 w - - 0 1") { paths(from: "b1", to: ["h8"]) { distance } } }',
      'from: "b1" has no piece in this position',
    );
    await expectBadInput(
      t,
      '{ position(fen: "8/8/8/8/8/8/8/K7 w - - 0 1") { paths(from: "a1", to: ["h9"]) { distance } } }',
      'to[0]: "h9" is not a square on an 8 x 8 board',
    );
    await expectBadInput(
      t,
      '{ position(fen: "8/8/8/8/8/8/8/K7 w - - 0 1", board: { files: 8, ranks: 300 }) { turn } }',
      /^board\.ranks: ranks 300 is over the limit of 64 \(MAX_BOARD_SIDE\)/,
    );
  });

  it('analyses report SERVICE_UNAVAILABLE when there is no database', async () => {
    const res = await t.gql('{ analyses { totalCount } }');
    expect(onlyError(res).extensions?.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('syntax errors and unknown fields are rejected before any work', async () => {
    // 200: the answer is application/json (no Accept), for which GraphQL-over-HTTP has a request
    // that cannot be executed answered 200; application/graphql-response+json gets 400
    // (test/http/graphql-route.statuses.test.ts).
    const syntax = await t.gql('{ shortestPaths(query: { piece: KING ');
    expect(syntax.status).toBe(200);
    expect(onlyError(syntax).extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    const unknown = await t.gql('{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"] }) { length } }');
    expect(unknown.status).toBe(200);
    expect(onlyError(unknown).extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('the service limits, at the limit and past it', () => {
  it('board side (default 64)', async () => {
    const at = await t.gql(
      '{ shortestPaths(query: { piece: KING, board: { files: 64, ranks: 64 }, from: ["a1"], to: ["bl64"] }) { distance } }',
    );
    expect(at.body.errors).toBeUndefined();
    expect(at.body.data.shortestPaths.distance).toBe(63);
    const error = await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: KING, board: { files: 65, ranks: 8 }, from: ["a1"], to: ["b2"] }) { distance } }',
      'query.board.files: files 65 is over the limit of 64 (MAX_BOARD_SIDE)',
    );
    expect(error.extensions).toMatchObject({ limit: 'MAX_BOARD_SIDE', max: 64 });
    await expectBadInput(
      small,
      '{ shortestPaths(query: { piece: KING, board: { files: 16, ranks: 17 }, from: ["a1"], to: ["b2"] }) { distance } }',
      'query.board.ranks: ranks 17 is over the limit of 16 (MAX_BOARD_SIDE)',
    );
  });

  it('batch size (default 500)', async () => {
    const q = (n: number) => Array.from({ length: n }, () => ({ piece: 'KING', from: ['a1'], to: ['h8'] }));
    const query = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }';
    const error = await expectBadInput(t, query, 'queries: 501 queries is over the limit of 500 (MAX_BATCH_SIZE)', {
      q: q(501),
    });
    expect(error.extensions).toMatchObject({ limit: 'MAX_BATCH_SIZE', max: 500 });
    expect((await small.gql(query, { q: q(3) })).body.data.shortestPathsBatch).toHaveLength(3);
    await expectBadInput(small, query, 'queries: 4 queries is over the limit of 3 (MAX_BATCH_SIZE)', { q: q(4) });
  });

  it('page size of paths (default 1000)', async () => {
    const query = (first: number) =>
      `query { shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"] }) { paths(first: ${first}) { edges { cursor } } } }`;
    const at = await t.gql(query(1000));
    expect(at.body.errors).toBeUndefined();
    expect(at.body.data.shortestPaths.paths.edges).toHaveLength(1);
    const error = await expectBadInput(
      t,
      query(1001),
      'paths.first: first 1001 is over the limit of 1000 (MAX_PAGE_SIZE)',
    );
    expect(error.extensions).toMatchObject({ limit: 'MAX_PAGE_SIZE', max: 1000 });
    const vars =
      'query($n: Int) { shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"] }) { paths(first: $n) { totalCount } } }';
    expect((await small.gql(vars, { n: 10 })).body.errors).toBeUndefined();
    await expectBadInput(small, vars, 'paths.first: first 11 is over the limit of 10 (MAX_PAGE_SIZE)', { n: 11 });
  });

  /**
   * Expects an error naming `variable`, with any code. The shape limits are found by parsing or
   * validation, so an application/json answer (as here) is 200; MAX_COST refuses after them, 400.
   */
  async function expectLimit(res: GqlResponse, variable: string, status = 200) {
    const error = onlyError(res);
    expect(error.message).toContain(`(${variable})`);
    expect(error.message).not.toMatch(/^Syntax Error/);
    expect(error.extensions?.limit).toBe(variable);
    expect(res.status).toBe(status);
  }

  it('query depth (graphql-armor)', async () => {
    // depth 4: shortestPaths > paths > edges > cursor
    const at = await small.gql(
      '{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["b2"] }) { paths { edges { cursor } } } }',
    );
    expect(at.body.errors, JSON.stringify(at.body)).toBeUndefined();
    await expectLimit(
      await small.gql(
        '{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["b2"] }) { paths { edges { node { squares } } } } }',
      ),
      'MAX_DEPTH',
    );
  });

  it('aliases (graphql-armor)', async () => {
    const at = await small.gql(
      '{ a: __typename b: shortestPaths(query: { piece: KING, from: ["a1"], to: ["b2"] }) { d: distance } }',
    );
    expect(at.body.errors).toBeUndefined();
    await expectLimit(
      await small.gql(
        '{ b: shortestPaths(query: { piece: KING, from: ["a1"], to: ["b2"] }) { d: distance e: distance f: distance } }',
      ),
      'MAX_ALIASES',
    );
  });

  it('cost, computed with the variables before execution', async () => {
    const at = await small.gql(
      '{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["b2"] }) { distance reachable } }',
    );
    expect(at.body.errors).toBeUndefined();
    const q = Array.from({ length: 3 }, () => ({ piece: 'KING', from: ['a1'], to: ['b2'] }));
    // The batch multiplies the cost by its length, and `first` from a variable costs what the literal costs.
    await expectLimit(
      await small.gql(
        'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { paths(first: 10) { totalCount } } }',
        { q },
      ),
      'MAX_COST',
      400,
    );
    const vars =
      'query($q: [PathQuery!]!, $n: Int) { shortestPathsBatch(queries: $q) { paths(first: $n) { totalCount } } }';
    await expectLimit(await small.gql(vars, { q, n: 10 }), 'MAX_COST', 400);
    expect((await small.gql(vars, { q, n: 1 })).body.errors).toBeUndefined();
  });

  it('tokens (graphql-armor)', async () => {
    // 24 + n tokens: the targets list makes tokens without adding cost.
    const q = (n: number) =>
      `{ shortestPaths(query: { piece: KING, from: ["a1"], to: [${'"b2" '.repeat(n)}] }) { distance } }`;
    expect((await small.gql(q(36))).body.errors).toBeUndefined();
    await expectLimit(await small.gql(q(37)), 'MAX_TOKENS');
  });

  it('directives (graphql-armor)', async () => {
    const sp = '{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["b2"] })';
    expect(
      (await small.gql(`${sp} { distance @include(if: true) reachable @skip(if: false) } }`)).body.errors,
    ).toBeUndefined();
    await expectLimit(
      await small.gql(`${sp} { distance @include(if: true) reachable @skip(if: false) key @include(if: true) } }`),
      'MAX_DIRECTIVES',
    );
  });

  it('request body size: 413 naming MAX_BODY_BYTES', async () => {
    const body = (size: number) => {
      const base = JSON.stringify({ query: '{ __typename }', variables: { pad: '' } });
      return JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(size - base.length) } });
    };
    const post = (text: string) =>
      fetch(`${small.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    expect((await post(body(600))).status).toBe(200);
    const res = await post(body(601));
    expect(res.status).toBe(413);
    const json = (await res.json()) as GqlResponse['body'];
    expect(json.errors?.[0]).toMatchObject({ extensions: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(json.errors?.[0].message).toContain('600 bytes (MAX_BODY_BYTES)');
    // Past the limit without a content-length header (chunked): cut off too.
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body(5000)));
        controller.close();
      },
    });
    const chunked = await fetch(`${small.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('request body size: a body far past the limit is read to its end, so the 413 always arrives', async () => {
    const { request } = await import('node:http');
    const big = Buffer.alloc(4 * 1024 * 1024, 'x');
    for (let i = 0; i < 5; i++) {
      const outcome = await new Promise<string>((resolve) => {
        const req = request(
          `${small.url}/graphql`,
          { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': big.length } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(String(res.statusCode)));
          },
        );
        req.on('error', (err) => resolve((err as NodeJS.ErrnoException).code ?? err.message));
        req.end(big);
      });
      expect(outcome).toBe('413');
    }
  });

  it('the answer size: RESPONSE_TOO_LARGE past MAX_RESPONSE_BYTES, naming it', async () => {
    const tiny = await startTestServer({ database: false, env: { MAX_RESPONSE_BYTES: '3000' } });
    try {
      const seed = '{ piece: KING, from: ["e4"], to: ["a1", "h8"] }';
      expect(
        (await tiny.gql(`{ shortestPaths(query: ${seed}) { overlay { ascii } layers { squares } } }`)).body.errors,
      ).toBeUndefined();
      const res = await tiny.gql(
        `{ a: shortestPaths(query: ${seed}) { overlay { ascii svg } } b: shortestPaths(query: ${seed}) { overlay { svg } } }`,
      );
      const error = res.body.errors?.[0];
      expect(error?.extensions).toEqual({ code: 'RESPONSE_TOO_LARGE', limit: 'MAX_RESPONSE_BYTES', max: 3000 });
      expect(error?.message).toMatch(/^The answer would be over the limit of 3000 bytes \(MAX_RESPONSE_BYTES\)/);
      expect(error?.path?.at(-1)).toBe('svg');
    } finally {
      await tiny.close();
    }
  });
});

describe("requests the service refuses as the client's mistake", () => {
  it('a subscription operation: 400 BAD_REQUEST, not an internal error', async () => {
    const res = await t.gql(
      'subscription { shortestPaths(query: { piece: KING, from: ["a1"], to: ["a2"] }) { distance } }',
    );
    expect(res.status).toBe(400);
    const error = onlyError(res);
    expect(error.extensions).toEqual({ code: 'BAD_REQUEST' });
    expect(error.message).toBe('Subscriptions are not supported: this service answers queries and mutations over HTTP');
  });

  it('a wrong persisted-query extension: 400 BAD_REQUEST', async () => {
    for (const persistedQuery of [5, { version: 2, sha256Hash: 'x' }, { version: 1, sha256Hash: 'abc' }]) {
      const res = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }', extensions: { persistedQuery } }),
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as GqlResponse['body'];
      expect(body.errors?.[0].extensions).toEqual({ code: 'BAD_REQUEST' });
    }
    expect(await t.metric('chess_paths_graphql_errors_total', { code: 'INTERNAL_SERVER_ERROR' })).toBe(0);
  });
});

describe('HTTP-level errors', () => {
  it('invalid JSON is a 400 BAD_REQUEST', async () => {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    expect(res.status).toBe(400);
    const json = (await res.json()) as GqlResponse['body'];
    expect(json.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(json.errors?.[0].message).toMatch(/not valid JSON/);
  });

  it('cross-site safety: GET runs queries without a preflight header, POST needs a JSON or GraphQL body type', async () => {
    const q = encodeURIComponent('{ __typename }');
    const simple = await fetch(`${t.url}/graphql?query=${q}`);
    expect(simple.status).toBe(200);
    expect(await simple.json()).toEqual({ data: { __typename: 'Query' } });
    // Mutations never run over GET, preflight header or not.
    const m = encodeURIComponent('mutation { deleteAnalysis(id: "x", editToken: "y") }');
    const mutation = await fetch(`${t.url}/graphql?query=${m}`, { headers: { 'apollo-require-preflight': 'true' } });
    expect(mutation.status).toBe(405);
    expect(((await mutation.json()) as GqlResponse['body']).errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    // What an HTML form on another site can send (form and text types), or no type at all: 415.
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
      const res = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: type === '' ? {} : { 'content-type': type },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(res.status, type).toBe(415);
      const error = ((await res.json()) as GqlResponse['body']).errors?.[0];
      expect(error?.extensions?.code).toBe('BAD_REQUEST');
      expect(error?.message).toMatch(/needs Content-Type application\/json/);
    }
    const graphql = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/graphql' },
      body: '{ __typename }',
    });
    expect(graphql.status).toBe(200);
    expect(await graphql.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('unknown routes are 404 with a JSON error', async () => {
    const res = await fetch(`${t.url}/nowhere`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as GqlResponse['body']).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});

describe('unexpected failures', () => {
  const failing = {
    ...engine,
    solveBatch(): never {
      throw new Error('engine exploded at /secret/path.ts:42');
    },
  };

  it('are INTERNAL_SERVER_ERROR without message or stack trace in production', async () => {
    const prod = await startTestServer({ database: false, env: { NODE_ENV: 'production' }, deps: { engine: failing } });
    try {
      const res = await prod.gql('{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"] }) { distance } }');
      const error = onlyError(res);
      expect(error.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      expect(error.message).toBe('Internal server error');
      expect(JSON.stringify(res.body)).not.toMatch(/secret|stacktrace|at /);
      // Bad input still gets its full message in production.
      const bad = await prod.gql('{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["z9"] }) { distance } }');
      expect(onlyError(bad).message).toBe('query.to[0]: "z9" is not a square on an 8 x 8 board');
      expect(await prod.metric('chess_paths_graphql_errors_total', { code: 'INTERNAL_SERVER_ERROR' })).toBe(1);
      expect(await prod.metric('chess_paths_graphql_errors_total', { code: 'BAD_USER_INPUT' })).toBe(1);
    } finally {
      await prod.close();
    }
  });

  it('by default (npm start) nothing carries a stack trace: not a syntax error, not the persisted-query handshake', async () => {
    const prod = await startTestServer({ database: false });
    try {
      const syntax = await prod.gql('{ nope {');
      expect(onlyError(syntax).extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
      const hash = 'ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38';
      const extensions = encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }));
      const handshake = await fetch(`${prod.url}/graphql?extensions=${extensions}`);
      const text = await handshake.text();
      expect(JSON.parse(text).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      for (const body of [JSON.stringify(syntax.body), text]) expect(body).not.toMatch(/stacktrace|node_modules|\.js:/);
    } finally {
      await prod.close();
    }
  });

  it('do not include the work cancelled because its client went away', async () => {
    const server = await startTestServer({ database: false, env: { RESULT_MEMO_SIZE: '0' } });
    try {
      const query = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { pathCount distances } }';
      const abort = new AbortController();
      // The client goes away once the server's loader has begun solving the batch.
      const { batchSize } = server.server.metrics;
      const observe = batchSize.observe.bind(batchSize);
      const solving = new Promise<void>((resolve) => {
        vi.spyOn(batchSize, 'observe').mockImplementationOnce((...args) => {
          resolve();
          return observe(...args);
        });
      });
      const sent = fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables: { q: Array.from({ length: 64 }, (_, i) => mazeQuery(i)) } }),
        signal: abort.signal,
      }).catch(() => undefined);
      await solving;
      abort.abort();
      await sent;
      // The server finishes with the cancelled request (its fields fail with REQUEST_CANCELLED, and
      // are counted once its answer, which no one reads, is made), then answers the next one.
      await vi.waitFor(async () => expect(await server.metric('chess_paths_graphql_errors_total')).toBeGreaterThan(0), {
        timeout: 30_000,
        interval: 20,
      });
      expect(await server.metric('chess_paths_graphql_errors_total', { code: 'REQUEST_CANCELLED' })).toBeGreaterThan(0);
      expect((await server.gql('{ __typename }')).body).toEqual({ data: { __typename: 'Query' } });
      expect(await server.metric('chess_paths_graphql_errors_total', { code: 'INTERNAL_SERVER_ERROR' })).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('keep their message (and a stack trace) outside production', async () => {
    const dev = await startTestServer({ database: false, env: { NODE_ENV: 'development' }, deps: { engine: failing } });
    try {
      const res = await dev.gql('{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"] }) { distance } }');
      const error = onlyError(res);
      expect(error.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      expect(error.message).toContain('engine exploded');
      expect(error.extensions?.stacktrace).toEqual(expect.any(Array));
    } finally {
      await dev.close();
    }
  });
});

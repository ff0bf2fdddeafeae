/**
 * The API's errors for a client's mistakes, over real HTTP: bad input (a GraphQL error with
 * extensions.code BAD_USER_INPUT and a message naming the argument and the value, for literals
 * and variables alike), syntax errors and unknown fields, operations the service does not run
 * (subscriptions, a wrong persisted-query extension), and HTTP-level failures (JSON, CSRF, unknown
 * routes).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBadInput, onlyError } from '../../support/error-assertions.js';
import { type GqlResponse, startTestServer, type TestServer } from '../../support/test-server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ database: false });
});
afterAll(async () => {
  await t?.close();
});

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
    // A custom scalar's literal of the wrong kind, shown as written (no quotes it did not have);
    // errors.scalars.test.ts asks the same of a server in a process of its own.
    await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: ROOK, from: ["a1"], to: ["h8"], mask: 12 }) { distance } }',
      /Bitboard must be a string \(a bitboard such as "0x0000000010000000"\), got 12$/,
    );
    await expectBadInput(
      t,
      '{ shortestPaths(query: { piece: ROOK, from: [e4], to: ["h8"] }) { distance } }',
      /Square must be a string \(a square name such as "e4"\), got e4$/,
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
      /^query\.from\[0\]: "a{70,}\.\.\." is not a square on an 8 x 8 board$/,
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

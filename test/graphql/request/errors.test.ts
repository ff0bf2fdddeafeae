/**
 * The API's errors at its limits, over real HTTP: the service's limits and graphql-armor's, each
 * at the limit and just past it (board side, batch size, page size, query depth, aliases, cost,
 * tokens, directives, request body size with a 413, answer size with RESPONSE_TOO_LARGE), each
 * refusal naming the limit's variable. A second server with tiny limits tests each one cheaply.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBadInput, onlyError } from '../../support/error-assertions.js';
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
      '{ a: __typename b: shortestPaths(query: { piece: KING, from: ["a1"], to: ["b2"] }) { distance } }',
    );
    expect(at.body.errors).toBeUndefined();
    await expectLimit(
      await small.gql(
        '{ b: shortestPaths(query: { piece: KING, from: ["a1"], to: ["b2"] }) { d: distance e: distance f: distance } }',
      ),
      'MAX_ALIASES',
    );
    // An alias of __typename counts as any other.
    await expectLimit(
      await small.gql(
        '{ a: __typename b: shortestPaths(query: { piece: KING, from: ["a1"], to: ["b2"] }) { d: distance } }',
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
    expect(json.errors?.[0]).toMatchObject({
      extensions: { code: 'PAYLOAD_TOO_LARGE', limit: 'MAX_BODY_BYTES', max: 600 },
    });
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

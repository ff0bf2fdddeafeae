/**
 * HTTP statuses as the GraphQL-over-HTTP specification has them, asked with
 * `Accept: application/graphql-response+json`: request errors (malformed JSON, a syntax error, a
 * document the schema refuses, a variable of the wrong type) are 400 with no `data`; field errors
 * are 200 with the partial data. The answer comes in the media type asked for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

const MEDIA = 'application/graphql-response+json';
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ database: false });
});
afterAll(async () => {
  await t?.close();
});

async function post(body: string) {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MEDIA },
    body,
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', json: (await res.json()) as any };
}

const ask = (query: string, variables?: unknown) => post(JSON.stringify({ query, variables }));

describe(`with Accept: ${MEDIA}`, () => {
  it('request errors are 400 without data', async () => {
    const cases = [
      { body: '{"query": ', code: 'BAD_REQUEST' },
      { body: JSON.stringify({ query: '{ shortestPaths(query: { piece: KING' }), code: 'GRAPHQL_PARSE_FAILED' },
      { body: JSON.stringify({ query: '{ nope }' }), code: 'GRAPHQL_VALIDATION_FAILED' },
      {
        body: JSON.stringify({
          query: '{ shortestPaths(query: { piece: king, from: ["e4"], to: ["e6"] }) { distance } }',
        }),
        code: 'BAD_USER_INPUT',
      },
      {
        body: JSON.stringify({
          query: 'query($q: PathQuery!) { shortestPaths(query: $q) { distance } }',
          variables: { q: { piece: 'king', from: ['e4'], to: ['e6'] } },
        }),
        code: 'BAD_USER_INPUT',
      },
    ];
    for (const { body, code } of cases) {
      const res = await post(body);
      expect(res.status, body).toBe(400);
      expect(res.json.data, body).toBeUndefined();
      expect(res.json.errors[0].extensions.code, body).toBe(code);
    }
  });

  it('field errors are 200 with the partial data, in the media type asked for', async () => {
    const res = await ask(
      '{ good: shortestPaths(query: { piece: KING, from: ["e4"], to: ["e6"] }) { distance } bad: shortestPaths(query: { piece: KING, from: ["E9"], to: ["e6"] }) { distance } }',
    );
    expect(res.status).toBe(200);
    expect(res.type).toMatch(new RegExp(`^${MEDIA.replace('+', '\\+')}`));
    expect(res.json.data).toEqual({ good: { distance: 2 }, bad: null });
    expect(res.json.errors).toEqual([
      {
        message: 'query.from[0]: "E9" is not a square on an 8 x 8 board',
        locations: [{ line: 1, column: 86 }], // the `bad` alias,
        path: ['bad'],
        extensions: { code: 'BAD_USER_INPUT', argument: 'query.from[0]' },
      },
    ]);
  });

  it('says when a square name holds whitespace', async () => {
    const res = await ask('query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }', {
      q: [
        { piece: 'KING', from: ['e 4'], to: ['e6'] },
        { piece: 'KING', from: ['e4'], to: ['e6 '] },
        { piece: 'KING', from: ['e4'], to: ['e6'] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json.data.shortestPathsBatch).toEqual([null, null, { distance: 2 }]);
    expect(res.json.errors.map((e: any) => [e.path, e.message])).toEqual([
      [
        ['shortestPathsBatch', 0],
        'queries[0].from[0]: "e 4" is not a square name: it contains whitespace (write a square as file letters then rank, e.g. "e4")',
      ],
      [
        ['shortestPathsBatch', 1],
        'queries[1].to[0]: "e6 " is not a square name: it contains whitespace (write a square as file letters then rank, e.g. "e4")',
      ],
    ]);
  });
});

describe('HEAD, and refusals before any operation runs', () => {
  it('answers HEAD as GET without the body: the same status, type, length and tag', async () => {
    const url = `${t.url}/graphql?query=${encodeURIComponent('{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["e6"] }) { distance } }')}`;
    const get = await fetch(url);
    const getBody = await get.text();
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['content-type', 'content-length', 'etag', 'cache-control'])
      expect(head.headers.get(name), name).toBe(get.headers.get(name));
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(getBody));
    const notModified = await fetch(url, {
      method: 'HEAD',
      headers: { 'if-none-match': String(get.headers.get('etag')) },
    });
    expect(notModified.status).toBe(304);
  });

  it('says what a JSON body that is no request is, with the right content type', async () => {
    const cases: [string, string][] = [
      ['1', 'the body is 1'],
      ['"x"', 'the body is "x"'],
      ['null', 'the body is null'],
      ['[{"query": "{ __typename }"}, 1, "x"]', 'item 1 of the batch is 1'],
      // Nested deeper than a recursive writer's stack: described, not written out.
      [`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'item 0 of the batch is an array'],
    ];
    for (const [body, what] of cases) {
      const res = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status, body).toBe(400);
      const json = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(json.errors[0].extensions.code).toBe('BAD_REQUEST');
      expect(json.errors[0].message).toBe(
        `A JSON body is one request ({"query": ...}) or an array of them (a batch); ${what}`,
      );
    }
  });

  it('never lets a cache keep a refusal: bad variables in a URL, malformed JSON, a wrong content type', async () => {
    const refusals = [
      fetch(`${t.url}/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent('{bad')}`),
      fetch(`${t.url}/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent('[1]')}`),
      fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query": ',
      }),
      fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }),
    ];
    for (const res of await Promise.all(refusals)) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('cache-control'), res.url).toBe('no-store');
    }
  });
});

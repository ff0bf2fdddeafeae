/**
 * The status of a request GraphQL could not execute, by the media type of the answer
 * (`src/graphql/apollo/request-error-status.ts`, seen through the route on a real server): a document
 * that does not parse or validate (the shape limits included), an operation that cannot be picked
 * or variables that do not coerce are 200 as `application/json` (also with no Accept, or `*` for
 * any type) and 400 as `application/graphql-response+json`. When Accept allows both, the media type
 * is the one Apollo negotiates (highest q, then the more specific, then the earlier in the
 * header) and the status follows it. Every other refusal keeps its status under
 * `application/json`: MAX_COST and a subscription 400, a malformed request 400, a mutation over
 * GET 405.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerMediaType } from '../../src/graphql/apollo/request-error-status.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const JSON_TYPE = 'application/json';
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ database: false, env: { MAX_DEPTH: '4', MAX_COST: '120', MAX_TOKENS: '60' } });
});
afterAll(async () => {
  await t?.close();
});

interface Reply {
  status: number;
  type: string;
  json: any;
  headers: Headers;
}

async function post(body: unknown, accept?: string): Promise<Reply> {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    json: await res.json(),
    headers: res.headers,
  };
}

async function get(search: Record<string, string>, accept: string): Promise<Reply> {
  const res = await fetch(`${t.url}/graphql?${new URLSearchParams(search)}`, { headers: { accept } });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    json: await res.json(),
    headers: res.headers,
  };
}

const essence = (type: string) => type.split(';')[0]?.trim();

/** Requests that reach GraphQL and cannot be executed, with the code each is answered with. */
const UNEXECUTABLE: { what: string; body: Record<string, unknown>; code: string; limit?: string }[] = [
  { what: 'a syntax error', body: { query: '{ shortestPaths(query: { piece: KING' }, code: 'GRAPHQL_PARSE_FAILED' },
  { what: 'an unknown field', body: { query: '{ nope }' }, code: 'GRAPHQL_VALIDATION_FAILED' },
  {
    what: 'a literal the schema refuses',
    body: { query: '{ shortestPaths(query: { piece: king, from: ["e4"], to: ["e6"] }) { distance } }' },
    code: 'BAD_USER_INPUT',
  },
  {
    what: 'a variable that does not coerce',
    body: {
      query: 'query($q: PathQuery!) { shortestPaths(query: $q) { distance } }',
      variables: { q: { piece: 'king', from: ['e4'], to: ['e6'] } },
    },
    code: 'BAD_USER_INPUT',
  },
  {
    what: 'a missing non-null variable',
    body: { query: 'query($q: PathQuery!) { shortestPaths(query: $q) { distance } }' },
    code: 'BAD_USER_INPUT',
  },
  {
    what: 'an operation name the document does not have',
    body: { query: 'query A { __typename } query B { __typename }', operationName: 'C' },
    code: 'OPERATION_RESOLUTION_FAILURE',
  },
  {
    what: 'a document past MAX_DEPTH (a validation rule)',
    body: {
      query:
        '{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["b2"] }) { paths { edges { node { squares } } } } }',
    },
    code: 'GRAPHQL_VALIDATION_FAILED',
    limit: 'MAX_DEPTH',
  },
  {
    what: 'a document past MAX_TOKENS (found by the parser)',
    body: {
      query: `{ shortestPaths(query: { piece: KING, from: ["a1"], to: [${'"b2" '.repeat(40)}] }) { distance } }`,
    },
    code: 'GRAPHQL_PARSE_FAILED',
    limit: 'MAX_TOKENS',
  },
];

describe('a request that cannot be executed', () => {
  it.each(UNEXECUTABLE)(
    '$what: 200 as application/json, with no Accept and with */*',
    async ({ body, code, limit }) => {
      for (const accept of [JSON_TYPE, undefined, '*/*']) {
        const res = await post(body, accept);
        const label = `${JSON.stringify(body)} Accept ${accept}`;
        expect(res.status, label).toBe(200);
        expect(essence(res.type), label).toBe(JSON_TYPE);
        expect(res.json.data, label).toBeUndefined();
        expect(res.json.errors[0].extensions.code, label).toBe(code);
        if (limit) expect(res.json.errors[0].extensions.limit, label).toBe(limit);
        expect(res.headers.get('cache-control'), label).toBe('no-store');
      }
    },
  );

  it.each(UNEXECUTABLE)('$what: 400 as application/graphql-response+json', async ({ body, code }) => {
    const res = await post(body, GRAPHQL_RESPONSE);
    expect(res.status).toBe(400);
    expect(essence(res.type)).toBe(GRAPHQL_RESPONSE);
    expect(res.json.data).toBeUndefined();
    expect(res.json.errors[0].extensions.code).toBe(code);
  });

  it('over GET likewise, and is never cacheable: no-store, no ETag', async () => {
    const asJson = await get({ query: '{ nope }' }, JSON_TYPE);
    expect(asJson.status).toBe(200);
    expect(essence(asJson.type)).toBe(JSON_TYPE);
    expect(asJson.headers.get('cache-control')).toBe('no-store');
    expect(asJson.headers.get('etag')).toBeNull();
    expect(asJson.json.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const asResponse = await get({ query: '{ nope }' }, GRAPHQL_RESPONSE);
    expect(asResponse.status).toBe(400);
    expect(essence(asResponse.type)).toBe(GRAPHQL_RESPONSE);
  });
});

describe('when Accept allows both, the status follows the media type Apollo picks', () => {
  const cases: [accept: string | undefined, media: string][] = [
    [undefined, JSON_TYPE],
    ['*/*', JSON_TYPE],
    ['application/*', JSON_TYPE],
    [JSON_TYPE, JSON_TYPE],
    ['application/json; charset=utf-8', JSON_TYPE],
    [GRAPHQL_RESPONSE, GRAPHQL_RESPONSE],
    ['APPLICATION/GRAPHQL-RESPONSE+JSON', GRAPHQL_RESPONSE],
    [`${GRAPHQL_RESPONSE}, ${JSON_TYPE}`, GRAPHQL_RESPONSE],
    [`${JSON_TYPE}, ${GRAPHQL_RESPONSE}`, JSON_TYPE],
    [`${JSON_TYPE};q=0.5, ${GRAPHQL_RESPONSE}`, GRAPHQL_RESPONSE],
    [`${GRAPHQL_RESPONSE};q=0.5, ${JSON_TYPE}`, JSON_TYPE],
    [`*/*, ${GRAPHQL_RESPONSE}`, GRAPHQL_RESPONSE],
    [`${GRAPHQL_RESPONSE};q=0.9, */*;q=0.8`, GRAPHQL_RESPONSE],
    [`text/html, ${JSON_TYPE};q=0.9, ${GRAPHQL_RESPONSE};q=0.8`, JSON_TYPE],
    [`${JSON_TYPE};q=0, ${GRAPHQL_RESPONSE};q=0.1`, GRAPHQL_RESPONSE],
  ];

  it.each(cases)('Accept %s: %s', async (accept, media) => {
    expect(answerMediaType(accept)).toBe(media);
    // The media type Apollo itself picks for an answer that ran.
    const ran = await post({ query: '{ __typename }' }, accept);
    expect(ran.status).toBe(200);
    expect(essence(ran.type)).toBe(media);
    const refused = await post({ query: '{ nope }' }, accept);
    expect(essence(refused.type)).toBe(media);
    expect(refused.status).toBe(media === JSON_TYPE ? 200 : 400);
  });

  it('accepting neither is still 406', async () => {
    expect(answerMediaType('text/html')).toBeUndefined();
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/html' },
      body: JSON.stringify({ query: '{ nope }' }),
    });
    expect(res.status).toBe(406);
  });
});

describe('refusals that are not a document GraphQL could not execute keep their status as application/json', () => {
  it('MAX_COST: 400', async () => {
    const q = Array.from({ length: 3 }, () => ({ piece: 'KING', from: ['a1'], to: ['b2'] }));
    const res = await post(
      {
        query: 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { paths(first: 10) { totalCount } } }',
        variables: { q },
      },
      JSON_TYPE,
    );
    expect(res.status).toBe(400);
    expect(res.json.errors[0].extensions.limit).toBe('MAX_COST');
  });

  it('a subscription, a missing query, variables that are not a map, malformed JSON: 400', async () => {
    const bodies: unknown[] = [
      { query: 'subscription { __typename }' },
      {},
      { query: '{ __typename }', variables: [7] },
      '{"query": ',
      { query: '{ __typename }', extensions: { persistedQuery: { version: 2, sha256Hash: 'x' } } },
    ];
    for (const body of bodies) {
      const res = await post(body, JSON_TYPE);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errors[0].extensions.code, JSON.stringify(body)).toBe('BAD_REQUEST');
    }
  });

  it('a mutation over GET: 405', async () => {
    const res = await get({ query: 'mutation { __typename }' }, JSON_TYPE);
    expect(res.status).toBe(405);
  });
});

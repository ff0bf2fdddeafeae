/**
 * Fuzz families that attack the HTTP around the GraphQL (test/hardening/fuzz.test.ts runs them):
 * content types, GET with and without Apollo's preflight header, mutations over GET, other methods
 * and routes, huge and odd headers; and the analysis mutations with forged ids and edit tokens
 * and bad inputs.
 */
import fc from 'fast-check';
import {
  anyJson,
  type Case,
  fenText,
  gqlBody,
  MUTATIONS,
  pathQueryValue,
  post,
  SEED_DOC,
  VALID_QUERIES,
} from './values.js';

/** Content types a POST may carry, valid and not. */
const CONTENT_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/graphql',
  'application/xml',
  'application/octet-stream',
  '',
  'application/json; charset=utf-16',
  'application/jsonp',
  'APPLICATION/JSON',
  'application/json;;;',
  'json',
];

/** Content types, GET requests (with and without preflight), methods and routes, and headers. */
export const http: fc.Arbitrary<Case> = fc.oneof(
  // Content types: only JSON-like ones may be served (others are 415: what cross-site forms can send).
  fc
    .tuple(
      fc.constantFrom(...CONTENT_TYPES),
      fc.constantFrom(gqlBody(SEED_DOC), gqlBody('{ nope }'), 'query=%7B__typename%7D'),
    )
    .map(
      ([type, body]): Case => ({
        family: 'http: content types',
        headers: type === '' ? {} : { 'content-type': type },
        body,
        maySucceed: /json/i.test(type) && body.includes('shortestPaths'),
      }),
    ),
  // GET queries with and without Apollo's preflight header (neither is needed), with broken
  // parameters, and mutations over GET (always refused).
  fc
    .tuple(
      fc.constantFrom('{ __typename }', SEED_DOC, '{ nope', 'mutation { deleteAnalysis(id: "x", editToken: "y") }', ''),
      fc.boolean(),
      fc.constantFrom(
        '',
        '&variables=%7B',
        '&variables=5',
        '&extensions=%7B%7D',
        '&operationName=X',
        '&query=%7B__typename%7D',
        '%zz',
        '&variables=%7B%22q%22%3A1%7D',
      ),
    )
    .map(([doc, preflight, extra]): Case => {
      const isQuery = doc !== '' && !doc.startsWith('mutation') && !doc.includes('nope');
      return {
        family: preflight ? 'http: GET with preflight' : 'http: GET without preflight',
        method: 'GET',
        path: `/graphql?query=${encodeURIComponent(doc)}${extra}`,
        headers: { accept: 'application/json', ...(preflight ? { 'apollo-require-preflight': 'true' } : {}) },
        // Unused variables and a repeated query parameter are ignored, not refused.
        maySucceed:
          isQuery &&
          ['', '&extensions=%7B%7D', '&query=%7B__typename%7D', '&variables=%7B%22q%22%3A1%7D'].includes(extra),
      };
    }),
  // Other methods and routes.
  fc
    .tuple(
      fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'GET', 'POST'),
      fc.constantFrom(
        '/graphql',
        '/graphql/',
        '/GRAPHQL',
        '//graphql',
        '/graphql/../graphql',
        '/%2e%2e/etc/passwd',
        '/health',
        '/metrics',
        '/nowhere',
        '/graphql?%',
        `/${'a'.repeat(10_000)}`,
      ),
    )
    .map(
      ([method, path]): Case => ({
        family: 'http: methods and routes',
        method,
        path,
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: method === 'GET' || method === 'HEAD' ? undefined : gqlBody('{ __typename }'),
        // Health, metrics, CORS preflights, HEAD and a POST of a valid document are fine answers.
        maySucceed: true,
      }),
    ),
  // Huge or odd headers.
  fc
    .constantFrom<Record<string, string>[]>(
      { 'content-type': 'application/json', 'x-big': 'x'.repeat(20_000) },
      { 'content-type': 'application/json', 'apollo-require-preflight': '' },
      { 'content-type': 'application/json', 'x-apollo-operation-name': 'x'.repeat(1000) },
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      { 'content-type': 'application/json', 'content-encoding': 'br, deflate' },
    )
    .map((headers): Case => ({ family: 'http: headers', headers, body: gqlBody('{ nope }') })),
);

/** Ids: UUIDs, random text, and SQL-shaped strings. */
const idText = fc.oneof(
  fc.uuid(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '%', "' OR 1=1 --", '"; DROP TABLE "Analysis"; --'),
);

/** Updates and deletes with forged ids and tokens, and saves with bad inputs. */
export const mutations: fc.Arbitrary<Case> = fc.oneof(
  fc
    .tuple(idText, fc.string({ unit: 'binary', maxLength: 60 }), fc.record({ title: fc.string({ maxLength: 10 }) }))
    .map(([id, t, i]) => post('mutations: forged ids/tokens', gqlBody(MUTATIONS.update, { id, t, i }))),
  // Deleting an unknown id answers false: a success, but one that changes nothing.
  fc
    .tuple(idText, fc.string({ unit: 'binary', maxLength: 60 }))
    .map(([id, t]) => post('mutations: forged ids/tokens', gqlBody(MUTATIONS.delete, { id, t }), true)),
  fc
    .record(
      {
        title: fc.oneof(fc.constantFrom('', ' ', '\t\n', '\u200b'), fc.string({ maxLength: 5 })),
        notes: fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 5 })),
        fen: fenText,
        queries: fc.oneof(
          fc.array(pathQueryValue, { maxLength: 3 }),
          fc.constant(Array.from({ length: 501 }, () => VALID_QUERIES[0])),
          anyJson,
        ),
      },
      { requiredKeys: [] },
    )
    .map((i) => post('mutations: bad saves', gqlBody(MUTATIONS.save, { i }), true)),
);

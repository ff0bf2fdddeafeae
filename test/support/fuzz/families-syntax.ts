/**
 * Fuzz families that attack the shape of a request (test/hardening/fuzz.test.ts runs them):
 * broken JSON bodies and envelopes; broken GraphQL (random text, mutations of the seed document,
 * token soup, invalid documents); deep, aliased, fragment-cyclic, directive-laden and
 * many-operation documents; and strings of up to 2 * 10^6 characters in every string argument.
 */
import fc from 'fast-check';
import { anyJson, type Case, gqlBody, post, SEED_DOC } from './values.js';

/** Random, truncated and binary bodies, and JSON of the wrong shape (some odd but valid envelopes). */
export const brokenJson: fc.Arbitrary<Case> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }).map((s) => post('json: random text', s)),
  fc.tuple(fc.nat(), fc.string({ unit: 'binary', maxLength: 8 })).map(([cut, tail]) => {
    const whole = gqlBody(SEED_DOC);
    return post('json: truncated', whole.slice(0, cut % whole.length) + tail);
  }),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => post('json: binary', bytes)),
  fc
    .constantFrom(
      '',
      ' ',
      'null',
      'true',
      '0',
      '"{ __typename }"',
      '[]',
      '{}',
      '{"query":null}',
      '{"query":5}',
      '{"query":["{ __typename }"]}',
      '{"query":{"kind":"Document"}}',
      '{"query":"{ __typename }","variables":"x"}',
      '{"query":"{ __typename }","variables":[1]}',
      '{"query":"{ __typename }","operationName":5}',
      '{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38"}}}',
      '{"query":"{ __typename }","query":"{ nope }"}',
      '\ufeff{"query":"{ nope }"}',
      '{"query":"{ nope }"}\u0000',
      '{"query":"\\ud800"}',
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      `{"query":"{ nope }","extensions":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`,
    )
    .map((s) => post('json: wrong shape', s)),
  // Odd but valid envelopes: unknown extensions (even 50,000 levels deep) and unused variables are ignored.
  fc
    .constantFrom(
      `{"query":"{ __typename }","extensions":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`,
      '{"query":"{ __typename }","variables":{"unused":[[[[1]]]]}}',
      // An HTTP batch, as Apollo Client's BatchHttpLink sends it.
      '[{"query":"{ __typename }"},{"query":"{ __typename }"}]',
    )
    .map((s) => post('json: wrong shape', s, true)),
  anyJson.map((v) => post('json: wrong shape', JSON.stringify(v))),
  fc
    .record({ query: anyJson, variables: anyJson, operationName: anyJson }, { requiredKeys: [] })
    .map((v) => post('json: wrong shape', JSON.stringify(v))),
);

/** Tokens of GraphQL and of the schema, and near misses, for token soup. */
const TOKENS = [
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ':',
  '$q',
  '...',
  '@include',
  '@skip',
  '!',
  '=',
  '|',
  '&',
  'query',
  'mutation',
  'subscription',
  'fragment',
  'on',
  'shortestPaths',
  'shortestPathsBatch',
  'position',
  'analyses',
  'piece',
  'KING',
  'from',
  'to',
  'distance',
  '"e4"',
  '"""block"""',
  '1e999',
  '-0',
  '0x10',
  '12345678901234567890',
  'true',
  'null',
  '#c\n',
  '__typename',
  '__schema',
  '\u00e9',
  '"\\u{1F600}"',
  '"\\uD800"',
  '"unterminated',
  '\u0000',
  '.',
  '..',
  'query($q: PathQuery!)',
  'PathQuery',
  'Int!',
];

/** Random text, mutations of the seed document, token soup and invalid documents. */
export const brokenGraphql: fc.Arbitrary<Case> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 120 }).map((s) => post('graphql: random text', gqlBody(s))),
  fc
    .array(fc.tuple(fc.nat(), fc.nat({ max: 2 }), fc.string({ unit: 'grapheme-ascii', maxLength: 3 })), {
      minLength: 1,
      maxLength: 4,
    })
    .map((edits) => {
      let doc = SEED_DOC;
      for (const [at, op, text] of edits) {
        const i = at % (doc.length + 1);
        doc =
          op === 0
            ? doc.slice(0, i) + text + doc.slice(i)
            : op === 1
              ? doc.slice(0, i) + doc.slice(i + 1)
              : doc.slice(0, i) + text + doc.slice(i + text.length);
      }
      // A mutation may leave the document valid (a changed alias, a space): that may succeed.
      return post('graphql: mutated seed', gqlBody(doc), true);
    }),
  fc
    .array(fc.constantFrom(...TOKENS), { maxLength: 40 })
    .map((t) => post('graphql: token soup', gqlBody(t.join(' ')), true)),
  fc
    .constantFrom(
      'subscription { nope(',
      'query A { __typename } query A { __typename }',
      'query A { __typename } query B { __typename }',
      '{ __typename } { __typename }',
      'mutation { shortestPaths { distance } }',
      'mutation { nope }',
      '{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["h8"] }) { paths(first: 99999999999999999999) { totalCount } } }',
      '{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["h8"] }) { paths(first: 1e9) { totalCount } } }',
      '{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["h8"] }) { paths(first: "10") { totalCount } } }',
      'query($q: PathQuery!) { shortestPaths(query: $q) { distance } }',
      'query($q: Nope) { __typename }',
      'query($q: PathQuery = 5) { shortestPaths(query: $q) { distance } }',
      'query { __typename @nope }',
      'query @include(if: true) { __typename }',
      '{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["h8"] }) }',
      '{ shortestPaths { distance } }',
      '{ __typename(x: 1) }',
      '{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["h8"] }) { distance(x: 1) } }',
      '{ analysis(id: 5.5) { id } }',
      '{ analysis(id: null) { id } }',
      '{ position(fen: 8) { turn } }',
    )
    .map((doc) => post('graphql: invalid documents', gqlBody(doc))),
);

/** `{ f { f { ... } } }` shapes, fragments, aliases and directives. */
export const shapes: fc.Arbitrary<Case> = fc.oneof(
  fc
    .integer({ min: 1, max: 3000 })
    .map((d) =>
      post(
        'shapes: deep introspection',
        gqlBody(`{ __type(name: "Query") { fields { type { ${'ofType { '.repeat(d)}name${' }'.repeat(d)} } } } }`),
        true,
      ),
    ),
  fc
    .integer({ min: 1, max: 3000 })
    .map((d) => post('shapes: deep unknown fields', gqlBody(`{ ${'a { '.repeat(d)}b${' }'.repeat(d)} }`))),
  fc
    .integer({ min: 1, max: 3000 })
    .map((d) =>
      post('shapes: nested fragments', gqlBody(`{ ${'... on Query { '.repeat(d)}__typename${' }'.repeat(d)} }`), true),
    ),
  fc
    .integer({ min: 1, max: 6000 })
    .map((d) =>
      post(
        'shapes: nested lists',
        gqlBody(
          `{ shortestPaths(query: { piece: KING, from: ${'['.repeat(d)}"a1"${']'.repeat(d)}, to: ["h8"] }) { distance } }`,
        ),
        d === 1,
      ),
    ),
  fc
    .integer({ min: 1, max: 200_000 })
    .map((d) =>
      post(
        'shapes: nested variables',
        `{"query":"query($q: PathQuery!) { shortestPaths(query: $q) { distance } }","variables":{"q":{"piece":"KING","to":["h8"],"from":${'['.repeat(d)}"a1"${']'.repeat(d)}}}}`,
        d === 1,
      ),
    ),
  fc.integer({ min: 1, max: 5 }).map((n) => {
    const frags = Array.from({ length: n }, (_, i) => `fragment F${i} on Query { __typename ...F${(i + 1) % n} }`).join(
      ' ',
    );
    return post('shapes: fragment cycles', gqlBody(`{ ...F0 } ${frags}`));
  }),
  fc.integer({ min: 1, max: 40 }).map((n) => {
    // Each fragment spreads the previous one twice: 2^n fields if expanded naively.
    const frags = Array.from({ length: n }, (_, i) =>
      i === 0 ? 'fragment F0 on PathResult { distance }' : `fragment F${i} on PathResult { ...F${i - 1} ...F${i - 1} }`,
    ).join(' ');
    return post(
      'shapes: fragment fan-out',
      gqlBody(`{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["h8"] }) { ...F${n - 1} } } ${frags}`),
      true,
    );
  }),
  fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.boolean()).map(([k, cheap]) => {
    const field = cheap
      ? '__typename'
      : 'shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) { distance }';
    const body = Array.from({ length: k }, (_, i) => `a${i}: ${field}`).join(' ');
    // graphql-armor does not count aliases of __typename (its default allowList); MAX_TOKENS bounds them.
    return post('shapes: aliases', gqlBody(`{ ${body || '__typename'} }`), cheap || k <= 30);
  }),
  fc
    .tuple(
      fc.integer({ min: 0, max: 300 }),
      fc.constantFrom('@include(if: true)', '@skip(if: false)', '@nope', '@include(if: $x)', '@deprecated'),
    )
    .map(([k, directive]) =>
      post(
        'shapes: directives',
        gqlBody(
          `query($x: Boolean = true) { __typename ${Array.from({ length: k }, (_, i) => `a${i}: __typename ${directive}`).join(' ')} }`,
        ),
        k <= 50 && !directive.includes('nope') && !directive.includes('deprecated'),
      ),
    ),
  fc.integer({ min: 2, max: 3000 }).map((n) => {
    const ops = Array.from({ length: n }, (_, i) => `query Q${i} { __typename }`).join(' ');
    return post('shapes: many operations', gqlBody(ops, undefined, { operationName: `Q${n}` }));
  }),
  fc
    .integer({ min: 1, max: 5000 })
    .map((n) =>
      post(
        'shapes: unused variables',
        gqlBody(`query(${Array.from({ length: n }, (_, i) => `$v${i}: Int`).join(' ')}) { __typename }`),
      ),
    ),
);

/**
 * Strings of 10^4 to 2 * 10^6 characters (up to 8 MB of UTF-8, under the body limit) in every
 * string argument. Bodies past the limit are tested in test/hardening/limits.bytes.test.ts: the 413 is
 * sent, but a client still uploading a large body may see the connection reset instead (see there).
 */
export const hugeStrings: fc.Arbitrary<Case> = fc
  .tuple(
    fc.constantFrom(10_001, 100_000, 1_000_000, 2_000_000),
    fc.constantFrom('x', 'é', '\u{1F600}', 'a1'),
    fc.nat({ max: 6 }),
  )
  .map(([length, unit, slot]) => {
    const big = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
    switch (slot) {
      case 0:
        return post(
          'huge strings',
          gqlBody('mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken } }', {
            i: { title: big, queries: [] },
          }),
        );
      case 1:
        return post(
          'huge strings',
          gqlBody('mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken } }', {
            i: { title: 't', notes: big, queries: [] },
          }),
        );
      case 2:
        return post(
          'huge strings',
          gqlBody('query($q: PathQuery!) { shortestPaths(query: $q) { distance } }', {
            q: { piece: 'KING', from: [big], to: ['h8'] },
          }),
        );
      case 3:
        return post('huge strings', gqlBody('query($f: String!) { position(fen: $f) { turn } }', { f: big }));
      case 4:
        return post('huge strings', gqlBody('{ __typename }', undefined, { operationName: big }));
      case 5:
        return post(
          'huge strings',
          gqlBody(`{ shortestPaths(query: { piece: KING, from: [${JSON.stringify(big)}], to: ["h8"] }) { distance } }`),
        );
      default:
        return post('huge strings', gqlBody('query($id: ID!) { analysis(id: $id) { id } }', { id: big }), true);
    }
  });

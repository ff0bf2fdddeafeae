/**
 * New documents of a known shape (`src/graphql/apollo/known-shapes.ts`): the shape keeps
 * everything but string, number and enum values; a valid document of a shape Apollo validated
 * before is not validated by Apollo again, and one whose values are wrong (a bad literal, two
 * fields of one name with other arguments) gets exactly the answer it gets without the shortcut.
 * The check of plain documents without graphql-js's visitor passes only documents those two rules
 * pass. The shapes remembered stay within their bound in estimated bytes, none over an eighth of it.
 */

import { createRequire } from 'node:module';
import { ApolloServer, type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import fc from 'fast-check';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ValidatedDocuments } from '../../../src/graphql/apollo/document-store.js';
import { KnownShapes, knownShapesPlugin, plainValuesValid, shapeOf } from '../../../src/graphql/apollo/known-shapes.js';
import { buildSchema } from '../../../src/graphql/schema/schema.js';

const schema = buildSchema();
/** graphql-js as the schema's types know it (Node's `require`; the test runner may load another copy for `import`). */
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');
const question = (piece: string, to: string, mask = '0xffffffffffffffff') =>
  `{ shortestPaths(query: { piece: ${piece}, from: ["a1"], to: ["${to}"], mask: "${mask}" }) { distance layers { squares } } }`;
const shapeOfText = (text: string) => shapeOf(parse(text));

describe('shapeOf', () => {
  it('is the same for documents that differ only in string, number and enum values', () => {
    expect(shapeOfText(question('KING', 'h8'))).toBe(shapeOfText(question('QUEEN', 'c3', '0x0')));
    expect(
      shapeOfText(
        '{ a: shortestPaths(query: { piece: KING, from: ["a1"], to: ["b2"], board: { files: 8, ranks: 8 } }) { paths(first: 3) { totalCount } } }',
      ),
    ).toBe(
      shapeOfText(
        '{ a: shortestPaths(query: { piece: ROOK, from: ["h1"], to: ["b7"], board: { files: 12, ranks: 9 } }) { paths(first: 30) { totalCount } } }',
      ),
    );
  });

  it('differs in anything else: names, aliases, arguments, list lengths, kinds of value, booleans, variables, directives', () => {
    const base = question('KING', 'h8');
    const others = [
      base.replace('distance', 'pathCount'),
      base.replace('shortestPaths', 'x: shortestPaths'),
      base.replace('mask:', 'blocked:'),
      base.replace('["h8"]', '["h8", "g7"]'),
      base.replace('"0xffffffffffffffff"', '5'),
      base.replace('distance', 'distance @include(if: true)'),
      base.replace('distance', 'distance @include(if: false)'),
      base.replace('"0xffffffffffffffff"', 'null'),
      `query($m: Bitboard) ${base.replace('"0xffffffffffffffff"', '$m')}`,
      `query Named ${base}`,
    ].map(shapeOfText);
    expect(new Set([shapeOfText(base), ...others]).size).toBe(others.length + 1);
    expect(shapeOfText('type T { a: Int }')).toBeUndefined();
  });
});

describe('plainValuesValid', () => {
  const valueRules = (text: string) =>
    graphql.validate(schema, parse(text), [graphql.ValuesOfCorrectTypeRule, graphql.OverlappingFieldsCanBeMergedRule])
      .length;

  it('passes a single plain operation whose literals are values of their types', () => {
    expect(plainValuesValid(schema, parse(question('KING', 'h8')))).toBe(true);
    expect(plainValuesValid(schema, parse(`{ __typename a: ${question('ROOK', 'b2').slice(2)}`))).toBe(true);
  });

  it('does not judge anything else: bad literals, repeated response names, fragments, directives, defaults', () => {
    const base = question('KING', 'h8');
    for (const text of [
      question('PAWNX', 'h8'),
      question('KING', 'h8').replace('["h8"]', '[8]'),
      base.replace('mask: "0xffffffffffffffff"', 'board: { files: "8", ranks: 8 }'),
      base.replace('distance', 'distance distance'),
      base.replace('{ distance', '{ ...on PathResult { distance }'),
      base.replace('distance', 'distance @include(if: true)'),
      `query($m: Bitboard = "0x0") ${base.replace('"0xffffffffffffffff"', '$m')}`,
      `${base} { __typename }`,
    ])
      expect(plainValuesValid(schema, parse(text)), text).toBe(false);
  });

  it('passes only documents the two value rules pass (random literals of every kind in known shapes)', () => {
    const piece = fc.constantFrom<string>('KING', 'QUEEN', 'KNIGHT', 'FAIRY', 'PAWNX', '5', '"KING"', 'null');
    const square = fc.constantFrom<string>('"a1"', '"h8"', '"z9"', '""', '3', 'null', 'KING', `"${'h8'.repeat(20)}"`);
    const bits = fc.constantFrom<string>('"0xffffffffffffffff"', '"0x0"', '"zz"', '7', 'null', '"0x1ff"');
    const size = fc.constantFrom<string>('8', '0', '300', '-1', '"8"', '2147483648', '8.5', 'null');
    const count = fc.constantFrom<string>('1', '10', '0', '-3', '"2"', '1e3', 'null');
    const documents = fc
      .tuple(piece, square, square, bits, size, size, count)
      .chain(([p, from, to, mask, files, ranks, first]) =>
        fc.constantFrom(
          `{ shortestPaths(query: { piece: ${p}, from: [${from}], to: [${to}], mask: ${mask} }) { distance pathCount } }`,
          `{ a: shortestPaths(query: { piece: ${p}, from: [${from}, "b2"], to: [${to}], board: { files: ${files}, ranks: ${ranks} } }) { paths(first: ${first}) { totalCount } } }`,
          `{ shortestPathsBatch(queries: [{ piece: ${p}, from: ${from}, to: [${to}] }]) { distance layers { squares } } }`,
        ),
      );
    let passed = 0;
    fc.assert(
      fc.property(documents, (text) => {
        if (!plainValuesValid(schema, parse(text))) return;
        passed++;
        expect(valueRules(text), text).toBe(0);
      }),
      { numRuns: 400 },
    );
    expect(passed).toBeGreaterThan(0);
  });
});

/** An Apollo server on the project's schema answering `{ ok: true }` to whatever it would execute, counting validations. */
async function startApollo(withShapes: boolean) {
  const validations = { count: 0 };
  const counting: ApolloServerPlugin = {
    async requestDidStart() {
      return {
        async validationDidStart() {
          validations.count++;
        },
        async responseForOperation() {
          return {
            http: { status: undefined, headers: new HeaderMap() },
            body: { kind: 'single', singleResult: { data: { ok: true } } },
          };
        },
      };
    },
  };
  const shapes = new KnownShapes();
  const documents = new ValidatedDocuments(undefined, (document) => shapes.validated(document));
  const parseOptions = { maxTokens: 2000 };
  const server = new ApolloServer({
    schema,
    plugins: [counting, ...(withShapes ? [knownShapesPlugin(documents, shapes, parseOptions)] : [])],
    documentStore: documents.store,
    parseOptions,
  });
  await server.start();
  const post = async (query: string) => {
    const res = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: 'POST',
        headers: new HeaderMap([['content-type', 'application/json']]),
        search: '',
        body: { query },
      },
      context: async () => ({}),
    });
    return { status: res.status ?? 200, body: res.body.kind === 'complete' ? JSON.parse(res.body.string) : null };
  };
  return { server, post, validations };
}

describe('knownShapesPlugin', () => {
  it('lets a valid document of a known shape through without Apollo validating it, and answers wrong values as Apollo does', async () => {
    const shortcut = await startApollo(true);
    const reference = await startApollo(false);
    try {
      const both = async (query: string) => {
        const [a, b] = [await shortcut.post(query), await reference.post(query)];
        expect(a).toEqual(b);
        return a;
      };
      expect(await both(question('KING', 'h8'))).toEqual({ status: 200, body: { data: { ok: true } } });
      expect(shortcut.validations.count).toBe(1);
      // Same shape, other values: no validation by Apollo, the same answer.
      expect(await both(question('KNIGHT', 'c3', '0xfffffffffffffff0'))).toEqual({
        status: 200,
        body: { data: { ok: true } },
      });
      expect(await both(question('BISHOP', 'e5'))).toEqual({ status: 200, body: { data: { ok: true } } });
      expect(shortcut.validations.count).toBe(1);
      expect(reference.validations.count).toBe(3);

      // Same shape, a value its type refuses: Apollo validates it, with its own error.
      const badEnum = await both(question('PAWNX', 'h8'));
      expect(badEnum.status).toBe(400);
      expect(badEnum.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      const badSquare = await both(question('KING', 'h8').replace('["h8"]', '[8]'));
      expect(badSquare.body.errors[0].message).toMatch(/Square/);
      // A square name of any length is a string, so a valid Square (the engine judges the name).
      expect(await both(question('KING', 'h8'.repeat(20)))).toEqual({ status: 200, body: { data: { ok: true } } });

      // Two fields of one response name: the same arguments pass, other arguments fail as always.
      const twice = (a: string, b: string) =>
        `{ r: shortestPaths(query: { piece: KING, from: ["a1"], to: ["${a}"] }) { distance } r: shortestPaths(query: { piece: KING, from: ["a1"], to: ["${b}"] }) { distance } }`;
      expect((await both(twice('h8', 'h8'))).status).toBe(200);
      const before = shortcut.validations.count;
      expect((await both(twice('c3', 'c3'))).status).toBe(200);
      expect(shortcut.validations.count).toBe(before);
      const conflict = await both(twice('h8', 'c3'));
      expect(conflict.status).toBe(400);
      expect(conflict.body.errors[0].message).toMatch(/"r" conflict/);
      // A text that does not parse is Apollo's to report.
      expect((await both(`${question('KING', 'h8')} }`)).status).toBe(400);
    } finally {
      await shortcut.server.stop();
      await reference.server.stop();
    }
  });
});

describe('KnownShapes within its bound in bytes', () => {
  it('remembers shapes within its bound in bytes, and none over an eighth of it', () => {
    const doc = (field: string) => parse(`{ ${field}: shortestPaths(query: { piece: KING }) { distance } }`);
    const probe = new KnownShapes();
    probe.validated(doc('a0'));
    const weight = probe.size().bytes;
    const shapes = new KnownShapes(8 * weight);
    for (let i = 0; i < 8; i++) shapes.validated(doc(`a${i}`));
    expect(shapes.size()).toEqual({ entries: 8, bytes: 8 * weight, maxBytes: 8 * weight });
    expect(shapes.known(doc('a0'))).toBe(true);
    shapes.validated(doc('a8'));
    expect(shapes.known(doc('a1'))).toBe(false);
    expect(shapes.known(doc('a0'))).toBe(true);
    shapes.validated(doc(`long${'x'.repeat(200)}`));
    expect(shapes.known(doc(`long${'x'.repeat(200)}`))).toBe(false);
  });
});

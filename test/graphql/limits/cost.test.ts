/**
 * The operation cost with variables (src/graphql/limits/cost.ts): literal and variable `first` cost the
 * same, a variable's default counts, fragments are followed, list lengths come from variables,
 * literal documents cost what graphql-armor's costLimit rule says; the work estimate separates
 * light requests from heavy ones; and the Apollo plugin refuses over MAX_COST with HTTP 400 before
 * anything executes (a real ApolloServer on the project's schema).
 */
import { ApolloServer, type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { parse, buildSchema as schemaFromSdl, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { type Limits, loadConfig } from '../../../src/config.js';
import { costOf, costPlugin } from '../../../src/graphql/apollo/cost-plugin.js';
import { HEAVY_WORK, type OperationCost, operationCost } from '../../../src/graphql/limits/cost.js';
import { buildSchema, readTypeDefs } from '../../../src/graphql/schema/schema.js';
import { SEED_QUERY } from '../../support/test-server.js';

const schema = buildSchema();
/** The same SDL built by the graphql-js this file imports: under vitest, @graphql-tools may load another copy. */
const sdlSchema = schemaFromSdl(readTypeDefs());
const limits: Limits = loadConfig({}).limits;
const KING = { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] };
const KING64 = { ...KING, board: { files: 64, ranks: 64 } };
const SEED = `{ shortestPaths(query: ${SEED_QUERY}) { distance layers { squares } overlay { ascii } } }`;

function cost(query: string, variables?: Record<string, unknown>, over: Partial<Limits> = {}): OperationCost {
  return operationCost({ schema, document: parse(query), variables, limits: { ...limits, ...over } });
}

/** graphql-armor's cost of each operation of `query` (its validation rule, armor's defaults). */
function armorCost(query: string): number[] {
  const found: number[] = [];
  const rule = costLimitRule({
    maxCost: Number.MAX_SAFE_INTEGER,
    onAccept: [(_ctx: unknown, { n }: { n: number }) => found.push(n)],
  });
  expect(validate(sdlSchema, parse(query), [rule as never])).toEqual([]);
  return found;
}

describe('operationCost: the cost', () => {
  it('is the same for a literal first, a variable, and a variable default', () => {
    const literal = cost(
      `{ shortestPaths(query: ${SEED_QUERY}) { paths(first: 1000) { edges { node { squares } } } } }`,
    );
    const variable = `query($n: Int) { shortestPaths(query: ${SEED_QUERY}) { paths(first: $n) { edges { node { squares } } } } }`;
    expect(literal.cost).toBe(19_314.5);
    expect(cost(variable, { n: 1000 })).toEqual(literal);
    expect(cost(variable.replace('$n: Int', '$n: Int = 1000'))).toEqual(literal);
    expect(cost(variable.replace('$n: Int', '$n: Int = 1000'), { n: 3 })).toEqual(cost(variable, { n: 3 }));
    expect(cost('query($n: Int) { analyses(first: $n) { totalCount } }', { n: 700 })).toEqual(
      cost('{ analyses(first: 700) { totalCount } }'),
    );
  });

  it('takes a missing or null first as the schema default (paths 10, analyses 20)', () => {
    const ten = cost(`{ shortestPaths(query: ${SEED_QUERY}) { paths(first: 10) { totalCount } } }`);
    expect(cost(`{ shortestPaths(query: ${SEED_QUERY}) { paths { totalCount } } }`)).toEqual(ten);
    expect(
      cost(`query($n: Int) { shortestPaths(query: ${SEED_QUERY}) { paths(first: $n) { totalCount } } }`, { n: null }),
    ).toEqual(ten);
    expect(cost(`query($n: Int) { shortestPaths(query: ${SEED_QUERY}) { paths(first: $n) { totalCount } } }`)).toEqual(
      ten,
    );
    expect(cost('{ analyses { totalCount } }').cost).toBe(cost('{ analyses(first: 20) { totalCount } }').cost);
  });

  it('caps first at MAX_PAGE_SIZE and lists at MAX_BATCH_SIZE (the resolvers refuse more, naming those)', () => {
    const q = `query($n: Int) { shortestPaths(query: ${SEED_QUERY}) { paths(first: $n) { totalCount } } }`;
    expect(cost(q, { n: 1e9 })).toEqual(cost(q, { n: 1000 }));
    const b = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }';
    expect(cost(b, { q: Array(100_000).fill(KING) })).toEqual(cost(b, { q: Array(500).fill(KING) }));
  });

  it('follows fragments and inline fragments, with variables inside them', () => {
    const viaFragment = cost(
      `query($n: Int) { shortestPaths(query: ${SEED_QUERY}) { ...R } } fragment R on PathResult { distance ... on PathResult { paths(first: $n) { totalCount } } }`,
      { n: 1000 },
    );
    const literal = `{ shortestPaths(query: ${SEED_QUERY}) { ...R } } fragment R on PathResult { distance ... on PathResult { paths(first: 1000) { totalCount } } }`;
    expect(viaFragment).toEqual(cost(literal));
    expect(viaFragment.cost).toBe(armorCost(literal)[0]);
    expect(viaFragment.work).toBe(64 * 1001);
  });

  it('multiplies a batch by its number of queries, literal or from variables', () => {
    const one = cost(`{ shortestPathsBatch(queries: [${SEED_QUERY}]) { distance layers { squares } } }`);
    expect(one.cost).toBe(8.75); // armor: 2 + 1.5 * (1 + 2 + 1.5 * 1)
    const literal = cost(
      `{ shortestPathsBatch(queries: [${Array(7).fill(SEED_QUERY).join(', ')}]) { distance layers { squares } } }`,
    );
    const q = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance layers { squares } } }';
    expect(literal.cost).toBe(7 * 8.75);
    expect(cost(q, { q: Array(7).fill(KING) })).toEqual(literal);
    expect(
      cost('query($a: PathQuery!, $b: PathQuery!) { shortestPathsBatch(queries: [$a, $b, $a]) { distance } }', {
        a: KING,
        b: KING64,
      }).work,
    ).toBe(64 + 4096 + 64);
    expect(cost(q, { q: KING })).toEqual(one); // a single value is a list of one
    // The test suite's largest batch (500 8 x 8 questions asking distance and layers) stays far under MAX_COST.
    expect(cost(q, { q: Array(500).fill(KING) }).cost).toBe(4375);
  });

  it('counts Analysis.results by the saved queries; stored ones cost as a list of one, worked at MAX_BATCH_SIZE', () => {
    const save = 'mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { analysis { results { distance } } } }';
    const three = cost(save, { i: { title: 't', queries: [KING, KING, KING64] } });
    expect(three.cost).toBe(2 + 1.5 * (2 + 1.5 * (3 * 3.5)));
    expect(three.work).toBe(2 * (64 + 64 + 4096)); // prepared, then solved
    const read = cost('{ analysis(id: "x") { results { distance } } }');
    expect(read.cost).toBe(2 + 1.5 * 3.5);
    expect(read.work).toBe(500 * 64 * 64);
    const update =
      'mutation($i: UpdateAnalysisInput!) { updateAnalysis(id: "x", editToken: "t", input: $i) { results { distance } } }';
    expect(cost(update, { i: { title: 'renamed' } }).work).toBe(500 * 4096);
    expect(cost(update, { i: { queries: [KING] } }).work).toBe(128);
  });

  it('equals graphql-armor on documents without variables (literal first, fragments, introspection)', () => {
    const docs = [
      SEED,
      '{ __typename }',
      `{ a: shortestPaths(query: ${SEED_QUERY}) { distance } b: shortestPaths(query: ${SEED_QUERY}) { pathCount path { squares } } }`,
      `{ shortestPaths(query: ${SEED_QUERY}) { paths(first: 1000) { totalCount edges { cursor node { squares } } pageInfo { endCursor } } } }`,
      `{ position(fen: "8/8/8/8/8/8/8/K7 w - - 0 1") { turn pieces { square } paths(from: "a1", to: ["h8"]) { ...F } } } fragment F on PathResult { distance ...G } fragment G on PathResult { overlay { ascii svg } squares { bitboard } }`,
      '{ analyses(first: 500) { totalCount edges { cursor node { id title } } pageInfo { hasNextPage } } }',
      '{ __schema { types { name fields { name } } } __type(name: "Query") { name } }',
      `query A { shortestPaths(query: ${SEED_QUERY}) { distance } } query B { analyses(first: 7) { totalCount } }`,
    ];
    for (const doc of docs) {
      const armor = armorCost(doc);
      const names = [...doc.matchAll(/query (\w+) /g)].map((m) => m[1]);
      armor.forEach((n, i) => {
        expect(operationCost({ schema, document: parse(doc), operationName: names[i], limits }).cost, doc).toBe(n);
      });
    }
  });
});

describe('operationCost: the work estimate', () => {
  const light: [string, string, Record<string, unknown>?][] = [
    ['the seed example', SEED],
    ['{ __typename }', '{ __typename }'],
    [
      '36 8 x 8 questions',
      'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance layers { squares } pathCount } }',
      { q: Array(36).fill(KING) },
    ],
    [
      'saving 5 queries',
      'mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken analysis { id results { distance } } } }',
      { i: { title: 't', queries: Array(5).fill(KING) } },
    ],
    [
      'paths (first 10) on 64 x 64',
      'query($q: PathQuery!) { shortestPaths(query: $q) { paths { edges { node { squares } } } } }',
      { q: KING64 },
    ],
  ];
  const heavy: [string, string, Record<string, unknown>?][] = [
    [
      '500 64 x 64 questions',
      'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }',
      { q: Array(500).fill(KING64) },
    ],
    [
      'paths(first: 1000) on 64 x 64',
      'query($q: PathQuery!, $n: Int) { shortestPaths(query: $q) { paths(first: $n) { totalCount } } }',
      { q: KING64, n: 1000 },
    ],
    ['a page of 1000 analyses with results', '{ analyses(first: 1000) { edges { node { results { distance } } } } }'],
  ];

  it.each(light)('light: %s', (_name, query, variables) => {
    expect(cost(query, variables).work).toBeLessThanOrEqual(HEAVY_WORK);
  });
  it.each(heavy)('heavy: %s', (_name, query, variables) => {
    expect(cost(query, variables).work).toBeGreaterThan(HEAVY_WORK);
  });

  it('weighs a fairy question by its Betza letters, and adds the reading of its text once', () => {
    // NN: two letters; 64 x 64 solved and its layers' squares read; the text read once.
    const nightrider = '{ piece: FAIRY, betza: "NN", board: { files: 64, ranks: 64 }, from: ["a1"], to: ["h8"] }';
    expect(cost(`{ shortestPaths(query: ${nightrider}) { distance layers { squares } } }`).work).toBe(
      4096 + 4096 * 2 * 2,
    );
    // QN: Q counts two (WWFF), N one; a batch of two adds two readings.
    const amazon = { piece: 'FAIRY', betza: 'QN', from: ['a1'], to: ['h8'] };
    expect(
      cost('query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }', { q: [amazon, amazon] }).work,
    ).toBe(2 * 4096 + 2 * 64 * 3);
    // Thirty aliases of new riders are heavy: they wait at admission instead of holding the loop together.
    const aliases = Array.from(
      { length: 30 },
      (_, i) =>
        `a${i}: shortestPaths(query: { piece: FAIRY, betza: "WWFFDDNN${i}", from: ["a1"], to: ["h8"] }) { distance }`,
    );
    expect(cost(`{ ${aliases.join(' ')} }`).work).toBeGreaterThan(HEAVY_WORK);
  });

  it('follows the documented formula', () => {
    expect(cost(SEED).work).toBe(64 * 3); // solve + layers.squares + overlay.ascii
    expect(
      cost('query($q: PathQuery!) { shortestPaths(query: $q) { paths(first: 1000) { totalCount } } }', { q: KING64 })
        .work,
    ).toBe(4096 * 1001);
    expect(cost('{ analyses(first: 1000) { edges { node { results { distance } } } } }').work).toBe(1000 * 500 * 4096);
    expect(
      cost(
        '{ position(fen: "8/8/8/8/8/8/8/K7 w - - 0 1", board: { files: 16, ranks: 8 }) { paths(from: "a1", to: ["h8"], avoidAttacked: true) { distances } } }',
      ).work,
    ).toBe(128 * 3);
  });
});

/** A real Apollo server on the project's schema; accepted operations get a canned answer instead of executing. */
async function startApollo(maxCost: number, seen: OperationCost[]) {
  const cannedAnswer: ApolloServerPlugin = {
    async requestDidStart() {
      return {
        async responseForOperation() {
          return {
            http: { status: undefined, headers: new HeaderMap() },
            body: { kind: 'single', singleResult: { data: { ok: true } } },
          };
        },
      };
    },
  };
  const server = new ApolloServer({
    schema,
    plugins: [
      costPlugin({ ...limits, maxCost }, (rc, c) => {
        expect(costOf(rc.contextValue)).toEqual(c);
        seen.push(c);
      }),
      cannedAnswer,
    ],
  });
  await server.start();
  const post = async (query: string, variables?: Record<string, unknown>) => {
    const res = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: 'POST',
        headers: new HeaderMap([['content-type', 'application/json']]),
        search: '',
        body: variables ? { query, variables } : { query },
      },
      context: async () => ({}),
    });
    const body = res.body.kind === 'complete' ? JSON.parse(res.body.string) : null;
    return { status: res.status ?? 200, body };
  };
  return { server, post };
}

describe('costPlugin', () => {
  it('refuses first: $n = 1000 exactly when the literal 1000 is refused, with HTTP 400 and the limit', async () => {
    // paths(first: n) { totalCount } costs 2 + 1.5 * 3.5 n: 5,246.75 at 999, 5,252 at 1000.
    const maxCost = 5250;
    const seen: OperationCost[] = [];
    const { server, post } = await startApollo(maxCost, seen);
    try {
      const literal = (n: number) => `{ shortestPaths(query: ${SEED_QUERY}) { paths(first: ${n}) { totalCount } } }`;
      const variable = `query($n: Int) { shortestPaths(query: ${SEED_QUERY}) { paths(first: $n) { totalCount } } }`;
      expect(armorCost(literal(1000))[0]).toBeGreaterThan(maxCost);
      expect(armorCost(literal(999))[0]).toBeLessThanOrEqual(maxCost);
      for (const res of [
        await post(literal(1000)),
        await post(variable, { n: 1000 }),
        await post(variable.replace('$n: Int', '$n: Int = 1000')),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body.data).toBeUndefined();
        expect(res.body.errors).toHaveLength(1);
        expect(res.body.errors[0].message).toBe('Query cost of 5252 is over the limit of 5250 (MAX_COST)');
        expect(res.body.errors[0].extensions).toMatchObject({
          code: 'BAD_USER_INPUT',
          limit: 'MAX_COST',
          max: 5250,
          cost: 5252,
        });
        expect(res.body.errors[0].extensions.http).toBeUndefined();
      }
      for (const res of [await post(literal(999)), await post(variable, { n: 999 })]) {
        expect(res).toEqual({ status: 200, body: { data: { ok: true } } });
      }
      expect(seen).toEqual([
        { cost: 5246.75, work: 64 * 1000 },
        { cost: 5246.75, work: 64 * 1000 },
      ]);
    } finally {
      await server.stop();
    }
  });

  it('costs a document without variables the same every time it comes again, each of its operations apart', async () => {
    const maxCost = 5250;
    const seen: OperationCost[] = [];
    const { server, post } = await startApollo(maxCost, seen);
    try {
      const page = (n: number) => `shortestPaths(query: ${SEED_QUERY}) { paths(first: ${n}) { totalCount } }`;
      const two = `query Big { ${page(1000)} } query Small { ${page(999)} }`;
      const postNamed = async (operationName: string) => {
        const res = await server.executeHTTPGraphQLRequest({
          httpGraphQLRequest: {
            method: 'POST',
            headers: new HeaderMap([['content-type', 'application/json']]),
            search: '',
            body: { query: two, operationName },
          },
          context: async () => ({}),
        });
        return { status: res.status ?? 200, body: res.body.kind === 'complete' ? JSON.parse(res.body.string) : null };
      };
      for (let i = 0; i < 2; i++) {
        const big = await postNamed('Big');
        expect(big.status).toBe(400);
        expect(big.body.errors[0].extensions).toMatchObject({ limit: 'MAX_COST', cost: 5252 });
        expect(await postNamed('Small')).toEqual({ status: 200, body: { data: { ok: true } } });
        const literal = await post(`{ ${page(1000)} }`);
        expect(literal.status).toBe(400);
        expect(literal.body.errors[0].message).toBe('Query cost of 5252 is over the limit of 5250 (MAX_COST)');
      }
      expect(seen).toEqual([
        { cost: 5246.75, work: 64 * 1000 },
        { cost: 5246.75, work: 64 * 1000 },
      ]);
    } finally {
      await server.stop();
    }
  });

  it('refuses a batch whose list, given as a variable, makes it too costly', async () => {
    const { server, post } = await startApollo(1000, []);
    try {
      const q = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance layers { squares } } }';
      expect((await post(q, { q: Array(114).fill(KING) })).status).toBe(200); // 997.5
      const past = await post(q, { q: Array(115).fill(KING) }); // 1,006.25
      expect(past.status).toBe(400);
      expect(past.body.errors[0].extensions).toMatchObject({ limit: 'MAX_COST', cost: 1006.25 });
    } finally {
      await server.stop();
    }
  });
});

/**
 * Every limit on what an operation asks, at its shipped default, at the limit and one past it,
 * where test/graphql/request/errors.test.ts (which checks each limit on a server with tiny values)
 * and test/graphql/schema/resolvers/analyses.test.ts leave a side untested:
 *
 * - graphql-armor at the defaults: depth 10, aliases 30, cost 50,000, directives 50, and
 *   graphql-js's token limit 10,000;
 * - MAX_PAGE_SIZE of `analyses(first)`, `first: 10^9` as a literal and as a variable;
 * - MAX_BATCH_SIZE of an analysis at 500, and a batch of 10^5 queries;
 * - MAX_TEXT_LENGTH of titles and notes, at save and at update;
 * - MAX_BOARD_SIDE of positions, and the longest FEN it allows (side * (side + 1) + 256);
 * - MAX_BETZA_LENGTH over the longest canonical Betza text the server answers;
 * - the scalar lengths: square names of 16 characters, bitboards of 16,386.
 *
 * Each past-the-limit answer names the variable (`extensions.limit`) and the maximum.
 */
import { MAX_CANONICAL_BETZA_LENGTH } from '@chess-paths/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config.js';
import { onlyError } from '../support/error-assertions.js';
import { type GqlResponse, startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;

beforeAll(async () => {
  // Shipped limits; mutations not rate limited (this file saves more than 60 analyses' worth), and
  // no engine budget: it is time, so on a busy machine it could cut off the engine's work before a
  // limit is reached (the budget has its own tests, test/graphql/).
  t = await startTestServer({ env: { RATE_LIMIT_MUTATIONS: '0', ENGINE_BUDGET_MS: '0' } });
});
afterAll(async () => {
  await t?.close();
});

function expectOk(res: GqlResponse) {
  expect(res.body.errors, JSON.stringify(res.body.errors)?.slice(0, 500)).toBeUndefined();
  expect(res.status).toBe(200);
}

/** One error naming `variable` and its maximum. */
function expectLimit(res: GqlResponse, variable: string, max: number) {
  const error = onlyError(res);
  expect(error.message).toContain(`(${variable})`);
  expect(error.extensions).toMatchObject({ limit: variable, max });
  return error;
}

const SEED_ARGS = '(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] })';

describe('graphql-armor and the token limit at their defaults', () => {
  it('depth 10', async () => {
    expect(DEFAULTS.MAX_DEPTH).toBe(10);
    // __type (1) > fields (2) > type (3) > ofType x k > name: depth 4 + k.
    const q = (k: number) =>
      `{ __type(name: "Query") { fields { type { ${'ofType { '.repeat(k)}name${' }'.repeat(k)} } } } }`;
    expectOk(await t.gql(q(6)));
    expectLimit(await t.gql(q(7)), 'MAX_DEPTH', 10);
  });

  it('aliases 30', async () => {
    const q = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: shortestPaths${SEED_ARGS} { distance }`).join(' ')} }`;
    const at = await t.gql(q(30));
    expectOk(at);
    expect(Object.keys(at.body.data)).toHaveLength(30);
    expectLimit(await t.gql(q(31)), 'MAX_ALIASES', 30);
    // Aliases of __typename are fields of the answer too (graphql-armor leaves them out by default).
    const typenames = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    expectOk(await t.gql(typenames(30)));
    expectLimit(await t.gql(typenames(31)), 'MAX_ALIASES', 30);
  });

  it('cost 50,000 (a literal first: n multiplies its selection)', async () => {
    // shortestPaths { paths(first: n) { totalCount } } costs 2 + 1.5 * (2 + 1.5) * n = 2 + 5.25 n:
    // nine with n = 1000 (5,252 each) and one with n = 520 (2,732) cost exactly 50,000.
    const q = (last: number) =>
      `{ ${Array.from({ length: 9 }, (_, i) => `a${i}: shortestPaths${SEED_ARGS} { paths(first: 1000) { totalCount } }`).join(' ')} ` +
      `b: shortestPaths${SEED_ARGS} { paths(first: ${last}) { totalCount } } }`;
    const at = await t.gql(q(520));
    expectOk(at);
    expect(at.body.data.b.paths.totalCount).toBe('8');
    const past = expectLimit(await t.gql(q(521)), 'MAX_COST', 50_000);
    expect(past.message).toBe('Query cost of 50005.25 is over the limit of 50000 (MAX_COST)');
  });

  it('first: 10^9 is refused by MAX_PAGE_SIZE, as a literal and as a variable', async () => {
    const literal = await t.gql(`{ shortestPaths${SEED_ARGS} { paths(first: 1000000000) { totalCount } } }`);
    expect(expectLimit(literal, 'MAX_PAGE_SIZE', 1000).message).toBe(
      'paths.first: first 1000000000 is over the limit of 1000 (MAX_PAGE_SIZE)',
    );
    const res = await t.gql(`query($n: Int) { shortestPaths${SEED_ARGS} { paths(first: $n) { totalCount } } }`, {
      n: 1e9,
    });
    expect(expectLimit(res, 'MAX_PAGE_SIZE', 1000).message).toBe(
      'paths.first: first 1000000000 is over the limit of 1000 (MAX_PAGE_SIZE)',
    );
  });

  it('directives 50', async () => {
    // One response name, so no alias counts against MAX_ALIASES.
    const q = (n: number) => `{ ${Array.from({ length: n }, () => '__typename @include(if: true)').join(' ')} }`;
    expectOk(await t.gql(q(50)));
    expectLimit(await t.gql(q(51)), 'MAX_DIRECTIVES', 50);
  });

  it('tokens 10,000', async () => {
    // 24 tokens around the targets list, one per target.
    const q = (n: number) =>
      `{ shortestPaths(query: { piece: KING, from: ["a1"], to: [${'"b2" '.repeat(n)}] }) { distance } }`;
    const at = await t.gql(q(9976));
    expectOk(at);
    expect(at.body.data.shortestPaths.distance).toBe(1);
    const past = expectLimit(await t.gql(q(9977)), 'MAX_TOKENS', 10_000);
    expect(past.message).toBe('Document contains more than 10000 tokens (MAX_TOKENS)');
  });
});

describe('the service’s own limits at their defaults', () => {
  const SAVE =
    'mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken analysis { id title notes results { distance } } } }';
  const UPDATE =
    'mutation($id: ID!, $t: String!, $i: UpdateAnalysisInput!) { updateAnalysis(id: $id, editToken: $t, input: $i) { title notes } }';
  const seed = { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] };

  it('analyses(first): 1000 served, 1001 refused', async () => {
    const at = await t.gql('{ analyses(first: 1000) { totalCount edges { cursor } } }');
    expectOk(at);
    expectLimit(
      await t.gql('query($n: Int) { analyses(first: $n) { totalCount } }', { n: 1001 }),
      'MAX_PAGE_SIZE',
      1000,
    );
  });

  it('an analysis of 500 queries is saved and read back; 501 are refused', async () => {
    expect(DEFAULTS.MAX_BATCH_SIZE).toBe(500);
    const queries = Array.from({ length: 500 }, (_, i) => ({
      piece: 'KNIGHT',
      from: ['a1'],
      to: [['b3', 'c2', 'h8', 'e4'][i % 4]],
    }));
    const at = await t.gql(SAVE, { i: { title: '500 queries', queries } });
    expectOk(at);
    expect(at.body.data.saveAnalysis.analysis.results).toHaveLength(500);
    expectLimit(await t.gql(SAVE, { i: { title: '501 queries', queries: [...queries, seed] } }), 'MAX_BATCH_SIZE', 500);
  });

  it('a batch of 10^5 queries (within a larger body limit) is refused at once, naming MAX_BATCH_SIZE', async () => {
    const roomy = await startTestServer({ database: false, env: { MAX_BODY_BYTES: String(8 * 1024 * 1024) } });
    try {
      const res = await roomy.gql('query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }', {
        q: Array(100_000).fill(seed),
      });
      expect(expectLimit(res, 'MAX_BATCH_SIZE', 500).message).toBe(
        'queries: 100000 queries is over the limit of 500 (MAX_BATCH_SIZE)',
      );
      // At once: before any engine work or loading (counted by the server, whatever the clock says).
      expect(await roomy.metric('chess_paths_engine_solves_total')).toBe(0);
      expect(await roomy.metric('chess_paths_loader_batch_size_count')).toBe(0);
      // The same counters see a batch within the limit.
      await roomy.gql('query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }', { q: [seed] });
      expect(await roomy.metric('chess_paths_engine_solves_total')).toBe(1);
      expect(await roomy.metric('chess_paths_loader_batch_size_count')).toBe(1);
    } finally {
      await roomy.close();
    }
  });

  it('titles and notes of 10,000 characters are saved; 10,001 are refused, at save and at update', async () => {
    expect(DEFAULTS.MAX_TEXT_LENGTH).toBe(10_000);
    const long = 'é'.repeat(10_000);
    const at = await t.gql(SAVE, { i: { title: long, notes: long, queries: [seed] } });
    expectOk(at);
    const { editToken, analysis } = at.body.data.saveAnalysis;
    expect(analysis.title).toBe(long);
    expect(analysis.notes).toBe(long);
    expectLimit(
      await t.gql(SAVE, { i: { title: 't', notes: `${long}x`, queries: [seed] } }),
      'MAX_TEXT_LENGTH',
      10_000,
    );
    expectLimit(
      await t.gql(UPDATE, { id: analysis.id, t: editToken, i: { title: `${long}x` } }),
      'MAX_TEXT_LENGTH',
      10_000,
    );
    expectLimit(
      await t.gql(UPDATE, { id: analysis.id, t: editToken, i: { notes: `${long}x` } }),
      'MAX_TEXT_LENGTH',
      10_000,
    );
    const unchanged = await t.gql('query($id: ID!) { analysis(id: $id) { title notes } }', { id: analysis.id });
    expect(unchanged.body.data.analysis).toEqual({ title: long, notes: long });
    expectOk(
      await t.gql(UPDATE, {
        id: analysis.id,
        t: editToken,
        i: { title: `${long.slice(1)}x`, notes: `${long.slice(1)}y` },
      }),
    );
  });

  it('positions on a 64 x 64 board are parsed; 65 is refused', async () => {
    const fen = `${Array(64).fill('64').join('/')} w - - 0 1`;
    const at = await t.gql(
      'query($f: String!) { position(fen: $f, board: { files: 64, ranks: 64 }) { board { files ranks } } }',
      { f: fen },
    );
    expectOk(at);
    expect(at.body.data.position.board).toEqual({ files: 64, ranks: 64 });
    const past = await t.gql('query($f: String!) { position(fen: $f, board: { files: 65, ranks: 64 }) { turn } }', {
      f: fen,
    });
    expect(expectLimit(past, 'MAX_BOARD_SIDE', 64).message).toBe(
      'board.files: files 65 is over the limit of 64 (MAX_BOARD_SIDE)',
    );
  });

  it('a FEN of 4,416 characters (64 * 65 + 256) is parsed, 4,417 are refused unread', async () => {
    // The limit is on the length alone: a FEN that long is checked by the parser (and found bad
    // here), one character longer is refused before parsing, naming the limit.
    const fenOf = (length: number) =>
      `${Array(64).fill('64').join('/')} w - - 0 ${'1'.repeat(length - 64 * 3 + 1 - 9)}`;
    expect(fenOf(4416)).toHaveLength(4416);
    for (const doc of [
      'query($f: String!) { position(fen: $f, board: { files: 64, ranks: 64 }) { turn } }',
      'query($f: String!) { shortestPaths(query: { piece: KING, board: { files: 64, ranks: 64 }, from: ["a1"], to: ["b2"], fen: $f }) { distance } }',
    ]) {
      const at = await t.gql(doc, { f: fenOf(4416) });
      if (at.body.errors) {
        expect(at.body.errors[0].extensions?.code).toBe('BAD_USER_INPUT');
        expect(at.body.errors[0].extensions?.limit).toBeUndefined();
      }
      const past = expectLimit(await t.gql(doc, { f: fenOf(4417) }), 'MAX_BOARD_SIDE', 64);
      expect(past.message).toMatch(
        /a FEN of 4417 characters is over the limit of 4416 characters for boards of side 64 \(MAX_BOARD_SIDE\)$/,
      );
    }
  });

  it('takes back every canonical Betza text it answers: the default MAX_BETZA_LENGTH is over the longest', async () => {
    expect(DEFAULTS.MAX_BETZA_LENGTH).toBeGreaterThanOrEqual(MAX_CANONICAL_BETZA_LENGTH);
    // 64 characters asked, 77 answered.
    const asked = 'fQ163ffZ32brN40brA68flA96lQ143ffC64bQ15rrN68flC18rrZ60lvN30flN39';
    const q =
      'query($b: String!) { shortestPaths(query: { piece: FAIRY, betza: $b, from: ["a1"], to: ["h8"] }) { betza key distance } }';
    const first = await t.gql(q, { b: asked });
    expectOk(first);
    const { betza, key, distance } = first.body.data.shortestPaths;
    expect(betza.length).toBeGreaterThan(asked.length);
    const again = await t.gql(q, { b: betza });
    expectOk(again);
    expect(again.body.data.shortestPaths).toEqual({ betza, key, distance });
  });

  it('square names and bitboards of any length reach the engine: a local error, its value shortened', async () => {
    const q = `query($s: Square!, $m: Bitboard) {
      ok: shortestPaths(query: { piece: KING, from: ["e4"], to: ["e6"] }) { distance }
      bad: shortestPaths(query: { piece: KING, from: [$s], to: ["h8"], mask: $m }) { distance }
    }`;
    const name = await t.gql(q, { s: `a${'1'.repeat(100_000)}` });
    expect(name.body.data).toEqual({ ok: { distance: 2 }, bad: null });
    const nameError = onlyError(name);
    expect(nameError).toMatchObject({
      path: ['bad'],
      extensions: { code: 'BAD_USER_INPUT', argument: 'query.from[0]' },
    });
    expect(nameError.message).toMatch(/^query\.from\[0\]: "a1{70,}\.\.\." is not a square on an 8 x 8 board$/);
    expect(nameError.message.length).toBeLessThan(200);
    const mask = await t.gql(q, { s: 'a1', m: `0x${'f'.repeat(100_000)}` });
    expect(mask.body.data).toEqual({ ok: { distance: 2 }, bad: null });
    const maskError = onlyError(mask);
    expect(maskError).toMatchObject({ path: ['bad'], extensions: { code: 'BAD_USER_INPUT', argument: 'query.mask' } });
    expect(maskError.message).toMatch(/^query\.mask: "0xf{70,}\.\.\." has a square beyond the 8 x 8 board/);
    expect(maskError.message.length).toBeLessThan(200);
    // As a literal too: the scalar takes it, the engine refuses it.
    const literal = await t.gql(
      `{ ok: shortestPaths(query: { piece: KING, from: ["e4"], to: ["e6"] }) { distance } bad: shortestPaths(query: { piece: KING, from: ["a${'9'.repeat(40)}"], to: ["h8"] }) { distance } }`,
    );
    expect(literal.body.data).toEqual({ ok: { distance: 2 }, bad: null });
    expect(onlyError(literal).extensions?.code).toBe('BAD_USER_INPUT');
  });
});

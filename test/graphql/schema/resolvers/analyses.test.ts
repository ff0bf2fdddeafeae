/**
 * Saved analyses over real HTTP against a real SQLite store: save (edit token shown once),
 * read back with results loaded through the shared loader, list newest first with cursors,
 * update and delete with the right token, FORBIDDEN with a wrong or another analysis's token,
 * NOT_FOUND for unknown ids, and input validation before anything is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const SAVE = `mutation($input: SaveAnalysisInput!) {
  saveAnalysis(input: $input) {
    editToken
    analysis { id title notes fen createdAt updatedAt results { key distance piece } }
  }
}`;

const seed = { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] };
const knight = { piece: 'KNIGHT', from: ['b1'], to: ['c3'] };

async function save(input: Record<string, unknown>) {
  const res = await t.gql(SAVE, { input });
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data.saveAnalysis as {
    editToken: string;
    analysis: {
      id: string;
      title: string;
      notes: string | null;
      fen: string | null;
      createdAt: string;
      updatedAt: string;
      results: { key: string; distance: number; piece: string }[];
    };
  };
}

describe('analyses', () => {
  it('saves, reads back with results, and shows the edit token only once', async () => {
    const saved = await save({ title: 'Seed example', notes: 'Westcott', queries: [seed, knight] });
    expect(saved.editToken.length).toBeGreaterThanOrEqual(22);
    expect(saved.analysis).toMatchObject({ title: 'Seed example', notes: 'Westcott', fen: null });
    expect(saved.analysis.results.map((r) => r.distance)).toEqual([4, 1]);
    expect(new Date(saved.analysis.createdAt).toISOString()).toBe(saved.analysis.createdAt);

    const { body } = await t.gql(
      `query($id: ID!) { analysis(id: $id) { id title results { distance layers { squares } overlay { ascii } } } }`,
      { id: saved.analysis.id },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.analysis.title).toBe('Seed example');
    expect(body.data.analysis.results[0].layers[4].squares).toEqual(['a1', 'h8']);
    expect(JSON.stringify(body)).not.toContain(saved.editToken);
  });

  it('returns null for an unknown id', async () => {
    const { body } = await t.gql('{ analysis(id: "no-such-id") { id } }');
    expect(body.errors).toBeUndefined();
    expect(body.data.analysis).toBeNull();
  });

  it('lists newest first, paged with cursors', async () => {
    const a = await save({ title: 'list A', queries: [seed] });
    const b = await save({ title: 'list B', queries: [knight] });
    const page1 = await t.gql(
      '{ analyses(first: 1) { totalCount edges { cursor node { id title } } pageInfo { hasNextPage endCursor } } }',
    );
    expect(page1.body.errors).toBeUndefined();
    const c1 = page1.body.data.analyses;
    expect(c1.totalCount).toBeGreaterThanOrEqual(2);
    expect(c1.edges[0].node.id).toBe(b.analysis.id);
    expect(c1.pageInfo.hasNextPage).toBe(true);
    const page2 = await t.gql('query($after: String) { analyses(first: 1, after: $after) { edges { node { id } } } }', {
      after: c1.pageInfo.endCursor,
    });
    expect(page2.body.data.analyses.edges[0].node.id).toBe(a.analysis.id);
    const bad = await t.gql('{ analyses(after: "!!") { totalCount } }');
    expect(bad.body.errors?.[0]).toMatchObject({
      message: 'after: "!!" is not a valid cursor',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const big = await t.gql('{ analyses(first: 1001) { totalCount } }');
    expect(big.body.errors?.[0].message).toBe('first: first 1001 is over the limit of 1000 (MAX_PAGE_SIZE)');
  });

  it('updates with the right token, refuses a wrong one or another analysis’s token', async () => {
    const mine = await save({ title: 'mine', notes: 'n', queries: [seed] });
    const other = await save({ title: 'other', queries: [knight] });
    const UPDATE = `mutation($id: ID!, $token: String!, $input: UpdateAnalysisInput!) {
      updateAnalysis(id: $id, editToken: $token, input: $input) { id title notes fen results { distance } }
    }`;
    for (const token of ['', 'wrong', other.editToken]) {
      const res = await t.gql(UPDATE, { id: mine.analysis.id, token, input: { title: 'stolen' } });
      expect(res.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
    const unchanged = await t.gql('query($id: ID!) { analysis(id: $id) { title } }', { id: mine.analysis.id });
    expect(unchanged.body.data.analysis.title).toBe('mine');

    const fen = '8/8/8/8/4K3/8/8/8 w - - 0 1';
    const ok = await t.gql(UPDATE, {
      id: mine.analysis.id,
      token: mine.editToken,
      input: { title: 'renamed', notes: null, fen, queries: [knight, seed] },
    });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.updateAnalysis).toEqual({
      id: mine.analysis.id,
      title: 'renamed',
      notes: null,
      fen,
      results: [{ distance: 1 }, { distance: 4 }],
    });

    const missing = await t.gql(UPDATE, { id: 'no-such-id', token: mine.editToken, input: { title: 'x' } });
    expect(missing.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const nullTitle = await t.gql(UPDATE, { id: mine.analysis.id, token: mine.editToken, input: { title: null } });
    expect(nullTitle.body.errors?.[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argument: 'input.title' },
    });
  });

  it('refuses a stranger before reading the input: a wrong token or unknown id with bad input is FORBIDDEN or NOT_FOUND', async () => {
    const mine = await save({ title: 'kept', queries: [seed] });
    const UPDATE = `mutation($id: ID!, $token: String!, $input: UpdateAnalysisInput!) {
      updateAnalysis(id: $id, editToken: $token, input: $input) { id }
    }`;
    const bad = { fen: 'not a fen', queries: [{ piece: 'KING', from: ['z9'], to: ['a1'] }] };
    const stranger = await t.gql(UPDATE, { id: mine.analysis.id, token: 'wrong', input: bad });
    expect(stranger.body.errors).toEqual([
      expect.objectContaining({
        message: `editToken: wrong or missing edit token for analysis "${mine.analysis.id}"`,
        path: ['updateAnalysis'],
        extensions: { code: 'FORBIDDEN', argument: 'editToken' },
      }),
    ]);
    const unknown = await t.gql(UPDATE, { id: 'no-such-id', token: mine.editToken, input: bad });
    expect(unknown.body.errors).toEqual([
      expect.objectContaining({
        message: 'id: no analysis with id "no-such-id"',
        extensions: { code: 'NOT_FOUND', argument: 'id' },
      }),
    ]);
    // The owner with the same input is told what is wrong with it.
    const owner = await t.gql(UPDATE, { id: mine.analysis.id, token: mine.editToken, input: bad });
    expect(owner.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'input.fen' });
  });

  it('versions every update; expectedVersion refuses a stale one with CONFLICT; concurrent updates are all applied', async () => {
    const saved = await save({ title: 'v', queries: [seed] });
    const { id } = saved.analysis;
    const UPDATE = `mutation($id: ID!, $token: String!, $input: UpdateAnalysisInput!, $v: Int) {
      updateAnalysis(id: $id, editToken: $token, input: $input, expectedVersion: $v) { title notes version }
    }`;
    const read = async () =>
      (await t.gql('query($id: ID!) { analysis(id: $id) { title notes version } }', { id })).body.data.analysis;
    expect((await read()).version).toBe(1);
    const first = await t.gql(UPDATE, { id, token: saved.editToken, input: { title: 'v2' }, v: 1 });
    expect(first.body.data.updateAnalysis).toEqual({ title: 'v2', notes: null, version: 2 });
    // A second writer that read version 1 is refused, and nothing of it is written.
    const stale = await t.gql(UPDATE, { id, token: saved.editToken, input: { notes: 'stale' }, v: 1 });
    expect(stale.body.errors?.[0]).toMatchObject({
      path: ['updateAnalysis'],
      extensions: { code: 'CONFLICT', expectedVersion: 1, currentVersion: 2 },
    });
    expect(await read()).toEqual({ title: 'v2', notes: null, version: 2 });
    // Without expectedVersion, twenty concurrent updates of different fields are all applied.
    const updates = Array.from({ length: 20 }, (_, i) =>
      t.gql(UPDATE, { id, token: saved.editToken, input: i % 2 ? { notes: `n${i}` } : { title: `t${i}` } }),
    );
    const answers = await Promise.all(updates);
    expect(answers.every((a) => a.body.errors === undefined)).toBe(true);
    const versions = answers.map((a) => a.body.data.updateAnalysis.version).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 20 }, (_, i) => i + 3));
    expect((await read()).version).toBe(22);
  });

  it('deletes with the right token only', async () => {
    const doomed = await save({ title: 'doomed', queries: [seed] });
    const DELETE = 'mutation($id: ID!, $token: String!) { deleteAnalysis(id: $id, editToken: $token) }';
    const wrong = await t.gql(DELETE, { id: doomed.analysis.id, token: 'nope' });
    expect(wrong.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const ok = await t.gql(DELETE, { id: doomed.analysis.id, token: doomed.editToken });
    expect(ok.body.data.deleteAnalysis).toBe(true);
    const again = await t.gql(DELETE, { id: doomed.analysis.id, token: doomed.editToken });
    // Gone: the same rule as updateAnalysis on an unknown id.
    expect(again.body.data).toBeNull();
    expect(again.body.errors?.[0]).toMatchObject({ path: ['deleteAnalysis'], extensions: { code: 'NOT_FOUND' } });
    const gone = await t.gql('query($id: ID!) { analysis(id: $id) { id } }', { id: doomed.analysis.id });
    expect(gone.body.data.analysis).toBeNull();
  });

  it('validates input before writing anything', async () => {
    const before = (await t.gql('{ analyses { totalCount } }')).body.data.analyses.totalCount;
    const cases: [Record<string, unknown>, string][] = [
      [
        { title: 'bad square', queries: [seed, { piece: 'KING', from: ['z9'], to: ['a1'] }] },
        'input.queries[1].from[0]: "z9" is not a square on an 8 x 8 board',
      ],
      [{ title: '  ', queries: [seed] }, 'input.title: "  " is empty: an analysis needs a title'],
      [
        { title: 'bad fen', fen: 'rnbqkbnr/8 w', queries: [] },
        'input.fen: "rnbqkbnr/8 w" is not a valid FEN: fen: "rnbqkbnr/8 w" has 2 ranks, but the 8 x 8 board has 8',
      ],
      [
        { title: 'x'.repeat(10_001), queries: [] },
        'input.title: 10001 characters is over the limit of 10000 (MAX_TEXT_LENGTH)',
      ],
      [
        { title: 'too many', queries: Array.from({ length: 501 }, () => seed) },
        'input.queries: 501 queries is over the limit of 500 (MAX_BATCH_SIZE)',
      ],
      // A lone surrogate is not Unicode: SQLite would store it as U+FFFD, not as sent.
      [
        { title: 'x\ud800y', queries: [] },
        'input.title: "x\\ud800y" holds an unpaired UTF-16 surrogate (U+D800 at 1): not valid Unicode text',
      ],
      [
        { title: 't', notes: 'ok \udc00', queries: [] },
        'input.notes: "ok \\udc00" holds an unpaired UTF-16 surrogate (U+DC00 at 3): not valid Unicode text',
      ],
    ];
    for (const [input, message] of cases) {
      const res = await t.gql(SAVE, { input });
      expect(res.body.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
    }
    expect((await t.gql('{ analyses { totalCount } }')).body.data.analyses.totalCount).toBe(before);
    // Paired surrogates (any emoji) are fine, and come back exactly.
    const emoji = await save({ title: 'king 👑 route', notes: '𝕜', queries: [] });
    expect(emoji.analysis).toMatchObject({ title: 'king 👑 route', notes: '𝕜' });
  });

  it('loads results of several analyses and other questions of one request in one batch', async () => {
    // Questions no other test asks, so neither the memo nor the cache holds them yet.
    const q1 = { piece: 'BISHOP', from: ['c1'], to: ['h8', 'a3'] };
    const q2 = { piece: 'QUEEN', board: { files: 9, ranks: 9 }, from: ['a1'], to: ['i8'] };
    const q3 = { piece: 'KNIGHT', board: { files: 5, ranks: 5 }, from: ['a1'], to: ['e5'] };
    const x = await t.gql('mutation($input: SaveAnalysisInput!) { saveAnalysis(input: $input) { analysis { id } } }', {
      input: { title: 'batch x', queries: [q1, q2] },
    });
    const y = await t.gql('mutation($input: SaveAnalysisInput!) { saveAnalysis(input: $input) { analysis { id } } }', {
      input: { title: 'batch y', queries: [q3, q1] },
    });
    const batches = await t.metric('chess_paths_loader_batch_size_count');
    const solves = await t.metric('chess_paths_engine_solves_total');
    const { body } = await t.gql(
      'query($x: ID!, $y: ID!) { x: analysis(id: $x) { results { distance } } y: analysis(id: $y) { results { distance } } }',
      { x: x.body.data.saveAnalysis.analysis.id, y: y.body.data.saveAnalysis.analysis.id },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.x.results.map((r: { distance: number }) => r.distance)).toEqual([1, 2]);
    expect(body.data.y.results[1]).toEqual(body.data.x.results[0]);
    // Both analyses' results arrive in one batch; q1, shared by both, is solved once.
    expect(await t.metric('chess_paths_loader_batch_size_count')).toBe(batches + 1);
    expect(await t.metric('chess_paths_engine_solves_total')).toBe(solves + 3);
  });
});

/**
 * Analyses with a game over real HTTP: `saveAnalysis(input: { pgn })` checks the game as
 * `game(pgn:)` reads it (a bad move refused under `input.pgn`, naming it; a text over
 * MAX_PGN_BYTES refused by its limit) and stores nothing on a refusal; `Analysis.game` answers
 * the saved game, equal to `game(pgn:)` of the same text; `updateAnalysis` changes and clears it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

const PGN = '[White "Anderssen"]\n1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 *';
const GAME_FIELDS =
  'result tags { name value } plies { number san uci position { fen } } journeys { squares plies capturedAt }';
const SAVE = `mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken analysis { id game { ${GAME_FIELDS} } } } }`;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { MAX_PGN_BYTES: '2000' } });
});
afterAll(async () => {
  await t?.close();
});

const count = async () => (await t.gql('{ analyses { totalCount } }')).body.data.analyses.totalCount as number;

describe('analyses with a game', () => {
  it('saves a game and answers it as game(pgn:) does', async () => {
    const saved = await t.gql(SAVE, { i: { title: 'King’s Gambit', pgn: PGN, queries: [] } });
    expect(saved.body.errors).toBeUndefined();
    const direct = await t.gql(`query($p: String!) { game(pgn: $p) { ${GAME_FIELDS} } }`, { p: PGN });
    expect(saved.body.data.saveAnalysis.analysis.game).toEqual(direct.body.data.game);
    expect(direct.body.data.game.plies.map((p: { san: string }) => p.san)).toEqual([
      'e4',
      'e5',
      'f4',
      'exf4',
      'Bc4',
      'Qh4+',
      'Kf1',
      'b5',
    ]);
    const { id } = saved.body.data.saveAnalysis.analysis;
    const read = await t.gql(`query($id: ID!) { analysis(id: $id) { game { result plies { san } } } }`, { id });
    expect(read.body.data.analysis.game.plies).toHaveLength(8);
  });

  it('refuses a bad game under input.pgn, naming the move, and stores nothing', async () => {
    const before = await count();
    const bad = await t.gql(SAVE, { i: { title: 'bad', pgn: '1. e4 e5 2. Ke3 *', queries: [] } });
    expect(bad.body.data).toBeNull();
    expect(bad.body.errors?.[0]).toMatchObject({
      message: 'input.pgn: 2. Ke3 is not legal here (line 1, column 13)',
      extensions: { code: 'BAD_USER_INPUT', argument: 'input.pgn' },
    });
    const long = await t.gql(SAVE, { i: { title: 'long', pgn: `${'1. e4 e5 '.repeat(300)}*`, queries: [] } });
    expect(long.body.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      limit: 'MAX_PGN_BYTES',
      max: 2000,
    });
    expect(await count()).toBe(before);
  });

  it('changes the game by update, and clears it with null', async () => {
    const saved = await t.gql(SAVE, { i: { title: 'g', pgn: PGN, queries: [] } });
    const { editToken, analysis } = saved.body.data.saveAnalysis;
    const update = `mutation($id: ID!, $t: String!, $i: UpdateAnalysisInput!) { updateAnalysis(id: $id, editToken: $t, input: $i) { version game { plies { san } } } }`;
    const changed = await t.gql(update, { id: analysis.id, t: editToken, i: { pgn: '1. d4 d5 *' } });
    expect(changed.body.data.updateAnalysis).toEqual({ version: 2, game: { plies: [{ san: 'd4' }, { san: 'd5' }] } });
    const refused = await t.gql(update, { id: analysis.id, t: editToken, i: { pgn: '1. d5 *' } });
    expect(refused.body.errors?.[0].message).toBe('input.pgn: 1. d5 is not legal here (line 1, column 4)');
    const cleared = await t.gql(update, { id: analysis.id, t: editToken, i: { pgn: null } });
    expect(cleared.body.data.updateAnalysis).toEqual({ version: 3, game: null });
    // A blank text is no game too (a form's empty field), by update and by save.
    await t.gql(update, { id: analysis.id, t: editToken, i: { pgn: PGN } });
    const blanked = await t.gql(update, { id: analysis.id, t: editToken, i: { pgn: '  ' } });
    expect(blanked.body).toEqual({ data: { updateAnalysis: { version: 5, game: null } } });
    const blank = await t.gql(SAVE, { i: { title: 'no game', pgn: '', queries: [] } });
    expect(blank.body.errors).toBeUndefined();
    expect(blank.body.data.saveAnalysis.analysis.game).toBeNull();
  });

  it('lists the default page of analyses with their results and games (stored lists are priced at run time)', async () => {
    await t.gql(SAVE, { i: { title: 'listed', pgn: PGN, queries: [{ piece: 'KING', from: ['e4'], to: ['h8'] }] } });
    const { status, body } = await t.gql(
      '{ analyses { edges { node { results { key distance } game { result } } } } }',
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const listed = body.data.analyses.edges.map((e: { node: unknown }) => e.node);
    expect(listed).toContainEqual({ results: [{ key: expect.any(String), distance: 4 }], game: { result: '*' } });
  });
});

/**
 * A game as its author wrote it, over real HTTP (src/graphql/schema/resolvers/games.ts): comments
 * before and after moves, NAGs and marks, variations (nested, each ply with its position, whose
 * paths answer), how the game ended on the board and its Termination tag; a variation with an
 * illegal move stops there and the game is answered; variations' moves count toward MAX_PLIES.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ database: false, env: { MAX_PLIES: '12' } });
});
afterAll(async () => {
  await t?.close();
});

const ANNOTATED =
  '[Termination "Normal"]\n{A coach\'s notes} 1. e4! {the classical move} (1. d4 d5 (1... Nf6 $5) 2. c4) 1... e5 2. Qh5?! Nc6 3. Bc4 Nf6?? 4. Qxf7# {a mate in four} 1-0';
const FIELDS = `result boardEnding termination comments
  plies { san commentsBefore comments nags variations { stopped plies { number san nags position { fen paths(from: "g1", to: ["f3"]) { distance } } variations { plies { san } } } } }`;

describe('a game as written', () => {
  it('answers comments, NAGs, variations with their positions, the ending and the Termination tag', async () => {
    const { body } = await t.gql(`query($p: String!) { game(pgn: $p) { ${FIELDS} } }`, { p: ANNOTATED });
    expect(body.errors).toBeUndefined();
    const game = body.data.game;
    expect(game).toMatchObject({ result: '1-0', boardEnding: 'CHECKMATE', termination: 'Normal', comments: [] });
    const [e4, e5, qh5, , , nf6, mate] = game.plies;
    expect(e4).toMatchObject({
      san: 'e4',
      commentsBefore: ["A coach's notes"],
      comments: ['the classical move'],
      nags: [1],
    });
    expect(e5.nags).toEqual([]);
    expect(qh5.nags).toEqual([6]);
    expect(nf6.nags).toEqual([4]);
    expect(mate).toMatchObject({ san: 'Qxf7#', comments: ['a mate in four'] });
    const [line] = e4.variations;
    expect(line.stopped).toBeNull();
    expect(line.plies.map((p: { number: number; san: string }) => [p.number, p.san])).toEqual([
      [1, 'd4'],
      [2, 'd5'],
      [3, 'c4'],
    ]);
    expect(line.plies[0].position.fen).toBe('rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1');
    expect(line.plies[1].variations).toEqual([{ plies: [{ san: 'Nf6' }] }]);
    // A variation's position answers path questions as any other.
    expect(line.plies[0].position.paths).toEqual({ distance: 1 });
  });

  it('stops a variation at an illegal move, saying which, and answers the game', async () => {
    const { body } = await t.gql(
      'query($p: String!) { game(pgn: $p) { plies { san variations { stopped plies { san } } } } }',
      {
        p: '1. e4 (1. d4 Ke2) e5 *',
      },
    );
    expect(body.data.game.plies[0].variations).toEqual([
      { stopped: '1... Ke2 is not legal here (line 1, column 14)', plies: [{ san: 'd4' }] },
    ]);
  });

  it("counts a variation's moves toward MAX_PLIES (eight in the main line, six in its variation)", async () => {
    const { body } = await t.gql('query($p: String!) { game(pgn: $p) { result } }', {
      p: '1. e4 e5 (1... c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4) 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *',
    });
    expect(body.errors?.[0]).toMatchObject({
      message: 'pgn: a game of 14 half-moves is over the limit of 12 (MAX_PLIES)',
      extensions: { code: 'BAD_USER_INPUT', limit: 'MAX_PLIES', max: 12 },
    });
  });
});

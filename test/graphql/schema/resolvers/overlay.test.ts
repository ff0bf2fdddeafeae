/**
 * `Overlay.shapes` and `Overlay.pgn` over real HTTP (src/graphql/schema/resolvers/overlay.ts): the
 * seed drawn as chessground's DrawShape (every field as the schema names it), the same drawing
 * on `Position.paths` and on a game's `Journey.route`; the PGN comment read back by a real reader
 * of the `%cal`/`%csl` convention (@mliebelt/pgn-parser) to the same arrows and squares; and a
 * drawing larger than MAX_RESPONSE_BYTES refused before it is made, the rest of the answer kept.
 */
import { parse as parsePgn } from '@mliebelt/pgn-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_QUERY, startTestServer, type TestServer } from '../../../support/test-server.js';

let t: TestServer;
let small: TestServer;
beforeAll(async () => {
  [t, small] = await Promise.all([
    startTestServer({ database: false }),
    startTestServer({ database: false, env: { MAX_RESPONSE_BYTES: '20000', MAX_BOARD_SIDE: '64' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), small?.close()]);
});

const SHAPES = 'shapes { orig dest brush label { text } }';

/** The shapes' arrows as `orig-dest` and circles as `brush:orig:label`. */
function summary(shapes: { orig: string; dest: string | null; brush: string; label: { text: string } | null }[]) {
  return shapes.map((s) => (s.dest ? `${s.orig}-${s.dest}` : `${s.brush}:${s.orig}:${s.label?.text ?? ''}`));
}

describe('shapes', () => {
  it("draws the seed as chessground's DrawShape: path arrows, then sources, targets, layers", async () => {
    const { body } = await t.gql(
      `{ shortestPaths(query: ${SEED_QUERY}) { path { squares } overlay { ${SHAPES} bare: shapes(layers: false, labels: false) { orig dest brush label { text } } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const { overlay, path } = body.data.shortestPaths;
    expect(overlay.shapes[0]).toEqual({ orig: 'e4', dest: 'd3', brush: 'green', label: null });
    expect(overlay.shapes[4]).toEqual({ orig: 'e4', dest: null, brush: 'yellow', label: { text: '0' } });
    expect(summary(overlay.bare)).toEqual(['e4-d3', 'd3-c2', 'c2-b1', 'b1-a1', 'yellow:e4:', 'red:a1:', 'red:h8:']);
    const arrows = overlay.shapes.filter((s: { dest: string | null }) => s.dest !== null);
    expect([arrows[0].orig, ...arrows.map((a: { dest: string }) => a.dest)]).toEqual(path.squares);
    expect(overlay.shapes.filter((s: { brush: string }) => s.brush === 'blue')).toHaveLength(12);
  });

  it("draws a position's paths and a game's route the same way", async () => {
    const position = await t.gql(
      `{ position(fen: "8/8/8/8/8/8/8/K6k w - - 0 1") { paths(from: "a1", to: ["c3"]) { overlay { ${SHAPES} pgn(layers: false) } } } }`,
    );
    expect(position.body.errors).toBeUndefined();
    const { overlay } = position.body.data.position.paths;
    expect(summary(overlay.shapes)).toEqual(['a1-b2', 'b2-c3', 'yellow:a1:0', 'red:c3:2', 'blue:b2:1']);
    expect(overlay.pgn).toBe('[%csl Ya1,Rc3][%cal Ga1b2,Gb2c3]');
    const route = await t.gql(
      `query($p: String!) { game(pgn: $p) { journeys { squares route(first: 1, last: 2) { overlay { pgn(layers: false) } } } } }`,
      { p: '1. Nf3 e5 2. Ng5 *' },
    );
    const knight = route.body.data.game.journeys.find((j: { squares: string[] }) => j.squares[0] === 'g1');
    expect(knight.route.overlay.pgn).toBe('[%csl Yg1,Rg5][%cal Gg1f3,Gf3g5]');
  });
});

describe('the PGN comment', () => {
  it('reads back through a PGN reader of the convention to the same arrows and squares', async () => {
    const { body } = await t.gql(
      `{ shortestPaths(query: { piece: KNIGHT, from: ["b1"], to: ["g8"], blocked: ["d2"] }) { overlay { ${SHAPES} pgn } } }`,
    );
    const { shapes, pgn } = body.data.shortestPaths.overlay;
    const letter: Record<string, string> = { green: 'G', blue: 'B', yellow: 'Y', red: 'R' };
    const game = parsePgn(`1. Nc3 { ${pgn} } *`, { startRule: 'game' }) as {
      moves: { commentDiag?: { colorArrows?: string[]; colorFields?: string[] } }[];
    };
    const drawn = game.moves[0].commentDiag;
    type Shape = { orig: string; dest: string | null; brush: string };
    expect(drawn?.colorArrows).toEqual(
      shapes.filter((s: Shape) => s.dest).map((s: Shape) => `${letter[s.brush]}${s.orig}${s.dest}`),
    );
    expect(drawn?.colorFields).toEqual(
      shapes.filter((s: Shape) => !s.dest).map((s: Shape) => `${letter[s.brush]}${s.orig}`),
    );
  });
});

describe('limits', () => {
  it('refuses a drawing over MAX_RESPONSE_BYTES before making it, and answers the rest', async () => {
    const q = '{ piece: KING, board: { files: 64, ranks: 64 }, from: ["a1"], to: ["a64"] }';
    const { body } = await small.gql(
      `{ a: shortestPaths(query: ${q}) { distance } b: shortestPaths(query: ${q}) { overlay { shapes { orig } } } }`,
    );
    expect(body.data).toEqual({ a: { distance: 63 }, b: null });
    expect(body.errors?.[0].extensions).toMatchObject({ code: 'RESPONSE_TOO_LARGE', limit: 'MAX_RESPONSE_BYTES' });
  });
});

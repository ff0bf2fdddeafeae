/**
 * `Journey.maneuvers` over real HTTP (src/graphql/schema/resolvers/games.ts): a real game's
 * maneuvers with their legs and verdicts as the engine's maneuvers test checks them by hand, a
 * closed way naming the move that closed it, and a king's walk against the attacked squares.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KASPAROV_TOPALOV, RETI_STUDY } from '../../../../packages/engine/test/support/famous-games.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ database: false });
});
afterAll(async () => {
  await t?.close();
});

const MANEUVERS = `query($p: String!) { game(pgn: $p) { journeys { color role maneuvers {
  first last plies squares role verdict extraMoves captures checks
  legs { squares verdict notCompared shortest shortestPath openDistance openPath closedBy { ply san } }
  kingWalk { safeDistance safePath attackedOnWalk } } } } }`;

type Found = { color: string; role: string; maneuvers: { squares: string[]; [k: string]: unknown }[] }[];
const find = (journeys: Found, squares: string) =>
  journeys.flatMap((j) => j.maneuvers).find((m) => m.squares.join('-') === squares);

describe('maneuvers', () => {
  it('answers a real game: no detour in Kasparov v Topalov, the king hunt in legs', async () => {
    const { body } = await t.gql(MANEUVERS, { p: KASPAROV_TOPALOV });
    expect(body.errors).toBeUndefined();
    const journeys = body.data.game.journeys as Found;
    const all = journeys.flatMap((j) => j.maneuvers);
    expect(all.filter((m) => m.verdict === 'DETOUR')).toEqual([]);
    expect(find(journeys, 'e2-c1-b3')).toMatchObject({
      first: 2,
      last: 3,
      role: 'KNIGHT',
      verdict: 'SHORTEST',
      extraMoves: 0,
    });
    const hunt = find(journeys, 'a4-a3-b4-c3-d2-d1');
    expect(hunt).toMatchObject({ verdict: 'SHORTEST', captures: [62, 64, 66] });
    expect((hunt?.legs as unknown[] | undefined)?.length).toBe(4);
    expect(hunt?.kingWalk).toMatchObject({ attackedOnWalk: ['b4', 'c3'] });
  });

  it('names the move that closed a shorter way, and walks a king around attacked squares', async () => {
    const closed = await t.gql(MANEUVERS, {
      p: '[FEN "7k/8/8/2r5/8/8/8/R6K w - - 0 1"]\n1. Rb1 Ra5 2. Rb8+ Kh7 3. Ra8 *',
    });
    const rook = find(closed.body.data.game.journeys, 'a1-b1-b8-a8');
    expect(rook).toMatchObject({ verdict: 'CLOSED', extraMoves: 2, checks: [3] });
    expect((rook?.legs as { closedBy: unknown }[] | undefined)?.[0].closedBy).toEqual({ ply: 2, san: 'Ra5' });
    const reti = await t.gql(MANEUVERS, { p: RETI_STUDY });
    expect(find(reti.body.data.game.journeys, 'h8-g7-f6-e5-f4')).toMatchObject({
      verdict: 'SHORTEST',
      kingWalk: { safeDistance: 4, attackedOnWalk: [] },
    });
  });
});

describe('the annotated PGN', () => {
  it('writes the game back with its detours as comments with arrows, read back to the same moves', async () => {
    const pgn =
      '[FEN "8/8/1KP5/3r4/8/8/8/k7 w - - 0 1"]\n1. c7 Rd6+ 2. Kb5 Rd5+ 3. Kb4 Rd4+ 4. Kb3 Rd3+ 5. Kc2 Rd4 {the last try} 6. c8=R Ra4 7. Kb3 1-0';
    const { body } = await t.gql('query($p: String!) { game(pgn: $p) { plain: pgn(annotate: false) pgn } }', {
      p: pgn,
    });
    expect(body.errors).toBeUndefined();
    const { plain, pgn: annotated } = body.data.game;
    expect(plain).toContain('5. Kc2 Rd4 {the last try} 6. c8=R\nRa4 7. Kb3 1-0');
    expect(annotated).toContain('Ra4\n{d5-d6-d5-d4-d3-d4-a4: 6 moves where 5 stayed open');
    expect(annotated).toContain('[%cal Rd5d6,');
    const again = await t.gql('query($p: String!) { game(pgn: $p) { plies { uci } } }', { p: annotated });
    const first = await t.gql('query($p: String!) { game(pgn: $p) { plies { uci } } }', { p: pgn });
    expect(again.body.data.game.plies).toEqual(first.body.data.game.plies);
  });
});

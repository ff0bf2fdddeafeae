/**
 * Maneuvers (src/games/maneuvers.ts) on real play, each verdict checked by hand: the king walks of
 * Réti's study and the Saavedra position, the maneuvers of Karpov v Unzicker and of Kasparov v
 * Topalov (whose whole-journey reading called the queen's game and the king's hunt detours), the
 * Saavedra rook's checks, and a shorter way the opponent closes, naming the move.
 */
import { describe, expect, it } from 'vitest';
import { type Game, readGame } from '../../src/games/game.js';
import { journeyManeuvers, type Maneuver } from '../../src/games/maneuvers.js';
import { KARPOV_UNZICKER, KASPAROV_TOPALOV, OPERA_GAME, RETI_STUDY, SAAVEDRA } from '../support/famous-games.js';

/** Every maneuver of a game, by its piece's colour, role and squares (`WHITE KING h8-g7-f6-e5-f4`). */
function maneuvers(game: Game): Map<string, Maneuver> {
  const all = new Map<string, Maneuver>();
  for (const journey of game.journeys) {
    for (const m of journeyManeuvers(game, journey)) all.set(`${journey.color} ${m.role} ${m.squares.join('-')}`, m);
  }
  return all;
}

describe('king walks', () => {
  it("Réti's study: the white king's diagonal walk h8-f4 is the shortest (4 moves, Chebyshev distance 4)", () => {
    const found = maneuvers(readGame(RETI_STUDY));
    const walk = found.get('WHITE KING h8-g7-f6-e5-f4');
    expect(walk).toMatchObject({ verdict: 'SHORTEST', extraMoves: 0, plies: [1, 3, 5, 7] });
    expect(walk?.kingWalk).toEqual({ safeDistance: 4, safePath: ['h8', 'g7', 'f6', 'e5', 'f4'], attackedOnWalk: [] });
    // Black's king took the c6 pawn on the second of its two moves: a6-b6 then b6xc6, each the shortest.
    const black = found.get('BLACK KING a6-b6-c6');
    expect(black).toMatchObject({ verdict: 'SHORTEST', captures: [6] });
  });

  it('the Saavedra king: b6-c2 under four checks, the shortest way, around the attacked squares', () => {
    const found = maneuvers(readGame(SAAVEDRA));
    const king = found.get('WHITE KING b6-b5-b4-b3-c2');
    expect(king).toMatchObject({ verdict: 'SHORTEST', extraMoves: 0 });
    expect(king?.kingWalk?.attackedOnWalk).toEqual([]);
  });
});

describe('maneuvers of real games', () => {
  it('Kasparov v Topalov: no detour at all (the whole-journey reading listed fifteen)', () => {
    const found = maneuvers(readGame(KASPAROV_TOPALOV));
    expect([...found.values()].filter((m) => m.verdict === 'DETOUR')).toEqual([]);
    // 13. Nc1 14. Nb3: e2 to b3 is two knight moves.
    expect(found.get('WHITE KNIGHT e2-c1-b3')).toMatchObject({ verdict: 'SHORTEST', extraMoves: 0 });
    // 15. Rxd4 16. Rd1: a capture ends a leg, so the rook's round trip is two one-move legs.
    const rook = found.get('WHITE ROOK d1-d4-d1');
    expect(rook?.legs.map((l) => [l.squares.join('-'), l.verdict])).toEqual([
      ['d1-d4', 'SHORTEST'],
      ['d4-d1', 'SHORTEST'],
    ]);
    // The king's hunt, 31...Kxa3 to 35...Kd1: each capture a leg, each leg the shortest.
    const hunt = found.get('BLACK KING a4-a3-b4-c3-d2-d1');
    expect(hunt?.verdict).toBe('SHORTEST');
    expect(hunt?.captures).toEqual([62, 64, 66]);
    expect(hunt?.kingWalk?.attackedOnWalk).toEqual(['b4', 'c3']);
    // 29. Ra7 Bb7 30. Rxb7: the bishop came to b7 meanwhile, so the rook's trip is no path question.
    expect(found.get('WHITE ROOK e7-a7-b7')?.legs[0].notCompared).toBe(
      'the piece it took came to b7 during the maneuver',
    );
    expect(found.get('WHITE KING e1-c1-b1')?.legs[0].notCompared).toBe('castling');
  });

  it('Karpov v Unzicker: the knight h2-g4-e3 is the shortest, and the king waiting on f8 and g8 is not compared', () => {
    const game = readGame(KARPOV_UNZICKER);
    expect(game.plies).toHaveLength(87);
    const found = maneuvers(game);
    expect(found.get('WHITE KNIGHT h2-g4-e3')).toMatchObject({ verdict: 'SHORTEST', plies: [77, 79] });
    expect(found.get('WHITE QUEEN d1-h5-g6')).toMatchObject({ verdict: 'SHORTEST', extraMoves: 0 });
    const waiting = found.get('BLACK KING g8-f8-g8-f8-g8');
    expect(waiting?.verdict).toBe('NOT_COMPARED');
    expect(waiting?.legs[0].notCompared).toBe('it came back to where it began (waiting moves)');
    expect(found.get('WHITE PAWN a2-a4-b5')?.legs[0].notCompared).toBe("a pawn's capture");
  });

  it('the Opera Game: no maneuver at all is a detour; Morphy moved a different piece almost every move', () => {
    const found = maneuvers(readGame(OPERA_GAME));
    expect([...found.values()].filter((m) => m.verdict === 'DETOUR')).toEqual([]);
  });
});

describe('detours and closed ways', () => {
  it("the Saavedra rook's six checking moves d5-a4: a shorter way stayed open, its checks named", () => {
    const rook = maneuvers(readGame(SAAVEDRA)).get('BLACK ROOK d5-d6-d5-d4-d3-d4-a4');
    expect(rook).toMatchObject({ verdict: 'DETOUR', checks: [2, 4, 6, 8], extraMoves: 4 });
    // On the board at its start, two moves; with every square the white king stood on blocking,
    // still five: less than the six it took.
    expect(rook?.legs[0]).toMatchObject({ shortest: 2, shortestPath: ['d5', 'd4', 'a4'], openDistance: 5 });
  });

  it('a way the opponent closes: the rook a1 could reach a8 at once, until 1... Ra5 closed the a-file', () => {
    const game = readGame('[FEN "7k/8/8/2r5/8/8/8/R6K w - - 0 1"]\n1. Rb1 Ra5 2. Rb8+ Kh7 3. Ra8 *');
    const rook = maneuvers(game).get('WHITE ROOK a1-b1-b8-a8');
    expect(rook).toMatchObject({ verdict: 'CLOSED', extraMoves: 2, checks: [3] });
    expect(rook?.legs[0]).toMatchObject({ shortest: 1, openDistance: 3, closedBy: { ply: 2, san: 'Ra5' } });
  });

  it('a knight that wanders while the way stays open is a detour, with the way it had', () => {
    // b1 to e4 is two moves on the start position (b1-c3-e4), and nothing Black does blocks c3 or e4.
    const game = readGame('1. Na3 e5 2. Nb5 d5 3. Nc3 Nf6 4. Ne4 *');
    const knight = maneuvers(game).get('WHITE KNIGHT b1-a3-b5-c3-e4');
    expect(knight).toMatchObject({ verdict: 'DETOUR', extraMoves: 2 });
    expect(knight?.legs[0]).toMatchObject({ shortest: 2, shortestPath: ['b1', 'c3', 'e4'], openDistance: 2 });
  });
});

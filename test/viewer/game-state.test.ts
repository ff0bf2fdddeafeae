/**
 * The viewer's game arithmetic (src/viewer/game-state.ts), without a browser: the URL hash round
 * trip (a variation's move and a maneuver drawn too), where each piece stands after a ply
 * (checked against every FEN of the game), move labels, the route verdicts (which count moves and
 * call nothing a detour; the moves no path makes: a pawn's capture, castling), where a pawn
 * promoted, and the board inside a variation (its position alone).
 */

import { parseFen } from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import {
  gameBoard,
  gameTitle,
  hashFromSpot,
  journeyOn,
  moveLabel,
  promotionMove,
  spotFromHash,
  standing,
  unmatchedMove,
  verdict,
} from '../../src/viewer/game-state.js';
import { gameData } from '../support/viewer-game-data.js';

const OPERA = `[Event "Paris"]
[White "Paul Morphy"]
[Black "Duke Karl / Count \\"Isouard\\""]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5
10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8
17. Rd8# 1-0`;

describe('viewer game state', () => {
  const opera = gameData(OPERA);

  it('keeps the spot in the hash, and only a game spot', () => {
    const spot = {
      analysis: 'a-1',
      ply: 10,
      piece: 'f1',
      route: [1, 3] as [number, number],
      maneuver: null,
      line: null,
    };
    expect(hashFromSpot(spot)).toBe('#analysis=a-1&ply=10&piece=f1&route=1-3');
    expect(spotFromHash(hashFromSpot(spot))).toEqual(spot);
    const none = { analysis: null, piece: null, route: null, maneuver: null, line: null };
    expect(spotFromHash('#ply=0')).toEqual({ ...none, ply: 0 });
    expect(hashFromSpot({ analysis: null, ply: 3, piece: null, route: [1, 2] })).toBe('#ply=3');
    for (const hash of ['', '#', '#piece=f1', '#ply=-1', '#ply=x', '#ply=1.5']) expect(spotFromHash(hash)).toBeNull();
    expect(spotFromHash('#ply=2&piece=z9&route=a-b')).toEqual({ ...none, ply: 2 });
    // A maneuver drawn, and a variation's move.
    const drawn = { ...none, ply: 2, piece: 'b1', maneuver: 0 };
    expect(hashFromSpot(drawn)).toBe('#ply=2&piece=b1&maneuver=0');
    expect(spotFromHash(hashFromSpot(drawn))).toEqual(drawn);
    const inLine = { ...none, ply: 11, line: [12, 0, 2, 0, 1] };
    expect(hashFromSpot(inLine)).toBe('#ply=11&line=12.0.2.0.1');
    expect(spotFromHash(hashFromSpot(inLine))).toEqual(inLine);
    for (const line of ['12', '12.0', '12..1', '12.0.x', '-1.0.1']) {
      expect(spotFromHash(`#ply=1&line=${line}`)?.line).toBeNull();
    }
    // A maneuver is a piece's: without a piece it is dropped.
    expect(spotFromHash('#ply=1&maneuver=2')?.maneuver).toBeNull();
  });

  it('finds every piece where each FEN of the game puts it', () => {
    const fens = [opera.start.fen, ...opera.plies.map((p) => p.position.fen)];
    fens.forEach((fen, ply) => {
      const onBoard = parseFen(fen).pieces.map((p) => p.square);
      const standingThere = opera.journeys
        .map((j) => standing(j, opera, ply))
        .filter((s): s is string => s !== null)
        .sort();
      expect(standingThere).toEqual([...onBoard].sort());
      for (const square of onBoard) {
        const j = opera.journeys[journeyOn(opera, square, ply)];
        const piece = parseFen(fen).pieces.find((p) => p.square === square);
        expect([j.color, j.promotedTo ?? j.role]).toEqual([piece?.color, piece?.role]);
      }
    });
    expect(journeyOn(opera, 'e4', 0)).toBe(-1);
  });

  it('draws the board after a ply: pieces, the last move, the journey in order', () => {
    const bishop = opera.journeys.find((j) => j.squares[0] === 'f1') ?? null;
    const view = gameBoard(opera, 21, bishop, null);
    expect(view.moved).toEqual(['c4', 'b5']);
    expect(view.pieces.get('b5')).toBe('B');
    expect(view.selected).toBe('b5');
    expect(Object.fromEntries(view.visits ?? [])).toEqual({ f1: [0], c4: [1], b5: [2], d7: [3] });
    expect(gameBoard(opera, 33, bishop, null).selected).toBeUndefined();
  });

  it('names moves and verdicts', () => {
    expect(moveLabel(opera.plies[10])).toBe('6. Bc4');
    expect(moveLabel(opera.plies[21])).toBe('11... Nbd7');
    // Moves counted, nothing called a detour: whether a shorter way stayed open is the maneuvers' question.
    expect(verdict(3, 2)).toBe('used 3 moves; the shortest path on the position before them was 2');
    expect(verdict(1, 1)).toBe('used 1 move, as many as the shortest path');
    expect(verdict(2, 5)).toBe(
      'used 2 moves; the shortest path on the position before them was 5: the way opened later',
    );
    expect(verdict(2, null)).toMatch(/^used 2 moves; no path/);
    expect(gameTitle(opera)).toBe('Paul Morphy – Duke Karl / Count "Isouard", Paris');
  });

  it('says which moves no path makes, and where a pawn promoted', () => {
    const game = gameData(
      '1. e4 d5 2. e5 f5 3. exf6 Nc6 4. fxg7 Bf5 5. gxh8=Q Qd7 6. Nf3 O-O-O 7. Bc4 e6 8. O-O Nf6 *',
    );
    const of = (square: string) => game.journeys.find((j) => j.squares[0] === square) as (typeof game.journeys)[0];
    const pawn = of('e2');
    expect(pawn.squares).toEqual(['e2', 'e4', 'e5', 'f6', 'g7', 'h8']);
    expect(unmatchedMove(game, pawn, 1, 2)).toBeNull();
    expect(unmatchedMove(game, pawn, 3, 3)).toBe('a capture (3. exf6), which no pawn path makes');
    expect(unmatchedMove(game, pawn, 1, 5)).toBe('a capture (3. exf6), which no pawn path makes');
    expect(promotionMove(pawn)).toBe(5);
    // After it, the pawn moves as its new piece: a queen's capture is a queen's move.
    const queen = gameData('1. a4 h5 2. a5 h4 3. a6 h3 4. axb7 hxg2 5. bxa8=Q gxh1=Q 6. Qxb8 Qxg1 *');
    const a2 = queen.journeys.find((j) => j.squares[0] === 'a2') as (typeof queen.journeys)[0];
    expect(promotionMove(a2)).toBe(5);
    expect(unmatchedMove(queen, a2, 6, 6)).toBeNull();
    expect(unmatchedMove(queen, a2, 4, 5)).toBe('a capture (4. axb7), which no pawn path makes');
    expect(promotionMove(of('d7'))).toBeNull();
    expect(unmatchedMove(game, of('e1'), 1, 1)).toBe('castling (8. O-O), which no king path makes');
    expect(unmatchedMove(game, of('e8'), 1, 1)).toBe('castling (6... O-O-O), which no king path makes');
    expect(unmatchedMove(game, of('h1'), 1, 1)).toBeNull();
    expect(verdict(1, 2, 'castling (8. O-O), which no king path makes')).toBe(
      'used 1 move, castling (8. O-O), which no king path makes: not compared with the shortest path',
    );
    expect(verdict(5, 4, 'a capture (3. exf6), which no pawn path makes')).toBe(
      'used 5 moves, one of them a capture (3. exf6), which no pawn path makes: not compared with the shortest path',
    );
  });

  it('shows a variation’s position alone on the board: no journey, no route', () => {
    const game = gameData('1. e4 e5 2. Nf3 (2. Bc4 Nf6 (2... Bc5 3. Qh5)) 2... Nc6 *');
    const knight = game.journeys.find((j) => j.squares[0] === 'g1') ?? null;
    const main = gameBoard(game, 2, knight, null);
    expect(main.visits?.size).toBe(2);
    const nested = gameBoard(game, 2, knight, null, { line: [3, 0, 2, 0, 2] });
    expect(nested.moved).toEqual(['d1', 'h5']);
    expect(nested.pieces.get('h5')).toBe('Q');
    expect(nested.pieces.get('c5')).toBe('b');
    expect(nested.visits).toBeUndefined();
    expect(nested.selected).toBeUndefined();
    // A line the game lacks shows the main line's position.
    expect(gameBoard(game, 2, null, null, { line: [3, 4, 1] }).moved).toEqual(['e7', 'e5']);
  });
});

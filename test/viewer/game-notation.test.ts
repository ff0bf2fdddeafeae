/**
 * How the viewer reads an annotated game, without a browser (src/viewer/notation.ts and
 * game-lines.ts): NAGs as marks, moves named by their plies, how a game ended (checkmate,
 * stalemate, insufficient material, the Termination tag), maneuvers' verdicts in words (a detour,
 * a way closed by the opponent's move, castling not compared, a king's walk), the file name of
 * the downloaded PGN, and the paths through nested variations: where each leads, and the steps
 * forward and back along them.
 */
import { journeyManeuvers, readGame } from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import type { ManeuverData } from '../../src/viewer/game-api.js';
import { lineAt, lineBack, lineForward, parseLine, replacedMove } from '../../src/viewer/game-lines.js';
import {
  endingWords,
  kingWalkWords,
  legWords,
  maneuverWords,
  moveByPly,
  nagMark,
  pgnFileName,
  plyLabel,
  resultWords,
} from '../../src/viewer/notation.js';
import { gameData } from '../support/viewer-game-data.js';

/** A coach's game: comments, marks, a nested variation, a knight's detour, a checkmate. */
const COACH = `[Event "Club training"]
[Date "2024.03.09"]
[White "A. Coach"]
[Black "B. Student"]
[Result "1-0"]

{A short game.} 1. e4 e5 2. Na3?! Nc6 3. Nb5 $6 a6 4. Nc3 Bc5 5. Bc4 d6 6. Qh5 Nf6??
(6... g6 7. Qf3 (7. Qxe5+?! Nxe5) 7... Nf6 8. Nd5 $14) 7. Qxf7# 1-0`;

/** The maneuvers of a game's pieces, by `COLOR ROLE squares`. */
function maneuvers(pgn: string): Map<string, ManeuverData> {
  const game = readGame(pgn);
  const found = new Map<string, ManeuverData>();
  for (const journey of game.journeys) {
    for (const m of journeyManeuvers(game, journey)) found.set(`${journey.color} ${m.role} ${m.squares.join('-')}`, m);
  }
  return found;
}

describe('viewer notation', () => {
  it('writes NAGs as the marks players write', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => nagMark(n).symbol)).toEqual(['!', '?', '!!', '??', '!?', '?!']);
    expect(nagMark(4)).toEqual({ symbol: '??', title: 'Blunder', kind: 'bad' });
    expect(nagMark(14).symbol).toBe('+=');
    expect(nagMark(16)).toEqual({ symbol: '±', title: 'White is better', kind: 'position' });
    expect(nagMark(19).symbol).toBe('−+');
    expect(nagMark(99)).toEqual({ symbol: '$99', title: 'NAG 99', kind: 'position' });
  });

  it('names moves by their plies, results, and endings', () => {
    expect(plyLabel(26, 'Rxd7')).toBe('13... Rxd7');
    expect(plyLabel(25, 'Rxd7')).toBe('13. Rxd7');
    const coach = gameData(COACH);
    expect(moveByPly(coach, 13)).toBe('7. Qxf7#');
    expect(moveByPly(coach, 99)).toBe('ply 99');
    expect(resultWords('1-0')).toBe('White won');
    expect(resultWords('1/2-1/2')).toBe('Drawn');
    expect(resultWords('*')).toMatch(/^No result/);
    expect(endingWords(coach)).toBe('Checkmate');
    // Sam Loyd's stalemate in ten moves.
    const loyd = gameData(
      '1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6 1/2-1/2',
    );
    expect(endingWords(loyd)).toBe('Stalemate');
    const bare = gameData('[FEN "8/8/8/4k3/8/8/3n4/4K3 w - - 0 1"]\n\n1. Kxd2 1/2-1/2');
    expect(endingWords(bare)).toBe('Insufficient material: neither side can mate');
    expect(endingWords(gameData('[Termination "Time forfeit"]\n\n1. e4 e5 0-1'))).toBe('Termination: Time forfeit');
    expect(endingWords(gameData('1. e4 e5 0-1'))).toBe('');
  });

  it('says maneuvers’ verdicts as a player does', () => {
    const knight = maneuvers(COACH).get('WHITE KNIGHT b1-a3-b5-c3') as ManeuverData;
    expect(maneuverWords(knight)).toBe('a detour: 3 moves where 1 stayed open');
    expect(maneuverWords(maneuvers(COACH).get('WHITE QUEEN d1-h5-f7') as ManeuverData)).toBe(
      'took the shortest way (2 moves)',
    );
    const closed = maneuvers('[FEN "7k/8/8/2r5/8/8/8/R6K w - - 0 1"]\n\n1. Rb1 Ra5 2. Rb8+ Kh7 3. Ra8 *');
    expect(maneuverWords(closed.get('WHITE ROOK a1-b1-b8-a8') as ManeuverData)).toBe(
      'the shorter way was closed by 1... Ra5 (3 moves where 1 would have done at its start)',
    );
    const castled = maneuvers('1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Kh1 *');
    const king = castled.get('WHITE KING e1-g1-h1') as ManeuverData;
    expect(maneuverWords(king)).toBe('not compared: castling');
    expect(king.kingWalk).toBeNull();
    // A capture cuts a maneuver into legs; each has its words.
    const rook = maneuvers('[FEN "4k3/8/8/8/3p4/8/8/3RK3 w - - 0 1"]\n\n1. Rxd4 Ke7 2. Rd1 *').get(
      'WHITE ROOK d1-d4-d1',
    ) as ManeuverData;
    expect(rook.legs.map(legWords)).toEqual(['took the shortest way (1 move)', 'took the shortest way (1 move)']);
    expect(maneuverWords(rook)).toBe('took the shortest way');
  });

  it('tells a king’s walk against the squares attacked at its start', () => {
    const walk = maneuvers('[FEN "8/8/8/8/8/8/k7/7K w - - 0 1"]\n\n1. Kg2 Kb3 2. Kf3 *').get('WHITE KING h1-g2-f3');
    expect(kingWalkWords(walk?.kingWalk as NonNullable<ManeuverData['kingWalk']>)).toBe(
      'Around the squares attacked at its start: 2 moves (h1 → g2 → f3); it stepped on none of them.',
    );
    expect(kingWalkWords({ safeDistance: null, safePath: null, attackedOnWalk: ['b4', 'c3'] })).toBe(
      'The squares attacked at its start walled its target off; it walked onto b4, c3, attacked then (the attack had moved on).',
    );
  });

  it('names the downloaded PGN after the game’s tags', () => {
    expect(pgnFileName(gameData(COACH))).toBe('A._Coach_vs_B._Student_Club_training_2024.03.09.pgn');
    const opera = gameData(
      '[Event "Paris"]\n[Date "1858.??.??"]\n[White "Paul Morphy"]\n[Black "Duke Karl / Count Isouard"]\n\n1. e4 *',
    );
    expect(pgnFileName(opera)).toBe('Paul_Morphy_vs_Duke_Karl_Count_Isouard_Paris_1858.pgn');
    expect(pgnFileName(gameData('1. e4 *'))).toBe('game.pgn');
  });
});

describe('viewer variations', () => {
  const game = gameData(COACH);

  it('finds the move a path leads to, nested lines too', () => {
    expect(lineAt(game, [12, 0, 2])?.ply.san).toBe('Qf3');
    expect(lineAt(game, [12, 0, 2, 0, 2])?.ply.san).toBe('Nxe5');
    expect(lineAt(game, [12, 0, 4])?.ply.san).toBe('Nd5');
    for (const missing of [
      [12, 0, 5],
      [12, 1, 1],
      [11, 0, 1],
      [12, 0],
      [12, 0, 0],
    ]) {
      expect(lineAt(game, missing)).toBeNull();
    }
    // The move each line is played instead of: the main line's 6... Nf6, the variation's 7. Qf3.
    expect(replacedMove(game, [12, 0, 2])?.san).toBe('Nf6');
    expect(replacedMove(game, [12, 0, 2, 0, 1])?.san).toBe('Qf3');
    expect(replacedMove(game, [12, 3, 1])).toBeNull();
    expect(parseLine('12.0.2.0.2')).toEqual([12, 0, 2, 0, 2]);
    expect(parseLine('12.0')).toBeNull();
  });

  it('steps forward and back along a line, back out to the line it branches from', () => {
    expect(lineForward(game, [12, 0, 1])).toEqual([12, 0, 2]);
    expect(lineForward(game, [12, 0, 4])).toEqual([12, 0, 4]);
    expect(lineForward(game, [12, 0, 2, 0, 1])).toEqual([12, 0, 2, 0, 2]);
    expect(lineBack([12, 0, 2, 0, 2])).toEqual({ line: [12, 0, 2, 0, 1] });
    // Before the nested line's first move: its parent before the move it replaces (7. Qf3), 6... g6.
    expect(lineBack([12, 0, 2, 0, 1])).toEqual({ line: [12, 0, 1] });
    // Before the line's first move: the main line before 6... Nf6.
    expect(lineBack([12, 0, 1])).toEqual({ ply: 11 });
  });
});

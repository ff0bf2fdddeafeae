/**
 * Games played from PGN (`readGame`, `journeyRoute`, src/games/game.ts), checked against truths
 * written here by hand, not by the library: the Opera Game (Morphy, Paris 1858) and the Immortal
 * Game (Anderssen-Kieseritzky, London 1851) move by move with their final positions; short games
 * made for en passant, promotion and castling; a game from a FEN at Black's 17th move. Journeys
 * are derived in this file from the UCI moves by a small mover of its own (a map square -> piece,
 * castling moves the rook, en passant takes the pawn behind) and compared whole. Routes are
 * compared with `positionQuery` on the position before their first move, and their distances
 * with the reference BFS (test/support/reference-bfs.ts). Every refusal the contract names is
 * checked with its message (path-semantics.md, Games).
 */
import { describe, expect, it } from 'vitest';
import { parseFen } from '../../src/board/fen.js';
import { solve } from '../../src/core/solve.js';
import { InputError } from '../../src/errors.js';
import { type Game, type GameJourney, journeyRoute, readGame } from '../../src/games/game.js';
import { PgnError } from '../../src/games/pgn.js';
import { positionQuery } from '../../src/games/position.js';
import type { Role } from '../../src/types.js';
import { referenceSolve } from '../support/reference-bfs.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const ROLES: Record<string, Role> = { k: 'KING', q: 'QUEEN', r: 'ROOK', b: 'BISHOP', n: 'KNIGHT', p: 'PAWN' };
const index = (square: string) => (Number(square[1]) - 1) * 8 + square.charCodeAt(0) - 97;

/** The pieces of a FEN's placement field, by square. */
function placement(fen: string): Map<string, string> {
  const pieces = new Map<string, string>();
  fen
    .split(' ')[0]
    .split('/')
    .forEach((row, r) => {
      let file = 0;
      for (const c of row) {
        if (/\d/.test(c)) file += Number(c);
        else pieces.set(`${'abcdefgh'[file++]}${8 - r}`, c);
      }
    });
  return pieces;
}

/** The journeys of a game's start pieces, replayed from its UCI moves by this file's own mover. */
function replay(game: Game): GameJourney[] {
  const on = new Map<string, GameJourney>();
  for (const [square, c] of placement(game.startFen)) {
    const color = c === c.toUpperCase() ? 'WHITE' : 'BLACK';
    const journey = { role: ROLES[c.toLowerCase()], color, squares: [square], plies: [] as number[] };
    on.set(square, { ...journey, capturedAt: null, promotedTo: null, promotedAtMove: null } as GameJourney);
  }
  const all = [...on.values()].sort((a, b) => index(a.squares[0]) - index(b.squares[0]));
  const go = (from: string, to: string, ply: number) => {
    const piece = on.get(from) as GameJourney;
    on.delete(from);
    piece.squares.push(to);
    piece.plies.push(ply);
    on.set(to, piece);
    return piece;
  };
  for (const { uci, number } of game.plies) {
    const [from, to, promotion] = [uci.slice(0, 2), uci.slice(2, 4), uci[4]];
    const mover = on.get(from) as GameJourney;
    const pawn = mover.role === 'PAWN' && mover.promotedTo === null;
    const taken = on.get(to) ? to : pawn && from[0] !== to[0] ? `${to[0]}${from[1]}` : null; // en passant
    if (taken) (on.get(taken) as GameJourney).capturedAt = number;
    if (taken) on.delete(taken);
    go(from, to, number);
    if (mover.role === 'KING' && Math.abs(from.charCodeAt(0) - to.charCodeAt(0)) === 2) {
      if (to[0] === 'g') go(`h${to[1]}`, `f${to[1]}`, number);
      else go(`a${to[1]}`, `d${to[1]}`, number);
    }
    if (promotion) [mover.promotedTo, mover.promotedAtMove] = [ROLES[promotion], mover.plies.length];
  }
  return all;
}

/** The FEN just before ply `ply` of `game`. */
const fenBefore = (game: Game, ply: number) =>
  ply === game.plies[0].number ? game.startFen : (game.plies.find((p) => p.number === ply - 1) as { fen: string }).fen;

/** The reference BFS distance of the piece on `from` to `to` on `fen` (other pieces block). */
function referenceDistance(fen: string, from: string, to: string): number | null {
  const pieces = placement(fen);
  const c = pieces.get(from) as string;
  const role = ROLES[c.toLowerCase()];
  const piece = role === 'PAWN' ? (c === 'P' ? 'WHITE_PAWN' : 'BLACK_PAWN') : role;
  const passable = Array.from({ length: 64 }, (_, i) => {
    const square = `${'abcdefgh'[i % 8]}${Math.floor(i / 8) + 1}`;
    return square === from || square === to || !pieces.has(square);
  });
  return referenceSolve({ piece, files: 8, ranks: 8, passable, sources: [index(from)], targets: [index(to)] }).distance;
}

function refusal(pgn: string): string {
  let error: unknown;
  try {
    readGame(pgn);
  } catch (err) {
    error = err;
  }
  expect(error, pgn).toBeInstanceOf(PgnError);
  return (error as Error).message;
}

const OPERA =
  '[Event "Paris"]\n[White "Paul Morphy"]\n[Black "Duke Karl / Count Isouard"]\n[Result "1-0"]\n\n' +
  '1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5\n' +
  '10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8\n' +
  '17. Rd8# 1-0\n';
const OPERA_SANS = (
  'e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 ' +
  'O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#'
).split(' ');

// Written the way old books and some sites write it: no spaces, marks, check signs left out.
const IMMORTAL =
  '1.e4 e5 2.f4 exf4 3.Bc4 Qh4 4.Kf1 b5? 5.Bxb5 Nf6 6.Nf3 Qh6 7.d3 Nh5 8.Nh4 Qg5 9.Nf5 c6 10.g4 Nf6\n' +
  '11.Rg1! cxb5 12.h4 Qg6 13.h5 Qg5 14.Qf3 Ng8 15.Bxf4 Qf6 16.Nc3 Bc5 17.Nd5 Qxb2 18.Bd6!! Bxg1\n' +
  '19.e5 Qxa1 20.Ke2 Na6 21.Nxg7 Kd8 22.Qf6 Nxf6 23.Be7 1-0';

describe('well-known games, checked by hand', () => {
  it('the Opera Game: every SAN, ply numbers and colours, castling, the final position, the result', () => {
    const game = readGame(OPERA);
    expect(game.plies.map((p) => p.san)).toEqual(OPERA_SANS);
    expect(game.plies.map((p) => p.number)).toEqual(Array.from({ length: 33 }, (_, i) => i + 1));
    expect(game.plies.map((p) => p.color)).toEqual(OPERA_SANS.map((_, i) => (i % 2 ? 'BLACK' : 'WHITE')));
    expect(game.plies[22]).toMatchObject({ number: 23, san: 'O-O-O', uci: 'e1c1', from: 'e1', to: 'c1' });
    expect(game.plies[21]).toMatchObject({ san: 'Nbd7', uci: 'b8d7' });
    expect(game.plies[7].fen).toBe('rn1qkbnr/ppp2ppp/3p4/4P3/4P3/5b2/PPP2PPP/RNBQKB1R w KQkq - 0 5');
    expect(game.plies[32].fen).toBe('1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17');
    expect(game.startFen).toBe(START);
    expect(game.result).toBe('1-0');
    expect(game.tags.map((t) => t.name)).toEqual(['Event', 'White', 'Black', 'Result']);
  });

  it("the Opera Game's journeys: the rooks through the castling, the queen's sacrifice", () => {
    const game = readGame(OPERA);
    const from = (square: string) => game.journeys.find((j) => j.squares[0] === square);
    expect(from('a1')).toMatchObject({ role: 'ROOK', squares: ['a1', 'd1', 'd7'], plies: [23, 25], capturedAt: 26 });
    expect(from('h1')).toMatchObject({ squares: ['h1', 'd1', 'd8'], plies: [27, 33], capturedAt: null });
    expect(from('e1')).toMatchObject({ role: 'KING', squares: ['e1', 'c1'], plies: [23] });
    expect(from('d1')).toMatchObject({ squares: ['d1', 'f3', 'b3', 'b8'], plies: [9, 13, 31], capturedAt: 32 });
    expect(from('g8')).toMatchObject({ color: 'BLACK', squares: ['g8', 'f6', 'd7', 'b8'], capturedAt: null });
    expect(game.journeys).toHaveLength(32);
    expect(game.journeys.map((j) => j.squares[0])).toEqual(
      [...placement(START).keys()].sort((a, b) => index(a) - index(b)),
    );
    expect(game.journeys).toEqual(replay(game));
  });

  it('the Immortal Game, written tersely: SAN with check and mate signs, the final position', () => {
    const game = readGame(IMMORTAL);
    expect(game.plies).toHaveLength(45);
    expect(game.plies[5]).toMatchObject({ number: 6, color: 'BLACK', san: 'Qh4+', uci: 'd8h4' });
    expect(game.plies[37]).toMatchObject({ number: 38, san: 'Qxa1+', uci: 'b2a1' });
    expect(game.plies[40].san).toBe('Nxg7+');
    expect(game.plies[44]).toMatchObject({ number: 45, san: 'Be7#', uci: 'd6e7' });
    expect(game.plies[44].fen).toBe('r1bk3r/p2pBpNp/n4n2/1p1NP2P/6P1/3P4/P1P1K3/q5b1 b - - 1 23');
    const king = game.journeys.find((j) => j.squares[0] === 'e1');
    expect(king).toMatchObject({ squares: ['e1', 'f1', 'e2'], plies: [7, 39], capturedAt: null });
    expect(game.journeys).toEqual(replay(game));
  });
});

describe('moves as the contract reads them', () => {
  it('normalises SAN: over-disambiguation dropped, zeros castle, check signs added', () => {
    const game = readGame('1. e4 e5 2. Ng1f3 Nb8c6 3. Bf1c4 Bf8c5 4. 0-0 Ng8f6 5. Nfg5 0-0 6. Bxf7 Rxf7 7. Nxf7 *');
    expect(game.plies.map((p) => p.san)).toEqual('e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6 Ng5 O-O Bxf7+ Rxf7 Nxf7'.split(' '));
    expect(game.plies[6]).toMatchObject({ uci: 'e1g1', from: 'e1', to: 'g1' });
    expect(game.plies[9]).toMatchObject({ uci: 'e8g8', from: 'e8', to: 'g8' });
    expect(game.journeys).toEqual(replay(game));
  });

  it('sets the en passant field after every double step, and takes the pawn behind on an en passant capture', () => {
    const game = readGame('1. e4 a6 2. e5 d5 3. exd6 Qxd6 *');
    expect(game.plies.map((p) => p.fen)).toEqual([
      'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1',
      'rnbqkbnr/1ppppppp/p7/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
      'rnbqkbnr/1ppppppp/p7/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2',
      'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3',
      'rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3',
      'rnb1kbnr/1pp1pppp/p2q4/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 4',
    ]);
    expect(game.plies[4]).toMatchObject({ san: 'exd6', uci: 'e5d6' });
    const victim = game.journeys.find((j) => j.squares[0] === 'd7');
    expect(victim).toMatchObject({ squares: ['d7', 'd5'], plies: [4], capturedAt: 5 });
    expect(game.journeys.find((j) => j.squares[0] === 'e2')).toMatchObject({ capturedAt: 6 });
    expect(game.journeys).toEqual(replay(game));
  });

  const PROMOTION = '1. h4 g5 2. hxg5 h6 3. gxh6 Bg7 4. hxg7 Nf6 5. gxh8=Q+ Ng8 6. Qxg8# 1-0';

  it('promotes, with or without =, in either case; the journey keeps its role and says what it became', () => {
    for (const written of ['gxh8=Q+', 'gxh8Q', 'gxh8q', 'gxh8=Q']) {
      const game = readGame(PROMOTION.replace('gxh8=Q+', written));
      expect(game.plies[8]).toMatchObject({ number: 9, san: 'gxh8=Q+', uci: 'g7h8q', from: 'g7', to: 'h8' });
      expect(game.plies[8].fen).toBe('rnbqk2Q/pppppp2/5n2/8/8/8/PPPPPPP1/RNBQKBNR b KQq - 0 5');
      expect(game.plies[10].san).toBe('Qxg8#'); // nothing can take the queen or cover f8
      const pawn = game.journeys.find((j) => j.squares[0] === 'h2');
      expect(pawn).toEqual({
        role: 'PAWN',
        color: 'WHITE',
        squares: ['h2', 'h4', 'g5', 'h6', 'g7', 'h8', 'g8'],
        plies: [1, 3, 5, 7, 9, 11],
        capturedAt: null,
        promotedTo: 'QUEEN',
        promotedAtMove: 5,
      });
      expect(game.journeys.find((j) => j.squares[0] === 'h8')).toMatchObject({ squares: ['h8'], capturedAt: 9 });
      expect(game.journeys).toEqual(replay(game));
    }
    const under = readGame('1. h4 g5 2. hxg5 h6 3. gxh6 Bg7 4. hxg7 Nf6 5. gxh8N *');
    expect(under.plies[8]).toMatchObject({ san: 'gxh8=N', uci: 'g7h8n' });
    expect(under.journeys.find((j) => j.squares[0] === 'h2')?.promotedTo).toBe('KNIGHT');
  });

  it("numbers plies from White's first move of the whole game: a FEN at Black's 17th move starts at 34", () => {
    const fen = '4k3/8/8/8/8/8/4P3/4K3 b - - 0 17';
    const game = readGame(`[SetUp "1"]\n[FEN "${fen}"]\n\n17... Kd7 18. e4 Kd6 19. e5+ *`);
    expect(game.startFen).toBe(fen);
    expect(game.plies.map((p) => [p.number, p.color, p.san])).toEqual([
      [34, 'BLACK', 'Kd7'],
      [35, 'WHITE', 'e4'],
      [36, 'BLACK', 'Kd6'],
      [37, 'WHITE', 'e5+'],
    ]);
    expect(game.plies[1].fen).toBe('8/3k4/8/8/4P3/8/8/4K3 b - e3 0 18');
    expect(game.journeys).toEqual([
      {
        role: 'KING',
        color: 'WHITE',
        squares: ['e1'],
        plies: [],
        capturedAt: null,
        promotedTo: null,
        promotedAtMove: null,
      },
      {
        role: 'PAWN',
        color: 'WHITE',
        squares: ['e2', 'e4', 'e5'],
        plies: [35, 37],
        capturedAt: null,
        promotedTo: null,
        promotedAtMove: null,
      },
      {
        role: 'KING',
        color: 'BLACK',
        squares: ['e8', 'd7', 'd6'],
        plies: [34, 36],
        capturedAt: null,
        promotedTo: null,
        promotedAtMove: null,
      },
    ]);
  });

  it('reads a game with no moves, and takes the result from the Result tag when the movetext has none', () => {
    const game = readGame('[Result "0-1"]\n[FEN "4k3/8/8/8/8/8/8/4K2R w K - 3 40"]\n');
    expect(game).toMatchObject({ plies: [], result: '0-1', startFen: '4k3/8/8/8/8/8/8/4K2R w K - 3 40' });
    expect(game.journeys.map((j) => j.squares)).toEqual([['e1'], ['h1'], ['e8']]);
    expect(readGame('1. e4').result).toBe('*');
  });

  it('refuses a Variant other than standard chess, even on the standard start, and reads Standard', () => {
    expect(refusal('[Variant "Chess960"]\n\n1. e4 *')).toBe(
      'pgn: the Variant tag "Chess960" is not standard chess, the only game read here',
    );
    expect(() => readGame('[Variant "Crazyhouse"]\n*')).toThrow(PgnError);
    expect(readGame('[Variant "Standard"]\n\n1. e4 *').plies[0].san).toBe('e4');
  });

  it('refuses a FEN tag whose castling rights, en passant square or check its pieces contradict', () => {
    const fen = (f: string) => `[SetUp "1"]\n[FEN "${f}"]\n\n*`;
    const illegal = (f: string, why: string) => `pgn: the FEN tag "${f}" is not a legal position: ${why}`;
    // O-O was played with a knight on h1 as the rook, and with no rook at all.
    for (const f of [
      '4k3/8/8/8/8/8/8/4K2N w K - 0 1',
      '4k3/8/8/8/8/8/8/4K3 w K - 0 1',
      '4k3/8/8/8/8/8/8/3K3R w K - 0 1',
    ])
      expect(refusal(fen(f))).toBe(illegal(f, 'castling right K needs the white king on e1 and a white rook on h1'));
    for (const [f, field] of [
      ['4k3/8/8/8/8/8/8/4K2R w K- - 0 1', 'K-'],
      ['4k3/8/8/8/8/8/8/4K2R w -- - 0 1', '--'],
    ])
      expect(refusal(fen(f))).toBe(illegal(f, `castling field "${field}" is not - or letters K, Q, k, q`));
    const q = 'r3k3/8/8/8/8/8/8/4K3 w q - 0 1';
    expect(refusal(fen(q.replace('r3k3', '4k3')))).toBe(
      illegal(q.replace('r3k3', '4k3'), 'castling right q needs the black king on e8 and a black rook on a8'),
    );
    expect(readGame(`${fen(q).replace('*', '1. Kd2 O-O-O *')}`).plies[1].uci).toBe('e8c8');
    // Black, not to move, in check: White could take the king.
    const check = '4k2R/8/8/8/8/8/8/4K3 w - - 0 1';
    expect(refusal(fen(check))).toBe(illegal(check, 'Black is in check with White to move'));
    // No white pawn passed e3; and one that did, with the capture played.
    const ghost = '4k3/8/8/8/3p4/8/8/4K3 b - e3 0 1';
    expect(refusal(fen(ghost))).toBe(illegal(ghost, 'en passant square e3 is not one a white pawn just passed over'));
    const real = '4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1';
    expect(readGame(fen(real).replace('*', '1... dxe3 *')).plies[0]).toMatchObject({ san: 'dxe3', uci: 'd4e3' });
  });

  it("refuses, as the game's own error, a FEN tag whose move counters no FEN of the engine reads", () => {
    const start = (counters: string) => `[FEN "4k3/8/8/8/8/8/8/4K3 w - - ${counters}"]\n1. Kd2 Kd7 2. Ke3 *`;
    expect(refusal(start('0 1e30'))).toBe(
      'pgn: the FEN tag "4k3/8/8/8/8/8/8/4K3 w - - 0 1e30" has full-move number "1e30"; expected a positive integer',
    );
    expect(refusal(start('0 12345678901'))).toMatch(/^pgn: the FEN tag .* has full-move number "12345678901"/);
    // Nine digits are read, but the game must not count past them: the move that would is named.
    expect(refusal(start('0 999999999'))).toBe(
      "pgn: 999999999... Kd7 takes the FEN's move counters past nine digits (line 2, column 8): the FEN tag starts too late",
    );
    expect(readGame(start('0 999999998')).plies.at(-1)?.fen).toBe('8/3k4/8/8/8/4K3/8/8 b - - 3 999999999');
  });

  it('refuses tags that disagree on the game: two FEN tags, a non-standard Variant among standard ones', () => {
    const two = '[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]\n[FEN "4k3/8/8/8/8/8/8/3K4 w - - 0 1"]\n*';
    expect(refusal(two)).toBe('pgn: 2 FEN tags: a game has one start position');
    expect(refusal('[Variant "Standard"]\n[Variant "Chess960"]\n*')).toBe(
      'pgn: the Variant tag "Chess960" is not standard chess, the only game read here',
    );
  });

  it('writes the start FEN with its fields one space apart, however the tag spaced them', () => {
    expect(readGame('[FEN "  4k3/8/8/8/8/8/8/4K3   w  -  -  0  1 "]\n*').startFen).toBe(
      '4k3/8/8/8/8/8/8/4K3 w - - 0 1',
    );
  });

  it('refuses illegal, ambiguous, unpromoted and king-promoting moves, naming them and their place', () => {
    const illegal = '1. e4 e5 2. Nf3 Nf6 3. Nc3 Nf6 *';
    expect(refusal(illegal)).toBe(`pgn: 3... Nf6 is not legal here (line 1, column ${illegal.lastIndexOf('Nf6') + 1})`);
    expect(refusal('1. O-O *')).toBe('pgn: 1. O-O is not legal here (line 1, column 4)');
    expect(refusal('1. e4 e5\n2. Ke3 *')).toBe('pgn: 2. Ke3 is not legal here (line 2, column 4)');
    expect(refusal('1. d4 d5 2. Nf3 Nf6 3. Nd2 *')).toMatch(
      /^pgn: 3\. Nd2 is ambiguous here: (Nbd2 or Nfd2|Nfd2 or Nbd2) \(line 1, column 24\)$/,
    );
    expect(refusal('1. e4 Nf6 2. d4 d6 3. Nf3 Nd7 *')).toMatch(
      /^pgn: 3\.\.\. Nd7 is ambiguous here: (Nbd7 or Nfd7|Nfd7 or Nbd7) /,
    );
    const unpromoted = PROMOTION.replace('gxh8=Q+', 'gxh8');
    const column = unpromoted.indexOf('gxh8') + 1;
    expect(refusal(unpromoted)).toBe(
      `pgn: 5. gxh8 reaches the last rank without saying what it promotes to (line 1, column ${column})`,
    );
    for (const king of ['gxh8=K', 'gxh8K']) {
      expect(refusal(PROMOTION.replace('gxh8=Q+', king))).toBe(
        `pgn: 5. ${king} promotes to a king, which is not a move (line 1, column ${column})`,
      );
    }
  });
});

describe('journeyRoute', () => {
  const promotion = readGame('1. h4 g5 2. hxg5 h6 3. gxh6 Bg7 4. hxg7 Nf6 5. gxh8=Q+ Ng8 6. Qxg8# 1-0');
  const pawn = promotion.journeys.find((j) => j.squares[0] === 'h2') as GameJourney;

  it('is the question of positionQuery on the position before move `first`, solved as the reference solves it', () => {
    const opera = readGame(OPERA);
    const setUp = readGame('[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 17"]\n17... Kd7 18. e4 Kd6 19. e5+ *');
    const cases: [Game, GameJourney, number, number][] = [
      [promotion, pawn, 4, 5],
      [promotion, pawn, 1, 5],
      [promotion, pawn, 6, 6],
      [setUp, setUp.journeys[1], 1, 2],
      ...opera.journeys.flatMap((j) =>
        j.plies.map((_, i) => [opera, j, 1, i + 1] as [Game, GameJourney, number, number]),
      ),
    ];
    for (const [game, journey, first, last] of cases) {
      if (journey.promotedAtMove !== null && first <= journey.promotedAtMove && journey.promotedAtMove < last) continue;
      const before = fenBefore(game, journey.plies[first - 1]);
      const [from, to] = [journey.squares[first - 1], journey.squares[last]];
      const query = journeyRoute(game, journey, first, last);
      expect(query, `${from}-${to}`).toEqual(positionQuery(parseFen(before), from, [to], false));
      expect(solve(query).distance, `${from}-${to} on ${before}`).toBe(referenceDistance(before, from, to));
    }
    // By hand: the pawn from h6 (h7 emptied) to h8, two steps; the queen h8-g8, one; e2-e4-e5.
    expect(solve(journeyRoute(promotion, pawn, 4, 5)).distance).toBe(2);
    expect(solve(journeyRoute(promotion, pawn, 6, 6))).toMatchObject({ piece: 'QUEEN', distance: 1 });
    const e2 = solve(journeyRoute(setUp, setUp.journeys[1], 1, 2));
    expect(e2.layers.map((l) => l.squares)).toEqual([['e2'], ['e4'], ['e5']]);
    expect(journeyRoute(setUp, setUp.journeys[1], 1, 1).fen).toBe('8/3k4/8/8/8/8/4P3/4K3 w - - 1 18');
  });

  it('refuses moves the piece does not have, first after last, and a route across its promotion', () => {
    const error = (first: number, last: number) => {
      try {
        journeyRoute(promotion, pawn, first, last);
      } catch (err) {
        expect(err).toBeInstanceOf(InputError);
        return [(err as InputError).argument, (err as Error).message];
      }
      throw new Error(`route ${first}-${last} answered`);
    };
    expect(error(0, 1)).toEqual([['first'], "first: 0 is not one of this piece's moves (1 to 6)"]);
    expect(error(7, 7)).toEqual([['first'], "first: 7 is not one of this piece's moves (1 to 6)"]);
    expect(error(1.5, 2)[0]).toEqual(['first']);
    expect(error(3, 2)).toEqual([['last'], "last: 2 is not one of this piece's moves from first on (3 to 6)"]);
    expect(error(2, 7)[0]).toEqual(['last']);
    for (const [first, last] of [
      [1, 6],
      [5, 6],
      [4, 6],
    ]) {
      expect(error(first, last)).toEqual([
        ['last'],
        `last: ${last} passes the promotion at move 5: ask up to it, or from move 6 on`,
      ]);
    }
    const rook = promotion.journeys.find((j) => j.squares[0] === 'a1') as GameJourney;
    expect(() => journeyRoute(promotion, rook, 1, 1)).toThrow(/^first: 1 /); // it never moved
  });
});

describe('the game as its author wrote it', () => {
  it('plays each variation from the position before the move it replaces, nested ones too', () => {
    const game = readGame('1. e4 {the king pawn} (1. d4 d5 (1... Nf6 2. c4) 2. c4 $1) 1... e5 $2 *');
    const [e4, e5] = game.plies;
    expect(e4).toMatchObject({ san: 'e4', comments: ['the king pawn'], nags: [] });
    expect(e5.nags).toEqual([2]);
    const [queens] = e4.variations;
    expect(queens.stopped).toBeNull();
    expect(queens.plies.map((p) => [p.number, p.san, p.uci])).toEqual([
      [1, 'd4', 'd2d4'],
      [2, 'd5', 'd7d5'],
      [3, 'c4', 'c2c4'],
    ]);
    expect(queens.plies[1].variations[0].plies.map((p) => p.fen)).toEqual([
      'rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2',
      'rnbqkb1r/pppppppp/5n2/8/2PP4/8/PP2PPPP/RNBQKBNR b KQkq c3 0 2',
    ]);
    expect(queens.plies[2].nags).toEqual([1]);
  });

  it('ends a variation at its first illegal move, naming it, and reads the game on', () => {
    const game = readGame('1. e4 (1. d4 d5 2. Nf6 3. c4) 1... e5 *');
    expect(game.plies.map((p) => p.san)).toEqual(['e4', 'e5']);
    expect(game.plies[0].variations[0]).toMatchObject({
      stopped: '2. Nf6 is not legal here (line 1, column 20)',
    });
    expect(game.plies[0].variations[0].plies.map((p) => p.san)).toEqual(['d4', 'd5']);
  });

  it('says how the game ended on the board, and what the Termination tag says', () => {
    const opera = readGame(
      '[Termination "Normal"]\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0',
    );
    expect(opera).toMatchObject({ result: '1-0', boardEnding: 'CHECKMATE', termination: 'Normal' });
    expect(readGame('[FEN "7k/4Q3/6K1/8/8/8/8/8 w - - 0 1"]\n1. Qf7 1/2-1/2').boardEnding).toBe('STALEMATE');
    expect(readGame('[FEN "7k/8/6K1/8/8/8/8/8 w - - 0 1"]\n1. Kf6 1/2-1/2').boardEnding).toBe('INSUFFICIENT_MATERIAL');
    expect(readGame('1. e4 e5 0-1').boardEnding).toBeNull();
    expect(readGame('[Termination "time forfeit"]\n1. e4 e5 0-1').termination).toBe('time forfeit');
  });
});

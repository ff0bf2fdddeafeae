/**
 * PGN written in every style the contract reads, then read back (`readGame`): 200 random legal
 * games of up to 120 plies, generated with chess.js from a seeded generator (biased toward
 * castling, en passant and promotions, so every game kind is there; some start from a FEN in
 * the middle of a game), each written out with or without move numbers, `N...` after comments
 * and variations, long comments of both kinds, nested variations, NAGs and marks, zeros for
 * castling, promotions without `=`, check signs left out, pieces over-disambiguated, `%` lines,
 * CR LF line ends, no white space at all. Reading it back must give chess.js's own SAN, UCI and positions after every
 * ply (with the contract's en passant field, set after every double step), the ply numbers and
 * the result, and `countPgnMoves` must count exactly its moves: a writer's style must never
 * change the game read, nor what it is priced at. A promotion written without its
 * piece must be refused, naming the move.
 */
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { playGame, readGame } from '../../src/games/game.js';
import { countPgnMoves, readPgn } from '../../src/games/pgn.js';
import { contractFen, generator, randomGame, writePgn } from '../support/pgn-writer.js';

describe('random games written in every style and read back', () => {
  const random = generator(20_260_611);
  const games = Array.from({ length: 200 }, () => randomGame(random));

  it('cover castling on both sides, en passant, promotions (under-promotions too) and games from a FEN', () => {
    const all = games.flatMap((g) => g.moves);
    expect(all.filter((m) => m.isKingsideCastle()).length).toBeGreaterThan(20);
    expect(all.filter((m) => m.isQueensideCastle()).length).toBeGreaterThan(20);
    expect(all.filter((m) => m.isEnPassant()).length).toBeGreaterThan(20);
    expect(all.filter((m) => m.isPromotion()).length).toBeGreaterThan(20);
    expect(all.filter((m) => m.isPromotion() && m.promotion !== 'q').length).toBeGreaterThan(10);
    expect(games.filter((g) => g.startFen !== new Chess().fen()).length).toBeGreaterThan(20);
    expect(games.filter((g) => g.moves.length > 100).length).toBeGreaterThan(20);
  });

  it("give chess.js's SAN, UCI and positions, the ply numbers and the result, whatever the style", () => {
    const written = games.map((game) => writePgn(game, random));
    // The writer really wrote every style, many times over.
    const styles: Record<string, RegExp> = {
      crlf: /\r\n/,
      zeros: /\b0-0/,
      promotionWithoutEquals: /[a-h][18][QRBNqrbn]/,
      promotionWithEquals: /[a-h][18]=[QRBN]/,
      attachedNumbers: /\s\d+\.[a-hKQRBN0O]/,
      spacedNumbers: /\s\d+\. [a-hKQRBN0O]/,
      blackNumberAfterComment: /[})]\s+\d+\.\.\. ?[a-hKQRBN0O]/,
      noNumbers: /\n\n[a-hKQRBN0O]/,
      nestedVariation: /\([^()]*\(/,
      lineComment: /;[^\n]*\n/,
      escapeLine: /\n%/,
      overDisambiguated: /[QRBN][a-h][1-8]x?[a-h][1-8]/,
      nag: /\s\$\d+/,
      compact: /[a-h][1-8]\{\}[a-hKQRBN0O1-9]/,
      mark: /[a-h][1-8][+#]?[!?]/,
    };
    for (const [name, style] of Object.entries(styles)) {
      expect(written.filter((pgn) => style.test(pgn)).length, name).toBeGreaterThan(5);
    }
    for (const [i, game] of games.entries()) {
      const pgn = written[i];
      let read: ReturnType<typeof readGame>;
      try {
        read = readGame(pgn);
      } catch (err) {
        throw new Error(`${(err as Error).message}\n${pgn}`);
      }
      const context = `game ${i}:\n${pgn}`;
      expect(read.startFen, context).toBe(game.startFen);
      // What a game is priced by before it is read: the reader's own count of its moves, those of
      // its variations too (the writer's variations hold one move each, written `(12. Nf3`).
      const variationMoves = (pgn.match(/\(\d+\.{1,3} /g) ?? []).length;
      expect(countPgnMoves(pgn), context).toBe(game.moves.length + variationMoves);
      expect(countPgnMoves(pgn, 10), context).toBe(Math.min(game.moves.length + variationMoves, 11));
      expect(
        read.plies.map((p) => p.san),
        context,
      ).toEqual(game.moves.map((m) => m.san));
      expect(
        read.plies.map((p) => p.uci),
        context,
      ).toEqual(game.moves.map((m) => m.lan));
      expect(
        read.plies.map((p) => p.fen),
        context,
      ).toEqual(game.moves.map(contractFen));
      const [, turn, , , , fullmove] = game.startFen.split(' ');
      const first = (Number(fullmove) - 1) * 2 + (turn === 'w' ? 1 : 2);
      expect(
        read.plies.map((p) => p.number),
        context,
      ).toEqual(game.moves.map((_, k) => first + k));
      expect(read.result, context).toBe(game.result);
      expect(read.tags[0].value, context).toMatch(/^Random "\d+" \\ test$/);
    }
  });

  it("write a main line's FENs when read, in any order, or at once, and carry them in JSON; variations start from the position before their move", () => {
    let variations = 0;
    for (const [i, game] of games.entries()) {
      const pgn = writePgn(game, random);
      const read = readGame(pgn);
      const context = `game ${i}:\n${pgn}`;
      const expected = game.moves.map(contractFen);
      // Read in a shuffled order: the trail walks forward, and starts again for an earlier ply.
      const order = read.plies.map((_, k) => k);
      for (let k = order.length - 1; k > 0; k--) {
        const j = random.int(k + 1);
        [order[k], order[j]] = [order[j], order[k]];
      }
      for (const k of order) expect(read.plies[k].fen, `${context}\nply ${k}`).toBe(expected[k]);
      const copied = JSON.parse(JSON.stringify(read.plies)) as { fen: string }[];
      expect(
        copied.map((p) => p.fen),
        context,
      ).toEqual(expected);
      // Written at once, the plies are plain data: a structured clone (a message to a worker) keeps them.
      const atOnce = structuredClone(playGame(readPgn(pgn), { fens: 'at-once' }));
      expect(
        atOnce.plies.map((p) => p.fen),
        context,
      ).toEqual(expected);
      expect(JSON.stringify(atOnce.plies), context).toBe(JSON.stringify(read.plies));
      for (const [k, ply] of read.plies.entries()) {
        for (const variation of ply.variations) {
          if (variation.plies.length === 0) continue;
          const board = new Chess(k === 0 ? game.startFen : game.moves[k - 1].after);
          board.move(variation.plies[0].san);
          expect(variation.plies[0].fen.split(' ').slice(0, 3), context).toEqual(board.fen().split(' ').slice(0, 3));
          variations++;
        }
      }
    }
    expect(variations).toBeGreaterThan(20);
  });

  it('refuse every promotion written without its piece, naming the move', () => {
    let refused = 0;
    for (const game of games) {
      const at = game.moves.findIndex((m) => m.isPromotion());
      if (at < 0) continue;
      const { before, color, san } = game.moves[at];
      const name = `${before.split(' ')[5]}${color === 'w' ? '.' : '...'} ${san.replace(/=[QRBN][+#]?$/, '')}`;
      const pgn = writePgn({ ...game, moves: game.moves.slice(0, at + 1) }, random, true);
      expect(() => readGame(pgn), pgn).toThrow(
        new RegExp(
          `^pgn: ${name.replace(/\./g, '\\.')} reaches the last rank without saying what it promotes to \\(line \\d+, column \\d+\\)$`,
        ),
      );
      refused++;
    }
    expect(refused).toBeGreaterThan(20);
  });
});

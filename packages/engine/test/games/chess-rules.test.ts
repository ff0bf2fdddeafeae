/**
 * The rules of chess (src/games/chess-rules.ts) against chess.js, the oracle: on every position of 80
 * random games (biased toward castling, en passant and promotions, some from a FEN in the middle
 * of a game), the same legal moves (from, to, promotion; and those of each kind to each square,
 * found from the square), the same SAN with its check or mate sign for each, the same FEN after
 * each, and the same endings (checkmate, stalemate, material).
 */
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { ChessPosition, nameOf } from '../../src/games/chess-rules.js';
import { writeSan } from '../../src/games/chess-san.js';
import { generator, randomGame } from '../support/pgn-writer.js';

/** Our FEN field for en passant after a double step (chess.js names it only when a capture can follow). */
function contract(fen: string, lastDoubleStep: string | null): string {
  if (lastDoubleStep === null) return fen;
  const fields = fen.split(' ');
  fields[3] = lastDoubleStep;
  return fields.join(' ');
}

describe('the rules of chess against chess.js', () => {
  it('give the same legal moves, SAN, FEN and endings on every position of 80 random games', () => {
    const random = generator(20_261_130);
    let positions = 0;
    for (let g = 0; g < 80; g++) {
      const game = randomGame(random);
      const chess = new Chess(game.startFen);
      const ours = ChessPosition.fromFen(game.startFen);
      for (const move of [...game.moves, null]) {
        positions++;
        const context = `game ${g}, ${chess.fen()}`;
        const theirs = chess.moves({ verbose: true });
        const mine = ours.legalMoves();
        expect(
          mine
            .map((m) => `${nameOf(m.from)}${nameOf(m.to)}${m.promotion ? ' NBRQ'[m.promotion - 1].toLowerCase() : ''}`)
            .sort(),
          context,
        ).toEqual(theirs.map((m) => m.lan).sort());
        // The moves of one kind to one square (what a SAN names, found from the square): the
        // same as those of the whole list, in order of the square moved from (every second position).
        const key = (m: (typeof mine)[number]) => `${m.kind}${m.from}-${m.to}${m.promotion}${m.captured}${m.castle}`;
        const targeted: string[] = [];
        const expected: string[] = [];
        for (let kind = positions % 2 === 0 ? 1 : 7; kind <= 6; kind++) {
          for (const to of new Set(mine.filter((m) => m.kind === kind).map((m) => m.to))) {
            targeted.push(ours.legalMoves(kind, to).map(key).join());
            const same = mine.filter((m) => m.kind === kind && m.to === to);
            expected.push(
              same
                .sort((x, y) => x.from - y.from)
                .map(key)
                .join(),
            );
          }
        }
        expect(targeted, context).toEqual(expected);
        // SAN of every legal move, with the sign the position after it has (every third position:
        // chess.js's verbose moves and a copy a move make it the test's dearest part).
        for (const m of positions % 3 === 0 ? mine : []) {
          const lan = `${nameOf(m.from)}${nameOf(m.to)}`;
          const expected = theirs.find(
            (t) =>
              `${t.from}${t.to}` === lan &&
              (t.promotion ?? '') === (m.promotion ? ' NBRQ'[m.promotion - 1].toLowerCase() : ''),
          );
          const copy = ChessPosition.fromFen(ours.fen());
          const text = writeSan(copy, m);
          copy.play(m);
          expect(`${text}${copy.checkSign()}`, context).toBe(expected?.san);
        }
        const end = {
          mate: chess.isCheckmate(),
          stalemate: chess.isStalemate(),
          material: chess.isInsufficientMaterial(),
        };
        const stuck = !ours.hasLegalMove();
        expect(
          { mate: stuck && ours.inCheck(), stalemate: stuck && !ours.inCheck(), material: ours.insufficientMaterial() },
          context,
        ).toEqual(end);
        if (move === null) break;
        const played = chess.move(move.san);
        const made = mine.find(
          (m) =>
            nameOf(m.from) === played.from &&
            nameOf(m.to) === played.to &&
            (m.promotion ? ' NBRQ'[m.promotion - 1].toLowerCase() : undefined) === played.promotion,
        );
        expect(made, context).toBeDefined();
        ours.play(made as NonNullable<typeof made>);
        const doubleStep = played.isBigPawn() ? `${played.from[0]}${played.color === 'w' ? 3 : 6}` : null;
        expect(ours.fen(), context).toBe(contract(chess.fen(), doubleStep));
      }
    }
    expect(positions).toBeGreaterThan(4_000);
  });
});

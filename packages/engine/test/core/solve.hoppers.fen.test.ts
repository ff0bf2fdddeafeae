/**
 * Hoppers over a FEN's pieces: every piece of the position other than the question's sources and
 * targets is a hurdle, as a blocked square is. Random positions on 8 x 8 (the FEN's board),
 * random hopper texts, sources and targets on empty or occupied squares, each answer against the
 * independent fairy reference given the passable squares the contract defines.
 */

import fc from 'fast-check';
import { describe, it } from 'vitest';
import { solve } from '../../src/core/solve.js';
import { expectMatchesReference, fairyQuestion, seededRandom } from '../support/fairy-cases.js';

const HOPPERS = ['pR', 'pB', 'pQ', 'gQ', 'gR', 'gNN', 'pNN', 'fpR', 'RpR', 'NgQ', 'vpRfgB', 'KpB'];
const LETTERS = 'pnbrqkPNBRQK';

/** A FEN placement (rank 8 first) of `occupied` squares (a1 = 0), each a random piece letter. */
function placement(occupied: boolean[], random: () => number): string {
  const rows: string[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      if (!occupied[rank * 8 + file]) {
        empty++;
        continue;
      }
      if (empty > 0) row += empty;
      empty = 0;
      row += LETTERS[Math.floor(random() * LETTERS.length)];
    }
    rows.push(empty > 0 ? row + empty : row);
  }
  return rows.join('/');
}

describe("hoppers over a FEN's pieces", () => {
  it('agree with the reference that takes every piece but the sources and targets as a hurdle', () => {
    fc.assert(
      fc.property(
        fc.record({
          betza: fc.constantFrom(...HOPPERS),
          seed: fc.integer({ min: 0, max: 2 ** 30 }),
          density: fc.constantFrom(0.1, 0.25, 0.4, 0.6),
          sources: fc.integer({ min: 1, max: 3 }),
          targets: fc.integer({ min: 1, max: 3 }),
        }),
        ({ betza, seed, density, sources, targets }) => {
          const random = seededRandom(seed);
          const occupied = Array.from({ length: 64 }, () => random() < density);
          const pick = (count: number) => Array.from({ length: count }, () => Math.floor(random() * 64));
          const from = pick(sources);
          const to = pick(targets);
          const fen = `${placement(occupied, random)} w - - 0 1`;
          const passable = occupied.map((piece, square) => !piece || from.includes(square) || to.includes(square));
          const fairy = fairyQuestion(betza, { files: 8, ranks: 8 }, passable, from, to);
          const { mask: _mask, board: _board, ...rest } = fairy.query;
          expectMatchesReference(solve({ ...rest, fen }), fairy);
        },
      ),
      { numRuns: 200 },
    );
  });
});

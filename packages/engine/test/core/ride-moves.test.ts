/**
 * Which fill a fairy piece on a small board takes (`ride-moves.ts`): the rides kernel from 4
 * words on for a piece that rides to the board's edge and never hops, the small boards' fill
 * otherwise; either way the answer is the reference's.
 */
import { describe, expect, it } from 'vitest';
import { readBetza } from '../../src/betza/betza.js';
import { geometryOf } from '../../src/board/geometry.js';
import { ridesBeatSmallFill } from '../../src/core/ride-moves.js';
import { solve } from '../../src/core/solve.js';
import { expectMatchesReference, fairyQuestion, seededRandom } from '../support/fairy-cases.js';

describe('ridesBeatSmallFill', () => {
  it('sends riders on boards of 4 words and more to the rides kernel, and nothing else', () => {
    const decide = (betza: string, files: number, ranks: number) =>
      ridesBeatSmallFill(geometryOf({ files, ranks }), readBetza(betza));
    expect(decide('QN', 10, 10)).toBe(true);
    expect(decide('NN', 16, 16)).toBe(true);
    expect(decide('QN', 9, 10)).toBe(false); // 3 words
    expect(decide('nN', 12, 12)).toBe(false); // a leaper
    expect(decide('W3F2', 12, 12)).toBe(false); // rides limited short of the edge
    expect(decide('pR', 16, 16)).toBe(false); // a hopper
    expect(decide('QN', 10, 10)).toBe(true); // decided again from the piece's last board
  });

  it('answers as the fairy reference on the boards where the choice changes', () => {
    const random = seededRandom(77);
    for (const [betza, files, ranks] of [
      ['QN', 10, 10],
      ['NN', 11, 11],
      ['WW', 14, 14],
      ['QN', 16, 16],
      ['nN', 12, 12],
    ] as const) {
      const board = { files, ranks };
      const passable = Array.from({ length: files * ranks }, () => random() >= 0.2);
      const n = files * ranks;
      const fairy = fairyQuestion(betza, board, passable, [Math.floor(n / 3), 0], [n - 1, Math.floor(n / 2)]);
      expectMatchesReference(solve(fairy.query), fairy);
    }
  });
});

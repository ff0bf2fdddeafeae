/**
 * Fairy pieces through `solve`: every field of the answer against the independent fairy reference
 * (test/support/reference-betza.ts, a plain BFS written from the contract's words) on random Betza
 * texts, boards, masks, sources and targets, on both representations; hand-checked cases (a
 * one-way piece, lame leaps blocked, limited rides, sources meeting targets); the orthodox
 * equivalences (the orthodox piece's answer and key); restoring a stored fairy answer; refusals.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { restoreResult, type SolveOptions, solve } from '../../src/core/solve.js';
import { InputError } from '../../src/errors.js';
import type { PathQuery } from '../../src/types.js';
import { expectMatchesReference, fairyCase, fairyQuestion, seededRandom } from '../support/fairy-cases.js';

const REPRESENTATIONS: SolveOptions[] = [{}, { representation: 'general', kernel: 'javascript' }];

describe('fairy pieces against the reference BFS', () => {
  for (const options of REPRESENTATIONS) {
    it(`agrees on random pieces and boards up to 10 x 10 (${JSON.stringify(options)})`, () => {
      fc.assert(
        fc.property(fairyCase(10), (fairy) => expectMatchesReference(solve(fairy.query, options), fairy)),
        { numRuns: 400 },
      );
    });
  }

  for (const options of REPRESENTATIONS) {
    it(`agrees on 8 x 8, the fast path's board (${JSON.stringify(options)})`, () => {
      fc.assert(
        fc.property(fairyCase(8, 8), (fairy) => expectMatchesReference(solve(fairy.query, options), fairy)),
        { numRuns: 300 },
      );
    });
  }

  it('agrees on boards up to 40 x 40, where rides are long and leaps cross words', () => {
    fc.assert(
      fc.property(fairyCase(40), (fairy) => expectMatchesReference(solve(fairy.query), fairy)),
      { numRuns: 60 },
    );
  });

  it('agrees on the named pieces of the presets, on a 13 x 11 board with obstacles', () => {
    const texts = ['NN', 'RN', 'BN', 'QN', 'C', 'Z', 'nN', 'nA', 'nZ', 'fmWfcF', 'W3', 'fNbW', 'vNsW2', 'nDD'];
    for (const betza of texts) {
      fc.assert(
        fc.property(fairyCase(13), (fairy) => {
          const files = fairy.problem.files;
          const ranks = fairy.problem.ranks;
          const query = { ...fairy.query, betza };
          expectMatchesReference(solve(query), { query, problem: { ...fairy.problem, betza, files, ranks } });
        }),
        { numRuns: 15 },
      );
    }
  });
});

describe('fairy pieces by hand', () => {
  it('moves a one-way piece only forward: fW climbs, and cannot come back', () => {
    const up = solve({ piece: 'FAIRY', betza: 'fW', from: ['a1'], to: ['a8'] });
    expect(up.distance).toBe(7);
    expect(up.pathCount).toBe(1n);
    const down = solve({ piece: 'FAIRY', betza: 'fW', from: ['a8'], to: ['a1'] });
    expect(down.reachable).toBe(false);
    expect(down.distance).toBeNull();
  });

  it('stops a lame leap at each square it passes over (the Xiangqi horse)', () => {
    // nN from b1 to c3 passes over b2: open, one move; blocked, the horse goes round.
    expect(solve({ piece: 'FAIRY', betza: 'nN', from: ['b1'], to: ['c3'] }).distance).toBe(1);
    const blocked = solve({ piece: 'FAIRY', betza: 'nN', from: ['b1'], to: ['c3'], blocked: ['b2'] });
    expect(blocked.distance).toBeGreaterThan(1);
    // The plain knight does not care.
    expect(solve({ piece: 'FAIRY', betza: 'N', from: ['b1'], to: ['c3'], blocked: ['b2'] }).distance).toBe(1);
  });

  it('limits a ride to its number of leaps, and stops it at an obstacle or the edge', () => {
    expect(solve({ piece: 'FAIRY', betza: 'W3', from: ['a1'], to: ['a8'] }).distance).toBe(3);
    expect(solve({ piece: 'FAIRY', betza: 'W3', from: ['a1'], to: ['a4'] }).distance).toBe(1);
    // a3 blocked: the ride stops at a2, so the piece goes round: b1, b4, a4.
    const round = solve({ piece: 'FAIRY', betza: 'W3', from: ['a1'], to: ['a4'], blocked: ['a3'] });
    expect(round.distance).toBe(3);
    expect(round.path?.squares).toEqual(['a1', 'b1', 'b4', 'a4']);
    // A nightrider from a1 rides to c2, e3, g4 in one move each, and no further: i5 is off the board.
    const rider = solve({ piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['g4'] });
    expect(rider.distance).toBe(1);
    expect(rider.layers.map((l) => l.squares)).toEqual([['a1'], ['g4']]);
  });

  it('counts a landing two rays reach as one move', () => {
    // W2 and D both land on a3 from a1: one move, one path.
    const both = solve({ piece: 'FAIRY', betza: 'W3D', from: ['a1'], to: ['a3'] });
    expect(both.distance).toBe(1);
    expect(both.pathCount).toBe(1n);
  });

  it('answers sources that meet targets with distance 0', () => {
    const r = solve({ piece: 'FAIRY', betza: 'NN', from: ['d4', 'e5'], to: ['e5', 'h8'] });
    expect(r.distance).toBe(0);
    expect(r.pathCount).toBe(1n);
    expect(r.layers.map((l) => l.squares)).toEqual([['e5']]);
  });

  it('answers a text that equals an orthodox piece as that piece, with its key', () => {
    for (const [betza, piece] of [
      ['WF', 'KING'],
      ['FW', 'KING'],
      ['WWFF', 'QUEEN'],
      ['RnD', 'ROOK'],
      ['N1', 'KNIGHT'],
      ['NnN', 'KNIGHT'],
      ['B0', 'BISHOP'],
    ] as const) {
      for (const board of [undefined, { files: 11, ranks: 9 }]) {
        const fairy = solve({ piece: 'FAIRY', betza, board, from: ['b2'], to: ['h7'], blocked: ['d4'] });
        const orthodox = solve({ piece, board, from: ['b2'], to: ['h7'], blocked: ['d4'] });
        expect(fairy.piece, betza).toBe(piece);
        expect(fairy.key, betza).toBe(orthodox.key);
        expect(fairy.betza, betza).toBe(orthodox.betza);
        expect(fairy.pathCount).toBe(orthodox.pathCount);
      }
    }
    expect(solve({ piece: 'KING', from: ['a1'], to: ['b2'] }).betza).toBe('K');
    expect(solve({ piece: 'WHITE_PAWN', from: ['a2'], to: ['a4'] }).betza).toBeNull();
  });

  it('gives texts with the same moves one key, and different pieces different keys', () => {
    const key = (betza: string) => solve({ piece: 'FAIRY', betza, from: ['a1'], to: ['h8'] }).key;
    expect(key('NN')).toBe(key('N0'));
    expect(key('NN')).toBe(key('N127'));
    expect(key('W2D')).toBe(key('WD'));
    expect(key('NN')).not.toBe(key('N2'));
    expect(key('nN')).not.toBe(key('N'));
    const r = solve({ piece: 'FAIRY', betza: 'N256', from: ['a1'], to: ['h8'] });
    expect(r.piece).toBe('FAIRY');
    expect(r.betza).toBe('NN');
    expect(r.problem.betza).toBe('NN');
  });

  it('restores a stored fairy answer with the same fields', () => {
    const query: PathQuery = {
      piece: 'FAIRY',
      betza: 'nNfW',
      board: { files: 9, ranks: 10 },
      from: ['e1'],
      to: ['e10', 'a10'],
    };
    const solved = solve(query);
    const restored = restoreResult(
      solved.problem,
      solved.layers.map((l) => l.bitboard),
    );
    expect(restored.cached).toBe(true);
    expect(restored.key).toBe(solved.key);
    expect(restored.betza).toBe(solved.betza);
    expect(restored.pathCount).toBe(solved.pathCount);
    expect(restored.path).toEqual(solved.path);
    expect(restored.distances).toEqual(solved.distances);
    expect(() => restoreResult({ ...solved.problem, betza: 'Nn' }, [])).toThrow(/Betza/);
    expect(() => restoreResult({ ...solved.problem, betza: 'WF' }, [])).toThrow(/Betza/);
  });

  it('refuses FAIRY without a text, a text with an orthodox piece, and texts outside the subset', () => {
    const refusal = (query: PathQuery) => {
      try {
        solve(query);
      } catch (error) {
        expect(error).toBeInstanceOf(InputError);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refusal({ piece: 'FAIRY', from: ['a1'], to: ['h8'] })).toBe(
      'betza is missing: piece FAIRY needs a Betza text',
    );
    expect(refusal({ piece: 'KING', betza: 'NN', from: ['a1'], to: ['h8'] })).toBe(
      'betza: "NN" is only for piece FAIRY, not KING',
    );
    expect(refusal({ piece: 'FAIRY', betza: 'pN', from: ['a1'], to: ['h8'] })).toMatch(
      /^betza: "pN" 'p' at 1 is a hopper before the leaper N/,
    );
  });
});

describe('fairy pieces on large boards', () => {
  it('agrees with the reference on 256 x 256, 100 x 100 and 200 x 37 boards with obstacles', () => {
    const cases: [string, number, number][] = [
      ['C', 256, 256],
      ['NN', 100, 100],
      ['nZ', 200, 37],
      ['fmNbW2', 64, 64],
    ];
    for (const [betza, files, ranks] of cases) {
      fc.assert(
        fc.property(fairyCase(4), (small) => {
          // The arbitrary's board is replaced by the large one; its seed still picks the squares.
          const random = seededRandom(small.problem.passable.length * 7919 + small.problem.sources.length);
          const n = files * ranks;
          const passable = Array.from({ length: n }, () => random() >= 0.1);
          const from = [Math.floor(random() * n)];
          const to = [Math.floor(random() * n), Math.floor(random() * n)];
          const question = fairyQuestion(betza, { files, ranks }, passable, from, to);
          expectMatchesReference(solve(question.query), question);
        }),
        { numRuns: 3 },
      );
    }
  });
});

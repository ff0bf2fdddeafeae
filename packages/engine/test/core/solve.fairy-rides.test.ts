/**
 * Fairy pieces where the fills take their shortcuts, against the independent fairy reference:
 * rides by doubling (from large frontiers) and leap by leap (from small ones) on boards of every
 * shape, the dense fill of small boards (up to 256 squares) with sizes that alternate, and the
 * early stop of a single-target solve, on thin and wide boards.
 */

import fc from 'fast-check';
import { describe, it } from 'vitest';
import { solve } from '../../src/core/solve.js';
import { expectMatchesReference, fairyCase, fairyQuestion, seededRandom } from '../support/fairy-cases.js';

describe('riders and lame leapers on boards of every shape', () => {
  // Rides whose limit reaches the edge go by doubling from large frontiers and leap by leap
  // from small ones; boards of up to 256 squares take the dense small-board fill unless the
  // general one is asked for; a single target stops the forward fill a step early. Odd sides,
  // thin boards and obstacles put landings on every word boundary and edge.
  const riders = ['NN', 'nNN', 'fNN', 'AA', 'nAA', 'CC', 'ZZ', 'nDD', 'N4', 'W7', 'vRsN', 'NNnA', 'nN', 'nZ', 'GG'];
  // Plain leapers the same under both mirrors take the leapers' kernel on boards of more than
  // 256 squares (W and vN: groups of no file or no rank offset); fN and sN do not (one-way).
  const leapers = ['C', 'Z', 'CZ', 'D', 'A', 'H', 'G', 'W', 'F', 'WD', 'vN', 'fN', 'sNfC', 'HFD'];
  for (const options of [{}, { representation: 'general' } as const]) {
    it(`agrees with the reference for riders on boards from 1 to 70 a side (${JSON.stringify(options)})`, () => {
      fc.assert(
        fc.property(fairyCase(70), fc.constantFrom(...riders, ...leapers), (fairy, betza) => {
          const query = { ...fairy.query, betza };
          expectMatchesReference(solve(query, options), { query, problem: { ...fairy.problem, betza } });
        }),
        { numRuns: 120 },
      );
    });
  }

  it('agrees with the reference on small boards of sizes that alternate, the board fully open', () => {
    // Small boards (up to 256 squares) share padded scratch: a 16 x 16 question leaves words
    // there that a 9 x 10 one reads past its last word (and must mask out).
    fc.assert(
      fc.property(fairyCase(16, 11), fairyCase(10), fc.constantFrom(...riders), (large, small, betza) => {
        for (const fairy of [large, small, large]) {
          const query = { ...fairy.query, betza, mask: undefined, from: fairy.query.from, to: fairy.query.to };
          const problem = { ...fairy.problem, betza, passable: fairy.problem.passable.map(() => true) };
          expectMatchesReference(solve(query), { query, problem });
        }
      }),
      { numRuns: 40 },
    );
  });

  it('agrees with the reference for a single target far away, on thin and wide boards', () => {
    fc.assert(
      fc.property(
        fairyCase(4),
        fc.constantFrom(...riders),
        fc.constantFrom([3, 61], [61, 5], [33, 33], [64, 64]),
        (small, betza, [files, ranks]) => {
          // The small case's seed picks the squares; its board is replaced by a larger one.
          const n = files * ranks;
          const random = seededRandom(small.problem.passable.length * 7919 + small.problem.sources.length);
          const passable = Array.from({ length: n }, () => random() >= 0.15);
          const from = [Math.floor(random() * n)];
          const to = [Math.floor(random() * n)];
          const question = fairyQuestion(betza, { files, ranks }, passable, from, to);
          expectMatchesReference(solve(question.query), question);
        },
      ),
      { numRuns: 40 },
    );
  });
});

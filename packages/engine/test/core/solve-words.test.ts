/**
 * `solveWords`, the 8 x 8 question given as square sets: every field against the reference BFS
 * on random questions (either kernel, and the general representation), the same result and key
 * as `solve` of the question written as text, and errors that name the field.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError, prepareQuery, type SquareWords, solve, solveWords } from '../../src/index.js';
import { caseArbitrary, expectResultMatchesReference, snapshotResult } from '../support/engine-harness.js';
import { type ReferencePiece, referenceSolve } from '../support/reference-bfs.js';

/** The words of squares 0..63, written unsigned or signed. */
function wordsOf(indices: readonly number[], unsigned: boolean): SquareWords {
  let lo = 0;
  let hi = 0;
  for (const i of indices) {
    if (i < 32) lo |= 1 << i;
    else hi |= 1 << (i - 32);
  }
  return unsigned ? { lo: lo >>> 0, hi: hi >>> 0 } : { lo, hi };
}

const passableIndices = (passable: readonly boolean[]) => passable.flatMap((open, i) => (open ? [i] : []));

const standard = fc.constant({ files: 8, ranks: 8 });

describe('solveWords', () => {
  it('answers as the reference BFS and as solve of the same question in text', () => {
    fc.assert(
      fc.property(caseArbitrary(standard), fc.boolean(), fc.boolean(), ({ query, problem }, unsigned, omit) => {
        const allOpen = problem.passable.every(Boolean);
        const words = {
          piece: problem.piece as ReferencePiece,
          from: wordsOf(problem.sources, unsigned),
          to: wordsOf(problem.targets, unsigned),
          ...(omit && allOpen ? {} : { passable: wordsOf(passableIndices(problem.passable), unsigned) }),
        };
        const answer = referenceSolve(problem);
        const fast = solveWords(words);
        expectResultMatchesReference(fast, problem, answer, { pageSize: 2, pageCount: 2 });
        expectResultMatchesReference(solveWords(words, { kernel: 'javascript' }), problem, answer);
        expectResultMatchesReference(solveWords(words, { representation: 'general' }), problem, answer);
        const text = solve(query);
        expect(snapshotResult(fast)).toEqual(snapshotResult(text));
        expect(fast.key).toBe(prepareQuery(query).key);
      }),
      { numRuns: 300 },
    );
  });

  it("takes chessops' SquareSet shape: a class with lo and hi, the high word unsigned", () => {
    class SquareSet {
      constructor(
        readonly lo: number,
        readonly hi: number,
      ) {}
    }
    const e4 = new SquareSet(1 << 28, 0);
    const a1h8 = new SquareSet(0x1, 0x80000000);
    const result = solveWords({ piece: 'KING', from: e4, to: a1h8 });
    expect(result.distance).toBe(4);
    expect(result.targets.squares).toEqual(['a1', 'h8']);
  });

  it('names the field and the value of what it cannot take', () => {
    const e4 = { lo: 1 << 28, hi: 0 };
    const refused = (query: unknown) => {
      try {
        solveWords(query as never);
      } catch (error) {
        expect(error).toBeInstanceOf(InputError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ piece: 'FAIRY', from: e4, to: e4 })).toBe(
      'piece: "FAIRY" is not an orthodox piece (solveWords answers KING to BLACK_PAWN)',
    );
    expect(refused({ piece: 'KING', from: { lo: 1.5, hi: 0 }, to: e4 })).toBe(
      'from.lo: 1.5 is not a 32-bit word of squares',
    );
    expect(refused({ piece: 'KING', from: e4, to: { lo: 0, hi: 2 ** 32 } })).toBe(
      'to.hi: 4294967296 is not a 32-bit word of squares',
    );
    expect(refused({ piece: 'KING', from: e4, to: e4, passable: { lo: -1 } })).toBe(
      'passable.hi is not a 32-bit word of squares',
    );
    expect(refused({ piece: 'KING', from: null, to: e4 })).toBe(
      'from: null is not a set of squares: expected { lo, hi }, two 32-bit words',
    );
    expect(refused('e4')).toBe('query: "e4" is not a question: expected { piece, from, to, passable? }');
  });
});

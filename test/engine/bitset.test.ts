/** Bit counting against a naive count: random words and the extremes (empty, full, single bits). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { popcount32, popcount64 } from '../../src/engine/bitset.js';

function naiveCount(word: number): number {
  let n = 0;
  for (let i = 0; i < 32; i++) n += (word >>> i) & 1;
  return n;
}

describe('bit counts', () => {
  it('popcount32 and popcount64 agree with a naive count', () => {
    const word = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, -1, 1, 1 << 31));
    fc.assert(
      fc.property(word, word, (lo, hi) => {
        expect(popcount32(lo)).toBe(naiveCount(lo));
        expect(popcount64(lo, hi)).toBe(naiveCount(lo) + naiveCount(hi));
      }),
      { numRuns: 5000 },
    );
    expect(popcount64(-1, -1)).toBe(64);
    expect(popcount64(0, 0)).toBe(0);
  });
});

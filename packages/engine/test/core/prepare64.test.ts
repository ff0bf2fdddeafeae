/**
 * The 8 x 8 fast path of `solve` (`prepare64.ts`: text read straight into words, names read
 * without branches, a one-entry cache of the last mask). Properties: on random 8 x 8 queries and
 * on any two-character names it prepares exactly what `prepareQuery` prepares (or declines, and
 * then the general path answers), and
 * `solve` agrees with the reference BFS on every field, including when many queries in a row
 * share one mask text (the cache) and when masks alternate (the cache must never go stale).
 */

import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { prepareStandard } from '../../src/core/prepare64.js';
import { type PathQuery, type Piece, prepareQuery, solve } from '../../src/index.js';
import { caseArbitrary, expectResultMatchesReference } from '../support/engine-harness.js';
import { referenceSolve } from '../support/reference-bfs.js';

const standard = fc.constant({ files: 8, ranks: 8 });

/** The fast path prepares what `prepareQuery` prepares, or declines a query the general path refuses. */
function expectFastPathAgrees(query: PathQuery): void {
  let general: unknown;
  try {
    general = prepareQuery(query).problem;
  } catch (error) {
    general = error;
  }
  const fast = prepareStandard(query);
  if (fast === null) expect(general).toBeInstanceOf(Error);
  else expect(fast.problem).toEqual(general);
}

describe('the 8 x 8 fast path', () => {
  it('refuses a malformed mask whatever was asked before it (the remembered mask is no shortcut)', async () => {
    // A fresh copy of the module: its remembered mask as it is before any question.
    vi.resetModules();
    const fresh = await import('../../src/core/prepare64.js');
    for (const mask of ['', '0x', 'nope']) {
      expect(fresh.prepareStandard({ piece: 'ROOK', from: ['a1'], to: ['h8'], mask })).toBeNull();
      expect(() => solve({ piece: 'ROOK', from: ['a1'], to: ['h8'], mask })).toThrow(/mask: .* is not a bitboard/);
    }
    // Fewer digits than 16 is the general path's to read (it takes them as leading zeros).
    expect(fresh.prepareStandard({ piece: 'ROOK', from: ['a1'], to: ['h8'], mask: '0x0' })).toBeNull();
  });

  it('prepares exactly what prepareQuery prepares, or declines', () => {
    let taken = 0;
    fc.assert(
      fc.property(caseArbitrary(standard), ({ query }) => {
        const fast = prepareStandard(query);
        const general = prepareQuery(query);
        if (fast === null) return;
        taken += 1;
        expect(fast.board).toBe(general.board);
        expect(fast.words).toBe(2);
        expect(Array.from(fast.data, (w) => w | 0)).toEqual(Array.from(general.data, (w) => w | 0));
        expect(fast.problem).toEqual(general.problem);
        expect(fast.key).toBe(general.key);
      }),
      { numRuns: 3000 },
    );
    expect(taken).toBeGreaterThan(500);
  });

  it('agrees with the reference BFS, on runs of queries sharing or alternating mask texts', () => {
    fc.assert(
      fc.property(fc.array(caseArbitrary(standard), { minLength: 1, maxLength: 4 }), fc.nat(5), (cases, repeats) => {
        // Each case's query is asked several times in a row and interleaved with the others.
        for (let r = 0; r <= repeats; r++) {
          for (const { query, problem } of cases) {
            expectResultMatchesReference(solve(query), problem, referenceSolve(problem), { pageSize: 2, pageCount: 1 });
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('reads any two-character name as prepareQuery does (the names are read without branches)', () => {
    // Near misses of every kind: letters around a..h and A..H, digits around 1..8, and any
    // character at all, in lists of zero to five names.
    const near = fc.constantFrom(...'`abghijz@AGHIZ[0189:/ \u00e9\u0100\u{1f600}');
    const name = fc.oneof(
      fc.tuple(near, near).map(([a, b]) => a + b),
      fc.string({ minLength: 2, maxLength: 2, unit: 'binary' }),
    );
    const names = fc.array(fc.oneof(name, fc.constantFrom('e4', 'H8', 'a1')), { maxLength: 5 });
    fc.assert(
      fc.property(names, names, (from, to) => {
        expectFastPathAgrees({ piece: 'QUEEN', from, to });
      }),
      { numRuns: 3000 },
    );
  });

  it('reads any 16-digit mask as prepareQuery does (two digits a lookup)', () => {
    // Digits of both cases and their neighbours in ASCII ('/', ':', '@', 'G', '`', 'g'), and
    // characters above 127 whose low bits look like digits.
    const hex = fc.constantFrom(...'0123456789abcdefABCDEF');
    const near = fc.constantFrom(...'/:@G`gx \u0130\u0141\u0966\uff10');
    const digits = fc.array(hex, { minLength: 16, maxLength: 16 });
    // Half of them all digits; the others with one character off, anywhere.
    const spoilt = fc.tuple(digits, fc.nat(15), near).map(([d, at, c]) => [...d.slice(0, at), c, ...d.slice(at + 1)]);
    const mask = fc
      .tuple(fc.oneof(digits, spoilt), fc.constantFrom('0x', '0X'))
      .map(([d, prefix]) => prefix + d.join(''));
    fc.assert(
      fc.property(mask, fc.constantFrom<Piece>('KING', 'BISHOP', 'WHITE_PAWN'), (text, piece) => {
        expectFastPathAgrees({ piece, from: ['a1', 'e4'], to: ['h8'], mask: text });
      }),
      { numRuns: 3000 },
    );
  });

  it('declines what it does not recognise, and the general path gives the same answer or error', () => {
    const odd: unknown[] = [
      { piece: 'KING', from: ['e4'], to: ['e5'], mask: '0xFFFFFFFFFFFFFFFF' },
      { piece: 'KING', from: ['e4'], to: ['e5'], mask: '0xff' },
      { piece: 'KING', from: ['e4'], to: ['e5'], mask: '0x0000ffffffffffffffff' },
      { piece: 'KING', from: ['e4'], to: ['e5'], mask: '0xgfffffffffffffff' },
      { piece: 'KING', from: ['e4'], to: ['e5'], mask: 'ffffffffffffffffff' },
      { piece: 'KING', from: ['e9'], to: ['e5'] },
      { piece: 'KING', from: ['i4'], to: ['e5'] },
      { piece: 'KING', from: ['e04'], to: ['e5'] },
      { piece: 'KING', from: ['e4', 'a0'], to: ['e5'] },
      { piece: 'KING', from: ['e4'], to: ['h9', 'e5'] },
      { piece: 'KING', from: ['`4'], to: ['e5'] },
      { piece: 'KING', from: ['e4', null], to: ['e5'] },
      { piece: 'KING', from: [4], to: ['e5'] },
      { piece: 'KING', from: 'e4', to: ['e5'] },
      { piece: 'KNAVE', from: ['e4'], to: ['e5'] },
      { piece: 'ROOK', from: ['A1'], to: ['h8'], blocked: ['a8'] },
      { piece: 'ROOK', from: ['a1'], to: ['h8'], board: { files: 8, ranks: 9 } },
      { piece: 'ROOK', from: ['a1'], to: ['h8'], board: { files: 8, ranks: 8 } },
    ];
    for (const query of odd) {
      let general: unknown;
      try {
        general = prepareQuery(query as never).problem;
      } catch (error) {
        general = error;
      }
      const fast = prepareStandard(query as never);
      if (fast !== null) expect(fast.problem).toEqual(general);
      if (general instanceof Error) {
        expect(fast).toBeNull();
        expect(() => solve(query as never)).toThrow(general.message);
      } else {
        expect(solve(query as never).problem).toEqual(general);
      }
    }
  });
});

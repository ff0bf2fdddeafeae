/**
 * Hoppers (`p` cannon, `g` grasshopper) through `solve`: every field of the answer against the
 * independent fairy reference (support/reference-betza.ts, whose hops are walked from the
 * contract's words) on random hopper texts, boards (small, 8 x 8, non-square, over 64 files),
 * masks and sources and targets; known positions by hand; canonical texts and refusals.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBetza } from '../../src/betza/betza.js';
import { type SolveOptions, solve } from '../../src/core/solve.js';
import { InputError } from '../../src/errors.js';
import { hopHurdle } from '../../src/fairy/fairy-hops.js';
import { expectMatchesReference, fairyQuestion, seededRandom } from '../support/fairy-cases.js';
import { referenceParseBetza } from '../support/reference-betza.js';

const HOPPERS = [
  'pR',
  'pB',
  'pQ',
  'pNN',
  'gQ',
  'gR',
  'gB',
  'gNN',
  'pW0',
  'fpR',
  'mpR',
  'RpR',
  'NgQ',
  'mRcpR',
  'WgR',
  'pDD',
  'vpRfgB',
  'KpB',
];

/** A random hopper question on a board of `minSide` to `maxSide` (files up to `maxFiles`). */
const hopperCase = (maxSide: number, minSide = 1, maxFiles = maxSide) =>
  fc
    .record({
      betza: fc.constantFrom(...HOPPERS),
      files: fc.integer({ min: minSide, max: maxFiles }),
      ranks: fc.integer({ min: minSide, max: maxSide }),
      seed: fc.integer({ min: 0, max: 2 ** 30 }),
      sources: fc.integer({ min: 1, max: 3 }),
      targets: fc.integer({ min: 0, max: 3 }),
      density: fc.constantFrom(0, 0.1, 0.25, 0.4, 0.6),
    })
    .map(({ betza, files, ranks, seed, sources, targets, density }) => {
      const random = seededRandom(seed);
      const n = files * ranks;
      const passable = Array.from({ length: n }, () => random() >= density);
      const pick = (count: number) => Array.from({ length: count }, () => Math.floor(random() * n));
      return fairyQuestion(betza, { files, ranks }, passable, pick(sources), pick(targets));
    });

/** Random texts of hopper terms (direction letters, `p` or `g`, a rider) and ordinary ones. */
const randomHopperText = fc
  .array(
    fc.tuple(
      fc.constantFrom('', 'f', 'b', 'v', 's', 'fl', 'rv', 'ff', 'm', 'c'),
      fc.constantFrom('p', 'g', '', 'n'),
      fc.constantFrom('R', 'B', 'Q', 'WW', 'FF', 'NN', 'DD', 'W0', 'N0', 'AA', 'N', 'W'),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((terms) => terms.map((t) => t.join('')).join(''))
  .filter((text) => {
    try {
      readBetza(text);
      return true;
    } catch {
      return false;
    }
  });

const REPRESENTATIONS: SolveOptions[] = [{}, { representation: 'general', kernel: 'javascript' }];

describe('hoppers against the reference BFS', () => {
  for (const options of REPRESENTATIONS) {
    it(`agrees on boards up to 10 x 10 (${JSON.stringify(options)})`, () => {
      fc.assert(
        fc.property(hopperCase(10), (c) => expectMatchesReference(solve(c.query, options), c)),
        { numRuns: 300 },
      );
    });
  }

  it('agrees on 8 x 8', () => {
    fc.assert(
      fc.property(hopperCase(8, 8), (c) => expectMatchesReference(solve(c.query), c)),
      { numRuns: 150 },
    );
  });

  it('agrees on larger and non-square boards, over 64 files', () => {
    fc.assert(
      fc.property(hopperCase(12, 1, 140), (c) => expectMatchesReference(solve(c.query), c)),
      { numRuns: 40 },
    );
    fc.assert(
      fc.property(hopperCase(40, 20), (c) => expectMatchesReference(solve(c.query), c)),
      { numRuns: 20 },
    );
  });
});

describe('random hopper texts', () => {
  it('are refused by the engine exactly when the reference refuses them', () => {
    const term = fc.tuple(
      fc.constantFrom('', 'f', 'v', 'n', 'c', 'm'),
      fc.constantFrom('p', 'g', '', 'pg', 'np', 'pn'),
      fc.constantFrom('R', 'B', 'Q', 'K', 'WW', 'NN', 'W0', 'R4', 'N127', 'N', 'W', 'W256', 'R0'),
    );
    fc.assert(
      fc.property(fc.array(term, { minLength: 1, maxLength: 3 }), (terms) => {
        const text = terms.map((t) => t.join('')).join('');
        const accepts = (read: () => unknown) => {
          try {
            read();
            return true;
          } catch {
            return false;
          }
        };
        expect(
          accepts(() => readBetza(text)),
          text,
        ).toBe(accepts(() => referenceParseBetza(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('read back as the same piece, and move as the reference says, written either way', () => {
    fc.assert(
      fc.property(randomHopperText, hopperCase(9), (betza, c) => {
        const canonical = readBetza(betza).betza;
        expect(readBetza(canonical).betza).toBe(canonical);
        for (const text of [betza, canonical]) {
          const query = { ...c.query, betza: text };
          expectMatchesReference(solve(query), { query, problem: { ...c.problem, betza: text } });
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('hoppers by hand', () => {
  it('names the hurdle a hop jumps (for diagrams), or -1 for a move that is no hop', () => {
    // 1 x 8 board, a hurdle on square 3: the cannon from 0 jumps 3 to land on 5.
    const passable = [0b11110111];
    const { hops } = readBetza('pR');
    expect(hopHurdle(hops, 8, 1, passable, 0, 5)).toBe(3);
    expect(hopHurdle(hops, 8, 1, passable, 0, 2)).toBe(-1);
    expect(hopHurdle(readBetza('gR').hops, 8, 1, passable, 0, 5)).toBe(-1);
    expect(hopHurdle(readBetza('gR').hops, 8, 1, passable, 0, 4)).toBe(3);
  });

  it('a grasshopper on an empty board cannot move at all', () => {
    const result = solve({ piece: 'FAIRY', betza: 'gQ', from: ['d4'], to: ['e5'] });
    expect(result.reachable).toBe(false);
    expect(result.distances.filter((d) => d !== null)).toEqual([0]);
  });

  it('a cannon jumps one hurdle and stops on any square after it, up to a second', () => {
    // Hurdle on a4: from a1 the cannon reaches a5, a6, a7 (a8 is the second hurdle).
    const query = { piece: 'FAIRY' as const, betza: 'pR', from: ['a1'], blocked: ['a4', 'a8'] };
    for (const to of ['a5', 'a6', 'a7']) expect(solve({ ...query, to: [to] }).distance).toBe(1);
    expect(solve({ ...query, to: ['a3'] }).distance).not.toBe(1);
    expect(solve({ ...query, to: ['a5'] }).path?.squares).toEqual(['a1', 'a5']);
  });

  it('a grasshopper lands just after its hurdle, and its move back lands elsewhere', () => {
    const query = { piece: 'FAIRY' as const, betza: 'gR', blocked: ['a4'] };
    expect(solve({ ...query, from: ['a1'], to: ['a5'] }).distance).toBe(1);
    expect(solve({ ...query, from: ['a1'], to: ['a6'] }).reachable).toBe(false);
    // Back from a5: the hurdle a4, then a3.
    expect(solve({ ...query, from: ['a5'], to: ['a3'] }).distance).toBe(1);
    expect(solve({ ...query, from: ['a5'], to: ['a1'] }).reachable).toBe(false);
  });

  it("takes a FEN's pieces as hurdles, but never its sources and targets", () => {
    const fen = '8/8/8/8/8/8/8/R2p4 w - - 0 1';
    const result = solve({ piece: 'FAIRY', betza: 'pR', fen, from: ['a1'], to: ['h1'] });
    expect(result.distance).toBe(1);
  });
});

describe('hopper texts', () => {
  it('gives equal hoppers one canonical text that reads back as the same piece', () => {
    const same = [
      ['pR', 'pWW', 'pW0'],
      ['pB', 'pFF', 'pF0'],
      ['pQ', 'pRpB', 'pWWpFF'],
      ['gQ', 'gBgR'],
      ['fpR', 'pfR', 'pfWW'],
      ['rpvNN', 'prvNN'],
      ['mRcpR', 'R'],
    ];
    for (const texts of same) {
      const betza = readBetza(texts[0]).betza;
      for (const text of texts) expect(readBetza(text).betza, text).toBe(betza);
      expect(readBetza(betza).betza).toBe(betza);
    }
    expect(readBetza('pR').betza).toBe('pR');
    expect(readBetza('gQ').betza).toBe('gQ');
    expect(readBetza('RpR').betza).toBe('RpR');
    expect(readBetza('NgQ').betza).toBe('NgQ');
    expect(readBetza('pNN').betza).toBe('pNN');
    expect(readBetza('RpR').hops).toHaveLength(4);
    expect(readBetza('RpR').rays).toHaveLength(4);
    expect(readBetza('pR').orthodox).toBeNull();
  });

  it('refuses hoppers outside the subset, naming the character and its position', () => {
    const refused: [string, RegExp][] = [
      ['pW', /'p' at 1 .*leaper W/],
      ['pK', /'p' at 1 .*leaper K/],
      ['pR4', /'4' at 3 .*hopper/],
      ['pN127', /'127' at 3 .*hopper/],
      ['pgR', /'g' at 2 /],
      ['pnN', /'n' at 2 /],
      ['npNN', /'p' at 2 /],
    ];
    for (const [text, message] of refused) {
      let error: unknown;
      try {
        readBetza(text);
      } catch (thrown) {
        error = thrown;
      }
      expect(error, text).toBeInstanceOf(InputError);
      expect((error as Error).message, text).toMatch(message);
    }
  });
});

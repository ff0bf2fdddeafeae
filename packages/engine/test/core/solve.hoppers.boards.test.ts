/**
 * Hoppers set-wise on every kind of board, against the independent fairy reference
 * (support/reference-betza.ts), every field of the answer (layers, squares, path counts, paths,
 * pages, distance maps): 8 x 8 (`fairy64-hops.ts`, filled from both ends), boards of one word,
 * of two to four (the unrolled hop of `fairy-small-hops.ts`) and of five to `SMALL_WORDS` (its
 * word loop), and larger ones (the general fill: walks from small frontiers, set-wise hops from
 * frontiers over half the board's words, which many sources make). Squares not passable are
 * split between the mask and `blocked`; texts carry direction letters and compounds.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBetza } from '../../src/betza/betza.js';
import { type SolveOptions, solve } from '../../src/core/solve.js';
import { expectMatchesReference, type FairyCase, seededRandom } from '../support/fairy-cases.js';
import { referenceFormatHex, referenceSquareName } from '../support/reference-bfs.js';

const TEXTS = [
  'pR',
  'gQ',
  'pB',
  'gR',
  'pNN',
  'gNN',
  'pQ',
  'fpR',
  'fgQ',
  'vgR',
  'bgR',
  'lpB',
  'sgNN',
  'frpNN',
  'fgB',
  'RpR',
  'NgQ',
  'KpB',
  'WgR',
  'mpR',
  'pDD',
  'gAA',
  'bpZZ',
  'vpRlgB',
  'FfgNN',
];

/**
 * A random hopper question on a `files` x `ranks` board (one of `shapes`): up to `maxSources`
 * sources (or a share of the board with `manySources`), 0 to 3 targets, squares not passable in
 * the mask or `blocked`.
 */
const hopperOn = (shapes: readonly (readonly [number, number])[], manySources = false) =>
  fc
    .record({
      betza: fc.constantFrom(...TEXTS),
      shape: fc.constantFrom(...shapes),
      seed: fc.integer({ min: 0, max: 2 ** 30 }),
      sources: fc.integer({ min: 1, max: 3 }),
      targets: fc.integer({ min: 0, max: 3 }),
      density: fc.constantFrom(0, 0.05, 0.15, 0.3, 0.5),
      share: fc.constantFrom(0.1, 0.3, 0.6),
    })
    .map(({ betza, shape: [files, ranks], seed, sources, targets, density, share }): FairyCase => {
      const random = seededRandom(seed);
      const n = files * ranks;
      const board = { files, ranks };
      const passable = Array.from({ length: n }, () => random() >= density);
      const blocked = passable.map((open, i) => (!open && random() < 0.5 ? i : -1)).filter((i) => i >= 0);
      const mask = passable.map((open, i) => open || blocked.includes(i));
      const count = manySources ? Math.max(1, Math.floor(n * share)) : sources;
      const pick = (k: number) => Array.from({ length: k }, () => Math.floor(random() * n));
      const from = pick(count);
      const to = pick(targets);
      const name = (i: number) => referenceSquareName(i, board);
      return {
        query: {
          piece: 'FAIRY',
          betza,
          board,
          mask: referenceFormatHex(mask, board),
          blocked: blocked.map(name),
          from: from.map(name),
          to: to.map(name),
        },
        problem: { betza, files, ranks, passable, sources: from, targets: to },
      };
    });

const GENERAL: SolveOptions = { representation: 'general', kernel: 'javascript' };

const check = (arbitrary: fc.Arbitrary<FairyCase>, runs: number, options?: SolveOptions) =>
  fc.assert(
    fc.property(arbitrary, (c) => expectMatchesReference(solve(c.query, options), c)),
    { numRuns: runs },
  );

describe('hopper texts of these tests', () => {
  it('are all read', () => {
    for (const text of TEXTS) expect(readBetza(text).hops.length, text).toBeGreaterThan(0);
  });
});

describe('hoppers set-wise against the reference, by board', () => {
  it('8 x 8, from both ends', () => check(hopperOn([[8, 8]]), 300));

  it('8 x 8, many sources', () => check(hopperOn([[8, 8]], true), 100));

  it('boards of one word', () => {
    check(
      hopperOn([
        [5, 6],
        [4, 8],
        [1, 30],
        [3, 10],
        [32, 1],
      ]),
      150,
    );
  });

  it('boards of two to four words (unrolled)', () => {
    const shapes = [
      [9, 10],
      [7, 9],
      [10, 12],
      [11, 11],
      [4, 32],
      [42, 3],
    ] as const;
    check(hopperOn(shapes), 250);
    check(hopperOn(shapes, true), 60);
  });

  it('boards of five words up to the small fill`s last (word by word)', () => {
    const shapes = [
      [13, 11],
      [12, 14],
      [15, 17],
      [16, 16],
      [10, 25],
    ] as const;
    check(hopperOn(shapes), 150);
    check(hopperOn(shapes, true), 40);
  });

  it('the same boards through the general fill', () => {
    check(
      hopperOn([
        [8, 8],
        [9, 10],
        [13, 11],
        [16, 16],
      ]),
      150,
      GENERAL,
    );
  });

  it('larger boards: walks from few sources, set-wise hops from many', () => {
    const shapes = [
      [20, 20],
      [33, 9],
      [32, 32],
    ] as const;
    check(hopperOn(shapes), 40);
    check(hopperOn(shapes, true), 40);
  });
});

describe('hoppers from both ends on 8 x 8, by hand', () => {
  it('a source on the target is a path of no moves', () => {
    const result = solve({ piece: 'FAIRY', betza: 'gQ', from: ['d4', 'e5'], to: ['e5'], blocked: ['d5'] });
    expect(result.distance).toBe(0);
    expect(result.layers[0].squares).toEqual(['e5']);
  });

  it('a target no hop lands on is out of reach; a grasshopper over two hurdles in two moves', () => {
    // No hurdle next to h8: nothing lands there.
    expect(solve({ piece: 'FAIRY', betza: 'gQ', from: ['a1'], to: ['h8'], blocked: ['d4'] }).reachable).toBe(false);
    // a1 over b1 to c1, then over d1 to e1.
    const result = solve({ piece: 'FAIRY', betza: 'gR', from: ['a1'], to: ['e1'], blocked: ['b1', 'd1'] });
    expect(result.distance).toBe(2);
    expect(result.layers.map((l) => l.squares)).toEqual([['a1'], ['c1'], ['e1']]);
  });
});

/**
 * Shapes for chess front ends (src/pictures/shapes.ts): the seed example drawn by hand, then, on random
 * problems, the shapes against the reference BFS: the arrows chain the reference's smallest path
 * move by move, the circles are exactly the reference's sources, targets and layer squares, each
 * once, with its step; and the PGN comment writes the same drawing in the `%csl`/`%cal`
 * convention.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solve } from '../../src/core/solve.js';
import { overlayShapes, shapesToPgnComment } from '../../src/pictures/shapes.js';
import { caseArbitrary } from '../support/engine-harness.js';
import { referenceSolve, referenceSquareName } from '../support/reference-bfs.js';

describe('the seed example', () => {
  const seed = solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] });

  it('draws the smallest path as arrows, then sources, targets and layers as circles with their steps', () => {
    const shapes = overlayShapes(seed);
    expect(shapes.slice(0, 4)).toEqual([
      { orig: 'e4', dest: 'd3', brush: 'green' },
      { orig: 'd3', dest: 'c2', brush: 'green' },
      { orig: 'c2', dest: 'b1', brush: 'green' },
      { orig: 'b1', dest: 'a1', brush: 'green' },
    ]);
    expect(shapes.slice(4, 7)).toEqual([
      { orig: 'e4', brush: 'yellow', label: { text: '0' } },
      { orig: 'a1', brush: 'red', label: { text: '4' } },
      { orig: 'h8', brush: 'red', label: { text: '4' } },
    ]);
    expect(shapes.slice(7).map((s) => `${s.orig}:${s.label?.text}`)).toEqual(
      'd3:1 d4:1 e5:1 f5:1 c2:2 c3:2 f6:2 g6:2 b1:3 b2:3 g7:3 h7:3'.split(' '),
    );
    expect(shapes.slice(7).every((s) => s.brush === 'blue' && s.dest === undefined)).toBe(true);
  });

  it('leaves the layers or the labels out when asked', () => {
    expect(overlayShapes(seed, { layers: false })).toHaveLength(7);
    expect(overlayShapes(seed, { labels: false }).some((s) => s.label !== undefined)).toBe(false);
  });

  it('writes the PGN comment: circles then arrows, in the convention colour letters', () => {
    expect(shapesToPgnComment(overlayShapes(seed, { layers: false }))).toBe(
      '[%csl Ye4,Ra1,Rh8][%cal Ge4d3,Gd3c2,Gc2b1,Gb1a1]',
    );
    expect(shapesToPgnComment([])).toBe('');
  });

  it('draws an unreachable target without a label and no arrow', () => {
    const shapes = overlayShapes(solve({ piece: 'BISHOP', from: ['a1'], to: ['a2'] }));
    expect(shapes).toEqual([
      { orig: 'a1', brush: 'yellow', label: { text: '0' } },
      { orig: 'a2', brush: 'red' },
    ]);
  });
});

describe('against the reference BFS', () => {
  it('arrows chain the smallest path; circles are the sources, targets and layer squares, once each, with their step', () => {
    fc.assert(
      fc.property(caseArbitrary(), ({ query, problem }) => {
        const reference = referenceSolve(problem);
        const board = { files: problem.files, ranks: problem.ranks };
        const name = (i: number) => referenceSquareName(i, board);
        const shapes = overlayShapes(solve(query));
        const arrows = shapes.filter((s) => s.dest !== undefined);
        const path = reference.path?.map(name) ?? [];
        expect(arrows.map((a) => [a.orig, a.dest])).toEqual(path.slice(0, -1).map((s, i) => [s, path[i + 1]]));
        const circles = shapes.filter((s) => s.dest === undefined);
        const expected = new Map<string, string>();
        for (const s of reference.sources) expected.set(name(s), 'yellow:0');
        const last = new Set(reference.layers.at(-1) ?? []);
        for (const t of reference.targets) {
          if (!expected.has(name(t))) expected.set(name(t), `red:${last.has(t) ? reference.distance : ''}`);
        }
        reference.layers.slice(1, -1).forEach((layer, k) => {
          for (const s of layer) if (!expected.has(name(s))) expected.set(name(s), `blue:${k + 1}`);
        });
        expect(new Map(circles.map((c) => [c.orig, `${c.brush}:${c.label?.text ?? ''}`]))).toEqual(expected);
        expect(circles).toHaveLength(expected.size);
        const comment = shapesToPgnComment(shapes);
        expect(comment.match(/G[a-z]+\d+[a-z]+\d+/g) ?? []).toHaveLength(arrows.length);
      }),
      { numRuns: 300 },
    );
  });
});

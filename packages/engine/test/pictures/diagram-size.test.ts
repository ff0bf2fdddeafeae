/**
 * `diagramLengthBound`: never below the length of the diagram it bounds, on random specs of every
 * board size (pieces of every role, marks on any squares, both orientations, paths, reachable or
 * not, a fairy piece's text of any length, XML's special characters included, a hopper's hurdle
 * rings counted as one a move of the path), and not far above it on large boards, where the bound
 * decides what is refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagramLengthBound, type Role } from '../../src/index.js';
import { type DiagramSpec, renderDiagram } from '../../src/pictures/diagram.js';

const ROLES: Role[] = ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'KNIGHT', 'PAWN'];

/** A random spec on a board of up to `side` x `side`. */
const spec = (side: number) =>
  fc
    .record({ files: fc.integer({ min: 1, max: side }), ranks: fc.integer({ min: 1, max: side }) })
    .chain((board) => {
      const n = board.files * board.ranks;
      const squares = (most: number) => fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: Math.min(most, n) });
      return fc.record({
        board: fc.constant(board),
        layers: fc.array(squares(64), { maxLength: 8 }),
        sources: squares(4),
        targets: squares(4),
        obstacles: squares(n),
        pieces: fc.array(
          fc.record({
            index: fc.integer({ min: 0, max: n - 1 }),
            role: fc.constantFrom(...ROLES),
            color: fc.constantFrom('WHITE' as const, 'BLACK' as const),
          }),
          { maxLength: Math.min(n, 200) },
        ),
        attacked: squares(n),
        path: squares(40),
        // Hurdles to ring (drawn only with a fairy piece, at most one a move): any squares, repeats too.
        hurdles: squares(60),
        reachable: fc.boolean(),
        orientation: fc.constantFrom('WHITE' as const, 'BLACK' as const),
        // A fairy piece's text: mostly none; else letters, digits and what XML escapes.
        fairy: fc.option(fc.string({ unit: fc.constantFrom('N', 'W', 'f', '2', '"', '&', '<', "'"), maxLength: 80 }), {
          nil: undefined,
          freq: 2,
        }),
      });
    })
    .map(({ fairy, ...rest }): DiagramSpec => (fairy === undefined ? rest : { ...rest, fairy }));

/** The bound of a spec, from its counts (its hurdles left to the default: one a move of the path). */
function boundOf(s: DiagramSpec): number {
  return diagramLengthBound({
    board: s.board,
    layerSquares: s.layers.reduce((sum, layer) => sum + layer.length, 0),
    sources: s.sources.length,
    targets: s.targets.length,
    obstacles: s.obstacles.length,
    pieces: s.pieces?.length ?? 0,
    attacked: s.attacked?.length ?? 0,
    path: s.path?.length ?? 0,
    ...(s.fairy === undefined ? {} : { fairy: s.fairy.length }),
  });
}

describe('diagramLengthBound', () => {
  it('is at least the length of the diagram, on boards of 1 to 40 squares a side', () => {
    fc.assert(
      fc.property(spec(40), (s) => {
        expect(renderDiagram(s).length).toBeLessThanOrEqual(boundOf(s));
      }),
      { numRuns: 300 },
    );
  });

  it('is at least the length on boards up to 256 x 256, and within 2.5 times of it past 64 x 64', () => {
    fc.assert(
      fc.property(spec(256), (s) => {
        const length = renderDiagram(s).length;
        const bound = boundOf(s);
        expect(length).toBeLessThanOrEqual(bound);
        if (s.board.files * s.board.ranks >= 64 * 64) expect(bound).toBeLessThan(2.5 * length);
      }),
      { numRuns: 25 },
    );
  });

  it("bounds a fairy piece's text of any length: past the fixed allowance, each character escaped", () => {
    // Up to 2,000 characters that XML escapes (6 characters for one), printed twice: far past
    // what the bound allows for a picture's fixed parts, so only the text's own term covers them.
    const text = fc.string({ unit: fc.constantFrom('N', '"', '&', "'"), minLength: 1, maxLength: 2000, size: 'max' });
    const small = fc.record({ files: fc.integer({ min: 1, max: 8 }), ranks: fc.integer({ min: 1, max: 8 }) });
    fc.assert(
      fc.property(small, text, fc.boolean(), (board, fairy, reachable) => {
        const s: DiagramSpec = { board, layers: [[0]], sources: [0], targets: [0], obstacles: [], reachable, fairy };
        expect(renderDiagram(s).length).toBeLessThanOrEqual(boundOf(s));
      }),
      { numRuns: 100 },
    );
  });

  it('bounds an open 256 x 256 board with no marks tightly', () => {
    const open: DiagramSpec = {
      board: { files: 256, ranks: 256 },
      layers: [],
      sources: [],
      targets: [],
      obstacles: [],
      reachable: false,
    };
    const length = renderDiagram(open).length;
    expect(boundOf(open)).toBeGreaterThanOrEqual(length);
    expect(boundOf(open)).toBeLessThan(1.5 * length);
  });
});

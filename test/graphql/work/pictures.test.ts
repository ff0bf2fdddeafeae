/**
 * The service's SVG pictures (src/graphql/work/pictures.ts): `svgLengthBound` bounds the length of
 * what `drawSvg` draws. A fairy result's picture prints the piece's canonical Betza text, which
 * can be longer than the text asked, and the bound counts the canonical one; a hopper's picture
 * with its path rings the hurdles it jumps, which the bound counts too. (The engine's own
 * `diagramLengthBound` is checked on random diagrams in packages/engine/test/pictures/diagram-size.test.ts.)
 */
import { canonicalBetza, solve } from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import { drawSvg, svgLengthBound } from '../../../src/graphql/work/pictures.js';

describe('svgLengthBound', () => {
  it("bounds a fairy result's picture by its canonical text, longer than the text asked", () => {
    // fQ is the forward queen, canonically fWWfFF; the picture prints the canonical text.
    const asked = 'fQbKnDnAfQ';
    expect(canonicalBetza(asked).length).toBeGreaterThan(asked.length);
    for (const board of [null, { files: 1, ranks: 2 }, { files: 40, ranks: 30 }]) {
      const sources = board?.files === 1 ? ['a1'] : ['a1', 'b1', 'c1', 'd1'];
      const result = solve({ piece: 'FAIRY', betza: asked, from: sources, to: ['a2'], board });
      expect(result.betza).toBe(canonicalBetza(asked));
      for (const options of [{}, { path: true, orientation: 'BLACK' as const }]) {
        const svg = drawSvg(result, options);
        expect(svg).toContain(`fairy piece ${result.betza}<`);
        expect(svg.length).toBeLessThanOrEqual(svgLengthBound(result, options));
      }
    }
  });

  it("bounds a hopper's picture with its path, a ring on every move's hurdle", () => {
    // A cannon a1 h1 h8: over b1, then over h7 (the blocked diagonal), or over the FEN's pieces.
    const blocked = ['b1', 'c2', 'd3', 'e4', 'f5', 'g6', 'h7'];
    const fen = '8/7p/8/8/8/8/8/1P6 w - - 0 1';
    for (const [query, options] of [
      [{ blocked }, { path: true }],
      [{ fen }, { path: true, fen, orientation: 'BLACK' as const }],
    ] as const) {
      const result = solve({ piece: 'FAIRY', betza: 'pR', from: ['a1'], to: ['h8'], ...query });
      expect(result.path?.squares).toEqual(['a1', 'h1', 'h8']);
      const svg = drawSvg(result, options);
      const rings = /<g class="hurdles"[^>]*>([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '';
      expect(rings.match(/<circle /g)).toHaveLength(4); // two rings, each an edge and a core
      expect(svg.length).toBeLessThanOrEqual(svgLengthBound(result, options));
    }
  });
});

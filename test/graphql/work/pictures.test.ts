/**
 * The service's SVG pictures (src/graphql/work/pictures.ts): `svgLengthBound` bounds the length of
 * what `drawSvg` draws. A fairy result's picture prints the piece's canonical Betza text, which
 * can be longer than the text asked, and the bound counts the canonical one. (The engine's own
 * `diagramLengthBound` is checked on random diagrams in packages/engine/test/diagram-size.test.ts.)
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
});

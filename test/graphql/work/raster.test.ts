/**
 * `svgToPng` (src/graphql/work/raster.ts) on the service's own drawing of the seed example: a PNG
 * of the asked width and the SVG's aspect ratio, a white background, the board's colours, the
 * step discs, the path's arrow and the text (a rank number's dark pixels: the shipped font is
 * drawn, the machine's fonts are never read), read back pixel by pixel at points of the diagram.
 * A picture over the pixel limit is refused before it is drawn, and the `raster` task, like every
 * task, does nothing once its request's budget is spent.
 */
import { solve } from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import { drawSvg } from '../../../src/graphql/work/pictures.js';
import { pngHeight, RASTER_VERSION, RasterSizeError, svgToPng } from '../../../src/graphql/work/raster.js';
import { runTask } from '../../../src/graphql/work/tasks.js';
import { readPng } from '../../support/png.js';

/** The seed's picture with its smallest path: 416 x 472 user units. */
const seed = drawSvg(solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] }), { path: true });
const [svgWidth, svgHeight] = /width="([\d.]+)" height="([\d.]+)"/.exec(seed)!.slice(1).map(Number);

/** The centre of a square of an 8 x 8 diagram seen from White, in user units (square 48, margin 24, pad 8). */
const centre = (square: string): [number, number] => {
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square.slice(1)) - 1;
  return [24 + file * 48 + 24, 8 + (7 - rank) * 48 + 24];
};

/** True when `[r, g, b]` is within `tolerance` of each channel of `expected` (`#rrggbb`). */
const near = (pixel: number[], expected: string, tolerance = 24) =>
  [1, 3, 5].every((at, i) => Math.abs(pixel[i] - Number.parseInt(expected.slice(at, at + 2), 16)) <= tolerance);

describe('svgToPng', () => {
  it('draws the seed: size, background, squares, step discs, the path and the text', () => {
    const png = readPng(svgToPng(seed, { width: 600 }));
    expect([png.width, png.height]).toEqual([600, pngHeight(svgWidth, svgHeight, 600)]);
    expect(png.height).toBe(Math.round((svgHeight * 600) / svgWidth));
    const at = (ux: number, uy: number) => png.at(svgWidth, ux, uy);
    expect(at(1, 1)).toEqual([255, 255, 255, 255]); // the margin: white, opaque
    expect(near(at(...centre('a8')), '#f0d9b5')).toBe(true); // a light square off every layer
    expect(near(at(...centre('b8')), '#b58863')).toBe(true); // a dark one
    // Below the number of e4's disc (step 0) and of h8's (step 4): the step's blue.
    const [ex, ey] = centre('e4');
    const [hx, hy] = centre('h8');
    for (const [x, y] of [
      [ex, ey + 11],
      [hx, hy + 11],
    ]) {
      const [r, g, b] = at(x, y);
      expect(b).toBeGreaterThan(150);
      expect(r).toBeLessThan(90);
      expect(g).toBeGreaterThan(90);
      expect(g).toBeLessThan(140);
    }
    // Two fifths of the way from e4 to d3, past e4's disc: the path's orange.
    const [dx, dy] = centre('d3');
    const [r, g, b] = at(ex + (dx - ex) * 0.4, ey + (dy - ey) * 0.4);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeGreaterThan(100);
    expect(g).toBeLessThan(160);
    expect(b).toBeLessThan(100);
    // The rank number 8 left of the board (x 12): dark text on white, drawn with the shipped font.
    let darkest = 255;
    for (let x = 6; x <= 18; x += 0.5) {
      for (let y = 26; y <= 38; y += 0.5) darkest = Math.min(darkest, ...at(x, y).slice(0, 3));
    }
    expect(darkest).toBeLessThan(100);
    expect(png.colours()).toBeGreaterThan(50);
  });

  it('keeps the aspect ratio at any width, and refuses a picture over maxPixels before drawing it', () => {
    for (const width of [16, 417, 1200]) {
      const png = readPng(svgToPng(seed, { width }));
      expect([png.width, png.height]).toEqual([width, pngHeight(svgWidth, svgHeight, width)]);
    }
    const height = pngHeight(svgWidth, svgHeight, 1200);
    expect(() => svgToPng(seed, { width: 1200, maxPixels: 1200 * height - 1 })).toThrow(RasterSizeError);
    expect(() => svgToPng(seed, { width: 1200, maxPixels: 1200 * height })).not.toThrow();
    expect(RASTER_VERSION).toMatch(/^resvg-js \d+\.\d+\.\d+, dejavu \d+\.\d+/);
  });

  it('runs as the raster task, which does nothing once the budget is spent', () => {
    const item = { svg: seed, width: 200, maxPixels: 1 << 20 };
    const done = runTask({ kind: 'raster', items: [item] });
    expect(done.stopped).toBe(false);
    expect(readPng(done.values[0] as Uint8Array).width).toBe(200);
    const spent = new Int32Array(new SharedArrayBuffer(8));
    spent[0] = 2000;
    const stopped = runTask({ kind: 'raster', budget: { spent, limitMicros: 1000 }, items: [item] });
    expect(stopped).toEqual({ values: [], stopped: true });
    const over = runTask({ kind: 'raster', items: [{ ...item, maxPixels: 100 }] });
    expect(over.values[0]).toEqual({ error: { message: expect.stringContaining('over the limit of 100') } });
  });
});

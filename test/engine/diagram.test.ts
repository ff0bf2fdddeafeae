import { describe, expect, it } from 'vitest';
import { type DiagramSpec, diagramSpecOf, renderDiagram, renderSvg } from '../../src/engine/diagram.js';
import {
  attackedSquares,
  parseFen,
  parseSquare,
  positionQuery,
  STANDARD_BOARD,
  solve,
} from '../../src/engine/index.js';
import { checkWellFormedXml } from '../support/test-server.js';

const seed = solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] });
const sq = (name: string) => parseSquare(name, STANDARD_BOARD);

/** Draws and checks that the SVG is well-formed XML whose numbers have at most two decimals. */
function draw(spec: DiagramSpec): string {
  const svg = renderDiagram(spec);
  expect(checkWellFormedXml(svg)).toBe('svg');
  expect(svg.match(/\d+\.\d{3,}/g)).toBeNull();
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* viewBox="0 0 [\d.]+ [\d.]+"/);
  expect(svg).toContain('<title>');
  return svg;
}

/** Top-left corner of a square's rects in a group (`class="name"`). */
function rectsIn(svg: string, group: string): { x: number; y: number }[] {
  const body = new RegExp(`<g class="${group}"[^>]*>([\\s\\S]*?)</g>`).exec(svg)?.[1] ?? '';
  return [...body.matchAll(/<rect x="([\d.]+)" y="([\d.]+)"/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));
}

/** Centres of the step numbers, with their text. */
function stepsOf(svg: string): { x: number; y: number; step: number }[] {
  const body = /<g class="steps"[^>]*>([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '';
  return [...body.matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*>(\d+)<\/text>/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    step: Number(m[3]),
  }));
}

/** Centre of a square in the default layout (48 px squares, board at (24, 8), White at the bottom). */
const centre = (name: string, black = false) => {
  const i = sq(name);
  const file = i % 8;
  const rank = (i - file) / 8;
  const col = black ? 7 - file : file;
  const row = black ? rank : 7 - rank;
  return { x: 24 + col * 48 + 24, y: 8 + row * 48 + 24 };
};

describe('renderDiagram', () => {
  it("numbers every layer square of the seed with its step, outlines sources and targets, and keeps renderSvg's output", () => {
    const svg = draw(diagramSpecOf(seed));
    expect(renderSvg(seed)).toBe(svg);
    const expected = seed.layers.flatMap((layer, step) => layer.squares.map((name) => ({ ...centre(name), step })));
    expect(expected).toHaveLength(15);
    expect(stepsOf(svg).sort((a, b) => a.x - b.x || a.y - b.y)).toEqual(
      expected.sort((a, b) => a.x - b.x || a.y - b.y),
    );
    expect(rectsIn(svg, 'sources')).toEqual([{ x: 24 + 4 * 48 + 2, y: 8 + 4 * 48 + 2 }]);
    expect(rectsIn(svg, 'targets')).toHaveLength(2);
    expect(svg).toContain('Shortest paths on an 8 x 8 board from e4 to a1, h8: 4 moves');
    // Legend lists the marks used, and only those.
    expect(svg).toMatch(/<g class="legend"[\s\S]*>source<[\s\S]*>target<[\s\S]*>step k/);
    expect(svg).not.toContain('>obstacle<');
    expect(svg).not.toContain('>piece<');
    expect(svg).not.toContain('unreachable');
  });

  it('draws the pieces of a FEN, the attacked squares and one path', () => {
    const position = parseFen('4k3/8/8/3r4/8/8/8/4K3 w - - 0 1');
    const result = solve(positionQuery(position, 'e1', ['e3'], true));
    const words = attackedSquares(position, 'BLACK', sq('e1'));
    const attacked = [...Array(64).keys()].filter((i) => ((words[i >>> 5] >>> (i & 31)) & 1) === 1);
    expect(attacked).toContain(sq('d1'));
    const path = result.path?.squares.map(sq);
    const svg = draw(diagramSpecOf(result, { position, attacked, path }));
    expect(svg.match(/<g class="piece white king"/g)).toHaveLength(1);
    expect(svg.match(/<g class="piece black king"/g)).toHaveLength(1);
    expect(svg.match(/<g class="piece black rook"/g)).toHaveLength(1);
    expect(svg).toContain(
      `<g class="piece white king" transform="translate(${24 + 4 * 48} ${8 + 7 * 48}) scale(0.48)">`,
    );
    // The attacked squares are tinted (and not drawn as obstacles as well).
    const tinted = rectsIn(svg, 'attacked');
    expect(tinted).toHaveLength(attacked.length);
    expect(tinted).toContainEqual({ x: 24 + 3 * 48, y: 8 + 7 * 48 }); // d1
    const obstacleRects = rectsIn(svg, 'obstacles');
    expect(obstacleRects).not.toContainEqual({ x: 24 + 3 * 48, y: 8 + 7 * 48 });
    expect(svg).toContain('<polyline ');
    expect(svg).toMatch(/>piece<[\s\S]*>attacked<[\s\S]*>one shortest path</);
  });

  it('draws every obstacle in one shade and hatch', () => {
    const result = solve({ piece: 'ROOK', from: ['a1'], to: ['a8'], blocked: ['a4', 'c5'] });
    const svg = draw(diagramSpecOf(result));
    expect(rectsIn(svg, 'obstacles')).toEqual([
      { x: 24, y: 8 + 4 * 48 },
      { x: 24 + 2 * 48, y: 8 + 3 * 48 },
    ]);
    const group = /<g class="obstacles"([^>]*)>([\s\S]*?)<\/g>/.exec(svg);
    expect(group?.[1]).toMatch(/fill="#[0-9a-f]{6}"/);
    expect(group?.[2]).not.toMatch(/<rect[^>]*fill=/); // the group's single fill
    expect(svg).toContain('>obstacle<');
  });

  it('shows an unreachable answer with a banner on the board', () => {
    const result = solve({ piece: 'KING', from: ['a1'], to: ['h8'], blocked: ['b1', 'b2', 'a2'] });
    const svg = draw(diagramSpecOf(result));
    expect(svg).toMatch(/<g class="unreachable">\n<rect [^>]*\/>\n<text [^>]*>unreachable<\/text>/);
    expect(svg).toContain(': unreachable</title>');
    expect(stepsOf(svg)).toEqual([]);
  });

  it('flips the board for Black: rank 1 at the top, files reversed', () => {
    const spec = diagramSpecOf(seed, { orientation: 'BLACK' });
    const svg = draw(spec);
    // a1 is the dark square at the top right; h8 the dark square at the bottom left.
    const dark = rectsIn(svg, 'dark');
    expect(dark).toContainEqual({ x: 24 + 7 * 48, y: 8 });
    expect(dark).toContainEqual({ x: 24, y: 8 + 7 * 48 });
    expect(stepsOf(svg)).toContainEqual({ ...centre('a1', true), step: 4 });
    expect(centre('a1', true)).toEqual({ x: 24 + 7 * 48 + 24, y: 32 });
    const labels = /<g class="labels"[^>]*>([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '';
    const texts = [...labels.matchAll(/>(\w+)<\/text>/g)].map((m) => m[1]);
    expect(texts.slice(0, 8)).toEqual(['h', 'g', 'f', 'e', 'd', 'c', 'b', 'a']);
    expect(texts.slice(8)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  });

  it('rounds every number and escapes nothing unsafe on odd boards', () => {
    const result = solve({ piece: 'KNIGHT', from: ['a1'], to: ['c3'], board: { files: 3, ranks: 7 } });
    const svg = draw(diagramSpecOf(result, { path: result.path?.squares.map((s) => parseSquare(s, result.board)) }));
    expect(svg).toContain('<polygon ');
    const one = solve({ piece: 'KING', from: ['a1'], to: ['a1'], board: { files: 1, ranks: 1 } });
    draw(diagramSpecOf(one));
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  attackedSquares,
  ORTHODOX_MOVERS,
  parseFen,
  parseSquare,
  positionQuery,
  STANDARD_BOARD,
  solve,
} from '../../src/index.js';
import { type DiagramSpec, diagramSpecOf, renderDiagram, renderSvg } from '../../src/pictures/diagram.js';
import { checkWellFormedXml } from '../support/xml.js';

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

  it('draws the arrowhead of the path where the disc of the last step does not cover it', () => {
    const discs = (svg: string) =>
      [
        ...(/<g class="steps"[\s\S]*?<\/g>/.exec(svg)?.[0] ?? '').matchAll(
          /<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"/g,
        ),
      ].map((m) => ({ x: Number(m[1]), y: Number(m[2]), r: Number(m[3]) }));
    const headOf = (svg: string) =>
      (/<g class="path"[\s\S]*?<polygon points="([^"]+)"/.exec(svg)?.[1] ?? '')
        .split(' ')
        .map((p) => p.split(',').map(Number));
    const cases = [
      solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] }),
      solve({ piece: 'KNIGHT', from: ['a1'], to: ['h8'] }),
      solve({ piece: 'ROOK', from: ['a1'], to: ['h8'], board: { files: 10, ranks: 10 } }),
    ];
    for (const result of cases) {
      for (const orientation of ['WHITE', 'BLACK'] as const) {
        const path = result.path?.squares.map((s) => parseSquare(s, result.board));
        const svg = renderDiagram(diagramSpecOf(result, { path, orientation }));
        const head = headOf(svg);
        expect(head).toHaveLength(3);
        // No disc (the numbers are drawn over the path) hides any corner of the head.
        for (const [x, y] of head)
          for (const disc of discs(svg))
            expect(Math.hypot(x - disc.x, y - disc.y)).toBeGreaterThanOrEqual(disc.r - 0.5);
      }
    }
  });

  it('rounds every number and escapes nothing unsafe on odd boards', () => {
    const result = solve({ piece: 'KNIGHT', from: ['a1'], to: ['c3'], board: { files: 3, ranks: 7 } });
    const svg = draw(diagramSpecOf(result, { path: result.path?.squares.map((s) => parseSquare(s, result.board)) }));
    expect(svg).toContain('<polygon ');
    const one = solve({ piece: 'KING', from: ['a1'], to: ['a1'], board: { files: 1, ranks: 1 } });
    draw(diagramSpecOf(one));
  });
});

/** Top-left corners and scales of the fairy marks, in order (board marks first, then the legend's). */
function fairyMarks(svg: string): { x: number; y: number; scale: number }[] {
  return [...svg.matchAll(/<g class="fairy-mark" transform="translate\(([\d.]+) ([\d.]+)\) scale\(([\d.]+)\)">/g)].map(
    (m) => ({ x: Number(m[1]), y: Number(m[2]), scale: Number(m[3]) }),
  );
}

/** The `y` of every legend label, in order. */
function legendRows(svg: string): number[] {
  const body = /<g class="legend"[^>]*>([\s\S]*)<\/g>\n<\/svg>$/.exec(svg)?.[1] ?? '';
  return [...body.matchAll(/<text x="[\d.]+" y="([\d.]+)"/g)].map((m) => Number(m[1]));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('renderDiagram of a fairy piece', () => {
  // N0 is the nightrider, canonically NN: the picture names the canonical text.
  const rider = solve({ piece: 'FAIRY', betza: 'N0', from: ['a1', 'c1'], to: ['h8'] });

  it("marks the sources with the fairy star, names the canonical text in the title and the legend, and numbers solve's layers", () => {
    const spec = diagramSpecOf(rider);
    expect(spec.fairy).toBe('NN');
    const svg = draw(spec);
    expect(renderSvg(rider)).toBe(svg);
    expect(svg).toContain('<title>Shortest paths of fairy piece NN on an 8 x 8 board from a1, c1 to h8: ');
    expect(svg).toContain(`: ${rider.distance} moves</title>`);
    // One star in each source's top-left corner, inside its outline, then the legend's.
    const corner = (name: string) => ({ x: centre(name).x - 24 + 4.8, y: centre(name).y - 24 + 4.8, scale: 0.17 });
    expect(fairyMarks(svg)).toEqual([corner('a1'), corner('c1'), { x: 8, y: 8 + 8 * 48 + 24, scale: 0.16 }]);
    expect(svg).toMatch(
      /<g class="legend"[^>]*>\n<g class="fairy-mark"[^>]*>.*<\/g>\n<text [^>]*>fairy piece NN<\/text>/,
    );
    // The steps are solve's layers, square for square.
    const expected = rider.layers.flatMap((layer, step) => layer.squares.map((name) => ({ ...centre(name), step })));
    const byPlace = (a: { x: number; y: number }, b: { x: number; y: number }) => a.x - b.x || a.y - b.y;
    expect(stepsOf(svg).sort(byPlace)).toEqual(expected.sort(byPlace));
    expect(rider.layers.length).toBeGreaterThan(1);
  });

  it('gives the fairy piece its own legend row: the other entries move down one row, nothing else moves', () => {
    const { fairy, ...plain } = diagramSpecOf(rider);
    expect(fairy).toBe('NN');
    const withStar = draw({ ...plain, fairy });
    const without = draw(plain);
    expect(without).not.toContain('fairy');
    const [named, ...rest] = legendRows(withStar);
    expect(named).toBe(legendRows(without)[0]);
    expect(rest).toEqual(legendRows(without).map((y) => y + 24));
    const height = (svg: string) => Number(/ height="([\d.]+)"/.exec(svg)?.[1]);
    expect(height(withStar)).toBe(height(without) + 24);
    const squares = (svg: string) => /<g class="dark"[\s\S]*<g class="steps"/.exec(svg)?.[0];
    expect(squares(withStar)).toBe(squares(without));
  });

  it("squeezes a long text into the legend's width, and escapes any text", () => {
    const spec = diagramSpecOf(rider);
    const long = 'fWWfFFnNbW2lD5'.repeat(5).slice(0, 64);
    const svg = draw({ ...spec, fairy: long });
    // The board is 8 x 48 wide, plus its margin and pad: the label has that less the pads and the swatch.
    expect(svg).toContain(
      `<text x="30" y="424" dominant-baseline="central" textLength="${24 + 8 * 48 + 8 - 16 - 22}" lengthAdjust="spacingAndGlyphs">fairy piece ${long}</text>`,
    );
    expect(draw(spec)).not.toContain('textLength');
    const odd = draw({ ...spec, fairy: '<&"\'>' });
    expect(odd).toContain('fairy piece &lt;&amp;&quot;&apos;&gt;</text>');
  });

  it('draws a Betza text of an orthodox piece as that piece, with no fairy mark', () => {
    const asKing = solve({ piece: 'FAIRY', betza: 'FW', from: ['e4'], to: ['a1', 'h8'] });
    expect(asKing.piece).toBe('KING');
    expect(diagramSpecOf(asKing).fairy).toBeUndefined();
    expect(renderSvg(asKing)).toBe(renderSvg(seed));
  });
});

describe('orthodox pictures', () => {
  it('are drawn byte for byte as fixed', () => {
    // Digests of the pictures as drawn (since the arrowhead stops at the last step's disc): a
    // change to the drawing of orthodox pieces must be deliberate (and change DRAWING_VERSION in
    // src/http/diagram-route.ts).
    expect(sha256(renderSvg(seed))).toBe('09efc6107aa298abfa019bb0c679408ab23a142e2c08455e441f2a3547ceb7c5');
    const position = parseFen('4k3/8/8/3r4/8/8/8/4K3 w - - 0 1');
    const result = solve(positionQuery(position, 'e1', ['e3'], true));
    const words = attackedSquares(position, 'BLACK', sq('e1'));
    const attacked = [...Array(64).keys()].filter((i) => ((words[i >>> 5] >>> (i & 31)) & 1) === 1);
    const path = result.path?.squares.map(sq);
    const svg = renderDiagram(diagramSpecOf(result, { position, attacked, path, orientation: 'BLACK' }));
    expect(sha256(svg)).toBe('9ba50dc2d87737f85fcb34dd62e4d2542182ed86b3caf2b1e7e40fa80d2fe43b');
  });

  it.each(ORTHODOX_MOVERS)('of %s have no fairy mark and no fairy text', (piece) => {
    const result = solve({ piece, from: ['d4'], to: ['e6', 'd5'] });
    expect(diagramSpecOf(result)).not.toHaveProperty('fairy');
    expect(renderSvg(result)).not.toContain('fairy');
  });
});

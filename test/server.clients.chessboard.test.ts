/**
 * `Overlay.shapes` drawn by a chess board of the registry, in Chromium: a page on another origin
 * draws a question's shapes on cm-chessboard (MIT; chessground, whose DrawShape form the shapes
 * follow, is GPL and stays out of the project), and the arrows it drew, read back from the board's
 * SVG by where their lines start and end, follow `path.squares` move by move; every circle is a
 * marker on its square. A screenshot is kept for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser, watchStrictly } from './support/browser.js';
import { type PageServer, startPageServer } from './support/cross-origin-page.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const skip = skipBrowser('chessboard shapes');
const assets = new URL('../node_modules/cm-chessboard/assets/', import.meta.url).pathname;

describe.skipIf(skip)('shapes on cm-chessboard', () => {
  let api: TestServer;
  let pages: PageServer;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    [api, pages, browser] = await Promise.all([
      startTestServer({ database: false }),
      startPageServer({
        entry: new URL('./support/pages/chessboard-page.ts', import.meta.url).pathname,
        head: '<link rel="stylesheet" href="/assets/chessboard.css"><link rel="stylesheet" href="/assets/extensions/arrows/arrows.css"><link rel="stylesheet" href="/assets/extensions/markers/markers.css">',
        files: Object.fromEntries(
          [
            'chessboard.css',
            'extensions/arrows/arrows.css',
            'extensions/arrows/arrows.svg',
            'extensions/markers/markers.css',
            'extensions/markers/markers.svg',
            'pieces/standard.svg',
          ].map((file) => [`/assets/${file}`, join(assets, file)]),
        ),
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([api?.close(), pages?.close()]);
  });

  it('draws the smallest path as arrows from square to square, and a marker for every circle', async () => {
    const page = await browser.newPage({ viewport: { width: 640, height: 640 } });
    const watched = watchStrictly(page, pages.origin);
    await page.goto(pages.pageFor(`${api.url}/graphql`));
    const { path, shapes } = (await page.evaluate(() => (window as unknown as { drawn: Promise<unknown> }).drawn)) as {
      path: string[];
      shapes: { orig: string; dest: string | null; brush: string }[];
    };
    expect(path).toHaveLength(5); // b1 to g8 in four moves
    expect(path[0]).toBe('b1');
    expect(path.at(-1)).toBe('g8');
    // What the board drew: each arrow's line, its ends mapped back to the squares under them.
    const drawn = await page.evaluate(() => {
      const squares = [...document.querySelectorAll('rect[data-square]')].map((rect) => {
        const box = rect.getBoundingClientRect();
        return { square: rect.getAttribute('data-square') as string, box };
      });
      const at = (x: number, y: number) =>
        squares.find(({ box }) => x >= box.left && x < box.right && y >= box.top && y < box.bottom)?.square ?? null;
      const arrows = [...document.querySelectorAll('g.arrow line.arrow-line')].map((line) => {
        const svg = (line as SVGLineElement).ownerSVGElement as SVGSVGElement;
        const matrix = (line as SVGGraphicsElement).getScreenCTM() ?? svg.getScreenCTM();
        const point = (x: string, y: string) => {
          const p = svg.createSVGPoint();
          p.x = Number(line.getAttribute(x));
          p.y = Number(line.getAttribute(y));
          return matrix ? p.matrixTransform(matrix) : p;
        };
        const from = point('x1', 'y1');
        const to = point('x2', 'y2');
        return [at(from.x, from.y), at(to.x, to.y)];
      });
      const markers = [...document.querySelectorAll('g.markers g[data-square]')].map((g) =>
        g.getAttribute('data-square'),
      );
      return { arrows, markers };
    });
    expect(drawn.arrows).toEqual(path.slice(0, -1).map((square, i) => [square, path[i + 1]]));
    const circles = shapes.filter((s) => s.dest === null).map((s) => s.orig);
    expect([...drawn.markers].sort()).toEqual([...circles].sort());
    expect(circles).toContain('b1');
    expect(circles).toContain('g8');
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    const dir = join(tmpdir(), 'chess-paths-screenshots');
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, 'chessboard-shapes.png') });
    await page.close();
  });
});

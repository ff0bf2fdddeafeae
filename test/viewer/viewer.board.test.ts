/**
 * The viewer's board as a chess player reads it, in a real browser (Debian's headless Chromium
 * through playwright-core) against a real server and the built bundle (`npm test` builds first),
 * everything read from the page's DOM and its geometry and compared with the library's `solve`:
 * file letters and rank numbers on the edges, beside the squares they name, with White and with
 * Black at the bottom; a position's pieces (and the piece that moves) drawn with the diagrams'
 * glyphs; the smallest path drawn as arrows from square to square, and the path under the pointer
 * or keyboard focus in the list drawn instead; arrow keys that move up the screen whichever side
 * is at the bottom. Big boards: the page learns the server's largest side (MAX_BOARD_SIDE) and
 * offers up to it; 40 x 40 and 64 x 64 boards answer, their squares shrunk to a floor and the
 * board's box scrolled past it (never the page), files named past `z` (`aa`, `ab`, ...), the keys
 * still moving focus, which stays in view. No console error, failed request or request to another
 * host anywhere. Screenshots go to /tmp/chess-paths-viewer/board-*.png. Skipped outside CI when
 * /usr/bin/chromium is missing.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileName, parseFen, pieceGlyph, solve } from '@chess-paths/engine';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser, watchStrictly } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const SHOTS = join(tmpdir(), 'chess-paths-viewer');

/** The seed example, as the library answers it. */
const SEED = solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] });

/** A position with every piece of both colours, and a knight's question on it. */
const FEN = 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';
const KNIGHT = solve({ piece: 'KNIGHT', from: ['f3'], to: ['g5', 'd4'], fen: FEN });

/** The nightrider from a1 to h8. */
const NIGHTRIDER = solve({ piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'] });

/** A black pawn from e7 to e5. */
const PAWN = solve({ piece: 'BLACK_PAWN', from: ['e7'], to: ['e5'] });

/** A knight across a 40 x 40 board, and a king across a 64 x 64 one around an obstacle. */
const KNIGHT40 = solve({ piece: 'KNIGHT', board: { files: 40, ranks: 40 }, from: ['a1'], to: ['an40'] });
const KING64 = solve({ piece: 'KING', board: { files: 64, ranks: 64 }, from: ['a1'], to: ['bl64'], blocked: ['b2'] });

/** How long a poll waits for the page to show something (a request and a render on a loaded machine). */
const SHOWN = { timeout: 15_000 };

/** The button of a square. */
const square = (page: Page, name: string) => page.locator(`#board button[data-square="${name}"]`);

/** The moves of a path as `from-to` pairs. */
const moves = (squares: readonly string[]) => squares.slice(1).map((to, i) => `${squares[i]}-${to}`);

/**
 * The coordinates on the board's edges in screen order (file letters left to right, rank numbers
 * top to bottom), and every label that is not beside the squares it names.
 */
function coordinates(page: Page) {
  return page.evaluate(() => {
    const buttons = [...document.querySelectorAll<HTMLElement>('#board button[data-square]')].map((b) => ({
      name: b.dataset.square ?? '',
      rect: b.getBoundingClientRect(),
    }));
    const wrong: string[] = [];
    const label = (selector: string, axis: 'x' | 'y') =>
      [...document.querySelectorAll<HTMLElement>(selector)].map((l) => {
        const r = l.getBoundingClientRect();
        const at = axis === 'x' ? r.left + r.width / 2 : r.top + r.height / 2;
        const beside = buttons.filter(({ rect }) =>
          axis === 'x' ? rect.left <= at && at < rect.right : rect.top <= at && at < rect.bottom,
        );
        const text = l.textContent ?? '';
        const part = (name: string) => (axis === 'x' ? name.replace(/\d+$/, '') : name.replace(/^[a-z]+/, ''));
        if (beside.length === 0 || beside.some((b) => part(b.name) !== text)) wrong.push(`${text}`);
        return text;
      });
    return { files: label('#board .file-label', 'x'), ranks: label('#board .rank-label', 'y'), wrong };
  });
}

/**
 * The arrows drawn: each one's move, and the squares its two ends lie on, on screen (found by the
 * squares' boxes, so arrows scrolled out of a big board's view count too).
 */
function arrows(page: Page) {
  return page.locator('#board svg.arrows .arrow').evaluateAll((nodes) => {
    const squares = [...document.querySelectorAll<HTMLElement>('#board button[data-square]')].map((b) => ({
      name: b.dataset.square ?? '',
      rect: b.getBoundingClientRect(),
    }));
    return nodes.map((node) => {
      const g = node as SVGGElement;
      const line = g.querySelector('line') as SVGLineElement;
      const [tipX, tipY] = (g.querySelector('polygon')?.getAttribute('points') ?? '')
        .split(' ')[0]
        .split(',')
        .map(Number);
      const matrix = (g.ownerSVGElement as SVGSVGElement).getScreenCTM() as DOMMatrix;
      const under = (x: number, y: number) => {
        const p = new DOMPoint(x, y).matrixTransform(matrix);
        const hit = squares.filter(
          ({ rect }) => rect.left < p.x && p.x < rect.right && rect.top < p.y && p.y < rect.bottom,
        );
        return hit.length === 1 ? hit[0].name : `${hit.length} squares`;
      };
      return {
        move: `${g.dataset.from}-${g.dataset.to}`,
        ends: `${under(line.x1.baseVal.value, line.y1.baseVal.value)}-${under(tipX, tipY)}`,
      };
    });
  });
}

/** Checks the arrows are `path`'s moves, each drawn from its square to the next. */
async function expectArrows(page: Page, path: readonly string[]): Promise<void> {
  const drawn = await arrows(page);
  expect(drawn.map((a) => a.move)).toEqual(moves(path));
  expect(drawn.map((a) => a.ends)).toEqual(moves(path));
  const onPath = await page
    .locator('#board button.on-path')
    .evaluateAll((cells) => cells.map((c) => (c as HTMLElement).dataset.square).sort());
  expect(onPath).toEqual([...path].sort());
}

/** The path the board draws (`data-path` of its arrows) and whose it is (`smallest` or `shown`). */
const drawnPath = (page: Page) =>
  page
    .locator('#board svg.arrows')
    .evaluate((svg) => `${(svg as SVGElement).dataset.kind}: ${(svg as SVGElement).dataset.path}`);

/** The step marks on the board, square to step. */
const stepMarks = (page: Page) =>
  page
    .locator('#board button[data-step]')
    .evaluateAll((cells) =>
      Object.fromEntries(
        cells.map((c) => [(c as HTMLElement).dataset.square, Number((c as HTMLElement).dataset.step)]),
      ),
    );

/** A result's steps as the library says, square to step. */
const stepsOf = (result: ReturnType<typeof solve>) =>
  Object.fromEntries(result.layers.flatMap((layer, k) => layer.squares.map((s) => [s, k])));

/** The focused square's name, and whether it lies whole inside the board's box as it is scrolled. */
const focusInView = (page: Page) =>
  page.evaluate(() => {
    const focused = document.activeElement as HTMLElement;
    const box = document.getElementById('board-scroll')?.getBoundingClientRect();
    const at = focused.getBoundingClientRect();
    const inside =
      !!box && box.left <= at.left && at.right <= box.right && box.top <= at.top && at.bottom <= box.bottom;
    return `${focused.getAttribute('aria-label')}${inside ? '' : ' (out of view)'}`;
  });

/** How the board's box and the page scroll, and one square's width. */
const sizes = (page: Page) =>
  page.evaluate(() => {
    const box = document.getElementById('board-scroll') as HTMLElement;
    return {
      boxScrolls: box.scrollWidth > box.clientWidth,
      pageScrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth,
      square: document.querySelector('#board button[data-square]')?.getBoundingClientRect().width ?? 0,
    };
  });

/** The `d` attributes of an SVG text's paths. */
const pathData = (svg: string) => [...svg.matchAll(/ d="([^"]+)"/g)].map((m) => m[1]);

describe.skipIf(skipBrowser('viewer board'))('the viewer board in headless Chromium', () => {
  let t: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestServer({ database: false });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('the library answers the questions asked here', () => {
    expect(SEED.path?.squares).toEqual(['e4', 'd3', 'c2', 'b1', 'a1']);
    expect(KNIGHT.distance).toBe(1);
    expect(NIGHTRIDER.distance).toBeGreaterThan(1);
  });

  it('draws coordinates, the mover, the smallest path as arrows and the path pointed at, either side at the bottom', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watched = watchStrictly(page, new URL(t.url).origin);
    await page.goto(`${t.url}/`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe(String(SEED.distance));
    const smallest = SEED.path?.squares ?? [];

    // Coordinates beside their squares; the king on its source, drawn with the diagrams' glyph.
    expect(await coordinates(page)).toEqual({
      files: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
      ranks: ['8', '7', '6', '5', '4', '3', '2', '1'],
      wrong: [],
    });
    const mover = square(page, 'e4').locator('.glyph.mover');
    expect(await mover.getAttribute('data-piece')).toBe('K');
    expect(await mover.locator('g').first().getAttribute('class')).toBe('piece white king');
    expect(await square(page, 'e4').getAttribute('title')).toBe('e4, source, the white king that moves, step 0');
    expect(await square(page, 'e4').getAttribute('data-step')).toBe('0');
    expect(await page.locator('#board .glyph:not(.mover)').count()).toBe(0);

    // The smallest path as arrows, each from its square to the next.
    await expectArrows(page, smallest);
    expect(await drawnPath(page)).toBe(`smallest: ${smallest.join(' ')}`);
    await page.screenshot({ path: `${SHOTS}/board-seed.png` });

    // The path under the pointer is drawn instead, and the smallest again when the pointer leaves.
    await expect.poll(() => page.locator('.path-list li').count(), SHOWN).toBe(Number(SEED.pathCount));
    const all = SEED.paths({ first: 100 }).edges.map((e) => e.node.squares);
    await page.locator('.path-list li').nth(5).hover();
    await expect.poll(() => drawnPath(page), SHOWN).toBe(`shown: ${all[5].join(' ')}`);
    await expectArrows(page, all[5]);
    await page.screenshot({ path: `${SHOTS}/board-hover.png` });
    await page.mouse.move(5, 5);
    await expect.poll(() => drawnPath(page), SHOWN).toBe(`smallest: ${smallest.join(' ')}`);
    await expectArrows(page, smallest);

    // And the one with keyboard focus: Down moves it through the list; leaving the list lets it go.
    await page.locator('.path-list li').first().focus();
    await expect.poll(() => drawnPath(page), SHOWN).toBe(`shown: ${all[0].join(' ')}`);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(all[2].join(' → '));
    await expect.poll(() => drawnPath(page), SHOWN).toBe(`shown: ${all[2].join(' ')}`);
    await expectArrows(page, all[2]);
    await page.keyboard.press('End');
    await expect.poll(() => drawnPath(page), SHOWN).toBe(`shown: ${all[all.length - 1].join(' ')}`);
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => drawnPath(page), SHOWN).toBe(`smallest: ${smallest.join(' ')}`);

    // Black at the bottom: the coordinates turn, the arrows follow their squares, Up is up on the screen.
    await page.check('input[name="orientation"][value="BLACK"]');
    await expect.poll(() => page.locator('#board').getAttribute('data-orientation'), SHOWN).toBe('BLACK');
    expect(await coordinates(page)).toEqual({
      files: ['h', 'g', 'f', 'e', 'd', 'c', 'b', 'a'],
      ranks: ['1', '2', '3', '4', '5', '6', '7', '8'],
      wrong: [],
    });
    await expectArrows(page, smallest);
    const a1 = await square(page, 'a1').boundingBox();
    const h8 = await square(page, 'h8').boundingBox();
    expect(a1!.x).toBeGreaterThan(h8!.x);
    expect(a1!.y).toBeLessThan(h8!.y);
    await square(page, 'e4').focus();
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('e3');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('d3');
    await page.locator('.path-list li').nth(6).hover();
    await expect.poll(() => drawnPath(page), SHOWN).toBe(`shown: ${all[6].join(' ')}`);
    await expectArrows(page, all[6]);
    await page.screenshot({ path: `${SHOTS}/board-black.png` });

    // The picture follows the orientation; White again.
    await page.locator('#picture-box summary').click();
    const src = (await page.locator('#picture img.diagram').getAttribute('src')) ?? '';
    const svg = decodeURIComponent(src.slice(src.indexOf(',') + 1));
    expect(svg.indexOf('>h</text>')).toBeLessThan(svg.indexOf('>a</text>'));
    await page.check('input[name="orientation"][value="WHITE"]');
    await expect.poll(() => coordinates(page).then((c) => c.files[0]), SHOWN).toBe('a');
    await expectArrows(page, smallest);

    expect(watched.foreign).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });

  it("draws a position's pieces with the diagrams' glyphs, and a fairy piece with their mark", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watched = watchStrictly(page, new URL(t.url).origin);
    await page.goto(`${t.url}/?fen=${encodeURIComponent(FEN)}&board=8x8&from=f3&to=g5,d4`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe(String(KNIGHT.distance));

    // Every piece of the position on its square, as the engine reads the FEN.
    const letter = (role: string, color: string) => {
      const l = role === 'KNIGHT' ? 'N' : role.charAt(0);
      return color === 'WHITE' ? l : l.toLowerCase();
    };
    const placed = parseFen(FEN).pieces;
    const want = Object.fromEntries(placed.map((p) => [p.square, letter(p.role, p.color)]));
    const shown = await page.locator('#board .glyph').evaluateAll((marks) =>
      marks.map((m) => ({
        square: (m.closest('button') as HTMLElement).dataset.square ?? '',
        letter: (m as HTMLElement).dataset.piece ?? '',
        mover: m.classList.contains('mover'),
        glyph: m.querySelector('g')?.getAttribute('class') ?? '',
        paths: [...m.querySelectorAll('path')].map((p) => p.getAttribute('d')),
      })),
    );
    expect(Object.fromEntries(shown.map((s) => [s.square, s.letter]))).toEqual(want);
    expect(shown.every((s) => !s.mover)).toBe(true);
    // The glyphs are the engine's own: the same classes and the same outlines as the SVG diagrams'.
    for (const p of placed) {
      const mark = shown.find((s) => s.square === p.square);
      expect(mark?.glyph).toBe(`piece ${p.color.toLowerCase()} ${p.role.toLowerCase()}`);
      expect(mark?.paths).toEqual(pathData(pieceGlyph(p.role, p.color, '0', '0', '1')));
    }
    await expectArrows(page, KNIGHT.path?.squares ?? []);
    await page.screenshot({ path: `${SHOTS}/board-fen.png` });

    // A fairy piece: the diagrams' fairy mark on its source, its smallest path as arrows.
    await page.goto(`${t.url}/?piece=FAIRY&betza=NN&board=8x8&from=a1&to=h8`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe(String(NIGHTRIDER.distance));
    const star = square(page, 'a1').locator('.glyph.mover');
    expect(await star.getAttribute('data-piece')).toBe('*');
    expect(await star.locator('g.fairy-mark').count()).toBe(1);
    await expectArrows(page, NIGHTRIDER.path?.squares ?? []);

    // A black pawn moves as a black pawn is drawn.
    await page.goto(`${t.url}/?piece=BLACK_PAWN&board=8x8&from=e7&to=e5`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe(String(PAWN.distance));
    await expectArrows(page, PAWN.path?.squares ?? []);
    expect(await square(page, 'e7').locator('.glyph.mover g').first().getAttribute('class')).toBe('piece black pawn');
    await page.screenshot({ path: `${SHOTS}/board-pawn.png` });

    expect(watched.foreign).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });

  it('answers 40 x 40 and 64 x 64 boards, shrinking squares to a floor and scrolling past it, keys and all', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watched = watchStrictly(page, new URL(t.url).origin);
    await page.goto(`${t.url}/?piece=KNIGHT&board=8x8`, { waitUntil: 'load' });

    // The page asks the server for its largest side, and offers up to it.
    await expect.poll(() => page.locator('#size-hint').innerText(), SHOWN).toBe('Each side 1 to 64 on this server.');
    expect(await page.getAttribute('#files', 'max')).toBe('64');
    const eight = await sizes(page);
    expect(eight.boxScrolls).toBe(false);

    // Squares shrink to fit: a 16 x 16 board still fits its box.
    await page.fill('#files', '16');
    await page.fill('#ranks', '16');
    await page.press('#ranks', 'Tab');
    await expect.poll(() => page.locator('#board button[data-square]').count(), SHOWN).toBe(256);
    const sixteen = await sizes(page);
    expect(sixteen.square).toBeLessThan(eight.square);
    expect(sixteen.boxScrolls).toBe(false);

    // A 40 x 40 board from the form and clicks: the box scrolls, the page does not.
    await page.fill('#files', '40');
    await page.fill('#ranks', '40');
    await page.press('#ranks', 'Tab');
    await expect.poll(() => page.locator('#board button[data-square]').count(), SHOWN).toBe(1600);
    expect(new URL(page.url()).search).toBe('?piece=KNIGHT&board=40x40');
    await square(page, 'a1').click();
    await page.getByLabel('target').check();
    await square(page, 'an40').click();
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe(String(KNIGHT40.distance));
    expect((await page.locator('.path-count').innerText()).replace(/,/g, '')).toBe(String(KNIGHT40.pathCount));
    expect(await stepMarks(page)).toEqual(stepsOf(KNIGHT40));
    await expectArrows(page, KNIGHT40.path?.squares ?? []);
    const forty = await sizes(page);
    expect(forty).toMatchObject({ boxScrolls: true, pageScrolls: false });
    expect(forty.square).toBeLessThan(sixteen.square);
    expect(forty.square).toBeGreaterThanOrEqual(27);
    expect(await coordinates(page)).toEqual({
      files: Array.from({ length: 40 }, (_, i) => fileName(i)),
      ranks: Array.from({ length: 40 }, (_, i) => String(40 - i)),
      wrong: [],
    });
    expect((await coordinates(page)).files.slice(24, 28)).toEqual(['y', 'z', 'aa', 'ab']);
    await page.screenshot({ path: `${SHOTS}/board-40.png` });

    // The keys across the files past z, up a page of rows, and to the far end: focus stays in view.
    await square(page, 'y1').focus();
    for (const want of ['z1', 'aa1', 'ab1']) {
      await page.keyboard.press('ArrowRight');
      expect(await focusInView(page)).toBe(want);
    }
    await page.keyboard.press('PageUp');
    expect(await focusInView(page)).toBe('ab9');
    await page.keyboard.press('End');
    expect(await focusInView(page)).toBe('an9');
    for (let i = 0; i < 4; i++) await page.keyboard.press('PageUp');
    expect(await focusInView(page)).toBe('an40');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.distance').count(), SHOWN).toBe(0);
    expect(new URL(page.url()).search).toBe('?piece=KNIGHT&board=40x40&from=a1');
    expect(await focusInView(page)).toBe('an40');
    await page.screenshot({ path: `${SHOTS}/board-40-keys.png` });

    // A 64 x 64 board from the URL: the largest this server takes.
    await page.goto(`${t.url}/?piece=KING&board=64x64&from=a1&to=bl64&blocked=b2`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe(String(KING64.distance));
    expect((await page.locator('.path-count').innerText()).replace(/,/g, '')).toBe(String(KING64.pathCount));
    expect(await stepMarks(page)).toEqual(stepsOf(KING64));
    await expectArrows(page, KING64.path?.squares ?? []);
    expect(await square(page, 'b2').getAttribute('class')).toContain('obstacle');
    const labels = await coordinates(page);
    expect(labels.wrong).toEqual([]);
    expect(labels.files.slice(-3)).toEqual(['bj', 'bk', 'bl']);
    expect(labels.ranks[0]).toBe('64');
    // The box opens on the source.
    await square(page, 'a1').focus();
    expect(await focusInView(page)).toBe('a1');
    await page.screenshot({ path: `${SHOTS}/board-64.png` });

    // One more is the server's to refuse, next to the size fields.
    await page.goto(`${t.url}/?piece=KING&board=65x8&from=a1&to=b2`, { waitUntil: 'load' });
    await expect
      .poll(() => page.locator('#size-error').innerText(), SHOWN)
      .toMatch(/files 65 is over the limit of 64 \(MAX_BOARD_SIDE\)/);

    // A phone: the box scrolls, the page does not.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${t.url}/?piece=KNIGHT&board=40x40&from=a1&to=an40`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe(String(KNIGHT40.distance));
    expect(await sizes(page)).toMatchObject({ boxScrolls: true, pageScrolls: false });
    await square(page, 'a1').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/board-40-phone.png` });

    expect(watched.foreign).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });

  it("offers a server's own largest side, as it says in its refusals", async () => {
    const small = await startTestServer({ database: false, env: { MAX_BOARD_SIDE: '40' } });
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    try {
      const watched = watchStrictly(page, new URL(small.url).origin);
      await page.goto(`${small.url}/`, { waitUntil: 'load' });
      await expect.poll(() => page.locator('#size-hint').innerText(), SHOWN).toBe('Each side 1 to 40 on this server.');
      expect(await page.getAttribute('#ranks', 'max')).toBe('40');
      await page.fill('#files', '41');
      await page.press('#files', 'Tab');
      await expect
        .poll(() => page.locator('#size-error').innerText(), SHOWN)
        .toBe('A board side is a whole number from 1 to 40.');
      await page.fill('#files', '40');
      await page.fill('#ranks', '40');
      await page.press('#ranks', 'Tab');
      await expect.poll(() => page.locator('#board button[data-square]').count(), SHOWN).toBe(1600);
      await page.goto(`${small.url}/?piece=KING&board=64x64&from=a1&to=b2`, { waitUntil: 'load' });
      await expect
        .poll(() => page.locator('#size-error').innerText(), SHOWN)
        .toMatch(/over the limit of 40 \(MAX_BOARD_SIDE\)/);
      expect(watched.foreign).toEqual([]);
      expect(watched.pageErrors).toEqual([]);
      expect(watched.consoleErrors).toEqual([]);
      expect(watched.failed).toEqual([]);
    } finally {
      await page.close();
      await small.close();
    }
  });
});

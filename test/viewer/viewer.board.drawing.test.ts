/**
 * What the viewer's board draws, as a chess player reads it, in a real browser (Debian's headless
 * Chromium through playwright-core) against a real server and the built bundle (`npm test` builds
 * first), everything read from the page's DOM and its geometry and compared with the library's
 * `solve`: file letters and rank numbers on the edges, beside the squares they name, with White
 * and with Black at the bottom; a position's pieces (and the piece that moves) drawn with the
 * diagrams' glyphs, and a fairy piece with their mark; the smallest path drawn as arrows from
 * square to square, and the path under the pointer or keyboard focus in the list drawn instead;
 * arrow keys that move up the screen whichever side is at the bottom. No console error, failed
 * request or request to another host anywhere. Screenshots go to
 * /tmp/chess-paths-viewer/board-*.png. Skipped outside CI when /usr/bin/chromium is missing.
 */
import { mkdirSync } from 'node:fs';
import { parseFen, pieceGlyph, solve } from '@chess-paths/engine';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser, watchStrictly } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { coordinates, expectArrows, SHOTS, SHOWN, square } from '../support/viewer-board.js';

/** The seed example, as the library answers it. */
const SEED = solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] });

/** A position with every piece of both colours, and a knight's question on it. */
const FEN = 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';
const KNIGHT = solve({ piece: 'KNIGHT', from: ['f3'], to: ['g5', 'd4'], fen: FEN });

/** The nightrider from a1 to h8. */
const NIGHTRIDER = solve({ piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'] });

/** A black pawn from e7 to e5. */
const PAWN = solve({ piece: 'BLACK_PAWN', from: ['e7'], to: ['e5'] });

/** The path the board draws (`data-path` of its arrows) and whose it is (`smallest` or `shown`). */
const drawnPath = (page: Page) =>
  page
    .locator('#board svg.arrows')
    .evaluate((svg) => `${(svg as SVGElement).dataset.kind}: ${(svg as SVGElement).dataset.path}`);

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
});

/**
 * The viewer's board on big boards, in a real browser (Debian's headless Chromium through
 * playwright-core) against a real server and the built bundle (`npm test` builds first), compared
 * with the library's `solve`: the page learns the server's largest side (MAX_BOARD_SIDE) and offers
 * up to it; 40 x 40 and 64 x 64 boards answer, their squares shrunk to a floor and the board's box
 * scrolled past it (never the page), files named past `z` (`aa`, `ab`, ...), the keys still moving
 * focus, which stays in view; a server with a smaller largest side offers that, as its refusals
 * say. No console error, failed request or request to another host anywhere. Screenshots go to
 * /tmp/chess-paths-viewer/board-*.png. Skipped outside CI when /usr/bin/chromium is missing.
 */
import { mkdirSync } from 'node:fs';
import { fileName, solve } from '@chess-paths/engine';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser, watchStrictly } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { coordinates, expectArrows, SHOTS, SHOWN, square } from '../support/viewer-board.js';

/** A knight across a 40 x 40 board, and a king across a 64 x 64 one around an obstacle. */
const KNIGHT40 = solve({ piece: 'KNIGHT', board: { files: 40, ranks: 40 }, from: ['a1'], to: ['an40'] });
const KING64 = solve({ piece: 'KING', board: { files: 64, ranks: 64 }, from: ['a1'], to: ['bl64'], blocked: ['b2'] });

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

/**
 * The viewer at `/` in a real browser (Debian's headless Chromium through playwright-core), against
 * a real server with a database and the built bundle (`npm test` builds first): the seed question
 * is asked by clicking squares, and the numbers, the step marks and every page of paths are
 * checked against the library's own `solve`; the keyboard, the URL and back/forward, saving an
 * analysis and opening it again after a reload, an error shown next to the FEN input, a
 * phone-width window with no horizontal scroll; the page's icon, also there for a picture from
 * /diagram.svg opened on its own; and no console error, failed request or request to another
 * host on any of these pages. Screenshots go to
 * `test-artifacts/viewer-*.png`. Skipped outside CI when /usr/bin/chromium is missing.
 */
import { mkdirSync } from 'node:fs';
import { solve } from '@chess-paths/engine';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWellFormedXml } from '../../packages/engine/test/support/xml.js';
import { launchChromium, skipBrowser, watchStrictly } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const ARTIFACTS = 'test-artifacts';

/** The seed example, as the library answers it. */
const SEED = solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] });

/** The button of a square. */
const square = (page: Page, name: string) => page.locator(`#board button[data-square="${name}"]`);

/**
 * How long a poll waits for the page to show something: a request to the server and a render, which
 * a loaded machine can stretch far past expect.poll's default of one second.
 */
const SHOWN = { timeout: 15_000 };

/** The path count the page shows, without its digit grouping. */
const shownCount = async (page: Page) => (await page.locator('.path-count').innerText()).replace(/,/g, '');

/** The step marks on the board, square to step. */
const stepMarks = (page: Page) =>
  page
    .locator('#board button[data-step]')
    .evaluateAll((cells) =>
      Object.fromEntries(
        cells.map((c) => [(c as HTMLElement).dataset.square, Number((c as HTMLElement).dataset.step)]),
      ),
    );

/** The seed's steps as the library says, square to step. */
const seedSteps = () => Object.fromEntries(SEED.layers.flatMap((layer, k) => layer.squares.map((s) => [s, k])));

describe.skipIf(skipBrowser('viewer'))('viewer in headless Chromium', () => {
  let t: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await startTestServer({ database: true });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('the library agrees with the seed diagram', () => {
    expect(SEED.distance).toBe(4);
    expect(SEED.layers.map((layer) => layer.squares)).toEqual([
      ['e4'],
      ['d3', 'd4', 'e5', 'f5'],
      ['c2', 'c3', 'f6', 'g6'],
      ['b1', 'b2', 'g7', 'h7'],
      ['a1', 'h8'],
    ]);
  });

  it('answers the seed example on a first visit, without a click', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watched = watchStrictly(page, new URL(t.url).origin);
    await page.goto(`${t.url}/`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe(String(SEED.distance));
    expect(await shownCount(page)).toBe(String(SEED.pathCount));
    expect(await stepMarks(page)).toEqual(seedSteps());
    expect(await page.locator('.smallest-path').innerText()).toBe(SEED.path!.squares.join(' → '));
    expect(await square(page, 'e4').getAttribute('class')).toContain('source');
    expect(await square(page, 'a1').getAttribute('class')).toContain('target');
    expect(await square(page, 'h8').getAttribute('class')).toContain('target');
    // One line says how to ask another question; the URL stays the page's own.
    const hint = await page.locator('#hint').innerText();
    expect(hint).toMatch(/^An example: a king from e4 to a1 and h8\. To ask your own, /);
    expect(hint).not.toContain('\n');
    expect(new URL(page.url()).search).toBe('');
    await expect
      .poll(() => page.locator('.page-status').innerText(), SHOWN)
      .toBe(`1–${SEED.pathCount} of ${SEED.pathCount}`);

    // Clearing the board starts a question of one's own, and back returns to the example.
    await page.click('#clear');
    await expect.poll(() => new URL(page.url()).search, SHOWN).toBe('?piece=KING&board=8x8');
    await expect.poll(() => page.locator('#hint').innerText(), SHOWN).toBe('Click the source squares.');
    expect(await page.locator('#board button[data-step]').count()).toBe(0);
    await page.goBack();
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe(String(SEED.distance));
    expect(await page.locator('#hint').innerText()).toBe(hint);
    expect(watched.foreign).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });

  it('asks the seed question by clicks, pages through every path, saves and reopens it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watched = watchStrictly(page, new URL(t.url).origin);

    await page.goto(`${t.url}/`, { waitUntil: 'load' });
    expect(await page.title()).toBe('chess-paths viewer');
    // The example is on the board: clear it to ask by clicks.
    await page.click('#clear');
    await expect.poll(() => page.locator('#board button[data-step]').count(), SHOWN).toBe(0);
    await page.selectOption('#piece', 'KING');
    expect(await page.inputValue('#files')).toBe('8');
    expect(await page.inputValue('#ranks')).toBe('8');
    await square(page, 'e4').click();
    await page.getByLabel('target').check();
    await square(page, 'a1').click();
    await square(page, 'h8').click();

    // The numbers and the step marks, as the library says. The answer for e4 to a1 alone has the
    // same distance, so wait for the count of both targets' paths, not for the distance alone.
    await expect
      .poll(async () => [await page.locator('.distance').innerText(), await shownCount(page)], SHOWN)
      .toEqual(['4', String(SEED.pathCount)]);
    expect(await stepMarks(page)).toEqual(seedSteps());
    expect(await page.locator('.smallest-path').innerText()).toBe(SEED.path!.squares.join(' → '));
    expect(new URL(page.url()).search).toBe('?piece=KING&board=8x8&from=e4&to=a1,h8');
    await page.locator('#picture-box summary').click();
    const src = (await page.locator('#picture img.diagram').getAttribute('src')) ?? '';
    expect(src).toMatch(/^data:image\/svg\+xml/);
    const svg = src.includes(';base64,')
      ? Buffer.from(src.slice(src.indexOf(',') + 1), 'base64').toString('utf8')
      : decodeURIComponent(src.slice(src.indexOf(',') + 1));
    expect(checkWellFormedXml(svg)).toBe('svg');
    expect(
      await page.locator('#picture img.diagram').evaluate((img) => (img as HTMLImageElement).naturalWidth),
    ).toBeGreaterThan(0);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-seed.png`, fullPage: true });

    // Every shortest path, three at a time.
    await page.selectOption('#page-size', '3');
    // The old page stays on screen, marked busy, until the new one arrives: wait for that.
    await expect.poll(() => page.locator('.page-status').innerText(), SHOWN).toMatch(/^1–3 of /);
    expect(await page.locator('.page-body').getAttribute('aria-busy')).toBeNull();
    const seen: string[][] = [];
    let first: string[] | null = null;
    for (;;) {
      await expect.poll(() => page.locator('.path-list li').count(), SHOWN).toBeGreaterThan(0);
      const status = await page.locator('.page-status').innerText();
      const items = await page.locator('.path-list li').allInnerTexts();
      if (first === null) first = items;
      else expect(items).not.toEqual(first);
      seen.push(items);
      const next = page.locator('.next-page');
      if (await next.isDisabled()) break;
      await next.click();
      await expect.poll(() => page.locator('.page-status').innerText(), SHOWN).not.toBe(status);
    }
    const all = seen.flat();
    expect(seen.length).toBeGreaterThan(1);
    expect(all).toHaveLength(Number(SEED.pathCount));
    expect(new Set(all).size).toBe(all.length);
    const library = SEED.paths({ first: 1000 }).edges.map((e) => e.node.squares.join(' → '));
    expect(all).toEqual(library);

    // The keyboard: arrows move focus, Enter toggles; back and forward step through questions.
    await square(page, 'e4').focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('f4');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('f5');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe('1');
    expect(await square(page, 'f5').getAttribute('class')).toContain('target');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('f5');
    await page.screenshot({ path: `${ARTIFACTS}/viewer-keyboard.png` });
    await page.goBack();
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe('4');
    await page.goForward();
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe('1');
    await page.goBack();
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe('4');

    // Save, load an empty board, and open it from the list.
    await page.fill('#analysis-title', 'Seed king');
    await page.click('#save-analysis');
    await expect.poll(() => page.inputValue('#edit-token'), SHOWN).toMatch(/\S{16,}/);
    // The list is read again after a save: leaving before it is answered would abort that read.
    await expect.poll(() => page.locator('.open-analysis', { hasText: 'Seed king' }).count(), SHOWN).toBe(1);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-saved.png`, fullPage: true });
    await page.goto(`${t.url}/?piece=KING&board=8x8`, { waitUntil: 'load' });
    expect(await page.locator('#board button[data-step]').count()).toBe(0);
    await page.locator('.open-analysis', { hasText: 'Seed king' }).click();
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe('4');
    expect(await shownCount(page)).toBe(String(SEED.pathCount));
    expect(new URL(page.url()).search).toBe('?piece=KING&board=8x8&from=e4&to=a1,h8');
    expect(await square(page, 'e4').getAttribute('class')).toContain('source');
    expect(await square(page, 'h8').getAttribute('class')).toContain('target');

    // A bad FEN: the error sits next to the FEN input.
    await page.fill('#fen', 'not a fen');
    await page.press('#fen', 'Tab');
    const fenError = page.locator('.fen-field #fen-error');
    await expect.poll(() => fenError.innerText(), SHOWN).toMatch(/\S/);
    expect(await page.locator('#error').innerText()).toBe('');
    await page.screenshot({ path: `${ARTIFACTS}/viewer-bad-fen.png` });

    // A phone-width window: the board scales, nothing scrolls sideways.
    await page.goto(`${t.url}/?piece=KING&board=8x8&from=e4&to=a1,h8`, { waitUntil: 'load' });
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe('4');
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      board: document.getElementById('board')!.getBoundingClientRect().width,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(widths.board).toBeLessThanOrEqual(375);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-phone.png`, fullPage: true });

    expect(watched.foreign).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });

  it('moves a piece of a pasted position', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watched = watchStrictly(page, new URL(t.url).origin);
    const fen = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    const want = solve({ piece: 'KNIGHT', from: ['g1'], to: ['e5'], fen });
    await page.goto(`${t.url}/?fen=${encodeURIComponent(fen)}&board=8x8&from=g1&to=e5`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe(String(want.distance));
    expect(await shownCount(page)).toBe(String(want.pathCount));
    expect(await square(page, 'g1').locator('.glyph').getAttribute('data-piece')).toBe('N');
    expect(await page.locator('#piece').isDisabled()).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-fen.png`, fullPage: true });
    expect(watched.foreign).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });

  it('has an icon, and a picture opened on its own meets no 404 for one', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watched = watchStrictly(page, new URL(t.url).origin);
    await page.goto(`${t.url}/`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe(String(SEED.distance));
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBe('/favicon.svg');
    const loaded = await page.evaluate(async (href) => {
      const img = new Image();
      img.src = href;
      await img.decode();
      return img.naturalWidth;
    }, icon ?? '');
    expect(loaded).toBeGreaterThan(0);
    // A picture opened on its own names no icon: the browser asks for /favicon.ico, which is there.
    await page.goto(`${t.url}/diagram.svg?piece=KING&from=e4&to=a1,h8`, { waitUntil: 'load' });
    expect(await page.locator('svg title').count()).toBe(1);
    await expect.poll(() => fetch(`${t.url}/favicon.ico`).then((r) => r.status), SHOWN).toBe(200);
    await page.goto(`${t.url}/?piece=KING&board=8x8`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('#hint').innerText(), SHOWN).toBe('Click the source squares.');
    expect(watched.foreign).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });
});

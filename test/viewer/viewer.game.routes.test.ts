/**
 * Routes of a game's pieces in the viewer, in headless Chromium against a real server: a king
 * that castled and a pawn that captured used moves no shortest path makes, and the verdict says
 * they are not compared (rather than "the way opened later"); a pawn that promoted offers, by
 * default, its moves up to the promotion, and the form keeps its two moves on one side of it,
 * so the route asked is one the API answers. Skipped outside CI without /usr/bin/chromium.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser, skipBrowser, watchStrictly } from '../support/browser.js';

/** A poll's patience: a request and a render, which a loaded machine stretches. */
const SHOWN = { timeout: 15_000 };

/** Captures and a promotion by the e-pawn (which takes on f8 as a queen), both castlings. */
const GAME =
  '1. e4 d5 2. e5 f5 3. exf6 Nc6 4. fxg7 Bf5 5. gxh8=Q Qd7 6. Nf3 O-O-O 7. Bc4 e6 8. O-O Nf6 9. Qxf8 Rxf8 10. d3 e5 *';

/** The button of a square. */
const square = (page: Page, name: string) => page.locator(`#board button[data-square="${name}"]`);

describe.skipIf(skipBrowser('viewer'))('viewer: routes of a game’s pieces', () => {
  const { server, browser } = serverAndBrowser();

  /** The verdict of the route from move `first` to `last` of the piece chosen. */
  async function compare(page: Page, first: string, last: string): Promise<string> {
    await page.selectOption('#route-first', first);
    await page.selectOption('#route-last', last);
    await page.click('#ask-route');
    const verdict = page.locator('.route-answer .route-verdict, .route-answer .error');
    await expect.poll(() => verdict.count(), SHOWN).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.route-answer').getAttribute('aria-busy'), SHOWN).toBeNull();
    return verdict.first().innerText();
  }

  it('does not compare castling or a pawn’s capture with a path, and keeps a promoted pawn’s range answerable', async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 1000 } });
    const watched = watchStrictly(page, new URL(server().url).origin);
    await page.goto(`${server().url}/`, { waitUntil: 'load' });
    await page.fill('#pgn', GAME);
    await page.click('#show-game');
    await expect.poll(() => page.locator('.ply-status').innerText(), SHOWN).toBe('Start position (20 plies)');

    await page.click('#game-last');
    await square(page, 'g1').click();
    await expect.poll(() => page.locator('.journey-panel h3').innerText(), SHOWN).toBe('White king from e1');
    expect(await compare(page, '1', '1')).toBe(
      'Moves 1 to 1 (e1 to g1) on the position before 8. O-O: used 1 move, castling (8. O-O), which no king path makes: not compared with the shortest path.',
    );

    await page.click('#game-first');
    await square(page, 'e2').click();
    await expect.poll(() => page.locator('.journey-panel h3').innerText(), SHOWN).toBe('White pawn from e2');
    // By default, up to the promoting move (5), not past it.
    expect(await page.inputValue('#route-first')).toBe('1');
    expect(await page.inputValue('#route-last')).toBe('5');
    expect(await compare(page, '1', '2')).toMatch(/used 2 moves, as many as the shortest path\.$/);
    expect(await compare(page, '3', '3')).toMatch(
      /used 1 move, a capture \(3\. exf6\), which no pawn path makes: not compared with the shortest path\.$/,
    );
    // The form keeps both moves on one side of the promotion, and the first no later than the last.
    await page.selectOption('#route-first', '2');
    await page.selectOption('#route-last', '6');
    expect(await page.inputValue('#route-first')).toBe('6');
    await page.selectOption('#route-first', '1');
    expect(await page.inputValue('#route-last')).toBe('5');
    await page.selectOption('#route-last', '3');
    await page.selectOption('#route-first', '4');
    expect(await page.inputValue('#route-last')).toBe('4');
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    await page.close();
  });
});

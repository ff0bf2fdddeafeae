/**
 * The viewer on a pasted position, in headless Chromium against a real server: a click on an
 * empty square as the source is refused at once and the position stays drawn; choosing
 * "obstacle" before pasting a FEN leaves clicks choosing the source (a position's pieces are its
 * obstacles); "avoid attacked squares" hatches the squares it avoids and says which targets it
 * dropped (f7, where a black pawn stands), as the library's mask has it. Skipped outside CI when /usr/bin/chromium is missing.
 */
import { parseBitboard, parseFen, positionQuery, STANDARD_BOARD, solve, squareName } from '@chess-paths/engine';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser, skipBrowser, watchStrictly } from '../support/browser.js';

/** The button of a square. */
const square = (page: Page, name: string) => page.locator(`#board button[data-square="${name}"]`);

/** A poll's patience: a request and a render, which a loaded machine stretches. */
const SHOWN = { timeout: 15_000 };

/** The squares drawn with a piece, sorted. */
const piecesShown = (page: Page) =>
  page
    .locator('#board button.has-piece')
    .evaluateAll((cells) => cells.map((c) => (c as HTMLElement).dataset.square as string).sort());

describe.skipIf(skipBrowser('viewer'))('viewer on a pasted position', () => {
  const { server, browser } = serverAndBrowser();

  it('refuses an empty square as the source, keeping the position on the board', async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 1000 } });
    const watched = watchStrictly(page, new URL(server().url).origin);
    const fen = '4k3/8/8/3r4/8/8/8/4K3 w - - 0 1';
    await page.goto(`${server().url}/?fen=${encodeURIComponent(fen)}&board=8x8`, { waitUntil: 'load' });
    await expect.poll(() => piecesShown(page), SHOWN).toEqual(['d5', 'e1', 'e8']);
    await square(page, 'c3').click();
    await expect
      .poll(() => page.locator('#board-error').innerText(), SHOWN)
      .toBe('c3 has no piece in this position: click one of its pieces as the source.');
    expect(new URL(page.url()).searchParams.get('from')).toBeNull();
    await square(page, 'e1').click();
    await page.locator('input[name="mode"][value="target"]').check();
    await square(page, 'e3').click();
    const want = solve({ piece: 'KING', from: ['e1'], to: ['e3'], fen });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe(String(want.distance));
    expect(await piecesShown(page)).toEqual(['d5', 'e1', 'e8']);
    // A link whose source is an empty square: the server refuses it, and the position is drawn.
    await page.goto(`${server().url}/?fen=${encodeURIComponent(fen)}&board=8x8&from=c3&to=c5`, { waitUntil: 'load' });
    await expect
      .poll(() => page.locator('#board-error, #fen-error, #error').allInnerTexts(), SHOWN)
      .toContainEqual(expect.stringMatching(/c3.*has no piece in this position/));
    expect(await piecesShown(page)).toEqual(['d5', 'e1', 'e8']);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.foreign).toEqual([]);
    await page.close();
  });

  it('chooses the source again when "obstacle" was chosen before a FEN', async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(`${server().url}/?piece=KING&board=8x8`, { waitUntil: 'load' });
    await page.locator('input[name="mode"][value="obstacle"]').check();
    await page.locator('#fen').fill('4k3/8/8/8/8/8/8/4K1N1 w - - 0 1');
    await page.locator('#fen').press('Enter');
    await expect.poll(() => piecesShown(page), SHOWN).toEqual(['e1', 'e8', 'g1']);
    expect(await page.locator('input[name="mode"][value="source"]').isChecked()).toBe(true);
    await square(page, 'g1').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from'), SHOWN).toBe('g1');
    await page.close();
  });

  it('hatches the attacked squares it avoids and names the targets they dropped', async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 1000 } });
    const fen = 'r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5';
    const asked = `?fen=${encodeURIComponent(fen)}&board=8x8&from=f3&to=f7`;
    await page.goto(`${server().url}/${asked}`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).not.toBe('');
    expect(await page.locator('#board button.attacked').count()).toBe(0);
    await page.locator('#avoid').check();
    await expect
      .poll(() => page.locator('.attacked-note').innerText(), SHOWN)
      .toBe('Squares the other side attacks are hatched in red and avoided; the target f7 is attacked, so left out.');
    // The library's answer: the squares out of its mask that no piece stands on, and the target.
    const want = solve(positionQuery(parseFen(fen), 'f3', ['f7'], true));
    const passable = parseBitboard(want.mask, STANDARD_BOARD);
    const occupied = new Set(parseFen(fen).pieces.map((p) => p.square));
    const avoided = Array.from({ length: 64 }, (_, i) => squareName(i, STANDARD_BOARD))
      .filter((name, i) => ((passable[i >>> 5] >>> (i & 31)) & 1) === 0 && (!occupied.has(name) || name === 'f7'))
      .sort();
    const hatched = await page
      .locator('#board button.attacked')
      .evaluateAll((cells) => cells.map((c) => (c as HTMLElement).dataset.square as string).sort());
    expect(avoided).toContain('f7');
    expect(hatched).toEqual(avoided);
    await page.close();
  });
});

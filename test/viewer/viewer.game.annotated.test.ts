/**
 * An annotated game in the viewer's game mode, in a real browser (Debian's headless Chromium
 * through playwright-core) against a real server and the built bundle (`npm test` builds first):
 * a coach's game with a comment before the first move and one before a move's number, comments
 * after moves, marks and NAGs, a variation with a nested one, and a checkmate. Every tag is in the
 * header table; comments, marks, variations, the result and the checkmate are shown where a
 * player reads them; a variation's moves (the nested one's too) show their positions, checked
 * against the API's FEN, and Left steps back out of them to the main line; the knight's maneuver
 * is listed with its verdict in words and, pressed, drawn on the board with the shorter way it
 * had; the queen's names the move that captured and gave check; a captured pawn names the move
 * that took it; the annotated PGN downloads under the game's name, as the API writes it. A server
 * with a small MAX_DEPTH still shows the game, with the line it cannot read said to be deeper.
 * No console error, failed request or request to another host. Screenshots at 1,280 x 900 go to
 * /tmp/chess-paths-viewer/game-annotated-*.png. Skipped outside CI without /usr/bin/chromium.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser, skipBrowser, watchStrictly } from '../support/browser.js';
import { startTestServer } from '../support/test-server.js';
import { SHOTS, SHOWN, square } from '../support/viewer-board.js';

/** A coach's game: comments before and after moves, marks, NAGs, a nested variation, a checkmate. */
const COACH = `[Event "Club training"]
[Site "Leiden NED"]
[Date "2024.03.09"]
[Round "3"]
[White "A. Coach"]
[Black "B. Student"]
[Result "1-0"]
[ECO "C23"]
[Annotator "A. Coach"]

{A short game with a long knight trip.} 1. e4 e5 2. Na3?! Nc6 3. Nb5 $6 a6 4. Nc3 Bc5
5. {The bishop at last.} Bc4 d6 6. Qh5 Nf6?? {Black had to guard f7.} (6... g6 7. Qf3
(7. Qxe5+?! Nxe5) 7... Nf6 8. Nd5 $14) 7. Qxf7# {Mate on f7.} 1-0`;

/** The positions the API answers: the main line's, the variation's, the nested one's. */
const POSITIONS = `query ($pgn: String!) { game(pgn: $pgn) {
  pgn(annotate: true)
  plies { position { fen } variations { plies { san position { fen } variations { plies { san position { fen } } } } } }
} }`;

/** The placement of a FEN, square by square: `{ e1: 'K', ... }`. */
function placement(fen: string): Record<string, string> {
  const out: Record<string, string> = {};
  fen
    .split(' ')[0]
    .split('/')
    .forEach((row, r) => {
      let file = 0;
      for (const c of row) {
        if (/\d/.test(c)) file += Number(c);
        else out[`${'abcdefgh'[file++]}${8 - r}`] = c;
      }
    });
  return out;
}

/** The pieces on the board by their letters: `{ e1: 'K', ... }`. */
function boardPieces(page: Page): Promise<Record<string, string>> {
  return page
    .locator('#board button[data-square]')
    .evaluateAll((cells) =>
      Object.fromEntries(
        cells
          .map((c) => [(c as HTMLElement).dataset.square, c.querySelector<HTMLElement>('.glyph')?.dataset.piece ?? ''])
          .filter(([, piece]) => piece !== ''),
      ),
    );
}

/** The moves of the arrows of a way drawn on the board (`made`, `open`). */
const wayMoves = (page: Page, kind: string) =>
  page
    .locator(`#board svg.ways .way.${kind} .arrow`)
    .evaluateAll((arrows) => arrows.map((a) => `${(a as SVGElement).dataset.from}-${(a as SVGElement).dataset.to}`));

/** Waits for the board to show a FEN (the page's FEN line too). */
async function expectFen(page: Page, fen: string): Promise<void> {
  await expect.poll(() => page.locator('.ply-fen').innerText(), SHOWN).toBe(fen);
  expect(await boardPieces(page)).toEqual(placement(fen));
}

describe.skipIf(skipBrowser('viewer annotated game'))('viewer: an annotated game', () => {
  const { server, browser } = serverAndBrowser();

  it('shows comments, marks, variations and the ending; plays variations; lists maneuvers; downloads the PGN', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const api = (await server().gql(POSITIONS, { pgn: COACH })).body.data.game;
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(SHOWN.timeout);
    const watched = watchStrictly(page, new URL(server().url).origin);
    await page.goto(`${server().url}/`, { waitUntil: 'load' });
    await page.fill('#pgn', COACH);
    await page.click('#show-game');
    await expect.poll(() => page.locator('.ply-status').innerText(), SHOWN).toBe('Start position (13 plies)');

    // Every tag, in the order written.
    const tags = await page
      .locator('.game-tags tr')
      .evaluateAll((rows) => rows.map((r) => [r.querySelector('th')?.textContent, r.querySelector('td')?.textContent]));
    expect(tags.map(([name]) => name)).toEqual([
      'Event',
      'Site',
      'Date',
      'Round',
      'White',
      'Black',
      'Result',
      'ECO',
      'Annotator',
    ]);
    expect(tags[8]).toEqual(['Annotator', 'A. Coach']);

    // The main line with its marks, and the comments where they were written, in reading order.
    expect(await page.locator('button.ply').allInnerTexts()).toEqual([
      'e4',
      'e5',
      'Na3?!',
      'Nc6',
      'Nb5?!',
      'a6',
      'Nc3',
      'Bc5',
      'Bc4',
      'd6',
      'Qh5',
      'Nf6??',
      'Qxf7#',
    ]);
    const nf6 = page.locator('button.ply[data-ply="12"]');
    expect(await nf6.locator('.nag').getAttribute('title')).toBe('Blunder');
    expect(await nf6.getAttribute('aria-label')).toBe('6... Nf6, blunder');
    const reading = await page
      .locator('.move-list')
      .evaluate((list) =>
        [...list.querySelectorAll('.interrupt > .comment, button.ply')].map((n) => n.textContent ?? ''),
      );
    expect(reading).toEqual([
      'A short game with a long knight trip.',
      ...['e4', 'e5', 'Na3?!', 'Nc6', 'Nb5?!', 'a6', 'Nc3', 'Bc5'],
      'The bishop at last.',
      ...['Bc4', 'd6', 'Qh5', 'Nf6??'],
      'Black had to guard f7.',
      'Qxf7#',
      'Mate on f7.',
    ]);
    // The variation after 6... Nf6, and the nested one inside it, with their marks.
    const variation = page.locator('.interrupt > .variation');
    expect(await variation.count()).toBe(1);
    expect((await variation.innerText()).replace(/\s+/g, ' ')).toBe(
      '6... g6 7. Qf3 7. Qxe5+?! Nxe5 7... Nf6 8. Nd5 +=',
    );
    expect(await variation.locator('.variation button.var-ply').allInnerTexts()).toEqual(['Qxe5+?!', 'Nxe5']);
    expect(await variation.locator('.nag.position').getAttribute('title')).toBe('White is slightly better');
    // The result closes the list, with the checkmate.
    const result = page.locator('.move-list .game-result');
    expect(await result.innerText()).toBe('1-0 Checkmate · White won');
    expect(await result.getAttribute('data-ending')).toBe('CHECKMATE');
    await page.screenshot({ path: `${SHOTS}/game-annotated-start.png` });

    // A variation's move shows its position; the nested line's too; Left steps back out of them.
    const variationPlies = api.plies[11].variations[0].plies;
    await page.locator('button.var-ply', { hasText: 'Qf3' }).click();
    await expect
      .poll(() => page.locator('.ply-status').innerText(), SHOWN)
      .toBe('In a variation: after 7. Qf3 (instead of 6... Nf6)');
    await expectFen(page, variationPlies[1].position.fen);
    expect(new URL(page.url()).hash).toBe('#ply=11&line=12.0.2');
    expect(await page.locator('button.var-ply[aria-current="step"]').innerText()).toBe('Qf3');
    expect(await page.locator('button.ply[aria-current="step"]').count()).toBe(0);
    expect(await square(page, 'f3').getAttribute('class')).toContain('moved');
    await page.locator('button.var-ply', { hasText: 'Nxe5' }).click();
    await expectFen(page, variationPlies[1].variations[0].plies[1].position.fen);
    expect(await page.locator('.ply-status').innerText()).toBe('In a variation: after 7... Nxe5 (instead of 7. Qf3)');
    await page.screenshot({ path: `${SHOTS}/game-annotated-variation.png` });
    await page.keyboard.press('ArrowLeft');
    await expectFen(page, variationPlies[1].variations[0].plies[0].position.fen);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Qxe5+?!');
    await page.keyboard.press('ArrowLeft');
    await expectFen(page, variationPlies[0].position.fen);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.locator('.ply-status').innerText(), SHOWN).toBe('After 6. Qh5 (ply 11 of 13)');
    await expectFen(page, api.plies[10].position.fen);
    await page.keyboard.press('ArrowRight');
    await expectFen(page, api.plies[11].position.fen);
    await page.keyboard.press('End');
    await expect.poll(() => page.locator('.ply-status').innerText(), SHOWN).toBe('After 7. Qxf7# (ply 13 of 13)');

    // The knight's maneuver: listed with its verdict, drawn with the shorter way that stayed open.
    await page.keyboard.press('Home');
    await square(page, 'b1').click();
    await expect.poll(() => page.locator('.journey-panel h3').innerText(), SHOWN).toBe('White knight from b1');
    const maneuver = page.locator('.maneuver-item');
    await expect.poll(() => maneuver.count(), SHOWN).toBe(1);
    expect(await maneuver.locator('.maneuver').innerText()).toMatch(/^2\. Na3 to 4\. Nc3\s+b1 → a3 → b5 → c3$/);
    expect(await maneuver.locator('.maneuver-verdict').innerText()).toBe('A detour: 3 moves where 1 stayed open.');
    await maneuver.locator('.maneuver').click();
    await expect.poll(() => wayMoves(page, 'made'), SHOWN).toEqual(['b1-a3', 'a3-b5', 'b5-c3']);
    expect(await wayMoves(page, 'open')).toEqual(['b1-c3']);
    expect(await maneuver.locator('.maneuver').getAttribute('aria-pressed')).toBe('true');
    expect(await maneuver.locator('.ways-legend').innerText()).toContain('the shorter way that stayed open');
    expect(new URL(page.url()).hash).toBe('#ply=2&piece=b1&maneuver=0');
    await expect.poll(() => page.locator('.ply-status').innerText(), SHOWN).toBe('After 1... e5 (ply 2 of 13)');
    // The route form stays for any span of its moves.
    expect(await page.locator('#ask-route').isVisible()).toBe(true);
    // The panel beside the board scrolls by itself: the board stays in view beside the verdict.
    await maneuver.scrollIntoViewIfNeeded();
    expect((await page.locator('#board').boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/game-annotated-maneuver.png` });
    await page.screenshot({ path: `${SHOTS}/game-annotated-maneuver-page.png`, fullPage: true });

    // The queen's maneuver names its capture and check; the f7 pawn names the move that took it.
    await square(page, 'd1').click();
    await expect.poll(() => page.locator('.journey-panel h3').innerText(), SHOWN).toBe('White queen from d1');
    await expect
      .poll(() => page.locator('.maneuver-verdict').innerText(), SHOWN)
      .toBe('Took the shortest way (2 moves).');
    expect(await page.locator('.maneuver-notes').innerText()).toBe('Captures: 7. Qxf7#. Checks: 7. Qxf7#.');
    expect(await wayMoves(page, 'made')).toEqual([]);
    await square(page, 'f7').click();
    await expect.poll(() => page.locator('.journey-end').innerText(), SHOWN).toBe('Captured by 7. Qxf7#.');
    expect(await page.locator('.maneuvers-none').innerText()).toMatch(/^No maneuvers/);

    // The annotated PGN, named after the game, as the API writes it: the author's words and the detour's arrows.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-pgn')]);
    expect(download.suggestedFilename()).toBe('A._Coach_vs_B._Student_Club_training_2024.03.09.pgn');
    const text = readFileSync(await download.path(), 'utf8');
    expect(text).toBe(api.pgn);
    expect(text).toContain('{Black had to guard f7.}');
    expect(text).toContain('[%cal Rb1a3,Ra3b5,Rb5c3,Gb1c3]');
    await expect.poll(() => page.locator('.download-status').innerText(), SHOWN).toContain('Downloaded');

    expect(watched.foreign).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });

  it('asks the game again within a smaller MAX_DEPTH, saying the line it cannot read is deeper', async () => {
    const shallow = await startTestServer({ database: true, env: { MAX_DEPTH: '6' } });
    try {
      const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
      page.setDefaultTimeout(SHOWN.timeout);
      const watched = watchStrictly(page, new URL(shallow.url).origin);
      await page.goto(`${shallow.url}/`, { waitUntil: 'load' });
      await page.fill('#pgn', COACH);
      await page.click('#show-game');
      await expect.poll(() => page.locator('.ply-status').innerText(), SHOWN).toBe('Start position (13 plies)');
      // One level of variations fits under 6: the nested line is counted, not read.
      expect(await page.locator('.interrupt > .variation > button.var-ply').allInnerTexts()).toEqual([
        'g6',
        'Qf3',
        'Nf6',
        'Nd5 +=',
      ]);
      expect(await page.locator('.variation .variation .deeper').innerText()).toMatch(/^A deeper line/);
      expect(watched.pageErrors).toEqual([]);
      // The first ask was refused for its depth (a 400 the browser reports), and nothing else.
      expect(watched.failed.every((f) => f.endsWith(': 400'))).toBe(true);
      await page.close();
    } finally {
      await shallow.close();
    }
  });
});

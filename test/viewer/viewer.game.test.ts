/**
 * The viewer's game mode at `/` in a real browser (Debian's headless Chromium through
 * playwright-core) against a real server with a database and the built bundle (`npm test` builds
 * first): the Opera Game (Morphy, Paris 1858) is pasted, stepped through with the buttons, the move
 * list and the keys, and at every ply visited the board's pieces are checked against the FEN the
 * page shows, and that FEN against the API's; the f1 bishop's journey is chosen (a click, then
 * Enter), its moves 1 to 3 compared with the shortest path (used 3, shortest 2, the layers as the
 * library solves them; moves counted, not called a detour, which is the maneuvers' word); the
 * game is saved, opened again from the list, reloaded, left and re-entered with back and
 * forward; a bad PGN shows the server's message; at a phone's width nothing scrolls sideways. No
 * console error, no failed request, nothing from another host. Screenshots go to
 * `test-artifacts/viewer-game-*.png`. Skipped outside CI without /usr/bin/chromium.
 */
import { mkdirSync } from 'node:fs';
import { solve } from '@chess-paths/engine';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser, watchStrictly } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const ARTIFACTS = 'test-artifacts';

/** How long a poll waits for the page to show something (a request and a render on a loaded machine). */
const SHOWN = { timeout: 15_000 };

/** Paul Morphy's Opera Game, with its tags. */
const OPERA = `[Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5
10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8
17. Rd8# 1-0`;

/** A game whose third black move no knight can make. */
const BAD = '1. e4 e5 2. Nf3 Nf6 3. Nc3 Nf6 4. d4 *';

/** The game as the API answers it. */
interface ApiGame {
  start: { fen: string };
  plies: { san: string; position: { fen: string } }[];
}

/** The button of a square. */
const square = (page: Page, name: string) => page.locator(`#board button[data-square="${name}"]`);

/** The placement of a FEN, square by square: `{ e1: 'K', ... }`, as the board draws its letters. */
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

/** The pieces on the board's squares by their letters (`data-piece` of each glyph): `{ e1: 'K', ... }`. */
function boardPieces(page: Page): Promise<Record<string, string>> {
  return page
    .locator('#board button[data-square]')
    .evaluateAll((cells) =>
      Object.fromEntries(
        cells
          .map((c) => [
            (c as HTMLElement).dataset.square,
            c.querySelector<HTMLElement>('.glyph:not(.mover)')?.dataset.piece ?? '',
          ])
          .filter(([, piece]) => piece !== ''),
      ),
    );
}

/** A numbered mark of every square that has one (`data-step`, `data-visits`). */
function marks(page: Page, name: 'step' | 'visits'): Promise<Record<string, string>> {
  return page
    .locator(`#board button[data-${name}]`)
    .evaluateAll(
      (cells, key) =>
        Object.fromEntries(cells.map((c) => [(c as HTMLElement).dataset.square, (c as HTMLElement).dataset[key]])),
      name,
    );
}

describe.skipIf(skipBrowser('viewer game'))('viewer game mode in headless Chromium', () => {
  let t: TestServer;
  let browser: Browser;
  let api: ApiGame;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await startTestServer({ database: true });
    browser = await launchChromium();
    const answer = await t.gql(
      'query ($pgn: String!) { game(pgn: $pgn) { start { fen } plies { san position { fen } } } }',
      {
        pgn: OPERA,
      },
    );
    api = answer.body.data.game;
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A page watched for console errors, failed requests, error statuses, page errors and other hosts. */
  async function openPage(width = 1280, height = 1000) {
    const page = await browser.newPage({ viewport: { width, height } });
    // An action that cannot happen fails with what it waited for, not with the test's timeout.
    page.setDefaultTimeout(SHOWN.timeout);
    const watched = watchStrictly(page, new URL(t.url).origin);
    const clean = () => {
      expect(watched.foreign).toEqual([]);
      expect(watched.pageErrors).toEqual([]);
      expect(watched.consoleErrors).toEqual([]);
      expect(watched.failed).toEqual([]);
    };
    return { page, clean };
  }

  /** Waits for the board to show the position after `ply` plies, and checks it against the FEN shown and the API's. */
  async function expectPly(page: Page, ply: number): Promise<void> {
    const status = ply === 0 ? 'Start position (33 plies)' : `(ply ${ply} of 33)`;
    await expect.poll(() => page.locator('.ply-status').innerText(), SHOWN).toContain(status);
    const fen = await page.locator('.ply-fen').innerText();
    expect(fen).toBe(ply === 0 ? api.start.fen : api.plies[ply - 1].position.fen);
    // The status line can be drawn a frame before the board's pieces (after back and forward).
    await expect.poll(() => boardPieces(page), SHOWN).toEqual(placement(fen));
    expect(new URL(page.url()).hash).toMatch(new RegExp(`(^#|&)ply=${ply}(&|$)`));
    if (ply > 0) {
      expect(await page.locator('button.ply[aria-current="step"]').innerText()).toBe(api.plies[ply - 1].san);
    } else expect(await page.locator('button.ply[aria-current="step"]').count()).toBe(0);
  }

  it('steps through the Opera Game, follows the f1 bishop, compares its route, saves and reopens it', async () => {
    const { page, clean } = await openPage();
    await page.goto(`${t.url}/`, { waitUntil: 'load' });
    await page.fill('#pgn', OPERA);
    await page.click('#show-game');

    // The tags, the start position and the move list.
    await expectPly(page, 0);
    expect(await page.locator('#answer-title').innerText()).toBe('Game');
    const tags = await page.locator('.game-tags').innerText();
    for (const text of ['Paul Morphy', 'Duke Karl / Count Isouard', 'Paris', '1-0']) expect(tags).toContain(text);
    expect(await page.locator('button.ply').allInnerTexts()).toEqual(api.plies.map((p) => p.san));
    expect(await page.locator('#piece').isVisible()).toBe(false);

    // The buttons.
    for (let ply = 1; ply <= 3; ply++) {
      await page.click('#game-next');
      await expectPly(page, ply);
    }
    expect(await marks(page, 'step')).toEqual({});
    expect(await square(page, 'g1').getAttribute('class')).toContain('moved');
    expect(await square(page, 'f3').getAttribute('class')).toContain('moved');
    await page.click('#game-prev');
    await expectPly(page, 2);
    await page.click('#game-last');
    await expectPly(page, 33);
    expect(await page.locator('.ply-status').innerText()).toBe('After 17. Rd8# (ply 33 of 33)');
    expect(await page.locator('#game-next').isDisabled()).toBe(true);
    await page.click('#game-first');
    await expectPly(page, 0);
    expect(await page.locator('#game-prev').isDisabled()).toBe(true);

    // The move list and the keys: Right, Left, End, Home step; focus stays on the current move.
    await page
      .locator('button.ply', { hasText: /^dxe5$/ })
      .first()
      .click();
    await expectPly(page, 7);
    await page.keyboard.press('ArrowRight');
    await expectPly(page, 8);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Bxf3');
    await page.keyboard.press('ArrowLeft');
    await expectPly(page, 7);
    await page.keyboard.press('End');
    await expectPly(page, 33);
    await page.keyboard.press('ArrowRight');
    await expectPly(page, 33);
    await page.keyboard.press('Home');
    await expectPly(page, 0);
    await page.keyboard.press('ArrowLeft');
    await expectPly(page, 0);

    // A piece by a click, then the f1 bishop by the keyboard: its squares numbered in order.
    await square(page, 'g1').click();
    await expect.poll(() => page.locator('.journey-panel h3').innerText(), SHOWN).toBe('White knight from g1');
    await square(page, 'g1').focus();
    await page.keyboard.press('ArrowLeft');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('f1');
    await expectPly(page, 0);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.journey-panel h3').innerText(), SHOWN).toBe('White bishop from f1');
    expect(await marks(page, 'visits')).toEqual({ f1: '0', c4: '1', b5: '2', d7: '3' });
    expect(await square(page, 'f1').getAttribute('class')).toContain('selected');
    expect(await page.locator('.journey-moves .journey-move').allInnerTexts()).toEqual([
      '6. Bc4',
      '11. Bxb5+',
      '15. Bxd7+',
    ]);
    expect(await page.locator('.journey-end').innerText()).toBe('Captured by 15... Nxd7.');
    expect(await page.locator('button.ply.journey-ply').allInnerTexts()).toEqual(['Bc4', 'Bxb5+', 'Bxd7+']);

    // Its moves 1 to 3 against the shortest path on the position before the first (after 5... dxe5).
    await page.selectOption('#route-first', '1');
    await page.selectOption('#route-last', '3');
    await page.click('#ask-route');
    // The answer, or a problem in its place: wait for either, so a problem is what the test reports.
    await expect.poll(() => page.locator('.route-answer').innerText(), SHOWN).toMatch(/\S/);
    const verdict = page.locator('.route-verdict');
    expect(await page.locator('.route-answer').innerText()).toContain(
      'used 3 moves; the shortest path on the position before them was 2',
    );
    expect(await verdict.getAttribute('data-used')).toBe('3');
    expect(await verdict.getAttribute('data-distance')).toBe('2');
    await expectPly(page, 10);
    const want = solve({ piece: 'BISHOP', from: ['f1'], to: ['d7'], fen: api.plies[9].position.fen });
    expect(want.distance).toBe(2);
    expect(await page.locator('.route-answer .distance').innerText()).toBe('2');
    const layers = Object.fromEntries(want.layers.flatMap((layer, k) => layer.squares.map((s) => [s, String(k)])));
    expect(await marks(page, 'step')).toEqual(layers);
    expect(new URL(page.url()).hash).toBe('#ply=10&piece=f1&route=1-3');
    await page.screenshot({ path: `${ARTIFACTS}/viewer-game.png`, fullPage: true });

    // Save it; open it again from the list on a fresh page: the same ply, piece and route.
    await page.fill('#analysis-title', 'Opera Game');
    await page.click('#save-analysis');
    await expect.poll(() => page.inputValue('#edit-token'), SHOWN).toMatch(/\S{16,}/);
    // The list is read again after a save: leaving before it is answered would abort that read.
    await expect.poll(() => page.locator('.open-analysis', { hasText: 'Opera Game' }).count(), SHOWN).toBe(1);
    await page.goto(`${t.url}/`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('#answer-title').innerText(), SHOWN).toBe('Answer');
    await page.locator('.open-analysis', { hasText: 'Opera Game' }).click();
    await expectPly(page, 10);
    await expect.poll(() => verdict.innerText(), SHOWN).toContain('used 3 moves; the shortest path on the position');
    expect(await page.locator('.game-tags').innerText()).toContain('Paul Morphy');
    const hash = new URL(page.url()).hash;
    expect(hash).toMatch(/^#analysis=[^&]+&ply=10&piece=f1&route=1-3$/);

    // A reload finds it from the URL; back leaves the game, forward enters it again.
    await page.reload({ waitUntil: 'load' });
    await expectPly(page, 10);
    await expect.poll(() => verdict.innerText(), SHOWN).toContain('before them was 2');
    await page.goBack();
    await expect.poll(() => page.locator('#answer-title').innerText(), SHOWN).toBe('Answer');
    expect(await page.locator('#piece').isVisible()).toBe(true);
    await page.goForward();
    await expectPly(page, 10);
    await page.click('#game-next');
    await expectPly(page, 11);

    // The position on the board as a path question, and back to the game.
    await page.click('#game-paths');
    await expect.poll(() => page.locator('#answer-title').innerText(), SHOWN).toBe('Answer');
    expect(new URL(page.url()).searchParams.get('fen')).toBe(api.plies[10].position.fen);
    expect(await page.inputValue('#fen')).toBe(api.plies[10].position.fen);
    await expect.poll(() => boardPieces(page), SHOWN).toEqual(placement(api.plies[10].position.fen));
    await page.goBack();
    await expectPly(page, 11);
    await page.click('#leave-game');
    await expect.poll(() => page.locator('#answer-title').innerText(), SHOWN).toBe('Answer');
    expect(new URL(page.url()).hash).toBe('');
    clean();
    await page.close();
  });

  it('leaves the game for an analysis without one', async () => {
    const saved = await t.gql(
      'mutation ($input: SaveAnalysisInput!) { saveAnalysis(input: $input) { analysis { id } } }',
      { input: { title: 'King e4 to h8', queries: [{ piece: 'KING', from: ['e4'], to: ['h8'] }] } },
    );
    expect(saved.body.errors).toBeUndefined();
    const { page, clean } = await openPage();
    // An empty board (not the example on /, which is also a king at distance 4).
    await page.goto(`${t.url}/?piece=KING&board=8x8`, { waitUntil: 'load' });
    await page.fill('#pgn', OPERA);
    await page.click('#show-game');
    await expectPly(page, 0);
    await page.locator('.open-analysis', { hasText: 'King e4 to h8' }).click();
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe('4');
    expect(await page.locator('#answer-title').innerText()).toBe('Answer');
    expect(new URL(page.url()).hash).toBe('');
    clean();
    await page.close();
  });

  it('shows the server message for a bad PGN', async () => {
    const { page, clean } = await openPage();
    const answer = await t.gql('query ($pgn: String!) { game(pgn: $pgn) { result } }', { pgn: BAD });
    const message = answer.body.errors?.[0].message ?? '';
    expect(message).toMatch(/^pgn: 3\.\.\. Nf6 is not legal here \(line 1, column \d+\)$/);
    await page.goto(`${t.url}/`, { waitUntil: 'load' });
    await page.fill('#pgn', BAD);
    await page.click('#show-game');
    await expect.poll(() => page.locator('#error').innerText(), SHOWN).toBe(message);
    expect(await page.locator('#answer-title').innerText()).toBe('Answer');
    await page.screenshot({ path: `${ARTIFACTS}/viewer-game-bad-pgn.png` });
    clean();
    await page.close();
  });

  it('fits a phone-width window', async () => {
    const { page, clean } = await openPage(375, 800);
    await page.goto(`${t.url}/`, { waitUntil: 'load' });
    await page.fill('#pgn', OPERA);
    await page.click('#show-game');
    await expectPly(page, 0);
    await page.click('#game-last');
    await expectPly(page, 33);
    await square(page, 'd8').click();
    await expect.poll(() => page.locator('.journey-panel h3').innerText(), SHOWN).toBe('White rook from h1');
    await page.click('#ask-route');
    await expect.poll(() => page.locator('.route-answer').innerText(), SHOWN).toMatch(/\S/);
    expect(await page.locator('.route-verdict').innerText()).toMatch(/^Moves 1 to 2 \(h1 to d8\) .*: used 2 moves/);
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      board: document.getElementById('board')?.getBoundingClientRect().width ?? 0,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(widths.board).toBeLessThanOrEqual(375);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-game-phone.png`, fullPage: true });
    clean();
    await page.close();
  });
});

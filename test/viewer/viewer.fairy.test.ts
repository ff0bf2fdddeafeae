/**
 * The viewer's fairy pieces in a real browser (Debian's headless Chromium through playwright-core)
 * against a real server with a database and the built bundle (`npm test` builds first): "fairy
 * piece" shows the Betza field and its presets; the nightrider preset asks the question, and the
 * numbers, step marks and canonical text are the library's own `solve`; an equal text (`N0`)
 * answers the same; a text that is an orthodox piece says so; a bad text shows the server's
 * message and leaves the board usable; the URL reproduces the question after a reload; a saved
 * analysis keeps the Betza text and opens again; the keyboard alone types a text; a phone-width
 * window does not scroll sideways; no console error, failed request or request to another host.
 * A cannon's picture rings the hurdle its smallest path jumps. Screenshots go to `test-artifacts/viewer-fairy-*.png`. Skipped outside CI when
 * /usr/bin/chromium is missing.
 */
import { mkdirSync } from 'node:fs';
import { diagramSpecOf, parseSquare, renderDiagram, solve } from '@chess-paths/engine';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser, watchStrictly } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const ARTIFACTS = 'test-artifacts';

/** The nightrider from a1 to h8, as the library answers it. */
const NIGHTRIDER = solve({ piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'] });
/** The camel from a1 to h8. */
const CAMEL = solve({ piece: 'FAIRY', betza: 'C', from: ['a1'], to: ['h8'] });
/** The cannon from a1 to a8 over a4: one move, its only path hops the blocked square. */
const CANNON = solve({ piece: 'FAIRY', betza: 'pR', from: ['a1'], to: ['a8'], blocked: ['a4'] });
/** The king (`WF`) from a1 to h8. */
const KING = solve({ piece: 'FAIRY', betza: 'WF', from: ['a1'], to: ['h8'] });

const QUESTION = '?piece=FAIRY&betza=NN&board=8x8&from=a1&to=h8';

/** The button of a square. */
const square = (page: Page, name: string) => page.locator(`#board button[data-square="${name}"]`);

/** How long a poll waits for the page to show something (a request and a render on a loaded machine). */
const SHOWN = { timeout: 15_000 };

/** The step marks on the board, square to step. */
const stepMarks = (page: Page) =>
  page
    .locator('#board button[data-step]')
    .evaluateAll((cells) =>
      Object.fromEntries(
        cells.map((c) => [(c as HTMLElement).dataset.square, Number((c as HTMLElement).dataset.step)]),
      ),
    );

describe.skipIf(skipBrowser('viewer fairy'))('viewer fairy pieces in headless Chromium', () => {
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

  it('the library answers the questions asked here', () => {
    expect(NIGHTRIDER).toMatchObject({ piece: 'FAIRY', betza: 'NN', reachable: true });
    expect(NIGHTRIDER.distance).toBeGreaterThan(1);
    expect(CAMEL.distance).not.toBe(NIGHTRIDER.distance);
    expect(KING).toMatchObject({ piece: 'KING', betza: 'K' });
  });

  it('asks a nightrider from its preset, refuses a bad text, and keeps the question in the URL and an analysis', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watched = watchStrictly(page, new URL(t.url).origin);
    const distance = page.locator('.distance');
    const reading = page.locator('.piece-reading');

    await page.goto(`${t.url}/?piece=KING&board=8x8`, { waitUntil: 'load' });
    expect(await page.locator('#betza').isVisible()).toBe(false);
    await page.selectOption('#piece', 'FAIRY');
    expect(await page.locator('#betza').isVisible()).toBe(true);
    expect(await page.getByLabel('Betza text').getAttribute('aria-describedby')).toBe('betza-hint');
    await expect.poll(() => page.locator('#hint').innerText(), SHOWN).toMatch(/Betza text/);
    await page.getByLabel('Named pieces').selectOption({ label: 'nightrider (NN)' });
    expect(await page.inputValue('#betza')).toBe('NN');
    await square(page, 'a1').click();
    await page.getByLabel('target').check();
    await square(page, 'h8').click();

    // The library's numbers, step marks and canonical text.
    await expect.poll(() => distance.innerText(), SHOWN).toBe(String(NIGHTRIDER.distance));
    expect((await page.locator('.path-count').innerText()).replace(/,/g, '')).toBe(String(NIGHTRIDER.pathCount));
    expect(await stepMarks(page)).toEqual(
      Object.fromEntries(NIGHTRIDER.layers.flatMap((layer, k) => layer.squares.map((s) => [s, k]))),
    );
    expect(await page.locator('.smallest-path').innerText()).toBe(NIGHTRIDER.path!.squares.join(' → '));
    expect(await reading.innerText()).toBe(`nightrider, Betza ${NIGHTRIDER.betza}`);
    expect(new URL(page.url()).search).toBe(QUESTION);
    await expect.poll(() => page.locator('.page-status').innerText(), SHOWN).toMatch(/ of /);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-fairy-nightrider.png`, fullPage: true });

    // Save it: the analysis keeps the text, and opens again after a reload.
    await page.fill('#analysis-title', 'Fairy nightrider');
    await page.click('#save-analysis');
    await expect.poll(() => page.inputValue('#edit-token'), SHOWN).toMatch(/\S{16,}/);
    const entry = page.locator('.open-analysis', { hasText: 'Fairy nightrider' });
    await expect.poll(() => entry.count(), SHOWN).toBe(1);
    const id = await entry.getAttribute('data-id');
    const stored = await t.gql('query ($id: ID!) { analysis(id: $id) { results { piece betza distance } } }', { id });
    expect(stored.body.errors).toBeUndefined();
    expect(stored.body.data.analysis.results).toEqual([{ piece: 'FAIRY', betza: 'NN', distance: NIGHTRIDER.distance }]);
    await page.goto(`${t.url}/?piece=KING&board=8x8`, { waitUntil: 'load' });
    await page.locator('.open-analysis', { hasText: 'Fairy nightrider' }).click();
    await expect.poll(() => distance.innerText(), SHOWN).toBe(String(NIGHTRIDER.distance));
    expect(new URL(page.url()).search).toBe(QUESTION);
    expect(await page.inputValue('#betza')).toBe('NN');

    // A text with the same moves answers the same, with the canonical text.
    await page.fill('#betza', 'N0');
    await expect.poll(() => new URL(page.url()).search, SHOWN).toBe(QUESTION.replace('NN', 'N0'));
    await expect.poll(() => reading.innerText(), SHOWN).toBe('nightrider, Betza NN');
    expect(await distance.innerText()).toBe(String(NIGHTRIDER.distance));

    // A text that is an orthodox piece says so.
    await page.fill('#betza', 'WF');
    await expect.poll(() => reading.innerText(), SHOWN).toBe('This is the king: K');
    expect(await distance.innerText()).toBe(String(KING.distance));

    // A bad text: the server's message in the page's error area; the board still takes clicks.
    await page.fill('#betza', 'pN');
    await expect
      .poll(() => page.locator('#error').innerText(), SHOWN)
      .toBe(`query.betza: "pN" 'p' at 1 is a hopper before the leaper N: it needs an unlimited rider`);
    expect(await page.locator('#answer').innerText()).toBe('');
    expect(await page.locator('#board button[data-step]').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-fairy-error.png`, fullPage: true });
    await page.getByLabel('target').check();
    await square(page, 'g6').click();
    await expect.poll(() => square(page, 'g6').getAttribute('class'), SHOWN).toContain('target');
    expect(new URL(page.url()).search).toBe('?piece=FAIRY&betza=pN&board=8x8&from=a1&to=h8,g6');

    // Reloading the URL asks the same question again: the same error, then the nightrider.
    await page.reload({ waitUntil: 'load' });
    await expect
      .poll(() => page.locator('#error').innerText(), SHOWN)
      .toMatch(/'p' at 1 is a hopper before the leaper N/);
    expect(await page.inputValue('#piece')).toBe('FAIRY');
    expect(await page.inputValue('#betza')).toBe('pN');
    await page.goto(`${t.url}/${QUESTION}`, { waitUntil: 'load' });
    await expect.poll(() => distance.innerText(), SHOWN).toBe(String(NIGHTRIDER.distance));
    expect(await page.inputValue('#piece')).toBe('FAIRY');
    expect(await page.inputValue('#betza')).toBe('NN');
    expect(await page.inputValue('#betza-preset')).toBe('NN');
    expect(await reading.innerText()).toBe(`nightrider, Betza NN`);
    expect(await page.locator('#error').innerText()).toBe('');

    // The keyboard alone: type a camel and press Enter; back returns to the nightrider.
    await page.focus('#betza');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('C');
    await page.keyboard.press('Enter');
    await expect.poll(() => distance.innerText(), SHOWN).toBe(String(CAMEL.distance));
    expect(await reading.innerText()).toBe('camel, Betza C');
    expect(await page.inputValue('#betza-preset')).toBe('C');
    await page.goBack();
    await expect.poll(() => distance.innerText(), SHOWN).toBe(String(NIGHTRIDER.distance));
    expect(await page.inputValue('#betza')).toBe('NN');

    // A phone-width window: the field and the board fit, nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${t.url}/${QUESTION}`, { waitUntil: 'load' });
    await expect.poll(() => distance.innerText(), SHOWN).toBe(String(NIGHTRIDER.distance));
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      betza: document.getElementById('betza')!.getBoundingClientRect().right,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(widths.betza).toBeLessThanOrEqual(375);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-fairy-phone.png`, fullPage: true });

    expect(watched.foreign).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });

  it("rings the hurdle of a cannon's smallest path in the picture, as the library draws it", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watched = watchStrictly(page, new URL(t.url).origin);
    await page.goto(`${t.url}/?piece=FAIRY&betza=pR&board=8x8&from=a1&to=a8&blocked=a4`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('.distance').innerText(), SHOWN).toBe('1');
    expect(await page.locator('.smallest-path').innerText()).toBe('a1 → a8');
    await page.locator('#picture-box summary').click();
    const src = (await page.locator('#picture img.diagram').getAttribute('src')) ?? '';
    const svg = decodeURIComponent(src.slice(src.indexOf(',') + 1));
    // a4: file a, row 4 from the top, on 48-unit squares from (24, 8).
    expect(svg).toMatch(/<g class="hurdles" fill="none">\n<circle cx="48" cy="224" /);
    expect(svg).toContain('>hurdle jumped</text>');
    const path = CANNON.path?.squares.map((name) => parseSquare(name, CANNON.board));
    expect(svg).toBe(renderDiagram({ ...diagramSpecOf(CANNON, { path }), pieces: [] }));
    await page.locator('#picture img.diagram').screenshot({ path: `${ARTIFACTS}/viewer-fairy-cannon.png` });
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });
});

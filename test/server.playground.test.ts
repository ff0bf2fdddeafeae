/**
 * The offline playground in a real browser: Debian's headless Chromium, driven by playwright-core,
 * loads GET /graphql, finds the seed example as the default query, runs it, and shows the answer,
 * while every request the page makes is recorded: none may go to any host other than the server.
 *
 * Playwright gives the browser a fresh temporary profile. Without Chromium the test is skipped
 * outside CI (`test/support/browser.ts`).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser, watchPage } from './support/browser.js';
import { startTestServer, type TestServer } from './support/test-server.js';

describe.skipIf(skipBrowser('playground'))('offline playground in headless Chromium', () => {
  let t: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestServer({ database: false });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders GraphiQL with the seed example, runs it, and talks to no other host', async () => {
    const page = await browser.newPage();
    const origin = new URL(t.url).origin;
    const { foreign, pageErrors: consoleErrors } = watchPage(page, origin);

    await page.goto(`${t.url}/graphql`, { waitUntil: 'load' });
    expect(await page.title()).toBe('chess-paths playground');

    // The editor shows the default query (Monaco renders it as text lines).
    const editor = page.locator('.graphiql-query-editor');
    await editor.waitFor({ timeout: 30_000 });
    await expect.poll(() => editor.innerText(), { timeout: 30_000 }).toContain('SeedExample');

    // Run it: the page POSTs to /graphql and shows the answer.
    const answer = page.waitForResponse(
      (res) =>
        res.url() === `${t.url}/graphql` &&
        res.request().method() === 'POST' &&
        (res.request().postData() ?? '').includes('SeedExample'),
      { timeout: 30_000 },
    );
    await page.locator('.graphiql-execute-button').click();
    const response = await answer;
    expect(response.status()).toBe(200);
    const json = (await response.json()) as {
      data: { shortestPaths: { distance: number; layers: { squares: string[] }[] } };
    };
    expect(json.data.shortestPaths.distance).toBe(4);
    expect(json.data.shortestPaths.layers[4].squares).toEqual(['a1', 'h8']);
    // Monaco renders spaces as no-break spaces.
    const result = page.locator('.graphiql-response');
    const shown = async () => (await result.innerText()).replace(/\u00a0/g, ' ');
    await expect.poll(shown, { timeout: 30_000 }).toContain('"distance": 4');

    expect(foreign).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });
});

/**
 * The offline playground in a real browser: Debian's headless Chromium, driven by playwright-core,
 * loads GET /graphql, finds the seed example in the editor, runs it, and shows the answer, with
 * the boards of `asciiLines` one row per line (never wrapped). The page's script, style and
 * editor workers come from /playground/ under hashed names, immutable and Brotli-compressed (the
 * browser asks for `br`). Once open, the page installs its service worker (scope: its own path),
 * which puts exactly those files into a cache of this build. A second visit in the same browser
 * profile is controlled by it and opens on the seed example again: its script and style come out
 * of that cache (Resource Timing says so, and the server's request counter for the files stays
 * put), while the page itself and the query's POST go to the server untouched. Strictly watched
 * throughout: no request to another host, no error, no failed request. Assertions are on what
 * happened, never on time (`npm run bench:playground` measures that).
 *
 * Screenshots of the answer at 1,920 x 1,080 and 1,280 x 800 go to /tmp/chess-paths-playground/.
 * Playwright gives each browser context a fresh profile. Without Chromium the test is skipped
 * outside CI (`test/support/browser.ts`).
 */
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPlaygroundFiles } from '../src/graphql/apollo/playground.js';
import { launchChromium, skipBrowser, watchStrictly } from './support/browser.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const SHOTS = '/tmp/chess-paths-playground';
const REQUESTS = 'chess_paths_http_requests_total';

/** The answer of the seed example, as the page received it. */
interface SeedAnswer {
  data: { shortestPaths: { distance: number; overlay: { asciiLines: string[] }; layers: { squares: string[] }[] } };
}

describe.skipIf(skipBrowser('playground'))('offline playground in headless Chromium', () => {
  let t: TestServer;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    t = await startTestServer({ database: false });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  /**
   * Opens the playground in a new tab; resolves once the editor shows the seed example, with the
   * headers of the files the browser received (from the server or its cache) and the workers started.
   */
  async function open() {
    const page = await context.newPage();
    const watched = watchStrictly(page, new URL(t.url).origin);
    const workers = new Set<string>();
    page.on('worker', (worker) => workers.add(new URL(worker.url()).pathname));
    const fetched = new Map<string, Record<string, string>>();
    const fromWorker = new Set<string>();
    page.on('response', (res) => {
      const path = new URL(res.url()).pathname;
      if (res.fromServiceWorker()) fromWorker.add(path);
      if (path.startsWith('/playground/')) fetched.set(path, res.headers());
    });
    await page.goto(`${t.url}/graphql`, { waitUntil: 'load' });
    expect(await page.title()).toBe('chess-paths playground');
    // Monaco renders the query as text lines, spaces as no-break spaces.
    const editor = page.locator('.graphiql-query-editor');
    const text = async () => (await editor.innerText()).replace(/\u00a0/g, ' ');
    await expect.poll(text, { timeout: 30_000 }).toContain('query SeedExample');
    return { page, workers, watched, fetched, fromWorker };
  }

  /** Presses run; resolves with the answer once the result pane shows it. */
  async function run(page: Page): Promise<SeedAnswer> {
    const answer = page.waitForResponse(
      (res) =>
        res.url() === `${t.url}/graphql` &&
        res.request().method() === 'POST' &&
        res.request().headers()['content-type'] === 'application/json' &&
        (res.request().postData() ?? '').includes('SeedExample'),
      { timeout: 30_000 },
    );
    await page.locator('.graphiql-execute-button').click();
    const response = await answer;
    expect(response.status()).toBe(200);
    const json = (await response.json()) as SeedAnswer;
    const shown = async () => (await page.locator('.graphiql-response').innerText()).replace(/\u00a0/g, ' ');
    await expect.poll(shown, { timeout: 30_000 }).toContain('"distance": 4');
    return json;
  }

  /** The result pane's rendered lines, as text. */
  const resultLines = (page: Page) =>
    page.$$eval('.graphiql-response .view-line', (lines) =>
      lines.map((line) => (line.textContent ?? '').replace(/\u00a0/g, ' ').trim()),
    );

  it('opens on the seed example from hashed, immutable, Brotli files, runs it, and talks to no other host', async () => {
    const files = (await readPlaygroundFiles())!;
    const { page, workers, watched, fetched } = await open();
    const json = await run(page);
    const { distance, layers, overlay } = json.data.shortestPaths;
    expect(distance).toBe(4);
    expect(layers[4].squares).toEqual(['a1', 'h8']);
    // Rank 8 first: the fifth board (step 4) shows h8 reached, the first (step 0) shows nothing on rank 8.
    expect(overlay.asciiLines[0].trimEnd().endsWith('1')).toBe(true);
    // Each row of boards on one line of the result pane: not wrapped.
    await expect.poll(() => resultLines(page), { timeout: 30_000 }).toContain(`"${overlay.asciiLines[0]}",`);
    const lines = await resultLines(page);
    for (const row of overlay.asciiLines.slice(0, -1)) expect(lines).toContain(`"${row}",`);
    await page.screenshot({ path: `${SHOTS}/seed-1920x1080.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => resultLines(page)).toContain(`"${overlay.asciiLines[0]}",`);
    await page.screenshot({ path: `${SHOTS}/seed-1280x800.png` });

    // The editor's workers are files of the build too (started once the editor needs them).
    const workerPaths = Object.values(files.workers).map((name) => `/playground/${name}`);
    await expect.poll(() => [...workers], { timeout: 30_000 }).toEqual(expect.arrayContaining(workerPaths));
    const paths = [files.script, files.style, ...Object.values(files.workers)].map((name) => `/playground/${name}`);
    expect([...fetched.keys()].sort()).toEqual([...paths].sort());
    for (const path of paths) {
      expect(path).toMatch(/^\/playground\/[a-z-]+-[0-9a-f]{16}\.(js|css)$/);
      const headers = fetched.get(path);
      expect(headers?.['content-encoding']).toBe('br');
      expect(headers?.['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    // Once it has opened, the page installs its service worker, for its own path, which puts the
    // build's files (and nothing else) into a cache of this build.
    // (Code run in the page is given as text: the tests compile without the DOM's types.)
    const worker = await page.evaluate(`navigator.serviceWorker.ready.then((registration) => ({
      scope: registration.scope,
      script: registration.active?.scriptURL,
    }))`);
    expect(worker).toEqual({ scope: `${t.url}/graphql`, script: `${t.url}/playground/sw.js` });
    const cached: Record<string, string[]> = await page.evaluate(`(async () => {
      const found = {};
      for (const name of await caches.keys()) {
        found[name] = (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname);
      }
      return found;
    })()`);
    expect(Object.keys(cached)).toEqual([expect.stringMatching(/^chess-paths-playground-[0-9a-f]{16}$/)]);
    expect(Object.values(cached)[0].sort()).toEqual([...paths].sort());
    expect(watched.foreign).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });

  it('opens again on the seed example with its script and style from the service worker, the server asked for none', async () => {
    const files = (await readPlaygroundFiles())!;
    const asked = await t.metric(REQUESTS, { route: 'playground' });
    const pages = await t.metric(REQUESTS, { route: 'graphql', method: 'GET' });
    const posts = await t.metric(REQUESTS, { route: 'graphql', method: 'POST' });
    const { page, workers, watched, fetched, fromWorker } = await open();
    expect(await run(page)).toMatchObject({ data: { shortestPaths: { distance: 4 } } });
    expect(await page.evaluate('navigator.serviceWorker.controller?.scriptURL')).toBe(`${t.url}/playground/sw.js`);
    // The script and the style came out of the worker's cache (Chromium's static routes: the
    // browser read them there itself); the page and its POSTs went to the server, untouched.
    const main = [files.script, files.style].map((name) => `/playground/${name}`);
    expect([...fromWorker].sort()).toEqual([...main].sort());
    const timings: { path: string; type: string; source?: string; delivery: string }[] = await page.evaluate(
      `[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((e) => ({
        path: new URL(e.name).pathname,
        type: e.initiatorType,
        source: e.workerFinalSourceType,
        delivery: e.deliveryType,
      }))`,
    );
    for (const path of main) {
      expect(timings.find((e) => e.path === path)).toMatchObject({ source: 'cache', delivery: 'cache-storage' });
    }
    const api = timings.filter((e) => e.path === '/graphql');
    expect([...new Set(api.map((e) => e.type))].sort()).toEqual(['fetch', 'navigation']);
    for (const entry of api) expect(entry.source).toBe('network');
    expect(await t.metric(REQUESTS, { route: 'graphql', method: 'POST' })).toBeGreaterThan(posts);
    expect([...fetched.keys()]).toEqual(expect.arrayContaining(main));
    // GraphiQL reopens the first visit's tab, the seed example's, and adds no other.
    expect(await page.locator('.graphiql-tab .graphiql-tab-button').allInnerTexts()).toEqual(['SeedExample']);
    const workerPaths = Object.values(files.workers).map((name) => `/playground/${name}`);
    await expect.poll(() => [...workers], { timeout: 30_000 }).toEqual(expect.arrayContaining(workerPaths));
    // Every file read from a cache (the editor workers' from the HTTP cache); only the page (about
    // 2 KB) asked again: the playground's POSTs to /graphql make the browser drop its copy of it.
    expect(await t.metric(REQUESTS, { route: 'playground' })).toBe(asked);
    expect(await t.metric(REQUESTS, { route: 'graphql', method: 'GET' })).toBe(pages + 1);
    expect(watched.foreign).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });
});

/**
 * Debian's headless Chromium for the browser tests (the playground, the viewer), driven by
 * playwright-core. When /usr/bin/chromium is missing these tests are skipped with a message,
 * except in CI (`CI` set), where a missing browser is a failure (`.ci/run` installs it).
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './test-server.js';

/** Where Debian installs Chromium. */
export const CHROMIUM = '/usr/bin/chromium';

/** True when the browser tests are to be skipped (no Chromium, outside CI); says so once. */
export function skipBrowser(what: string): boolean {
  const skip = !existsSync(CHROMIUM) && !process.env.CI;
  if (skip) console.warn(`Skipping the ${what} browser test: ${CHROMIUM} is missing (apt-get install -y chromium).`);
  return skip;
}

/** Chromium's flags: headless, and nothing of its own on the network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Launches headless Chromium with a fresh profile and nothing of its own on the network. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium (see .ci/run)`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** What a page did that a test forbids: requests to another origin than `origin`, and uncaught errors. */
export function watchPage(page: Page, origin: string): { foreign: string[]; pageErrors: string[] } {
  const foreign: string[] = [];
  const pageErrors: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return;
    if (new URL(url).origin !== origin) foreign.push(url);
  });
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  return { foreign, pageErrors };
}

/** Everything a page must not do: other hosts, uncaught errors, console errors, failed or refused requests. */
export function watchStrictly(page: Page, origin: string) {
  const watched = { ...watchPage(page, origin), consoleErrors: [] as string[], failed: [] as string[] };
  page.on('console', (message) => {
    if (message.type() === 'error') watched.consoleErrors.push(message.text());
  });
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText;
    // The browser's own fetch of the tab's icon, cut short when a test navigates on before it
    // ends: not a request of the page (a missing icon still shows as a 404 below).
    if (error === 'net::ERR_ABORTED' && new URL(request.url()).pathname.startsWith('/favicon')) return;
    watched.failed.push(`${request.url()}: ${error}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) watched.failed.push(`${response.url()}: ${response.status()}`);
  });
  return watched;
}

/**
 * For a file of browser tests: a server with a database and a browser, started before its tests
 * and closed after them (call at the top of a `describe`); the getters give them to the tests.
 */
export function serverAndBrowser(): { server: () => TestServer; browser: () => Browser } {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startTestServer({ database: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return { server: () => server as TestServer, browser: () => browser as Browser };
}

/**
 * The README's client examples from a page on another origin, in Chromium: Apollo Client (queries
 * over GET, a mutation over POST with its preflight) and urql with its defaults, bundled as a front
 * end's build bundles them, against a server with the default configuration. Every answer is the
 * API's, and the browser refused nothing: CORS is open by default.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser, watchStrictly } from './support/browser.js';
import { type PageServer, startPageServer } from './support/cross-origin-page.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const skip = skipBrowser('cross-origin clients');

describe.skipIf(skip)('a page on another origin', () => {
  let api: TestServer;
  let pages: PageServer;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    [api, pages, browser] = await Promise.all([
      startTestServer({ database: true }),
      startPageServer({ entry: new URL('./support/pages/clients-page.ts', import.meta.url).pathname }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([api?.close(), pages?.close()]);
  });

  it("runs the README's Apollo Client and urql examples against the default server", async () => {
    const page: Page = await browser.newPage();
    const watched = watchStrictly(page, pages.origin);
    const requests: { method: string; url: string }[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(api.url)) requests.push({ method: r.method(), url: r.url() });
    });
    await page.goto(pages.pageFor(`${api.url}/graphql`));
    const answers = await page.evaluate(() => (window as unknown as { answers: Promise<unknown> }).answers);
    const seed = { shortestPaths: { __typename: 'PathResult', distance: 4, pathCount: '8' } };
    expect(answers).toEqual({
      apolloQuery: { data: seed },
      apolloMutation: {
        data: {
          saveAnalysis: {
            __typename: 'SavedAnalysis',
            editToken: expect.any(String),
            analysis: {
              __typename: 'Analysis',
              title: 'from another origin',
              results: [{ __typename: 'PathResult', distance: 4 }],
            },
          },
        },
      },
      urqlQuery: { data: seed },
    });
    // Apollo asked over GET, the mutation went over POST after its preflight.
    expect(requests.some((r) => r.method === 'GET')).toBe(true);
    expect(requests.some((r) => r.method === 'POST')).toBe(true);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });
});

/**
 * The viewer's HTTP route without a browser: the page with its security headers, no-cache and
 * ETag (304 on a match); the hashed bundle cached for a year; 503 when nothing is built; the icon
 * at /favicon.svg (which the page links) and /favicon.ico, a well-formed SVG, built or not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWellFormedXml } from '../../packages/engine/test/support/xml.js';
import { FAVICON_SVG, viewerRoute } from '../../src/http/viewer-route.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('GET / and /viewer/*', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ database: false });
  });
  afterAll(async () => t?.close());

  it('serves the page with no-cache, an ETag and a strict CSP, and the bundle for a year', async () => {
    const res = await fetch(`${t.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = res.headers.get('etag')!;
    const html = await res.text();
    expect(html).not.toMatch(/(src|href)="https?:/);
    const again = await fetch(`${t.url}/`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);

    const script = /src="(\/viewer\/viewer-[\w]+\.js)"/.exec(html)![1];
    const style = /href="(\/viewer\/viewer-style-[\w]+\.css)"/.exec(html)![1];
    const js = await fetch(`${t.url}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${t.url}${style}`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${t.url}/viewer/nope.js`)).status).toBe(404);
    expect(await t.metric('chess_paths_http_requests_total', { route: 'viewer' })).toBeGreaterThanOrEqual(4);
  });

  it('serves the icon the page links, and at /favicon.ico', async () => {
    const html = await (await fetch(`${t.url}/`)).text();
    expect(html).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const res = await fetch(`${t.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
      expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
      const svg = await res.text();
      expect(svg).toBe(FAVICON_SVG);
      expect(checkWellFormedXml(svg)).toBe('svg');
      const again = await fetch(`${t.url}${path}`, { headers: { 'if-none-match': res.headers.get('etag')! } });
      expect(again.status).toBe(304);
      const head = await fetch(`${t.url}${path}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
    }
    expect(FAVICON_SVG.length).toBeLessThan(1024);
    expect(FAVICON_SVG).not.toMatch(/href|<script|<image/);
  });

  it('answers 503 when the viewer is not built', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'viewer-empty-'));
    const route = viewerRoute(dir);
    const server = createServer((req, res) => void route(req, res, new URL(req.url!, 'http://x').pathname));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toContain('the viewer is not built: run npm run build');
      const icon = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/favicon.ico`);
      expect(icon.status).toBe(200);
      expect(await icon.text()).toBe(FAVICON_SVG);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

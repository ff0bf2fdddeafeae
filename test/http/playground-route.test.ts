/**
 * The playground's page and files over HTTP, without a browser (`npm test` builds first): the page
 * is a few KB, `no-cache` with an ETag (304 on a match), and names only files of this server; each
 * file's name carries its content hash, it is answered `immutable` for a year, as Brotli when the
 * request takes `br`, else gzip when it takes `gzip`, else as it is (the three the same bytes once
 * decoded); HEAD, unknown names, other methods; and 503 without a build. The service worker: served
 * no-cache with its scope allowed, naming this build's files and its cache. The page in a browser
 * (and the worker at work there): test/server.playground.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playgroundPaths, readPlaygroundFiles, renderPlaygroundWorker } from '../../src/graphql/apollo/playground.js';
import { acceptedEncodings, playgroundRoute } from '../../src/http/playground-route.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A GET (or HEAD) whose body is left as sent: fetch would decode it. */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    },
  );
}

describe('GET /graphql (the page) and /playground/*', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ database: false });
  });
  afterAll(async () => t?.close());

  it('answers a small no-cache page with an ETag that names the build files', async () => {
    const res = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(Buffer.byteLength(html)).toBeLessThan(8 * 1024);
    expect(html).toContain('SeedExample');
    expect(html).not.toMatch(/(src|href)="https?:/);
    const files = await readPlaygroundFiles();
    expect(files).not.toBeNull();
    for (const name of [files!.script, files!.style, ...Object.values(files!.workers)]) {
      expect(name).toMatch(/^[a-z-]+-[0-9a-f]{16}\.(js|css)$/);
      expect(html).toContain(`/playground/${name}`);
    }
    const again = await fetch(`${t.url}/graphql`, {
      headers: { accept: 'text/html', 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('answers each file in Brotli, gzip or as it is, as the request takes it, kept for a year', async () => {
    const files = (await readPlaygroundFiles())!;
    for (const name of [files.script, files.style, files.workers.graphql]) {
      const url = `${t.url}/playground/${name}`;
      const plain = await raw(url);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['content-type']).toBe(
        name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      );
      expect(plain.headers['cache-control']).toBe(IMMUTABLE);
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(Number(plain.headers['content-length'])).toBe(plain.body.length);

      // Chromium's header, then ones that refuse br or take only gzip.
      const br = await raw(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe(IMMUTABLE);
      expect(br.body.length).toBeLessThan(plain.body.length / 2);
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      for (const accepted of ['gzip', 'br;q=0, gzip;q=0.5']) {
        const gz = await raw(url, { 'accept-encoding': accepted });
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
      }
      expect((await raw(url, { 'accept-encoding': 'identity' })).headers['content-encoding']).toBeUndefined();

      const head = await raw(url, { 'accept-encoding': 'br' }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers['content-length']).toBe(String(br.body.length));
      expect(head.body.length).toBe(0);
    }
    expect((await raw(`${t.url}/playground/graphiql-0000000000000000.js`)).status).toBe(404);
    expect((await raw(`${t.url}/playground/manifest.json`)).status).toBe(404);
    expect((await raw(`${t.url}/playground/${files.script}.br`)).status).toBe(404);
    expect((await fetch(`${t.url}/playground/${files.script}`, { method: 'POST' })).status).toBe(405);
    expect(await t.metric('chess_paths_http_requests_total', { route: 'playground' })).toBeGreaterThanOrEqual(18);
  });
});

describe('GET /playground/sw.js (the service worker)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ database: false });
  });
  afterAll(async () => t?.close());

  it('is registered by the page for its own path, and answered no-cache with that path allowed as its scope', async () => {
    const html = await (await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('navigator.serviceWorker.register("/playground/sw.js", { scope: options.endpoint })');
    expect(html).toContain('"endpoint":"/graphql"');

    const res = await raw(`${t.url}/playground/sw.js`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['service-worker-allowed']).toBe('/graphql');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(4 * 1024);
    const head = await raw(`${t.url}/playground/sw.js`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(await t.metric('chess_paths_http_requests_total', { route: 'playground_worker' })).toBe(2);
  });

  it("caches exactly this build's files under a name of this build, and routes nothing else to itself", async () => {
    const files = (await readPlaygroundFiles())!;
    const worker = renderPlaygroundWorker(files, '/graphql');
    expect((await raw(`${t.url}/playground/sw.js`)).body.toString()).toBe(worker);
    const paths = [files.script, files.style, ...Object.values(files.workers)].map((name) => `/playground/${name}`);
    expect(playgroundPaths(files)).toEqual(paths);
    expect(worker).toContain(`const FILES = ${JSON.stringify(paths)};`);
    const cache = /const CACHE = "(chess-paths-playground-[0-9a-f]{16})";/.exec(worker)?.[1];
    expect(cache).toBeDefined();
    // Another build: another cache; the same build: the same text.
    const other = { ...files, script: 'graphiql-0123456789abcdef.js' };
    expect(renderPlaygroundWorker(other, '/graphql')).not.toContain(cache);
    expect(renderPlaygroundWorker({ ...files }, '/graphql')).toBe(worker);
    // Only GETs of the listed files reach its fetch handler's cache; static routes send the rest to the network.
    expect(worker).toContain(
      "if (request.method !== 'GET' || url.origin !== location.origin || !FILES.includes(url.pathname)) return;",
    );
    expect(worker).toContain("{ condition: { not: files }, source: 'network' }");
    // Syntactically a script (no module syntax, nothing of the server's).
    expect(() => new Function(worker)).not.toThrow();
  });
});

describe('the files route without a build', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chess-paths-playground-'));
  const server = createServer((req, res) => {
    void playgroundRoute(`${dir}/`)(req, res, new URL(req.url ?? '/', 'http://x').pathname);
  });
  let url: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 saying how to build, for the service worker too', async () => {
    for (const path of ['/playground/graphiql-0123456789abcdef.js', '/playground/sw.js']) {
      const res = await fetch(`${url}${path}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.text()).toContain('npm run build');
    }
  });
});

describe('acceptedEncodings', () => {
  it('takes the codings named with a weight above 0, and * for the others', () => {
    const chromium = acceptedEncodings('gzip, deflate, br, zstd');
    expect([chromium('br'), chromium('gzip'), chromium('compress')]).toEqual([true, true, false]);
    const refused = acceptedEncodings('br;q=0, gzip;q=0.8');
    expect([refused('br'), refused('gzip')]).toEqual([false, true]);
    const any = acceptedEncodings('*;q=0.1, gzip;q=0');
    expect([any('br'), any('gzip')]).toEqual([true, false]);
    expect(acceptedEncodings(undefined)('gzip')).toBe(false);
    expect(acceptedEncodings('BR')('br')).toBe(true);
  });
});

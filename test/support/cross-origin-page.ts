/**
 * A web page on another origin than the API, for the tests of what a front end meets: a small
 * HTTP server of its own (its own port, so its own origin) serving one page, that page's script
 * bundled with esbuild from a TypeScript entry (the way a front end's build bundles the libraries
 * it uses), and any files it names (a chessboard's sprites). The page learns the API's address
 * from its query string.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { build } from 'esbuild';

/** The page's server: its origin, the page's address for an API at `api`, and its close. */
export interface PageServer {
  origin: string;
  pageFor(api: string): string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Serves `/` (an HTML page loading `/page.js`, with `head` in its head), `/page.js` (the entry
 * bundled for the browser) and each of `files` (URL path to file on disk).
 */
export async function startPageServer(options: {
  entry: string;
  head?: string;
  files?: Record<string, string>;
}): Promise<PageServer> {
  const bundle = await build({
    entryPoints: [options.entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const script = bundle.outputFiles[0].text;
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>a front end</title>${options.head ?? ''}</head><body><div id="board" style="width:480px"></div><pre id="out"></pre><script type="module" src="/page.js"></script></body></html>`;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://page').pathname;
    if (path === '/favicon.ico') {
      res.writeHead(204).end(); // the browser's own ask: no icon, and no 404 in the page's console
      return;
    }
    const file = options.files?.[path];
    const body = path === '/' ? html : path === '/page.js' ? script : file ? readFileSync(file) : undefined;
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    const type = path === '/' ? TYPES['.html'] : (TYPES[extname(path)] ?? 'application/octet-stream');
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    pageFor: (api) => `${origin}/?api=${encodeURIComponent(api)}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

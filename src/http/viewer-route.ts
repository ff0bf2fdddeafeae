/**
 * The viewer at `GET /`: the page and its bundle, built by `scripts/build-viewer.mjs` into
 * `dist/viewer/` and found relative to this module (`dist/http/` -> `dist/viewer/`). The page is
 * answered with `no-cache` and an ETag (a new build is seen at once); the bundle's files carry a
 * content hash in their names, so they are cached for a year. Without a build the viewer answers
 * 503 and says how to build it.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the built viewer lives: next to the compiled `http/` directory (`dist/viewer/`), or, when
 * this module runs from `src/http/` (tsx, the tests), in the package's `dist/viewer/`.
 */
export const VIEWER_DIR = fileURLToPath(
  new URL(/\/src\/http\/[^/]+$/.test(import.meta.url) ? '../../dist/viewer/' : '../viewer/', import.meta.url),
);

/** The page's security headers: nothing but this server's own scripts, styles and images. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** A file of the built viewer, read once. */
interface Asset {
  body: Buffer;
  etag: string;
  type: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Whether a request is for the viewer: `/` and `/viewer/<file>.js|css`. */
export function isViewerPath(path: string): boolean {
  return path === '/' || /^\/viewer\/[\w.-]+\.(js|css)$/.test(path);
}

/** Creates the handler of the viewer's routes, serving from `dir` (default: the built viewer). */
export function viewerRoute(dir: string = VIEWER_DIR) {
  let assets: Promise<Map<string, Asset> | null> | undefined;

  /** Reads the whole build once; null when there is none (retried on the next request). */
  const load = async (): Promise<Map<string, Asset> | null> => {
    try {
      const names = await readdir(dir);
      if (!names.includes('index.html')) return null;
      const map = new Map<string, Asset>();
      for (const name of names) {
        const type = TYPES[name.slice(name.lastIndexOf('.'))];
        if (!type) continue;
        const body = await readFile(join(dir, name));
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
        map.set(name === 'index.html' ? '/' : `/viewer/${name}`, { body, etag, type });
      }
      return map;
    } catch {
      return null;
    }
  };

  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      res.end('Use GET\n');
      return;
    }
    assets ??= load();
    const found = await assets;
    if (!found) {
      assets = undefined;
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('the viewer is not built: run npm run build\n');
      return;
    }
    const asset = found.get(path);
    if (!asset) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('No such viewer file (the page was built again: reload it)\n');
      return;
    }
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      'content-type': asset.type,
      'cache-control': path === '/' ? 'no-cache' : 'public, max-age=31536000, immutable',
      etag: asset.etag,
    };
    if (req.headers['if-none-match'] === asset.etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, 'content-length': String(asset.body.length) });
    res.end(method === 'HEAD' ? undefined : asset.body);
  };
}

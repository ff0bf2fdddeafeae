/**
 * The viewer at `GET /`: the page and its bundle, built by `scripts/build-viewer.mjs` into
 * `dist/viewer/` and found relative to this module (`dist/http/` -> `dist/viewer/`). The page is
 * answered with `no-cache` and an ETag (a new build is seen at once); the bundle's files carry a
 * content hash in their names, so they are cached for a year. Without a build the viewer answers
 * 503 and says how to build it. The icon (`/favicon.svg`, which the page links, and
 * `/favicon.ico`, which browsers ask for on pages that name none, such as a picture from
 * `/diagram.svg` opened on its own) is this module's own small SVG, served with or without a
 * build, so no page of the server meets a 404 for it.
 *
 * The page carries the link preview of the question in its query string (`viewer-preview.ts`:
 * Open Graph and Twitter meta tags whose image is the question's `/diagram.png`), put in before
 * `</head>` for each request; its ETag is then the hash of the page as sent, so it still changes
 * with the build, and with the question.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { originOf, previewOf, previewTags } from './viewer-preview.js';

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

/** The paths of the icon. */
const ICON_PATHS = new Set(['/favicon.svg', '/favicon.ico']);

/**
 * The icon, drawn for this project (MIT, as the rest of it): two light and two dark squares of the
 * board's colours and an orange arrow across them, as the viewer draws a path.
 */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" fill="#f0d9b5"/>' +
  '<path d="M0 16H16V32H0ZM16 0H32V16H16Z" fill="#b58863"/>' +
  '<rect x="0.75" y="0.75" width="30.5" height="30.5" fill="none" stroke="#5b4636" stroke-width="1.5"/>' +
  '<path d="M7 25L20.5 11.5" stroke="#dd6b20" stroke-width="4" stroke-linecap="round"/>' +
  '<path d="M26 6L23.5 14.9L17.1 8.5Z" fill="#dd6b20"/>' +
  '</svg>\n';

/** The icon as served (cached for a day: it changes only with a release). */
const ICON: Asset = {
  body: Buffer.from(FAVICON_SVG),
  etag: `"${createHash('sha256').update(FAVICON_SVG).digest('base64url').slice(0, 27)}"`,
  type: 'image/svg+xml',
};

/** Whether a request is for the viewer: `/`, `/viewer/<file>.js|css` and the icon. */
export function isViewerPath(path: string): boolean {
  return path === '/' || ICON_PATHS.has(path) || /^\/viewer\/[\w.-]+\.(js|css)$/.test(path);
}

/** Options of the viewer's routes. */
export interface ViewerOptions {
  /** The server's configuration, for the page's link preview (none without it). */
  config?: Config;
}

/** The ETag of a body. */
function tagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/**
 * Creates the handler of the viewer's routes, serving from `dir` (default: the built viewer);
 * given the request's `url`, the page carries the preview of the question in its query string.
 */
export function viewerRoute(dir: string = VIEWER_DIR, options: ViewerOptions = {}) {
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
        map.set(name === 'index.html' ? '/' : `/viewer/${name}`, { body, etag: tagOf(body), type });
      }
      return map;
    } catch {
      return null;
    }
  };

  /** The page with the preview of the question in `url`'s query string. */
  const withPreview = (req: IncomingMessage, page: Asset, url: URL, config: Config): Asset => {
    const html = page.body.toString('utf8');
    const at = html.indexOf('</head>');
    if (at < 0) return page;
    const tags = previewTags(previewOf(url.search, config), originOf(req, config.trustProxyHops), url.search);
    const body = Buffer.from(`${html.slice(0, at)}${tags}\n${html.slice(at)}`);
    return { body, etag: tagOf(body), type: page.type };
  };

  return async (req: IncomingMessage, res: ServerResponse, path: string, url?: URL): Promise<void> => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      res.end('Use GET\n');
      return;
    }
    if (ICON_PATHS.has(path)) {
      send(req, res, ICON, 'public, max-age=86400');
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
    if (path === '/') {
      send(req, res, url && options.config ? withPreview(req, asset, url, options.config) : asset, 'no-cache');
      return;
    }
    send(req, res, asset, 'public, max-age=31536000, immutable');
  };
}

/** Sends a file with its ETag (a bare 304 when the client has it) and the page's security headers. */
function send(req: IncomingMessage, res: ServerResponse, asset: Asset, cacheControl: string): void {
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'content-type': asset.type,
    'cache-control': cacheControl,
    etag: asset.etag,
  };
  if (req.headers['if-none-match'] === asset.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': String(asset.body.length) });
  res.end(req.method === 'HEAD' ? undefined : asset.body);
}

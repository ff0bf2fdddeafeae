/**
 * `GET|HEAD /playground/<name>`: the playground's files (GraphiQL's script and style, Monaco's
 * editor workers), as `npm run build` wrote them into dist/playground (`scripts/build-playground.mjs`).
 * Their names carry their content hash, so each is answered `immutable` for a year: a browser
 * fetches a version once and never asks again. Each was compressed once at build time, with
 * Brotli and with gzip; a request gets the Brotli copy when its Accept-Encoding takes `br`, else
 * the gzip copy when it takes `gzip`, else the file itself (`Vary: Accept-Encoding`). The files are
 * streamed from disk, not held in memory: a browser asks for them once per version, so the
 * server keeps no 9 MB for visitors who come rarely. Only the names the build's manifest lists
 * are served; without a build the route answers 503 and says how to make one. The router mounts
 * it only when PLAYGROUND is on.
 *
 * `GET|HEAD /playground/sw.js`: the playground's service worker (`renderPlaygroundWorker` in
 * `src/graphql/apollo/playground.ts`), a few hundred bytes written from the manifest: `no-cache`,
 * since browsers compare it on later visits to learn of a new build, and with
 * `Service-Worker-Allowed` naming the page's path, the scope it is registered for, which lies
 * outside /playground/ where it is served.
 */
import { type FileHandle, open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import {
  PLAYGROUND_DIR,
  PLAYGROUND_FILES_PATH,
  PLAYGROUND_WORKER_PATH,
  type PlaygroundFiles,
  readPlaygroundFiles,
  renderPlaygroundWorker,
} from '../graphql/apollo/playground.js';
import { appendVary } from './replies.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The compressed copies, best first, by the suffix the build gave them. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

export { PLAYGROUND_WORKER_PATH };

/** Whether a request is for a playground file. */
export function isPlaygroundPath(path: string): boolean {
  return path.startsWith(PLAYGROUND_FILES_PATH);
}

/**
 * The content codings an Accept-Encoding header takes (RFC 9110 12.5.3): those it names with a
 * weight above 0, and `*` for any it does not name otherwise.
 */
export function acceptedEncodings(header: string | undefined): (name: string) => boolean {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!coding) continue;
    const q = params.find((p) => p.startsWith('q='));
    weights.set(coding, q ? Number(q.slice(2)) || 0 : 1);
  }
  return (name) => (weights.get(name) ?? weights.get('*') ?? 0) > 0;
}

/**
 * Creates the handler of the playground's files, serving from `dir` (default: the build's), and of
 * its service worker (PLAYGROUND_WORKER_PATH) for the page at `scope` (the endpoint's path).
 */
export function playgroundRoute(dir: string = PLAYGROUND_DIR, scope = '/graphql') {
  let build: Promise<{ names: Set<string>; worker: string } | null> | undefined;

  /** The names the manifest lists and the worker's text; null when there is no build (looked for again on the next request). */
  const load = async () => {
    const files: PlaygroundFiles | null = await readPlaygroundFiles(dir);
    if (!files) return null;
    const names = new Set([files.script, files.style, ...Object.values(files.workers)]);
    return { names, worker: renderPlaygroundWorker(files, scope) };
  };

  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      res.end('Use GET\n');
      return;
    }
    build ??= load();
    const built = await build;
    if (!built) {
      build = undefined;
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('the playground is not built: run npm run build\n');
      return;
    }
    if (path === PLAYGROUND_WORKER_PATH) {
      // Asked again on every visit (browsers look for a new version there): a few hundred bytes.
      res.writeHead(200, {
        'content-type': TYPES['.js'],
        'content-length': String(Buffer.byteLength(built.worker)),
        'cache-control': 'no-cache',
        // Its scope is the page's path, outside /playground/ where it is served.
        'service-worker-allowed': scope,
        'x-content-type-options': 'nosniff',
      });
      res.end(method === 'HEAD' ? undefined : built.worker);
      return;
    }
    const name = path.slice(PLAYGROUND_FILES_PATH.length);
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (!built.names.has(name) || !type) {
      notFound(res);
      return;
    }
    const accepts = acceptedEncodings(req.headers['accept-encoding'] as string | undefined);
    const encoding = ENCODINGS.find((e) => accepts(e.name));
    let file: FileHandle;
    try {
      file = await open(`${dir}${name}${encoding?.suffix ?? ''}`);
    } catch {
      notFound(res);
      return;
    }
    let streaming = false;
    try {
      const { size } = await file.stat();
      res.writeHead(200, {
        'content-type': type,
        'content-length': String(size),
        ...(encoding ? { 'content-encoding': encoding.name } : {}),
        'cache-control': 'public, max-age=31536000, immutable',
        // CORS may have named Origin already.
        vary: appendVary(res.getHeader('vary'), 'Accept-Encoding'),
        'x-content-type-options': 'nosniff',
      });
      if (method === 'HEAD') {
        res.end();
        return;
      }
      // The stream closes the file when it ends or fails; a client gone midway is no error of ours.
      streaming = true;
      await pipeline(file.createReadStream(), res).catch(() => res.destroy());
    } finally {
      if (!streaming) await file.close();
    }
  };
}

/** A name the build does not list (or no longer has). */
function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end('No such playground file (the server was built again: reload the page)\n');
}

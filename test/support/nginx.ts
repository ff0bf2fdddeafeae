/**
 * Debian's nginx for end-to-end tests, started and stopped by the test itself: `startNginx` runs
 * one with a given `http {}` body, and `startCachingProxy` uses it for a real caching reverse proxy
 * in front of a test server (the load balancer of `postgres-cluster.ts` uses it too).
 *
 * The caching proxy uses `proxy_cache`, but whether a CDN or proxy may keep an answer is decided by
 * the server's own `Cache-Control` (nginx is not told to cache anything by itself), so a test can
 * show which answers a shared cache serves without asking the server and which always reach it.
 * Every answer carries `X-Cache-Status` (MISS, HIT, EXPIRED, BYPASS, ... or empty when the cache
 * was not used).
 *
 * Each nginx gets a fresh temporary directory for its configuration, cache, temp files, error log
 * and pid file, and its own free port on 127.0.0.1 (picked again if another process takes it
 * first), so it never touches the system's nginx, its port 80 or /var. A missing nginx is an error, not a reason to skip: `.ci/run` installs it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listeningPorts } from './child-server.js';

/** Debian's nginx binary. */
export const NGINX = '/usr/sbin/nginx';

/** What `startNginx` runs. */
export interface NginxOptions {
  /**
   * The body of `http {}` after the shared settings (no access log, temp paths in `dir`): upstreams,
   * caches under `dir`, and a server that listens on 127.0.0.1:`port`.
   */
  http(where: { dir: string; port: number }): string;
  /** nginx worker processes (default 1). */
  workers?: number | 'auto';
  /** `worker_connections` of each worker (default 256). */
  workerConnections?: number;
  /** Part of the temporary directory's name, `chess-paths-<name>-...` (default `nginx`). */
  name?: string;
}

/** A running nginx. */
export interface Nginx {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  /** nginx's error log so far (connection failures to upstreams are logged there). */
  errorLog(): Promise<string>;
  /** Stops nginx and removes its directory (cache included). */
  stop(): Promise<void>;
}

/** A running nginx in front of one upstream. */
export interface CachingProxy {
  /** Base URL of the proxy, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  /** Stops nginx and removes its directory (cache included). */
  stop(): Promise<void>;
}

/** How long nginx may take to start answering before the start counts as failed. */
const START_TIMEOUT_MS = 15_000;

/** How many ports `startNginx` tries when the one it picked was taken before nginx could bind it. */
const PORT_ATTEMPTS = 5;

/**
 * Starts nginx in a fresh temporary directory and waits until it listens. nginx cannot bind port 0
 * and report the port, so a free port is picked first; should another process take it before nginx
 * binds it ("Address already in use"), nginx is started again on another one.
 */
export async function startNginx(options: NginxOptions): Promise<Nginx> {
  if (!existsSync(NGINX)) throw new Error('nginx is not installed: apt-get install nginx (bash .ci/run installs it)');
  for (let attempt = 1; ; attempt++) {
    try {
      return await startNginxOnce(options);
    } catch (err) {
      if (!(err instanceof PortTakenError) || attempt >= PORT_ATTEMPTS) throw err;
    }
  }
}

/** nginx could not bind the port picked for it: another process took it first. */
class PortTakenError extends Error {}

/** One attempt of `startNginx` on one picked port. */
async function startNginxOnce(options: NginxOptions): Promise<Nginx> {
  const dir = await mkdtemp(join(tmpdir(), `chess-paths-${options.name ?? 'nginx'}-`));
  const log = join(dir, 'error.log');
  try {
    const port = await freePort();
    const conf = join(dir, 'nginx.conf');
    await writeFile(conf, nginxConfig(dir, port, options));
    // -e: the log for errors before the configuration is read, which would go to /var/log/nginx.
    const child = spawn(NGINX, ['-p', `${dir}/`, '-e', log, '-c', conf, '-g', 'daemon off;'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      // A spawn that fails (e.g. EACCES) emits only 'error'.
      child.once('error', (err) => {
        stderr += `${err.message}\n`;
        resolve(null);
      });
    });
    const errorLog = () => readFile(log, 'utf8').catch(() => '');
    try {
      await waitForListening(child, port, exited, () => stderr);
    } catch (err) {
      await kill(child, exited);
      const why = `${stderr}${await errorLog()}`;
      // nginx tries a taken port a few times, then exits saying so.
      if (/Address already in use/.test(why)) throw new PortTakenError(`port ${port} was taken: ${why}`);
      throw new Error(`nginx did not start: ${(err as Error).message}\n${why}`);
    }
    return {
      url: `http://127.0.0.1:${port}`,
      errorLog,
      async stop() {
        await kill(child, exited);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Starts nginx as a caching reverse proxy in front of `upstream` (`http://127.0.0.1:<port>`). */
export function startCachingProxy(upstream: string): Promise<CachingProxy> {
  const target = new URL(upstream);
  return startNginx({ http: ({ dir, port }) => cachingProxyHttp(dir, port, `${target.protocol}//${target.host}`) });
}

/** The whole configuration: everything nginx writes stays in `dir`. */
function nginxConfig(dir: string, port: number, options: NginxOptions): string {
  // As root, nginx's workers would switch to `nobody`, who cannot enter a mkdtemp directory (mode
  // 0700) to write temp files or the cache; keeping them root is simpler and safer than opening the
  // directory (and every parent of TMPDIR) to everyone. As anyone else the directive is ignored.
  const user = process.getuid?.() === 0 ? 'user root root;' : '';
  return `${user}
worker_processes ${options.workers ?? 1};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;

events {
  worker_connections ${options.workerConnections ?? 256};
}

http {
  access_log off;
  # Debian's compiled-in temp paths are under /var/lib/nginx: keep everything in this directory.
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy_temp;
  fastcgi_temp_path ${dir}/fastcgi_temp;
  uwsgi_temp_path ${dir}/uwsgi_temp;
  scgi_temp_path ${dir}/scgi_temp;

${options.http({ dir, port })}
}
`;
}

/** The caching proxy's `http {}` body: only upstream Cache-Control decides caching. */
function cachingProxyHttp(dir: string, port: number, upstream: string): string {
  return `  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=test_cache:1m max_size=64m inactive=10m use_temp_path=off;

  server {
    listen 127.0.0.1:${port};

    location / {
      proxy_pass ${upstream};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache test_cache;
      # $request_uri is the path with its query string, as sent: GET questions differ only there.
      proxy_cache_key "$scheme$proxy_host$request_uri";
      # No proxy_cache_valid and no proxy_ignore_headers: an answer is kept only when the upstream's
      # Cache-Control (or Expires) allows it, and for as long as it says.
      add_header X-Cache-Status $upstream_cache_status always;
    }
  }`;
}

/** A port that was free a moment ago on 127.0.0.1 (bound to port 0, then closed). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resolves once nginx itself listens on 127.0.0.1:`port`: its master process holds the listening
 * socket (/proc), not merely some process answering there (the port may have been taken by
 * another, while nginx retries the bind). Where /proc cannot tell, a connection that succeeds
 * while nginx still runs is taken as its. Rejects if nginx exits or takes too long.
 */
async function waitForListening(
  child: ChildProcess,
  port: number,
  exited: Promise<number | null>,
  stderr: () => string,
): Promise<void> {
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (true) {
    if (exitCode !== undefined) throw new Error(`it exited with code ${exitCode}`);
    // While nginx retries a taken port it says so at once: no need to wait for its exit.
    if (/Address already in use/.test(stderr())) throw new Error('the port was taken');
    const ports = child.pid === undefined ? [] : listeningPorts(child.pid);
    if (ports ? ports.includes(port) : await canConnect(port)) {
      if (exitCode === undefined) return;
    }
    if (Date.now() > deadline) throw new Error(`port ${port} did not answer within ${START_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Whether a TCP connection to 127.0.0.1:`port` succeeds. */
function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Stops nginx (SIGTERM: its fast shutdown, workers included) and waits for the master to exit. */
async function kill(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await exited;
}

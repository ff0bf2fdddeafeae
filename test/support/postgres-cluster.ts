/**
 * What a test (or a benchmark) of several replicas needs besides a fresh PostgreSQL database
 * (`createTestDatabase()` of `postgres.ts`): a real nginx load balancer in front of the replicas,
 * and a small HTTP client that can choose the loopback address it sends from (every 127.x.y.z is
 * local), so that the per-client mutation rate limit sees one client per address, as it would
 * see different machines.
 *
 * The load balancer: Debian's nginx, as in `nginx.ts` (a temporary directory for its configuration,
 * temp files, error log and pid file, a free port on 127.0.0.1), round-robin over the upstreams,
 * no cache. A replica that refuses the connection (killed, or stopping: it no longer listens) is
 * skipped: `proxy_next_upstream error timeout` sends the request to the next replica, and the
 * replica counts as down for `fail_timeout` (10 s). nginx does NOT resend a POST that it had already
 * sent to a replica that then failed (no `non_idempotent`): a save may have been committed just
 * before the replica died, and sending it again would store the analysis twice, with the client
 * holding only the second id and token (the first stays, orphaned, counting against
 * ANALYSES_MAX_BYTES); an update would be applied twice, a delete would answer NOT_FOUND. The
 * client gets a 502 for such a request instead and decides itself, which is what a user wants:
 * every answer with an id is a save that happened exactly once. Requests that never reached a
 * replica (connection refused) are always retried, POSTs included: nothing of them ran.
 *
 * nginx adds the client's address to `X-Forwarded-For` (`$proxy_add_x_forwarded_for`): replicas
 * started with TRUST_PROXY_HOPS=1 count the rate limit per client, not per nginx. Every answer
 * carries `X-Upstream` (nginx's `$upstream_addr`: the replica or replicas tried).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './child-server.js';
import { NGINX } from './nginx.js';

/** A running nginx load balancer. */
export interface LoadBalancer {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  /** nginx's error log so far (connection failures to upstreams are logged there). */
  errorLog(): Promise<string>;
  /** Stops nginx and removes its directory. */
  stop(): Promise<void>;
}

export interface LoadBalancerOptions {
  /** Idle connections kept open to each replica per worker (default 0: a new one per request). */
  keepalive?: number;
  /** nginx worker processes (default 1). */
  workers?: number | 'auto';
}

const START_TIMEOUT_MS = 15_000;

/** Starts nginx as a round-robin load balancer over `upstreams` (`http://127.0.0.1:<port>` each). */
export async function startLoadBalancer(upstreams: string[], options: LoadBalancerOptions = {}): Promise<LoadBalancer> {
  if (!existsSync(NGINX)) throw new Error('nginx is not installed: apt-get install nginx (bash .ci/run installs it)');
  const dir = await mkdtemp(join(tmpdir(), 'chess-paths-lb-'));
  const log = join(dir, 'error.log');
  try {
    const port = await freePort();
    const conf = join(dir, 'nginx.conf');
    await writeFile(
      conf,
      balancerConfig(
        dir,
        port,
        upstreams.map((u) => new URL(u).host),
        options,
      ),
    );
    const child = spawn(NGINX, ['-p', `${dir}/`, '-e', log, '-c', conf, '-g', 'daemon off;'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.once('error', (err) => {
        stderr += `${err.message}\n`;
        resolve(null);
      });
    });
    let exitCode: number | null | undefined;
    void exited.then((code) => (exitCode = code));
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await canConnect(port))) {
      if (exitCode !== undefined || Date.now() > deadline) {
        await stopNginx(child, exited);
        const text = await readFile(log, 'utf8').catch(() => '');
        throw new Error(`nginx did not start (exit ${exitCode}): ${stderr}${text}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return {
      url: `http://127.0.0.1:${port}`,
      errorLog: () => readFile(log, 'utf8').catch(() => ''),
      async stop() {
        await stopNginx(child, exited);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

function balancerConfig(dir: string, port: number, hosts: string[], options: LoadBalancerOptions): string {
  // As root, workers would switch to `nobody`, who cannot enter the mkdtemp directory (see nginx.ts).
  const user = process.getuid?.() === 0 ? 'user root root;' : '';
  const keepalive = options.keepalive ? `keepalive ${options.keepalive};` : '';
  return `${user}
worker_processes ${options.workers ?? 1};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;

events {
  worker_connections 4096;
}

http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy_temp;
  fastcgi_temp_path ${dir}/fastcgi_temp;
  uwsgi_temp_path ${dir}/uwsgi_temp;
  scgi_temp_path ${dir}/scgi_temp;

  upstream replicas {
${hosts.map((host) => `    server ${host} max_fails=1 fail_timeout=10s;`).join('\n')}
    ${keepalive}
  }

  server {
    listen 127.0.0.1:${port} backlog=4096;

    location / {
      proxy_pass http://replicas;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_connect_timeout 2s;
      # Refused connections and timeouts go to the next replica; a POST already sent does not
      # (no non_idempotent): see the file comment.
      proxy_next_upstream error timeout;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

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

async function stopNginx(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await exited;
}

/** An HTTP answer: status, headers, parsed JSON body (undefined when it is not JSON). */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * Sends one request on a connection of its own, from loopback address `from` (default the
 * kernel's choice, 127.0.0.1). A connection error or a timeout is status 0.
 */
export function send(
  url: string,
  options: { method?: string; body?: unknown; from?: string; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  const target = new URL(url);
  const text = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? (text === undefined ? 'GET' : 'POST'),
        localAddress: options.from,
        agent: false,
        headers: text === undefined ? {} : { 'content-type': 'application/json' },
        timeout: options.timeoutMs ?? 60_000,
      },
      (res) => {
        let raw = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (raw += chunk));
        res.on('error', () => resolve({ status: 0, headers: {}, body: undefined }));
        res.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(raw);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, headers: {}, body: undefined }));
    req.end(text);
  });
}

/** POSTs a GraphQL operation to `<base>/graphql`. */
export function gql(base: string, query: string, variables?: unknown, from?: string): Promise<HttpAnswer> {
  return send(`${base}/graphql`, { body: { query, variables }, from });
}

/**
 * What a test (or a benchmark) of several replicas needs besides a fresh PostgreSQL database
 * (`createTestDatabase()` of `postgres.ts`): a real nginx load balancer in front of the replicas,
 * and a small HTTP client that can choose the loopback address it sends from (every 127.x.y.z is
 * local), so that the per-client mutation rate limit sees one client per address, as it would
 * see different machines.
 *
 * The load balancer: Debian's nginx, started by `startNginx` of `nginx.ts` (a temporary directory
 * for its configuration, temp files, error log and pid file, a free port on 127.0.0.1), round-robin
 * over the upstreams, no cache. A replica that refuses the connection (killed, or stopping: it no longer listens) is
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
import { request } from 'node:http';
import { type Nginx, startNginx } from './nginx.js';

/** A running nginx load balancer. */
export type LoadBalancer = Nginx;

/** How `startLoadBalancer` sets nginx up. */
export interface LoadBalancerOptions {
  /** Idle connections kept open to each replica per worker (default 0: a new one per request). */
  keepalive?: number;
  /** nginx worker processes (default 1). */
  workers?: number | 'auto';
}

/** Starts nginx as a round-robin load balancer over `upstreams` (`http://127.0.0.1:<port>` each). */
export function startLoadBalancer(upstreams: string[], options: LoadBalancerOptions = {}): Promise<LoadBalancer> {
  const hosts = upstreams.map((u) => new URL(u).host);
  return startNginx({
    name: 'lb',
    workers: options.workers,
    workerConnections: 4096,
    http: ({ port }) => balancerHttp(port, hosts, options.keepalive),
  });
}

/** The load balancer's `http {}` body: round-robin, no retry of a request a replica already got. */
function balancerHttp(port: number, hosts: string[], keepalive = 0): string {
  return `  upstream replicas {
${hosts.map((host) => `    server ${host} max_fails=1 fail_timeout=10s;`).join('\n')}
    ${keepalive ? `keepalive ${keepalive};` : ''}
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
  }`;
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

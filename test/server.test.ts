/**
 * The HTTP server around GraphQL: /health through the store's lifecycle (opening, ready,
 * degraded, failed), /metrics, graceful shutdown with a request in flight, the playground page's
 * HTTP handling (gzip, ETag, switches), configuration parsing, and the real entry point started
 * as a child process and stopped with SIGTERM.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, DEFAULTS, loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import type { Store, StoredResult } from '../src/store/types.js';
import { serverArgs } from './support/child-server.js';
import { startTestServer, sumMetric, type TestServer } from './support/test-server.js';

/** A store double: no cache hits, a switchable health, a lookup that waits for `lookup()` when given. */
function fakeStore(options: { healthy?: () => boolean; lookup?: () => Promise<void> } = {}) {
  const events: string[] = [];
  const store: Store = {
    cache: {
      async getMany(problems) {
        events.push('getMany');
        await options.lookup?.();
        return problems.map(() => undefined);
      },
      async putMany(rows: readonly StoredResult[]) {
        events.push(`putMany:${rows.length}`);
      },
    },
    analyses: {
      save: async () => {
        throw new Error('not used');
      },
      get: async () => null,
      list: async () => ({ edges: [], hasNextPage: false, endCursor: null, totalCount: 0 }),
      update: async () => {
        throw new Error('not used');
      },
      delete: async () => false,
      authorize: async () => {
        throw new Error('not used');
      },
    },
    healthy: async () => options.healthy?.() ?? true,
    close: async () => {
      events.push('close');
    },
  };
  return { store, events };
}

const SEED = '{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) { distance } }';

async function health(url: string) {
  const res = await fetch(`${url}/health`);
  return { status: res.status, body: await res.json() };
}

/** Whether a new TCP connection to the server's port is accepted (a fresh one, never a pooled one). */
function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('/health', () => {
  it('is 503 while the database opens, 200 once it is ready, 503 when it stops answering', async () => {
    let open!: (store: Store) => void;
    let up = true;
    const { store } = fakeStore({ healthy: () => up });
    // Started by hand: startTestServer would wait for the store.
    const server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }), {
      openStore: () => new Promise<Store>((resolve) => (open = resolve)),
    });
    try {
      expect(await health(server.url)).toEqual({ status: 503, body: { status: 'starting', database: 'opening' } });
      // Path questions are answered from the engine meanwhile; analyses are unavailable.
      const early = await fetch(server.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `${SEED.slice(0, -1)} analysis(id: "x") { id } }` }),
      });
      const earlyBody = (await early.json()) as {
        data: { shortestPaths: { distance: number } };
        errors: { extensions: { code: string } }[];
      };
      expect(earlyBody.data.shortestPaths.distance).toBe(4);
      expect(earlyBody.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');

      open(store);
      await server.ready;
      expect(await health(server.url)).toEqual({ status: 200, body: { status: 'ok', database: 'ok' } });
      up = false;
      expect(await health(server.url)).toEqual({ status: 503, body: { status: 'degraded', database: 'unavailable' } });
    } finally {
      await server.close();
    }
  });

  it('does not hang at shutdown when the database never finishes opening', async () => {
    const server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SHUTDOWN_TIMEOUT_MS: '100' }),
      {
        openStore: () => new Promise<Store>(() => {}),
      },
    );
    // A close waiting for the store would never end; giving up after SHUTDOWN_TIMEOUT_MS (100 ms)
    // ends it at once: 15 s is only how long to wait before calling it hung, however busy the machine.
    const hung = sleep(15_000, 'hung', { ref: false });
    expect(await Promise.race([server.close().then(() => 'closed'), hung])).toBe('closed');
  });

  it('reports a database that failed to open as degraded, and keeps answering path questions', async () => {
    const t = await startTestServer({
      deps: {
        openStore: async () => {
          throw new Error('disk on fire');
        },
      },
    });
    try {
      expect(await health(t.url)).toEqual({
        status: 503,
        body: { status: 'degraded', database: 'unavailable', reason: 'failed to open (see the server log)' },
      });
      expect((await t.gql(SEED)).body.data.shortestPaths.distance).toBe(4);
    } finally {
      await t.close();
    }
  });

  it('is 200 with the real SQLite store', async () => {
    const t = await startTestServer();
    try {
      expect(await health(t.url)).toEqual({ status: 200, body: { status: 'ok', database: 'ok' } });
    } finally {
      await t.close();
    }
  });
});

describe('/metrics', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('exposes requests, errors by code, engine solves, batch sizes, cache hits and misses, durations', async () => {
    // A cheap question is written on its second ask and read back on its third (cache on second hit).
    for (let ask = 0; ask < 3; ask++) {
      await t.gql(SEED);
      await t.server.settle();
    }
    await t.gql('{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["z9"] }) { distance } }');
    const res = await fetch(`${t.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(
      sumMetric(text, 'chess_paths_http_requests_total', { route: 'graphql', method: 'POST', status: '200' }),
    ).toBe(4);
    expect(sumMetric(text, 'chess_paths_graphql_errors_total', { code: 'BAD_USER_INPUT' })).toBe(1);
    expect(sumMetric(text, 'chess_paths_engine_solves_total')).toBe(2);
    expect(sumMetric(text, 'chess_paths_cache_misses_total')).toBe(2);
    expect(sumMetric(text, 'chess_paths_cache_lookups_skipped_total')).toBe(2);
    expect(sumMetric(text, 'chess_paths_cache_writes_deferred_total')).toBe(1);
    expect(sumMetric(text, 'chess_paths_cache_hits_total')).toBe(1);
    expect(sumMetric(text, 'chess_paths_loader_batch_size_count')).toBe(3);
    expect(sumMetric(text, 'chess_paths_http_request_duration_seconds_count', { route: 'graphql' })).toBe(4);
    expect(text).toContain('chess_paths_engine_solve_duration_seconds_bucket');
    expect(text).toContain('chess_paths_process_resident_memory_bytes');
  });
});

describe('graceful shutdown', () => {
  it('finishes a request in flight, refuses new connections, then closes the database', async () => {
    // The request is held in its cache lookup until the server is seen closing: no guess at timing.
    let release!: () => void;
    let lookupStarted!: () => void;
    const inLookup = new Promise<void>((resolve) => (lookupStarted = resolve));
    const { store, events } = fakeStore({
      lookup: () =>
        new Promise<void>((resolve) => {
          release = resolve;
          lookupStarted();
        }),
    });
    // A grace period far longer than the test: the request must finish, never be cut off. No
    // worker pool: a close() that did not wait for the request would reach the store at once.
    const t = await startTestServer({
      // The lookup is held as long as the test needs: path questions wait for it that long.
      env: { SHUTDOWN_TIMEOUT_MS: '120000', CACHE_READ_WAIT_MS: '600000' },
      deps: { openStore: async () => store, workers: false },
    });
    // A costly question (a board over 512 squares), so that its result is written on its first ask.
    const inFlight = t.gql(
      '{ shortestPaths(query: { piece: KING, board: { files: 24, ranks: 24 }, from: ["a1"], to: ["e5"] }) { distance } }',
    );
    await inLookup;
    const closing = t.server.close();
    // New connections are refused while the request is still in flight, and the store stays open.
    await vi.waitFor(async () => expect(await accepts(t.url)).toBe(false), { timeout: 30_000, interval: 20 });
    expect(events).toEqual(['getMany']);
    release();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.body.data.shortestPaths.distance).toBe(4);
    await closing;
    expect(events).toEqual(['getMany', 'putMany:1', 'close']);
    await expect(fetch(`${t.url}/health`)).rejects.toThrow();
    await t.close();
  });
});

describe('playground page over HTTP', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ database: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is a small page, gzip-compressed, no-cache with an ETag, the seed example inside, nothing from another host', async () => {
    const res = await fetch(`${t.url}/graphql`, {
      headers: { accept: 'text/html', 'accept-encoding': 'gzip' },
      decompress: false,
    } as RequestInit);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    // fetch decompresses transparently; the wire size is the content-length.
    const wire = Number(res.headers.get('content-length'));
    const html = await res.text();
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(wire).toBeLessThan(html.length);
    // GraphiQL itself is files of this server (test/http/playground-route.test.ts).
    expect(html.length).toBeLessThan(8 * 1024);
    expect(html).toMatch(/<script src="\/playground\/graphiql-[0-9a-f]{16}\.js">/);
    expect(html).toContain('SeedExample');
    expect(html).toContain('shortestPaths(query: { piece: KING, from: [\\"e4\\"], to: [\\"a1\\", \\"h8\\"] })');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);

    const again = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html', 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    // `/` is the viewer now (test/viewer/), no longer a redirect to the playground.
    const root = await fetch(`${t.url}/`, { redirect: 'manual' });
    expect(root.status).not.toBe(302);
  });

  it('raw bytes really are gzip', async () => {
    const http = await import('node:http');
    const raw = await new Promise<Buffer>((resolve, reject) => {
      http
        .get(`${t.url}/graphql`, { headers: { accept: 'text/html', 'accept-encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        })
        .on('error', reject);
    });
    expect(gunzipSync(raw).toString('utf8')).toMatch(/^\s*<!doctype html>/i);
  });

  it('can be switched off together with introspection', async () => {
    const off = await startTestServer({ database: false, env: { PLAYGROUND: 'false', INTROSPECTION: 'false' } });
    try {
      const page = await fetch(`${off.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(await page.text()).not.toContain('SeedExample');
      const intro = await off.gql('{ __schema { types { name } } }');
      expect(intro.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect((await off.gql(SEED)).body.data.shortestPaths.distance).toBe(4);
    } finally {
      await off.close();
    }
  });
});

describe('CORS', () => {
  it('lets a page on any origin call the API by default, its preflight kept for a day, no credentials', async () => {
    const t = await startTestServer({ database: false });
    try {
      const preflight = await fetch(`${t.url}/graphql`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-max-age')).toBe('86400');
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      const answer = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { origin: 'https://any.example', 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await t.close();
    }
  });

  it('sends no CORS headers with CORS_ORIGINS=none', async () => {
    const t = await startTestServer({ database: false, env: { CORS_ORIGINS: 'none' } });
    try {
      const preflight = await fetch(`${t.url}/graphql`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('answers configured origins only', async () => {
    const t = await startTestServer({ database: false, env: { CORS_ORIGINS: 'https://allowed.example' } });
    try {
      const preflight = await fetch(`${t.url}/graphql`, {
        method: 'OPTIONS',
        headers: { origin: 'https://allowed.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://allowed.example');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
      // A save's Idempotency-Key may be sent, and a 429's or 503's Retry-After read, from the page.
      expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
      expect(preflight.headers.get('access-control-expose-headers')).toBe('retry-after');
      const other = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await t.close();
    }
  });
});

describe('configuration', () => {
  it('has documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      host: '0.0.0.0',
      databaseUrl: 'file:./data/chess-paths.db',
      playground: true,
      introspection: true,
      production: true,
      limits: { maxBoardSide: 64, maxBatchSize: 500, maxPageSize: 1000 },
    });
  });

  it('is documented in .env.example, defaults included', () => {
    const text = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');
    const documented = new Map<string, string>();
    for (const line of text.split('\n')) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line);
      if (match) documented.set(match[1], match[2]);
    }
    for (const [name, value] of Object.entries(DEFAULTS)) {
      expect(documented.get(name), name).toBe(String(value));
    }
    for (const name of ['NODE_ENV', 'PLAYGROUND', 'INTROSPECTION', 'CORS_ORIGINS'])
      expect(documented.has(name), name).toBe(true);
    // And nothing documented that the server does not read (the table, and its Memory group).
    const source = ['../src/config.ts', '../src/config/memory.ts']
      .map((path) => readFileSync(new URL(path, import.meta.url), 'utf8'))
      .join('\n');
    for (const name of documented.keys()) expect(source, name).toContain(name);
  });

  it('refuses bad values, naming the variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(new ConfigError('PORT="abc" is not a whole number, 0 to 65535'));
    expect(() => loadConfig({ MAX_BOARD_SIDE: '300' })).toThrow(/MAX_BOARD_SIDE=300 is outside 1\.\.256/);
    expect(() => loadConfig({ PLAYGROUND: 'maybe' })).toThrow(/PLAYGROUND/);
    expect(() => loadConfig({ INTROSPECTION: 'false' })).toThrow(/PLAYGROUND=true needs INTROSPECTION=true/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(loadConfig({ NODE_ENV: 'production', PLAYGROUND: 'false', INTROSPECTION: 'false' })).toMatchObject({
      production: true,
      playground: false,
      introspection: false,
    });
  });
});

describe('the entry point', () => {
  it('starts from the environment, serves, and exits 0 on SIGTERM after closing the database', {
    timeout: 150_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chess-paths-main-'));
    const child = spawn(process.execPath, serverArgs(), {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        DATABASE_URL: `file:${join(dir, 'main.db')}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let log = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          log += chunk.toString();
          const match = /"url":"(http:[^"]+)"/.exec(log);
          if (match) resolve(match[1]);
        });
        child.on('exit', (code) => reject(new Error(`exited early with ${code}: ${log}`)));
      });
      // Until the database is open: a condition, however long the machine takes (within 30 s).
      await vi.waitFor(async () => expect((await fetch(`${url}/health`)).status).toBe(200), {
        timeout: 30_000,
        interval: 50,
      });
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: SEED }),
      });
      expect(
        ((await res.json()) as { data: { shortestPaths: { distance: number } } }).data.shortestPaths.distance,
      ).toBe(4);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(log).toContain('"msg":"shut down"');
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

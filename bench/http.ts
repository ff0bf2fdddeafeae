/**
 * HTTP benchmark (`npm run bench:http`): autocannon against a running server, one scenario after
 * another on the same server in the same run, so the figures compare like with like:
 *
 * - trivial: `{ __typename }`, the floor of Apollo + HTTP cost;
 * - (a) seed, cached: the playground's seed example (distance, layers, ASCII overlay), answered
 *   from the result cache after the warm-up;
 * - (b) batch of 100: one request holding 100 distinct 8 x 8 queries (the same 100 every time,
 *   so cached after the first request);
 * - (c) batch of 100, uncached: 100 random 8 x 8 queries with random masks per request, so each
 *   request solves 100 new problems and writes them to the cache.
 *
 * It prints requests per second and p99 latency for each, and the ratio of (a) to the trivial
 * query (target: at least 0.7). Every scenario is warmed up first (2 s, not counted), so the
 * JIT has settled before anything is measured. The server runs as a separate process (so the load
 * generator does not share its event loop): `src/server.ts` through tsx (which only costs at
 * start-up, never per request), with NODE_ENV=production and a throw-away database; or set
 * BENCH_URL to measure a server already running. Options (env): BENCH_DURATION seconds per
 * scenario (default 10), BENCH_CONNECTIONS (default 50).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  requests?: AutocannonRequest[];
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

const FILES = 'abcdefgh';
const square = (i: number) => `${FILES[i % 8]}${Math.floor(i / 8) + 1}`;
const PIECES = ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'KNIGHT'] as const;

const SEED_QUERY = `query SeedExample {
  shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) {
    distance
    layers { squares }
    overlay { ascii }
  }
}`;
const BATCH_QUERY = 'query Batch($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { key distance } }';

/** 100 distinct 8 x 8 queries. */
function fixedBatch() {
  return Array.from({ length: 100 }, (_, i) => ({ piece: PIECES[i % 5], from: [square(i % 64)], to: [square((i * 37 + 11) % 64)] }));
}

/** 100 random queries with random masks: new problems every time. */
function randomBatch() {
  return Array.from({ length: 100 }, () => {
    const from = Math.floor(Math.random() * 64);
    const to = Math.floor(Math.random() * 64);
    let mask = 0n;
    for (let i = 0; i < 64; i++) if (Math.random() < 0.8 || i === from || i === to) mask |= 1n << BigInt(i);
    return {
      piece: PIECES[Math.floor(Math.random() * 5)],
      from: [square(from)],
      to: [square(to)],
      mask: `0x${mask.toString(16).padStart(16, '0')}`,
    };
  });
}

const body = (query: string, variables?: unknown) => JSON.stringify({ query, variables });

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
    server.on('error', reject);
  });
}

async function startServerProcess(): Promise<{ url: string; child: ChildProcess; cleanup: () => void }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'chess-paths-bench-'));
  const args = ['--import', 'tsx', join(root, 'src/server.ts')];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: `file:${join(dir, 'bench.db')}`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  console.log(`server: ${args.join(' ')} (pid ${child.pid}) at ${url}`);
  return { url, child, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function post(url: string, text: string): Promise<unknown> {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  const json = (await res.json()) as { errors?: unknown };
  if (json.errors) throw new Error(`warm-up failed: ${JSON.stringify(json.errors).slice(0, 300)}`);
  return json;
}

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function run(name: string, url: string, request: AutocannonRequest): Promise<Row> {
  const requests = [{ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, ...request }];
  await autocannon({ url: `${url}/graphql`, connections, duration: 2, requests }); // warm-up
  const result = await autocannon({ url: `${url}/graphql`, connections, duration, requests });
  const row = {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
  console.log(`  ${name.padEnd(28)} ${row.rps.toFixed(0).padStart(8)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   errors ${row.errors}   non-2xx ${row.non2xx}`);
  return row;
}

async function main(): Promise<void> {
  const external = process.env.BENCH_URL;
  const server = external ? undefined : await startServerProcess();
  const url = external ?? server!.url;
  try {
    const batch = body(BATCH_QUERY, { q: fixedBatch() });
    await post(url, body('{ __typename }'));
    await post(url, body(SEED_QUERY));
    await post(url, batch);
    await new Promise((r) => setTimeout(r, 500)); // let the cache writes land
    console.log(`autocannon: ${connections} connections, ${duration} s per scenario`);
    const rows: Row[] = [];
    rows.push(await run('trivial { __typename }', url, { body: body('{ __typename }') }));
    rows.push(await run('(a) seed example, cached', url, { body: body(SEED_QUERY) }));
    rows.push(await run('(b) batch of 100, cached', url, { body: batch }));
    rows.push(
      await run('(c) batch of 100, uncached', url, {
        setupRequest: (req) => ({ ...req, body: body(BATCH_QUERY, { q: randomBatch() }) }),
      }),
    );
    const ratio = rows[1].rps / rows[0].rps;
    console.log(`ratio (a) / trivial: ${ratio.toFixed(2)} (target >= 0.7) ${ratio >= 0.7 ? 'OK' : 'BELOW TARGET'}`);
    console.log(`queries per second in (b): ${(rows[2].rps * 100).toFixed(0)}, in (c): ${(rows[3].rps * 100).toFixed(0)}`);
    const failed = rows.filter((r) => r.errors > 0 || r.non2xx > 0);
    if (failed.length > 0) {
      console.error(`errors in: ${failed.map((r) => r.name).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    if (server) {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
      server.cleanup();
    }
  }
}

await main();

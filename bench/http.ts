/**
 * HTTP benchmark (`npm run bench:http`): autocannon against the server, one scenario after another
 * in the same run, so the figures compare like with like. The 100-query batches are all of one
 * kind: 100 random 8 x 8 questions, each with a random mask of about 80 % passable squares.
 *
 * Server A, the defaults (NODE_ENV=production, a fresh throw-away database):
 * - (c) batch of 100, cold: 100 new questions per request (never seen by the cache or the memo),
 *   each solved and written to the cache. Run first, on the empty database.
 * - trivial: `{ __typename }`, the floor of Apollo + HTTP cost (never response-cached: it holds
 *   no path result);
 * - (a) seed, cached: the playground's seed example (distance, layers, ASCII overlay);
 * - (b) batch of 100, warm: one fixed batch of 100 such questions, every time (all hits).
 * With the defaults, (a) and (b) are answered from the response cache (RESPONSE_CACHE_SIZE).
 *
 * Server B, RESPONSE_CACHE_SIZE=0: trivial, (a) and (b) again, now answered from the memo of hot
 * results (executed by graphql-js every time), and (a) as a plain GET, which adds the
 * cache-control bookkeeping and the ETag that make GET answers cacheable by HTTP caches. Server C, RESPONSE_CACHE_SIZE=0 RESULT_MEMO_SIZE=0:
 * (b) answered from SQLite (one read, 100 rows decoded and checked, 100 rebuilds per request).
 *
 * It prints requests per second and p50/p99 latency for each, the ratio of (a) to the trivial
 * query (target: at least 0.7) and of warm to cold (target: at least 3). Every scenario is warmed
 * up first (2 s, not counted), so the JIT has settled before anything is measured. Each server runs
 * as a separate process (so the load generator does not share its event loop): `src/server.ts`
 * through tsx (which only costs at start-up, never per request). Options (env): BENCH_DURATION
 * seconds per scenario (default 10), BENCH_CONNECTIONS (default 50), BENCH_URL to measure only the
 * server-A scenarios against a server already running.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, randomQuestion } from './questions.js';
import { seededRandom } from './rng.js';

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

const SEED_QUERY = `query SeedExample {
  shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) {
    distance
    layers { squares }
    overlay { ascii }
  }
}`;
const BATCH_QUERY = 'query Batch($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { key distance } }';

/** 100 random queries with random masks (about 80 % of the squares passable). */
function randomBatch(random: () => number = Math.random) {
  return Array.from({ length: 100 }, () => randomQuestion(random));
}

const body = (query: string, variables?: unknown) => JSON.stringify({ query, variables });

async function startServerProcess(
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
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
      ...env,
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
  const settings =
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ') || 'defaults';
  console.log(`server (${settings}): ${args.join(' ')} (pid ${child.pid}) at ${url}`);
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, child, stop };
}

async function post(url: string, text: string): Promise<unknown> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
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
  console.log(
    `  ${name.padEnd(28)} ${row.rps.toFixed(0).padStart(8)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   errors ${row.errors}   non-2xx ${row.non2xx}`,
  );
  return row;
}

const BATCH_WARM = body(BATCH_QUERY, { q: randomBatch(seededRandom(20261122)) });
const cold = (): AutocannonRequest => ({
  setupRequest: (req) => ({ ...req, body: body(BATCH_QUERY, { q: randomBatch() }) }),
});

/** Runs `scenarios` against one server (started here with `env`, or `external`). */
async function onServer(
  label: string,
  env: Record<string, string> | undefined,
  external: string | undefined,
  scenarios: [string, AutocannonRequest][],
): Promise<Row[]> {
  const server = external ? undefined : await startServerProcess(env);
  const url = external ?? server!.url;
  try {
    console.log(`${label}: autocannon, ${connections} connections, ${duration} s per scenario`);
    // Prime the warm scenarios: solve, write to the cache, read back (memoised), read again (kept).
    for (let i = 0; i < 3; i++) {
      await post(url, body(SEED_QUERY));
      await post(url, BATCH_WARM);
      await new Promise((r) => setTimeout(r, 300)); // let the cache writes land
    }
    const rows: Row[] = [];
    for (const [name, request] of scenarios) rows.push(await run(`${label} ${name}`, url, request));
    return rows;
  } finally {
    await server?.stop();
  }
}

async function main(): Promise<void> {
  const external = process.env.BENCH_URL;
  const trivial: [string, AutocannonRequest] = ['trivial { __typename }', { body: body('{ __typename }') }];
  const seed: [string, AutocannonRequest] = ['(a) seed example, cached', { body: body(SEED_QUERY) }];
  const warm: [string, AutocannonRequest] = ['(b) batch of 100, warm', { body: BATCH_WARM }];
  // The same seed question as a plain GET: executed like (a) on server B, plus the cache-control
  // bookkeeping of every field and the ETag of the answer, which only GET answers carry.
  const seedGet: [string, AutocannonRequest] = [
    '(a) seed example, GET',
    { method: 'GET', path: `/graphql?query=${encodeURIComponent(SEED_QUERY)}`, headers: {}, body: undefined },
  ];
  const a = await onServer('A', {}, external, [['(c) batch of 100, cold', cold()], trivial, seed, warm]);
  const rows = [...a];
  if (!external) {
    rows.push(...(await onServer('B', { RESPONSE_CACHE_SIZE: '0' }, undefined, [trivial, seed, seedGet, warm])));
    rows.push(...(await onServer('C', { RESPONSE_CACHE_SIZE: '0', RESULT_MEMO_SIZE: '0' }, undefined, [warm])));
  }
  const rps = (name: string) => rows.find((r) => r.name === name)?.rps ?? NaN;
  const ratio = (x: number, y: number) => (x / y).toFixed(2);
  const coldRps = rps('A (c) batch of 100, cold');
  console.log('');
  console.log(
    `ratio (a) / trivial, A (response cache): ${ratio(rps('A (a) seed example, cached'), rps('A trivial { __typename }'))} (target >= 0.7)`,
  );
  if (!external) {
    console.log(
      `ratio (a) / trivial, B (memo, executed):  ${ratio(rps('B (a) seed example, cached'), rps('B trivial { __typename }'))}`,
    );
    console.log(
      `ratio (a) GET / POST, B (HTTP caching):   ${ratio(rps('B (a) seed example, GET'), rps('B (a) seed example, cached'))}`,
    );
  }
  console.log(
    `warm / cold, A (response cache):        ${ratio(rps('A (b) batch of 100, warm'), coldRps)} (target >= 3)`,
  );
  if (!external) {
    console.log(`warm / cold, B (memo):                  ${ratio(rps('B (b) batch of 100, warm'), coldRps)}`);
    console.log(`warm / cold, C (SQLite):                ${ratio(rps('C (b) batch of 100, warm'), coldRps)}`);
  }
  console.log(
    `queries per second, cold: ${(coldRps * 100).toFixed(0)}, warm (A): ${(rps('A (b) batch of 100, warm') * 100).toFixed(0)}`,
  );
  const failed = rows.filter((r) => r.errors > 0 || r.non2xx > 0);
  if (failed.length > 0) {
    console.error(`errors in: ${failed.map((r) => r.name).join(', ')}`);
    process.exitCode = 1;
  }
}

await main();

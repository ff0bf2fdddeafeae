/**
 * Cluster benchmark (`npm run bench:cluster`): what PostgreSQL and replicas cost or bring, with
 * `bench:load`'s request mix (50 % cached path questions, 30 % new ones, 20 % analysis saves of
 * three queries) under autocannon, against, one after the other in the same run:
 *
 * - (a) one replica on SQLite (a throw-away file): the reference;
 * - (b) one replica on PostgreSQL (a fresh database), reached directly;
 * - (b') the same behind nginx: nginx's own share of (c);
 * - (c) BENCH_REPLICAS (3) replicas on one PostgreSQL database behind nginx (round-robin, idle
 *   connections to the replicas kept: `keepalive`).
 *
 * It prints requests/s, latency p50 and p99 (and p99 per kind), failures, and the ratios of each
 * configuration's throughput and p99 to (a) measured in the same run. Everything runs on this
 * machine: the load generator, nginx, PostgreSQL and the replicas share its cores, so on two cores
 * (c) cannot show scaling; what it shows is the cost of the shared database and the balancer.
 *
 * Each replica is the built server (`dist/server.js`, built first when missing or older than the
 * source) with NODE_ENV=production, LOG_LEVEL=warn and RATE_LIMIT_MUTATIONS=0 (as in bench:load:
 * all the load comes from one address) and otherwise the shipped configuration (DATABASE_POOL_SIZE
 * 10 per replica, WORKER_THREADS one fewer than the cores). The cached set is asked of every
 * replica until it answers `cached: true` before anything is measured.
 *
 * The mix is bench/load.ts's (kept in step by hand: that file runs its benchmark when imported).
 *
 * Options (env): BENCH_DURATION seconds per configuration (20), BENCH_CONNECTIONS (100),
 * BENCH_WARMUP seconds before each (3), BENCH_REPLICAS (3), BENCH_ONLY (comma-separated of
 * sqlite, pg, pg-nginx, cluster), BENCH_OUT (a file for the results as JSON), BENCH_SKIP_BUILD=1,
 * TEST_POSTGRES_URL (the PostgreSQL server, without a database name; default
 * postgresql://postgres@127.0.0.1:5432).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '../test/support/postgres.js';
import { startLoadBalancer } from '../test/support/postgres-cluster.js';
import { freePort, PIECES, randomQuestion, square } from './questions.js';

interface Latency {
  p50: number;
  p99: number;
  max: number;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: Latency & { mean: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  timeout?: number;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_DURATION ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const warmupSeconds = Number(process.env.BENCH_WARMUP ?? 3);
const replicaCount = Number(process.env.BENCH_REPLICAS ?? 3);
const SERVER_ENV = { NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_MUTATIONS: '0' };

// ---------------------------------------------------------------------------------------------
// The mix of bench/load.ts

const MIX = { cached: 0.5, uncached: 0.3, save: 0.2 } as const;
type Kind = keyof typeof MIX;
const SEED = { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] };
const CACHED = [
  SEED,
  ...Array.from({ length: 100 }, (_, i) => ({
    piece: PIECES[i % 5],
    from: [square(i % 64)],
    to: [square((i * 37 + 11) % 64)],
  })),
];
const PATH_QUERY = 'query Path($q: PathQuery!) { shortestPaths(query: $q) { key distance layers { squares } cached } }';
const SAVE =
  'mutation Save($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken analysis { id results { distance } } } }';
const body = (query: string, variables: unknown) => JSON.stringify({ query, variables });
const pickCached = () => CACHED[Math.floor(Math.random() * CACHED.length)];

function requestBody(kind: Kind): string {
  if (kind === 'cached') return body(PATH_QUERY, { q: pickCached() });
  if (kind === 'uncached') return body(PATH_QUERY, { q: randomQuestion() });
  return body(SAVE, {
    i: {
      title: `cluster ${Math.random().toString(36).slice(2)}`,
      notes: 'bench:cluster',
      queries: [pickCached(), pickCached(), randomQuestion()],
    },
  });
}

function pickKind(): Kind {
  const r = Math.random();
  return r < MIX.cached ? 'cached' : r < MIX.cached + MIX.uncached ? 'uncached' : 'save';
}

interface Tally {
  failed: Record<string, number>;
  latency: Record<Kind, number[]>;
}

function loadRequests(tally: Tally): AutocannonRequest[] {
  return [
    {
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json' },
      setupRequest: (req, context) => {
        const kind = pickKind();
        context.kind = kind;
        context.started = performance.now();
        return { ...req, body: requestBody(kind) };
      },
      onResponse: (status, text, context) => {
        const kind = context.kind as Kind;
        tally.latency[kind].push(performance.now() - (context.started as number));
        const why = status !== 200 ? `HTTP ${status}` : text.includes('"errors"') ? 'GraphQL errors' : '';
        if (why) tally.failed[`${kind}: ${why}`] = (tally.failed[`${kind}: ${why}`] ?? 0) + 1;
      },
    },
  ];
}

function percentiles(values: number[]): Latency {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length === 0 ? 0 : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  return { p50: at(0.5), p99: at(0.99), max: Math.round(sorted[sorted.length - 1] ?? 0) };
}

// ---------------------------------------------------------------------------------------------
// Servers

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

function ensureBuilt(): void {
  const built = join(root, 'dist', 'server.js');
  if (process.env.BENCH_SKIP_BUILD === '1' && existsSync(built)) return;
  if (existsSync(built) && newestMtime(join(root, 'src')) <= newestMtime(join(root, 'dist'))) return;
  console.log('dist/ is missing or older than src/: npm run build');
  const run = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) throw new Error('npm run build failed');
}

interface Replica {
  url: string;
  child: ChildProcess;
  /** Lines the replica logged (warn and above), and the first few of them. */
  log: { lines: number; samples: string[] };
}

async function startReplica(databaseUrl: string): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'dist', 'server.js')], {
    cwd: root,
    env: { ...process.env, ...SERVER_ENV, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = { lines: 0, samples: [] as string[] };
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n').filter(Boolean)) {
        log.lines++;
        if (log.samples.length < 3) log.samples.push(line.slice(0, 400));
      }
    });
  }
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`a replica exited with ${child.exitCode}: ${log.samples.join('\n')}`);
    const status = await fetch(`${url}/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return { url, child, log };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`a replica on ${databaseUrl.replace(/\/\/[^@]*@/, '//')} did not become healthy within 60 s`);
}

async function stopReplica(replica: Replica): Promise<void> {
  if (replica.child.exitCode !== null || replica.child.signalCode !== null) return;
  const exited = new Promise((r) => replica.child.once('exit', r));
  replica.child.kill('SIGTERM');
  await exited;
}

async function post(url: string, text: string): Promise<{ data?: any; errors?: unknown }> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
  return (await res.json()) as { data?: any; errors?: unknown };
}

/** Asks the cached set of `url` until every answer is `cached: true`. */
async function warmCache(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const res = await post(
      url,
      body('query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { cached } }', { q: CACHED }),
    );
    if (res.errors) throw new Error(`warm-up failed: ${JSON.stringify(res.errors).slice(0, 300)}`);
    if ((res.data.shortestPathsBatch as { cached: boolean }[]).every((r) => r.cached)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the cached set never came back cached from ${url}`);
}

// ---------------------------------------------------------------------------------------------

interface Setup {
  id: string;
  label: string;
  store: 'sqlite' | 'postgres';
  replicas: number;
  nginx: boolean;
}

const SETUPS: Setup[] = [
  { id: 'sqlite', label: '(a) 1 replica, SQLite', store: 'sqlite', replicas: 1, nginx: false },
  { id: 'pg', label: '(b) 1 replica, PostgreSQL', store: 'postgres', replicas: 1, nginx: false },
  { id: 'pg-nginx', label: "(b') 1 replica, PostgreSQL, nginx", store: 'postgres', replicas: 1, nginx: true },
  {
    id: 'cluster',
    label: `(c) ${replicaCount} replicas, PostgreSQL, nginx`,
    store: 'postgres',
    replicas: replicaCount,
    nginx: true,
  },
];

interface Measured {
  setup: Setup;
  requests: number;
  requestsPerSecond: number;
  latencyMs: Latency & { mean: number };
  latencyByKindMs: Record<Kind, Latency>;
  failures: number;
  failedByKind: Record<string, number>;
  healthAfter: number[];
  /** Lines logged by the replicas during the run, and a few of them. */
  serverLogLines: number;
  serverLogSamples: string[];
}

async function measure(setup: Setup): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'chess-paths-cluster-'));
  const database = setup.store === 'postgres' ? await createTestDatabase() : undefined;
  const databaseUrl = database?.url ?? `file:${join(dir, 'bench.db')}`;
  const replicas: Replica[] = [];
  let balancer: Awaited<ReturnType<typeof startLoadBalancer>> | undefined;
  try {
    const started = await Promise.allSettled(Array.from({ length: setup.replicas }, () => startReplica(databaseUrl)));
    for (const s of started) if (s.status === 'fulfilled') replicas.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    if (setup.nginx)
      balancer = await startLoadBalancer(
        replicas.map((r) => r.url),
        { keepalive: 64 },
      );
    const url = balancer?.url ?? replicas[0].url;
    for (const replica of replicas) await warmCache(replica.url);
    if (warmupSeconds > 0) {
      const warm: Tally = { failed: {}, latency: { cached: [], uncached: [], save: [] } };
      await autocannon({ url, connections, duration: warmupSeconds, requests: loadRequests(warm) });
    }
    const tally: Tally = { failed: {}, latency: { cached: [], uncached: [], save: [] } };
    const result = await autocannon({
      url,
      connections,
      duration: seconds,
      timeout: 10,
      requests: loadRequests(tally),
    });
    const healthAfter = await Promise.all(
      replicas.map((r) =>
        fetch(`${r.url}/health`).then(
          (res) => res.status,
          () => 0,
        ),
      ),
    );
    const graphqlFailures = Object.values(tally.failed).reduce((a, b) => a + b, 0);
    return {
      setup,
      requests: result.requests.total,
      requestsPerSecond: Math.round(result.requests.average),
      latencyMs: {
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
        mean: result.latency.mean,
      },
      latencyByKindMs: {
        cached: percentiles(tally.latency.cached),
        uncached: percentiles(tally.latency.uncached),
        save: percentiles(tally.latency.save),
      },
      failures: result.errors + result.timeouts + Math.max(result.non2xx, graphqlFailures),
      failedByKind: tally.failed,
      healthAfter,
      serverLogLines: replicas.reduce((n, r) => n + r.log.lines, 0),
      serverLogSamples: replicas.flatMap((r) => r.log.samples).slice(0, 3),
    };
  } finally {
    await balancer?.stop();
    await Promise.all(replicas.map(stopReplica));
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  ensureBuilt();
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
  const setups = SETUPS.filter((s) => !only || only.includes(s.id));
  console.log(
    `bench:cluster: ${connections} connections for ${seconds} s per configuration (after ${warmupSeconds} s of warm-up), ` +
      `bench:load's mix (${MIX.cached * 100} % cached / ${MIX.uncached * 100} % uncached / ${MIX.save * 100} % saves), ` +
      `${cpus().length} cores, ${JSON.stringify(SERVER_ENV)}`,
  );
  const results: Measured[] = [];
  for (const setup of setups) {
    console.log(`  ${setup.label} ...`);
    results.push(await measure(setup));
  }
  const reference = results.find((r) => r.setup.id === 'sqlite');
  const ratio = (value: number, of: number | undefined) => (of ? (value / of).toFixed(2) : '-');
  const rows = [
    ['configuration', 'req/s', 'x (a)', 'p50 ms', 'p99 ms', 'p99 x (a)', 'p99 cached/new/save ms', 'failures'],
    ...results.map((r) => [
      r.setup.label,
      String(r.requestsPerSecond),
      ratio(r.requestsPerSecond, reference?.requestsPerSecond),
      String(r.latencyMs.p50),
      String(r.latencyMs.p99),
      ratio(r.latencyMs.p99, reference?.latencyMs.p99),
      `${r.latencyByKindMs.cached.p99} / ${r.latencyByKindMs.uncached.p99} / ${r.latencyByKindMs.save.p99}`,
      String(r.failures),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  console.log(
    rows
      .map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '))
      .join('\n'),
  );
  for (const r of results.filter((x) => x.failures > 0))
    console.log(`${r.setup.label}: ${JSON.stringify(r.failedByKind)}`);
  for (const r of results.filter((x) => x.serverLogLines > 0)) {
    console.log(
      `${r.setup.label}: the replicas logged ${r.serverLogLines} lines, e.g.\n  ${r.serverLogSamples.join('\n  ')}`,
    );
  }
  if (process.env.BENCH_OUT) {
    const report = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version },
      config: { seconds, connections, warmupSeconds, replicas: replicaCount, mix: MIX, serverEnv: SERVER_ENV },
      results,
    };
    writeFileSync(resolve(process.env.BENCH_OUT), `${JSON.stringify(report, null, 2)}\n`);
  }
  if (results.some((r) => r.failures > 0 || r.healthAfter.some((s) => s !== 200))) process.exitCode = 1;
}

await main();

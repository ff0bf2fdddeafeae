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
 * The mix, and the helpers around it, come from bench/load-mix.ts, shared with bench/load.ts.
 *
 * Options (env): BENCH_DURATION seconds per configuration (20), BENCH_CONNECTIONS (100),
 * BENCH_WARMUP seconds before each (3), BENCH_REPLICAS (3), BENCH_ONLY (comma-separated of
 * sqlite, pg, pg-nginx, cluster), BENCH_OUT (a file for the results as JSON), BENCH_SKIP_BUILD=1,
 * TEST_POSTGRES_URL (the PostgreSQL server, without a database name; default
 * postgresql://postgres@127.0.0.1:5432).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase } from '../test/support/postgres.js';
import { startLoadBalancer } from '../test/support/postgres-cluster.js';
import * as mix from './load-mix.js';
import { freePort } from './questions.js';

const seconds = Number(process.env.BENCH_DURATION ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const warmupSeconds = Number(process.env.BENCH_WARMUP ?? 3);
const replicaCount = Number(process.env.BENCH_REPLICAS ?? 3);

/** Failures as this benchmark has always keyed them: the HTTP status, or just "GraphQL errors". */
const failureOf = (status: number, text: string): string =>
  status !== 200 ? `HTTP ${status}` : text.includes('"errors"') ? 'GraphQL errors' : '';

// ---------------------------------------------------------------------------------------------
// Servers

interface Replica {
  url: string;
  child: ChildProcess;
  /** Lines the replica logged (warn and above), and the first few of them. */
  log: { lines: number; samples: string[] };
}

async function startReplica(databaseUrl: string): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(mix.root, 'dist', 'server.js')], {
    cwd: mix.root,
    env: { ...process.env, ...mix.SERVER_ENV, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl },
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
  const state = await mix.untilHealthy(url, child, 1200);
  if (state === 'healthy') return { url, child, log };
  if (state === 'exited') throw new Error(`a replica exited with ${child.exitCode}: ${log.samples.join('\n')}`);
  child.kill('SIGKILL');
  throw new Error(`a replica on ${databaseUrl.replace(/\/\/[^@]*@/, '//')} did not become healthy within 60 s`);
}

async function stopReplica(replica: Replica): Promise<void> {
  if (replica.child.exitCode !== null || replica.child.signalCode !== null) return;
  const exited = new Promise((r) => replica.child.once('exit', r));
  replica.child.kill('SIGTERM');
  await exited;
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
  latencyMs: mix.Latency & { mean: number };
  latencyByKindMs: Record<mix.Kind, mix.Latency>;
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
    // The cached set of every replica: asked until it comes back cached.
    for (const replica of replicas)
      if (!(await mix.warmCache(replica.url, 100)))
        throw new Error(`the cached set never came back cached from ${replica.url}`);
    if (warmupSeconds > 0) {
      const warm = mix.newTally();
      await mix.autocannon({
        url,
        connections,
        duration: warmupSeconds,
        requests: mix.loadRequests(warm, 'cluster', failureOf),
      });
    }
    const tally = mix.newTally();
    const result = await mix.autocannon({
      url,
      connections,
      duration: seconds,
      timeout: 10,
      requests: mix.loadRequests(tally, 'cluster', failureOf),
    });
    const healthAfter = await Promise.all(replicas.map((r) => mix.healthStatus(r.url)));
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
      latencyByKindMs: mix.latencyByKind(tally),
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
  mix.ensureBuilt(process.env.BENCH_SKIP_BUILD === '1');
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
  const setups = SETUPS.filter((s) => !only || only.includes(s.id));
  console.log(
    `bench:cluster: ${connections} connections for ${seconds} s per configuration (after ${warmupSeconds} s of warm-up), ` +
      `bench:load's mix (${mix.MIX.cached * 100} % cached / ${mix.MIX.uncached * 100} % uncached / ${mix.MIX.save * 100} % saves), ` +
      `${cpus().length} cores, ${JSON.stringify(mix.SERVER_ENV)}`,
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
      config: { seconds, connections, warmupSeconds, replicas: replicaCount, mix: mix.MIX, serverEnv: mix.SERVER_ENV },
      results,
    };
    writeFileSync(resolve(process.env.BENCH_OUT), `${JSON.stringify(report, null, 2)}\n`);
  }
  if (results.some((r) => r.failures > 0 || r.healthAfter.some((s) => s !== 200))) process.exitCode = 1;
}

await main();

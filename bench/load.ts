/**
 * Load benchmark (`npm run bench:load`): the built server (`dist/server.js`, built first when it
 * is missing or older than the source) in a child process on a throw-away SQLite database, under
 * autocannon with 100 concurrent connections for 30 s on a mix of
 *
 * - 50 % cached path questions: the seed example and 100 other 8 x 8 questions, asked once before
 *   the run so that they are answered from the result cache (and the hot-result memo);
 * - 30 % uncached path questions: random 8 x 8 questions with random obstacles, new problems
 *   that are solved and written to the cache;
 * - 20 % analysis saves: three queries each (two from the cached set, one new), with the results
 *   read back in the answer.
 *
 * Every answer is checked: a status other than 200, or a GraphQL `errors` entry, is counted by
 * kind. The server's resident memory is sampled from /proc/<pid>/status every 100 ms, and its
 * peak (VmHWM) read at the end. Results go to bench/load-results.json and a table is printed;
 * the exit code is 1 when any request failed.
 *
 * The server runs with NODE_ENV=production, LOG_LEVEL=warn and RATE_LIMIT_MUTATIONS=0: the
 * mutation rate limit (60 per minute per address by default) would otherwise refuse almost every
 * save, since all the load comes from one address. Everything else is the shipped configuration.
 *
 * Options (env): LOAD_SECONDS (30), LOAD_CONNECTIONS (100), LOAD_WARMUP_SECONDS (3),
 * LOAD_SKIP_BUILD=1 to use dist/ as it is.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  autocannon,
  body,
  ensureBuilt,
  healthStatus,
  latencyByKind,
  loadRequests,
  MIX,
  newTally,
  post,
  root,
  SERVER_ENV,
  untilHealthy,
  warmCache,
} from './load-mix.js';
import { freePort } from './questions.js';

const seconds = Number(process.env.LOAD_SECONDS ?? 30);
const connections = Number(process.env.LOAD_CONNECTIONS ?? 100);
const warmupSeconds = Number(process.env.LOAD_WARMUP_SECONDS ?? 3);

// ---------------------------------------------------------------------------------------------
// The server

async function startServerProcess(): Promise<{ url: string; child: ChildProcess; dir: string }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'chess-paths-load-'));
  const child = spawn(process.execPath, [join(root, 'dist', 'server.js')], {
    cwd: root,
    env: {
      ...process.env,
      ...SERVER_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${join(dir, 'load.db')}`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const state = await untilHealthy(url, child, 600);
  if (state === 'healthy') return { url, child, dir };
  if (state === 'exited') throw new Error(`the server exited with ${child.exitCode}`);
  child.kill('SIGKILL');
  throw new Error('the server did not become healthy within 30 s');
}

function procKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of `pid` in kB, from /proc or, failing that, ps. */
function rssKb(pid: number): number {
  const fromProc = procKb(pid, 'VmRSS');
  if (fromProc > 0) return fromProc;
  const ps = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  return Number(ps.stdout.trim()) || 0;
}

function metricsOf(text: string, names: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (!match || !names.includes(match[1])) continue;
    const key = `${match[1]}${match[2] ?? ''}`;
    out[key] = (out[key] ?? 0) + Number(match[3]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  ensureBuilt(process.env.LOAD_SKIP_BUILD === '1');
  const server = await startServerProcess();
  const pid = server.child.pid!;
  let peakSampledKb = 0;
  const sampler = setInterval(() => {
    peakSampledKb = Math.max(peakSampledKb, rssKb(pid));
  }, 100);
  try {
    // The cached set: asked once, then until the cache answers it.
    await warmCache(server.url, 50);
    const rssBeforeKb = rssKb(pid);
    if (warmupSeconds > 0) {
      const warm = newTally();
      await autocannon({ url: server.url, connections, duration: warmupSeconds, requests: loadRequests(warm, 'load') });
    }
    console.log(
      `bench:load: ${connections} connections for ${seconds} s (after ${warmupSeconds} s of warm-up), mix ${MIX.cached * 100} % cached paths / ` +
        `${MIX.uncached * 100} % uncached paths / ${MIX.save * 100} % analysis saves; server pid ${pid}, ${JSON.stringify(SERVER_ENV)}`,
    );
    const tally = newTally();
    const result = await autocannon({
      url: server.url,
      connections,
      duration: seconds,
      timeout: 10,
      requests: loadRequests(tally, 'load'),
    });

    const healthAfter = await healthStatus(server.url);
    const metrics = metricsOf(await (await fetch(`${server.url}/metrics`)).text(), [
      'chess_paths_graphql_errors_total',
      'chess_paths_engine_solves_total',
      'chess_paths_cache_hits_total',
      'chess_paths_cache_misses_total',
      'chess_paths_memo_hits_total',
      'chess_paths_cache_errors_total',
      'chess_paths_response_cache_hits_total',
      'chess_paths_nodejs_eventloop_lag_max_seconds',
      'chess_paths_nodejs_eventloop_lag_p99_seconds',
      'chess_paths_nodejs_gc_duration_seconds_sum',
      'chess_paths_nodejs_gc_duration_seconds_count',
      'chess_paths_nodejs_heap_size_used_bytes',
    ]);
    const analyses = await post(server.url, body('{ analyses(first: 1) { totalCount } }', {}));
    const peakHwmKb = procKb(pid, 'VmHWM');
    const graphqlFailures = Object.values(tally.failed).reduce((a, b) => a + b, 0);

    const report = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version },
      commit:
        spawnSync('git', ['describe', '--always', '--dirty'], { cwd: root, encoding: 'utf8' }).stdout.trim() || null,
      config: { seconds, connections, warmupSeconds, mix: MIX, serverEnv: SERVER_ENV, entry: 'dist/server.js' },
      results: {
        requests: result.requests.total,
        requestsPerSecond: Math.round(result.requests.average),
        latencyMs: {
          p50: result.latency.p50,
          p90: result.latency.p90,
          p99: result.latency.p99,
          p99_9: result.latency.p99_9,
          max: result.latency.max,
          mean: result.latency.mean,
        },
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
        statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
        sentByKind: tally.sent,
        latencyByKindMs: latencyByKind(tally),
        failedByKind: tally.failed,
        failureSamples: tally.samples,
      },
      server: {
        peakRssMb: Math.round(Math.max(peakHwmKb, peakSampledKb) / 1024),
        peakRssSampledMb: Math.round(peakSampledKb / 1024),
        rssBeforeLoadMb: Math.round(rssBeforeKb / 1024),
        rssAfterLoadMb: Math.round(rssKb(pid) / 1024),
        healthAfter,
        analysesSaved: analyses.data?.analyses?.totalCount ?? null,
        metrics,
      },
    };
    writeFileSync(join(root, 'bench', 'load-results.json'), `${JSON.stringify(report, null, 2)}\n`);

    const rows: [string, string][] = [
      ['requests (total)', String(report.results.requests)],
      ['requests/s', String(report.results.requestsPerSecond)],
      [
        'latency p50 / p90 / p99 / max',
        `${result.latency.p50} / ${result.latency.p90} / ${result.latency.p99} / ${result.latency.max} ms`,
      ],
      ['sent: cached / uncached / saves', `${tally.sent.cached} / ${tally.sent.uncached} / ${tally.sent.save}`],
      ...(['cached', 'uncached', 'save'] as const).map((kind): [string, string] => {
        const p = report.results.latencyByKindMs[kind];
        return [`  ${kind} p50 / p99 / max`, `${p.p50} / ${p.p99} / ${p.max} ms`];
      }),
      ['errors (socket) / timeouts', `${result.errors} / ${result.timeouts}`],
      ['non-2xx', String(result.non2xx)],
      ['answers with GraphQL errors', String(graphqlFailures)],
      [
        'server RSS before / peak / after',
        `${report.server.rssBeforeLoadMb} / ${report.server.peakRssMb} / ${report.server.rssAfterLoadMb} MB`,
      ],
      ['analyses saved', String(report.server.analysesSaved)],
      ['/health after', String(healthAfter)],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log(rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n'));
    if (tally.samples.length > 0)
      console.log(`failures: ${JSON.stringify(tally.failed)}\n  ${tally.samples.join('\n  ')}`);
    console.log('written to bench/load-results.json');
    if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0 || graphqlFailures > 0 || healthAfter !== 200)
      process.exitCode = 1;
  } finally {
    clearInterval(sampler);
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    rmSync(server.dir, { recursive: true, force: true });
  }
}

await main();

/**
 * Attack benchmark (`npm run bench:attack`): expensive requests that stay inside the DEFAULT
 * limits (board side 64, batch 500, `first` 1000, 30 aliases, 1 MiB bodies, 60 mutations a
 * minute), each against a fresh built server (`dist/server.js`, built first when it is missing or
 * older than src/) in a child process with NODE_ENV=production and LOG_LEVEL=warn on a fresh
 * throw-away SQLite database, so that the figures of one attack do not mix with another's:
 *
 * - maze-batch: a 500-question 64 x 64 KING batch on a one-square-wide serpentine maze (distances
 *   about 2,000) with `layers { squares }`, from every client at once; then again (cached).
 * - corridor-paths: 4 aliased questions on two-square-wide corridors, `paths(first: $n)` with
 *   n = 1000 passed as a variable (so the static cost check does not see it).
 * - distances: 6 aliases of 500-question open 64 x 64 batches asking `distances`.
 * - maze-ascii: one maze question asking `overlay { ascii svg }`.
 * - analyses-list: 55 saves of 500 maze questions each (about 545 KB a body), then
 *   `analyses(first: 1000) { edges { node { results { distance } } } }` from every client.
 * - sigterm: SIGTERM once the clients' maze batches have been sent; time to exit and exit code.
 * - many-aliases: 30 aliases of 500-question open 64 x 64 batches with `pathCount path { squares }`
 *   (as many distinct batches as fit in the body limit, the other aliases repeat them).
 * - slowloris-bodies: every client sends a 1 MiB `{ __typename }` body in 16 KiB pieces every 250 ms.
 *
 * During each attack and for 2 s after it, a worker thread times `GET /health` and a POST
 * `{ __typename }` every 20 ms on connections of their own. Per attack the report has: the attack
 * requests' latency (min / median / max), statuses (resets, socket errors and timeouts counted
 * apart) and GraphQL error codes; the probes' count, worst and p99; the server's peak RSS
 * (VmRSS sampled every 50 ms, and VmHWM); the bytes the database files grew (while running, and
 * after the server exited and flushed); the time the server took to exit on SIGTERM. Results go
 * to bench/attack-results.json and a table is printed with the goals next to the figures. This is
 * a measurement: the exit code is 0 unless the benchmark itself broke.
 *
 * Options (env): ATTACK_ONLY=name,name (a subset), ATTACK_CLIENTS (20), ATTACK_TIMEOUT_MS (120000,
 * per request), ATTACK_SERVER=/path/to/dist/server.js (another build, e.g. an older commit's
 * clone; never built), ATTACK_SKIP_BUILD=1 (use dist/ as it is), ATTACK_OUT (the JSON file).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as Q from './attack-queries.js';
import { freePort } from './questions.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const serverPath = resolve(process.env.ATTACK_SERVER ?? join(root, 'dist', 'server.js'));
const serverRoot = resolve(dirname(serverPath), '..');
const clients = Number(process.env.ATTACK_CLIENTS ?? 20);
const timeoutMs = Number(process.env.ATTACK_TIMEOUT_MS ?? 120_000);
const outFile = resolve(process.env.ATTACK_OUT ?? join(root, 'bench', 'attack-results.json'));
const DEADLINE_MS = 14 * 60_000;
const TAIL_MS = 2000;
const GOALS = { worstHealthMs: 250, aimHealthMs: 50, peakRssMb: 1024, dbBytesPerCachedResult: 16_384 };
const ENV_OVERRIDES =
  /^(MAX_|RATE_LIMIT_|ENGINE_BUDGET|SHUTDOWN_|CACHE_|RESULT_MEMO|RESPONSE_CACHE|DATABASE_|PLAYGROUND|INTROSPECTION)/;

// ---------------------------------------------------------------------------------------------
// The server

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

function ensureBuilt(): void {
  if (process.env.ATTACK_SERVER) {
    if (!existsSync(serverPath)) throw new Error(`ATTACK_SERVER=${serverPath} does not exist`);
    return;
  }
  if (process.env.ATTACK_SKIP_BUILD === '1' && existsSync(serverPath)) return;
  if (existsSync(serverPath) && newestMtime(join(root, 'src')) <= newestMtime(join(root, 'dist'))) return;
  console.log('dist/ is missing or older than src/: npm run build');
  const run = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) throw new Error('npm run build failed (build another commit elsewhere and set ATTACK_SERVER)');
}

interface Server {
  url: string;
  child: ChildProcess;
  dir: string;
  db: string;
  log: { lines: number; samples: string[] };
  exited: Promise<{ code: number | null; signal: string | null }>;
}

async function startServer(): Promise<Server> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'chess-paths-attack-'));
  const db = join(dir, 'attack.db');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !ENV_OVERRIDES.test(k)));
  const child = spawn(process.execPath, [serverPath], {
    cwd: serverRoot,
    env: {
      ...env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${db}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = { lines: 0, samples: [] as string[] };
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n').filter(Boolean)) {
        log.lines++;
        if (log.samples.length < 5) log.samples.push(line.slice(0, 300));
      }
    });
  }
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${log.samples.join('\n')}`);
    if (
      (await fetch(`${url}/health`).then(
        (r) => r.status,
        () => 0,
      )) === 200
    )
      return { url, child, dir, db, log, exited };
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error('the server did not become healthy within 30 s');
}

/** SIGTERM (SIGKILL after 30 s); resolves with the time to exit, null when it had died already. */
async function stopServer(
  server: Server,
): Promise<{ ms: number | null; code: number | null; signal: string | null; died: boolean }> {
  const started = performance.now();
  const died = server.child.exitCode !== null || server.child.signalCode !== null;
  if (!died) server.child.kill('SIGTERM');
  const killer = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
  const exit = await server.exited;
  clearTimeout(killer);
  return { ms: died ? null : Math.round(performance.now() - started), ...exit, died };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** VmRSS and VmHWM of `pid` in kB (0 once it has exited). */
const memoryKb = (pid: number): { rss: number; hwm: number } => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return { rss: 0, hwm: 0 };
  }
};
const dbBytes = (db: string) =>
  ['', '-wal', '-shm'].reduce((sum, suffix) => sum + (existsSync(db + suffix) ? statSync(db + suffix).size : 0), 0);

/** Rows of the result cache table, read after the server exited (null when that cannot be read). */
function cacheRows(db: string): number | null {
  try {
    const Database = createRequire(join(serverRoot, 'package.json'))('better-sqlite3');
    const conn = new Database(db, { readonly: true });
    try {
      return (conn.prepare('SELECT COUNT(*) AS n FROM CachedResult').get() as { n: number }).n;
    } finally {
      conn.close();
    }
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Attacks

interface Phase {
  requests: number;
  latencyMs: { min: number; median: number; max: number };
  statuses: Record<string, number>;
  errorCodes: Record<string, number>;
  maxAnswerBytes: number;
  cachedTrue: number;
  /** The first error message seen, if any. */
  errorSample?: string;
}

function phaseOf(outcomes: Q.Outcome[]): Phase {
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const tally = (pairs: [string, number][]) =>
    pairs.reduce<Record<string, number>>((t, [k, n]) => {
      t[k] = (t[k] ?? 0) + n;
      return t;
    }, {});
  return {
    requests: outcomes.length,
    latencyMs: {
      min: Math.round(ms[0] ?? 0),
      median: Math.round(ms[Math.floor(ms.length / 2)] ?? 0),
      max: Math.round(ms.at(-1) ?? 0),
    },
    statuses: tally(outcomes.map((o) => [o.status, 1])),
    errorCodes: tally(outcomes.flatMap((o) => Object.entries(o.codes))),
    maxAnswerBytes: Math.max(0, ...outcomes.map((o) => o.bytes)),
    cachedTrue: outcomes.reduce((n, o) => n + o.cachedTrue, 0),
    errorSample: outcomes.find((o) => o.firstError)?.firstError,
  };
}

interface Ctx {
  server: Server;
  agents: Agent[];
  notes: Record<string, unknown>;
  /** Set by an attack that stops the server itself. */
  exit?: Awaited<ReturnType<typeof stopServer>>;
}

/** Every client sends `text` once, all at once. */
const all = (ctx: Ctx, text: string, options: Partial<Q.SendOptions> = {}) =>
  Promise.all(ctx.agents.map((agent) => Q.send(ctx.server.url, agent, text, { timeoutMs, ...options })));

const ATTACKS: Record<string, (ctx: Ctx) => Promise<Record<string, Phase>>> = {
  'maze-batch': async (ctx) => ({
    cold: phaseOf(await all(ctx, Q.MAZE_BATCH)),
    cached: phaseOf(await all(ctx, Q.MAZE_BATCH)),
  }),
  'corridor-paths': async (ctx) => ({ main: phaseOf(await all(ctx, Q.CORRIDOR_PATHS)) }),
  distances: async (ctx) => {
    const batches = Q.aliasedBatches(6, 500, 'distances', Q.openQuestion, 900_000);
    ctx.notes.distinctQuestions = batches.distinctQuestions;
    return { main: phaseOf(await all(ctx, batches.text)) };
  },
  'maze-ascii': async (ctx) => ({ main: phaseOf(await all(ctx, Q.MAZE_ASCII)) }),
  'analyses-list': async (ctx) => {
    const saves: Q.Outcome[] = [];
    let next = 0;
    await Promise.all(
      ctx.agents.map(async (agent) => {
        for (let a = next++; a < 55; a = next++)
          saves.push(await Q.send(ctx.server.url, agent, Q.saveBody(a), { timeoutMs }));
      }),
    );
    ctx.notes.saveBodyBytes = Q.saveBody(0).length;
    return { saves: phaseOf(saves), list: phaseOf(await all(ctx, Q.ANALYSES_LIST)) };
  },
  sigterm: async (ctx) => {
    let sent = 0;
    let allSent: () => void;
    const accepted = new Promise<void>((r) => (allSent = r));
    const answers = all(ctx, Q.MAZE_BATCH, { onSent: () => ++sent === ctx.agents.length && allSent() });
    await accepted;
    await sleep(250);
    ctx.exit = await stopServer(ctx.server);
    return { main: phaseOf(await answers) };
  },
  'many-aliases': async (ctx) => {
    const batches = Q.aliasedBatches(30, 500, 'pathCount path { squares }', Q.openQuestion, 1_000_000);
    ctx.notes.distinctQuestions = batches.distinctQuestions;
    ctx.notes.bodyBytes = batches.text.length;
    return { main: phaseOf(await all(ctx, batches.text)) };
  },
  'slowloris-bodies': async (ctx) => ({
    main: phaseOf(await all(ctx, Q.paddedTypename(1_040_000), { chunkBytes: 16_384, chunkMs: 250 })),
  }),
};

async function runAttack(name: string) {
  const started = performance.now();
  const server = await startServer();
  const pid = server.child.pid!;
  let sampledKb = 0;
  let hwmKb = 0;
  const sampler = setInterval(() => {
    const { rss, hwm } = memoryKb(pid);
    sampledKb = Math.max(sampledKb, rss);
    hwmKb = Math.max(hwmKb, hwm);
  }, 50);
  const agents = Array.from({ length: clients }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  const ctx: Ctx = { server, agents, notes: {} };
  const dbBefore = dbBytes(server.db);
  const probes = Q.startProbes(server.url, 20, timeoutMs);
  let phases: Record<string, Phase>;
  try {
    phases = await ATTACKS[name](ctx);
  } finally {
    await sleep(TAIL_MS);
  }
  const probed = await probes.stop();
  hwmKb = Math.max(hwmKb, memoryKb(pid).hwm);
  const dbRunning = dbBytes(server.db) - dbBefore;
  const exit = ctx.exit ?? (await stopServer(server));
  clearInterval(sampler);
  for (const agent of agents) agent.destroy();
  const rows = cacheRows(server.db);
  const result = {
    name,
    phases,
    probes: probed,
    peakRssMb: Math.round(Math.max(hwmKb, sampledKb) / 1024),
    peakRssSampledMb: Math.round(sampledKb / 1024),
    dbBytes: dbRunning,
    dbBytesAfterExit: dbBytes(server.db) - dbBefore,
    cacheRows: rows,
    dbBytesPerCacheRow: rows ? Math.round((dbBytes(server.db) - dbBefore) / rows) : null,
    exit: { ...exit, sigtermDuringAttack: !!ctx.exit },
    serverLog: server.log,
    notes: ctx.notes,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  rmSync(server.dir, { recursive: true, force: true });
  return result;
}

// ---------------------------------------------------------------------------------------------
// Report

type Result = Awaited<ReturnType<typeof runAttack>>;
const git = (...args: string[]) => spawnSync('git', args, { cwd: serverRoot, encoding: 'utf8' }).stdout?.trim() || null;
const fmt = (record: Record<string, number>) =>
  Object.entries(record)
    .map(([k, n]) => `${k}:${n}`)
    .join(' ') || '-';
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);

function goalsOf(r: Result) {
  const statuses = Object.values(r.phases).flatMap((p) => Object.entries(p.statuses));
  const bad = statuses.filter(([s]) => s === '500' || s === 'reset').reduce((n, [, c]) => n + c, 0);
  // Rows of the cache table, or (when it cannot be read) the most `cached: true` results per answer.
  const cached =
    r.cacheRows ?? Math.max(0, ...Object.values(r.phases).map((p) => Math.round(p.cachedTrue / p.requests)));
  return {
    worstHealthMs: { value: r.probes.health.worstMs, ok: r.probes.health.worstMs <= GOALS.worstHealthMs },
    peakRssMb: { value: r.peakRssMb, ok: r.peakRssMb <= GOALS.peakRssMb },
    no500NoReset: { value: bad, ok: bad === 0 },
    ...((cached > 0 || r.name === 'maze-batch') && {
      dbBytesPerCachedResult: {
        value: cached ? Math.round(r.dbBytesAfterExit / cached) : null,
        cached,
        ok: !!cached && r.dbBytesAfterExit / cached <= GOALS.dbBytesPerCachedResult,
      },
    }),
  };
}

function printTable(results: (Result & { goals: ReturnType<typeof goalsOf> })[]): void {
  const head = [
    'attack',
    'reqs',
    'min/med/max ms',
    'statuses',
    'GraphQL codes',
    'health n/worst/p99',
    '__typename n/worst/p99',
    'RSS MB',
    'DB MB run/exit',
    'exit ms (code)',
  ];
  const rows = results.flatMap((r) =>
    Object.entries(r.phases).map(([phase, p]) => [
      phase === 'main' ? r.name : `${r.name} ${phase}`,
      String(p.requests),
      `${p.latencyMs.min}/${p.latencyMs.median}/${p.latencyMs.max}`,
      fmt(p.statuses),
      fmt(p.errorCodes),
      `${r.probes.health.count}/${r.probes.health.worstMs}/${r.probes.health.p99Ms}`,
      `${r.probes.typename.count}/${r.probes.typename.worstMs}/${r.probes.typename.p99Ms}`,
      String(r.peakRssMb),
      `${mb(r.dbBytes)}/${mb(r.dbBytesAfterExit)}`,
      r.exit.died ? `died ${r.exit.signal ?? r.exit.code}` : `${r.exit.ms} (${r.exit.code ?? r.exit.signal})`,
    ]),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  for (const row of [head, ...rows]) console.log(row.map((c, i) => c.padEnd(widths[i])).join(' | '));
  for (const r of results)
    for (const [phase, p] of Object.entries(r.phases))
      if (p.errorSample) console.log(`  ${r.name} ${phase}: ${p.errorSample}`);
  console.log(
    `\ngoals: worst /health <= ${GOALS.worstHealthMs} ms (aim ${GOALS.aimHealthMs}), peak RSS <= ${GOALS.peakRssMb} MB, no 500 and no reset, <= ${GOALS.dbBytesPerCachedResult} DB bytes per cached 64 x 64 result`,
  );
  for (const r of results) {
    const g = r.goals;
    const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
    const d = g.dbBytesPerCachedResult;
    const db = d ? `, DB/result ${d.value ?? '-'} B over ${d.cached} results ${mark(d.ok)}` : '';
    console.log(
      `  ${r.name.padEnd(17)} /health ${g.worstHealthMs.value} ms ${mark(g.worstHealthMs.ok)}, RSS ${g.peakRssMb.value} MB ${mark(g.peakRssMb.ok)}, 500+reset ${g.no500NoReset.value} ${mark(g.no500NoReset.ok)}${db}`,
    );
  }
}

async function main(): Promise<void> {
  const only = process.env.ATTACK_ONLY?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only?.filter((n) => !(n in ATTACKS)) ?? [];
  if (unknown.length > 0)
    throw new Error(`unknown attack ${unknown.join(', ')}; known: ${Object.keys(ATTACKS).join(', ')}`);
  ensureBuilt();
  const started = Date.now();
  const loadAtStart = loadavg();
  const results = [];
  const skipped: string[] = [];
  console.log(
    `bench:attack: ${serverPath}, ${clients} clients, default limits, one fresh server and database per attack`,
  );
  for (const name of Object.keys(ATTACKS).filter((n) => !only || only.includes(n))) {
    if (Date.now() - started > DEADLINE_MS) {
      skipped.push(name);
      continue;
    }
    console.log(`  ${name} ...`);
    const result = await runAttack(name);
    results.push({ ...result, goals: goalsOf(result) });
  }
  const report = {
    date: new Date().toISOString(),
    commit: git('rev-parse', '--short', 'HEAD'),
    dirty: !!git('status', '--porcelain', '--', 'src'),
    server: serverPath,
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      node: process.version,
      loadavgAtStart: loadAtStart,
      loadavgAtEnd: loadavg(),
    },
    config: {
      clients,
      timeoutMs,
      probeIntervalMs: 20,
      tailMs: TAIL_MS,
      serverEnv: { NODE_ENV: 'production', LOG_LEVEL: 'warn' },
      goals: GOALS,
    },
    skipped,
    attacks: results,
  };
  writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);
  printTable(results);
  if (skipped.length > 0) console.log(`skipped (past the ${DEADLINE_MS / 60_000} min deadline): ${skipped.join(', ')}`);
  console.log(`written to ${outFile}`);
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
}

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
 * as a separate process (so the load generator does not share its event loop): the built server,
 * `dist/server.js`, as `npm start` runs it (built first when dist/ is older than src/; not through
 * tsx, whose module hooks cost on every `require`, and Apollo requires `crypto` for every
 * request's hash); ATTACK_SERVER=/path/to/dist/server.js measures another build (as in
 * bench:attack). Options (env): BENCH_DURATION
 * seconds per scenario (default 10), BENCH_CONNECTIONS (default 50), BENCH_URL to measure only the
 * server-A scenarios against a server already running.
 *
 * Server D, the defaults on a fresh database: distinct questions against `{ __typename }`, measured
 * the way the issue "A new question costs what { __typename } costs" measured them (20
 * connections, 5 s rounds or BENCH_DURATION, POST JSON), four rows side by side:
 * - trivial: `{ __typename }`;
 * - asked before, literals: 6,000 distinct 8 x 8 questions (`{ distance layers { squares }
 *   pathCount }`, the five pieces, random masks), each asked before the rows (primed: sent once,
 *   solved, not written: a cheap result is written on its question's second ask; then asked for
 *   `cached` in batches of 100 until every one says true: the first sweep is the second ask, which
 *   has them written, the next reads each back once), each request one question written as
 *   literals in the text, the requests cycling through the 6,000 (autocannon's setupRequest);
 * - asked before, variables: the same questions as one fixed document with `$q: PathQuery!`;
 * - never asked: a new random question per request (none repeated, none of the 6,000; the
 *   first 60,000 bodies written before the row starts), written as literals;
 * - never asked, variables: the same, as the variables of the one fixed document of the
 *   asked-before variables row (how front ends ask: the document is parsed and validated once).
 * It prints each row's requests/s and its ratio to the trivial row with the goals (0.9, 0.95,
 * 0.5 for a new text, 0.6 for new variables of a known document), and which layer answered each row, from the differences of the /metrics counters around
 * the measured round: the response cache, the memo of hot results, the database, or the engine.
 * With the defaults (RESPONSE_CACHE_SIZE and RESULT_MEMO_SIZE 10,000) the 6,000 texts of each
 * asked-before row fit: after its first cycle a row is answered from the response cache. The
 * server inherits this environment, so `RESPONSE_CACHE_SIZE=0` measures the rows executed from the
 * memo, and `RESULT_MEMO_SIZE=0` too read them from the database. BENCH_ONLY=distinct runs server D alone (BENCH_URL then points it at a running
 * server), BENCH_DISTINCT_ROWS chooses some of its rows (trivial,literals,variables,never,never-variables,batch),
 * BENCH_ROUNDS runs the rows in turn that many times (default 1; medians are printed: on a busy
 * machine the load moves between rows, and a ratio is taken within its round), and
 * BENCH_SERVER_ARGS adds Node flags to the servers started here (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof-http`: a profile is written when the server stops). A run of all four
 * rows (not profiled) writes them to bench/http-results.json.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt, processCpuUs, serverPath, serverRoot } from './attack-server.js';
import {
  BATCH_OF_NEW,
  body,
  freePort,
  literal,
  madeAhead,
  ONE_QUESTION,
  PER_BATCH,
  type Question,
  randomQuestion,
  SELECTION,
  unseenQuestion,
} from './questions.js';
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

async function startServerProcess(
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  ensureBuilt();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'chess-paths-bench-'));
  const extra = (process.env.BENCH_SERVER_ARGS ?? '').split(/\s+/).filter(Boolean);
  const args = [...extra, serverPath];
  const child = spawn(process.execPath, args, {
    cwd: serverRoot,
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

async function run(
  name: string,
  url: string,
  request: AutocannonRequest,
  options: { connections: number; duration: number; beforeRound?: () => Promise<void> } = { connections, duration },
): Promise<Row> {
  const requests = [{ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, ...request }];
  const target = { url: `${url}/graphql`, connections: options.connections, requests };
  await autocannon({ ...target, duration: 2 }); // warm-up
  await options.beforeRound?.();
  const result = await autocannon({ ...target, duration: options.duration });
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

/** Server D's figures: the issue "A new question costs what { __typename } costs". */
const DISTINCT_CONNECTIONS = 20;
const DISTINCT_QUESTIONS = 6000;
const distinctDuration = Number(process.env.BENCH_DURATION ?? 5);
/** Rounds of the four rows in turn (each row's ratio is to the trivial row of its round); medians reported. */
const distinctRounds = Number(process.env.BENCH_ROUNDS ?? 1);
const fmtLoad = (load: number[]) => load.map((x) => x.toFixed(2)).join(' ');
const CHECK_QUERY = 'query Check($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { cached } }';

/** Requests that cycle through `bodies`, one after another, shared by every connection. */
function cycling(bodies: readonly string[]): AutocannonRequest {
  let next = 0;
  return { setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) };
}

/** Bodies of never-asked questions made before a row starts (more are made as they run out). */
const NEVER_ASKED_READY = 60_000;

/**
 * A new question per request, none of them in `seen` (which grows): the bodies are written before
 * the row starts, so the load generator, which shares the machine's cores with the server, does
 * per request what it does for the other rows (hand over a text) rather than make a question.
 */
function neverAsked(seen: Set<string>): AutocannonRequest {
  const random = seededRandom(seen.size + 20261127);
  return handingOut(madeAhead(NEVER_ASKED_READY, () => body(literal(unseenQuestion(random, seen)))));
}

/** Like `neverAsked`, one new question a request as the variables of one fixed document (how front ends ask). */
function neverAskedVariables(seen: Set<string>): AutocannonRequest {
  const random = seededRandom(seen.size + 20261129);
  return handingOut(madeAhead(NEVER_ASKED_READY, () => body(ONE_QUESTION, { q: unseenQuestion(random, seen) })));
}

/** Like `neverAsked`, a hundred new questions a request, as the variables of one batch document. */
function neverAskedBatches(seen: Set<string>): AutocannonRequest {
  const random = seededRandom(seen.size + 20261128);
  const fresh = () => body(BATCH_OF_NEW, { q: Array.from({ length: PER_BATCH }, () => unseenQuestion(random, seen)) });
  return handingOut(madeAhead(NEVER_ASKED_READY / PER_BATCH, fresh));
}

/** Requests with the bodies `bodies` hands out, one each. */
function handingOut(bodies: () => string): AutocannonRequest {
  return { setupRequest: (req) => ({ ...req, body: bodies() }) };
}

/** The counters of /metrics that say which layer answered. */
interface Counters {
  requests: number;
  responseCache: number;
  memo: number;
  database: number;
  engine: number;
  dropped: number;
}

async function counters(url: string): Promise<Counters> {
  const lines = (await (await fetch(`${url}/metrics`)).text()).split('\n');
  const sum = (name: string, label = '') =>
    lines
      .filter((l) => (l.startsWith(`${name} `) || l.startsWith(`${name}{`)) && l.includes(label))
      .reduce((total, l) => total + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
  return {
    requests: sum('chess_paths_http_requests_total', 'route="graphql"'),
    responseCache: sum('chess_paths_response_cache_hits_total'),
    memo: sum('chess_paths_memo_hits_total'),
    database: sum('chess_paths_cache_hits_total'),
    engine: sum('chess_paths_cache_misses_total'),
    dropped: sum('chess_paths_cache_errors_total', 'operation="dropped"'),
  };
}

type Layers = Omit<Counters, 'dropped'> & { droppedWrites: number };

function difference(before: Counters, after: Counters): Layers {
  return {
    requests: after.requests - before.requests,
    responseCache: after.responseCache - before.responseCache,
    memo: after.memo - before.memo,
    database: after.database - before.database,
    engine: after.engine - before.engine,
    droppedWrites: after.dropped - before.dropped,
  };
}

/** Which layer answered, in words: the response cache per request, the others per path question. */
function describeLayers(l: Layers): string {
  const pct = (n: number, of: number) => `${of > 0 ? ((100 * n) / of).toFixed(1) : '0.0'} %`;
  const questions = l.memo + l.database + l.engine;
  const parts = [`response cache ${pct(l.responseCache, l.requests)} of ${l.requests} requests`];
  if (questions > 0) {
    parts.push(
      `of ${questions} path questions: memo ${pct(l.memo, questions)}, database ${pct(l.database, questions)}, engine ${pct(l.engine, questions)}`,
    );
  } else parts.push('no path question executed');
  if (l.droppedWrites > 0) parts.push(`${l.droppedWrites} cache writes dropped`);
  return parts.join('; ');
}

/**
 * Asks every question once (20 at a time, as literals, the text the literals row sends), then
 * waits until the server has them all: until every one, asked again in batches, says
 * `cached: true` (the result cache holds its row: the first of those asks is a question's second,
 * which has it written). It polls; it never just sleeps a fixed time.
 */
async function prime(url: string, questions: readonly Question[], bodies: readonly string[]): Promise<void> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: DISTINCT_CONNECTIONS }, async () => {
      while (next < bodies.length) await post(url, bodies[next++]);
    }),
  );
  const asked = performance.now();
  // The cache writer writes in arrival order: the last question sent is about the last written.
  const check = async (qs: readonly Question[]) => {
    const json = (await post(url, body(CHECK_QUERY, { q: qs }))) as {
      data: { shortestPathsBatch: { cached: boolean }[] };
    };
    return qs.filter((_, i) => !json.data.shortestPathsBatch[i].cached);
  };
  const deadline = Date.now() + 120_000;
  const poll = async () => {
    if (Date.now() > deadline) throw new Error('priming: the questions were not all stored within 120 s');
    await new Promise((r) => setTimeout(r, 50));
  };
  // The last question's row: written on its second ask, the first check.
  while ((await check(questions.slice(-1))).length > 0) await poll();
  let pending: readonly Question[] = questions;
  let sweeps = 0;
  while (pending.length > 0) {
    if (sweeps++ > 0) await poll();
    const still: Question[] = [];
    for (let i = 0; i < pending.length; i += 100) still.push(...(await check(pending.slice(i, i + 100))));
    pending = still;
  }
  console.log(
    `  primed ${questions.length} questions: asked once in ${((asked - started) / 1000).toFixed(1)} s, all stored (cached: true) after ${((performance.now() - asked) / 1000).toFixed(1)} s more (${sweeps} sweep${sweeps > 1 ? 's' : ''})`,
  );
}

interface DistinctRow extends Row {
  key: string;
  goal: number | undefined;
  ratio: number | undefined;
  /** The server's CPU time (all its threads) per request in the measured round, µs; undefined for an outside server. */
  cpuUs: number | undefined;
  /** The trivial row's CPU time per request over this row's (what `ratio` would be on a server with a core to itself). */
  cpuRatio: number | undefined;
  layers: Layers;
  round: number;
}

/** Server D: the four rows of the issue, side by side, on the defaults and a fresh database. */
async function distinct(external: string | undefined): Promise<DistinctRow[]> {
  const chosen = (process.env.BENCH_DISTINCT_ROWS ?? 'trivial,literals,variables,never,never-variables,batch').split(
    ',',
  );
  const random = seededRandom(20261126);
  const seen = new Set<string>();
  const questions = Array.from({ length: DISTINCT_QUESTIONS }, () => unseenQuestion(random, seen));
  const literals = questions.map((q) => body(literal(q)));
  const variables = questions.map((q) => body(ONE_QUESTION, { q }));
  const all: { key: string; name: string; goal?: number; perRequest?: number; request: () => AutocannonRequest }[] = [
    { key: 'trivial', name: 'trivial { __typename }', request: () => ({ body: body('{ __typename }') }) },
    { key: 'literals', name: 'asked before, literals', goal: 0.9, request: () => cycling(literals) },
    { key: 'variables', name: 'asked before, variables', goal: 0.95, request: () => cycling(variables) },
    {
      key: 'never',
      name: 'never asked before',
      goal: 0.5,
      request: () => neverAsked(seen),
    },
    {
      key: 'never-variables',
      name: 'never asked, variables',
      goal: 0.6,
      request: () => neverAskedVariables(seen),
    },
    // Not a row with a goal: how a front end with many new positions asks for them.
    { key: 'batch', name: 'never asked, 100 a request', perRequest: PER_BATCH, request: () => neverAskedBatches(seen) },
  ];
  const rows = all.filter((r) => chosen.includes(r.key));
  if (rows.length === 0) throw new Error(`BENCH_DISTINCT_ROWS: none of ${chosen.join(',')}`);
  const server = external ? undefined : await startServerProcess({});
  const url = external ?? server!.url;
  const load = loadavg();
  const out: DistinctRow[] = [];
  const roundLoads: number[][] = [];
  try {
    console.log(
      `D: distinct questions against { __typename }, autocannon, ${DISTINCT_CONNECTIONS} connections, ${distinctDuration} s per row (after a 2 s warm-up), ${distinctRounds} round(s) of the rows in turn; load average ${fmtLoad(load)} on ${cpus().length} cores`,
    );
    if (rows.some((r) => r.key === 'literals' || r.key === 'variables')) await prime(url, questions, literals);
    for (let round = 1; round <= distinctRounds; round++) {
      roundLoads.push(loadavg());
      if (distinctRounds > 1) console.log(`  round ${round}, load average ${fmtLoad(loadavg())}`);
      let trivialRps: number | undefined;
      let trivialCpu: number | undefined;
      for (const r of rows) {
        let before: Counters | undefined;
        let started = 0n;
        let cpuBefore: number | undefined;
        const row = await run(`D ${r.name}`, url, r.request(), {
          connections: DISTINCT_CONNECTIONS,
          duration: distinctDuration,
          beforeRound: async () => {
            before = await counters(url);
            cpuBefore = processCpuUs(server?.child.pid);
            started = process.hrtime.bigint();
          },
        });
        const ended = process.hrtime.bigint();
        const cpuAfter = processCpuUs(server?.child.pid);
        const layers = difference(before as Counters, await counters(url));
        const cpuUs =
          cpuBefore === undefined || cpuAfter === undefined || layers.requests === 0
            ? undefined
            : (cpuAfter - cpuBefore) / layers.requests;
        console.log(
          `    answered by: ${describeLayers(layers)}${cpuUs === undefined ? '' : `; server CPU ${cpuUs.toFixed(0)} µs a request`}`,
        );
        // The window on the monotonic clock a V8 CPU profile's times are on, to cut the round out of one.
        if (process.env.BENCH_SERVER_ARGS)
          console.log(`    measured from ${started / 1000n} to ${ended / 1000n} µs (monotonic)`);
        if (r.key === 'trivial') {
          trivialRps = row.rps;
          trivialCpu = cpuUs;
        }
        // A batch row's ratios are per question: its questions/s against trivial requests/s.
        const per = r.perRequest ?? 1;
        const ratio = trivialRps === undefined ? undefined : (row.rps * per) / trivialRps;
        const cpuRatio = trivialCpu === undefined || cpuUs === undefined ? undefined : (trivialCpu * per) / cpuUs;
        out.push({ ...row, key: r.key, goal: r.goal, ratio, cpuUs, cpuRatio, layers, round });
      }
    }
  } finally {
    await server?.stop();
  }
  const loadAfter = loadavg();
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((x, y) => x - y);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const summary = rows.map((r) => {
    const mine = out.filter((o) => o.key === r.key);
    const ratios = mine.flatMap((o) => (o.ratio === undefined ? [] : [o.ratio]));
    const cpus = mine.flatMap((o) => (o.cpuUs === undefined ? [] : [o.cpuUs]));
    const cpuRatios = mine.flatMap((o) => (o.cpuRatio === undefined ? [] : [o.cpuRatio]));
    return {
      key: r.key,
      name: r.name,
      goal: r.goal,
      perRequest: r.perRequest,
      rps: median(mine.map((o) => o.rps)),
      ratio: ratios.length > 0 ? median(ratios) : undefined,
      cpuUs: cpus.length > 0 ? median(cpus) : undefined,
      cpuRatio: cpuRatios.length > 0 ? median(cpuRatios) : undefined,
    };
  });
  console.log('');
  console.log(
    `D: requests/s and ratio to { __typename } of the same server and round${distinctRounds > 1 ? ' (medians of the rounds)' : ''}, goal beside it (a batch row: per question)`,
  );
  for (const row of summary) {
    const ratio = row.ratio === undefined ? '    -' : row.ratio.toFixed(2).padStart(5);
    const goal =
      row.goal === undefined || row.ratio === undefined
        ? ''
        : `   goal >= ${row.goal.toFixed(2)}: ${row.ratio >= row.goal ? 'met' : 'not met'}`;
    const cpu =
      row.cpuUs === undefined
        ? ''
        : `   server CPU ${row.cpuUs.toFixed(0).padStart(4)} µs a request${row.cpuRatio === undefined ? '' : `, CPU ratio ${row.cpuRatio.toFixed(2)}`}`;
    const questions = row.perRequest ? `   (${(row.rps * row.perRequest).toFixed(0)} questions/s)` : '';
    console.log(`  ${row.name.padEnd(28)} ${row.rps.toFixed(0).padStart(8)} req/s   ${ratio}${goal}${cpu}${questions}`);
  }
  console.log(`  load average at the end: ${fmtLoad(loadAfter)}`);
  if (!external && rows.length === all.length && !process.env.BENCH_SERVER_ARGS) {
    const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout.trim();
    const report = {
      date: new Date().toISOString(),
      commit: git('describe', '--always', '--dirty') || null,
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version },
      load: { before: load, rounds: roundLoads, after: loadAfter },
      config: {
        connections: DISTINCT_CONNECTIONS,
        seconds: distinctDuration,
        warmupSeconds: 2,
        rounds: distinctRounds,
        questions: DISTINCT_QUESTIONS,
        selection: SELECTION,
        serverEnv: { NODE_ENV: 'production', LOG_LEVEL: 'warn' },
      },
      summary: summary.map((r) => ({
        row: r.name,
        requestsPerSecond: Math.round(r.rps),
        ratio: r.ratio === undefined ? null : Number(r.ratio.toFixed(3)),
        goal: r.goal ?? null,
        questionsPerRequest: r.perRequest ?? 1,
        serverCpuUsPerRequest: r.cpuUs === undefined ? null : Math.round(r.cpuUs),
        cpuRatio: r.cpuRatio === undefined ? null : Number(r.cpuRatio.toFixed(3)),
      })),
      rounds: out.map((r) => ({
        round: r.round,
        row: r.name.replace(/^D /, ''),
        requestsPerSecond: Math.round(r.rps),
        ratio: r.ratio === undefined ? null : Number(r.ratio.toFixed(3)),
        latencyMs: { p50: r.p50, p99: r.p99 },
        serverCpuUsPerRequest: r.cpuUs === undefined ? null : Math.round(r.cpuUs),
        errors: r.errors,
        non2xx: r.non2xx,
        answeredBy: r.layers,
      })),
    };
    writeFileSync(join(root, 'bench', 'http-results.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log('  written to bench/http-results.json');
  }
  return out;
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  if (only !== undefined && only !== 'distinct') throw new Error(`BENCH_ONLY: only "distinct" is known, not "${only}"`);
  if (only === 'distinct') {
    const rows = await distinct(process.env.BENCH_URL);
    if (rows.some((r) => r.errors > 0 || r.non2xx > 0)) process.exitCode = 1;
    return;
  }
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
  if (!external) {
    console.log('');
    rows.push(...(await distinct(undefined)));
  }
  const failed = rows.filter((r) => r.errors > 0 || r.non2xx > 0);
  if (failed.length > 0) {
    console.error(`errors in: ${failed.map((r) => r.name).join(', ')}`);
    process.exitCode = 1;
  }
}

await main();

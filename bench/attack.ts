/**
 * Attack benchmark (`npm run bench:attack`): expensive requests that stay inside the DEFAULT
 * limits (board side 64, batch 500, `first` 1000, 30 aliases, 1 MiB bodies, 60 mutations a
 * minute), each against a fresh built server (`dist/server.js`, built first when it is missing or
 * older than src/) in a child process with NODE_ENV=production and LOG_LEVEL=warn on a fresh
 * throw-away SQLite database, so that the figures of one attack do not mix with another's:
 *
 * - idle: no attack, the probes alone for 10 s: what the machine gives /health when nothing is sent.
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
 * - games: every client sends 1,000-ply PGN games, each text its own, then the same texts again
 *   (bench/attack-games.ts, its texts made in bench/attack-games-texts.ts);
 * - games-spellings: every client sends a 1,000-ply game asking every ply's
 *   `position { paths { overlay { svg } } }`, written `g4{}c6{}h4{}`, then with `1...`, NAGs and
 *   variations, then as usual;
 * - games-tag-heavy: 80 requests (4 clients) of 4 aliased distinct texts of tag pairs near
 *   MAX_PGN_BYTES, asking `result` (more games than the game cache keeps);
 * - games-aliases-large: one request of 4 aliased distinct texts near MAX_PGN_BYTES (tag pairs, and
 *   a 1,000-ply game padded with comments), then 4 clients at once;
 * - games-analyses-list: 43 analyses saved with a game near MAX_PGN_BYTES, pushed out of the game
 *   cache, then `analyses(first: 50) { edges { node { game { result } } } }` from 1 client, then 8;
 * - fairy-texts, fairy-texts-single: every client sends Betza texts of up to 1,024 characters,
 *   each new and of many long rays, in batches of 100 and one a request (bench/attack-fairy.ts);
 * - the doors (pictures: `GET /diagram.svg`, `position { paths { overlay { svg } } }`, SIGTERM under
 *   diagrams, clients that never read): see bench/attack-doors.ts. Some set server limits of their
 *   own (MAX_BOARD_SIDE=256, SEND_STALL_MS=5000), recorded with their results.
 *
 * During each attack and for 2 s after it, a worker thread times `GET /health` and a POST
 * `{ __typename }` every 20 ms on connections of their own. Per attack the report has: the attack
 * requests' latency (min / median / max), statuses (resets, socket errors and timeouts counted
 * apart), GraphQL error codes (for pictures, the limit a refusal names) and bodies cut before their
 * Content-Length; the probes' count, worst and p99; the server's peak RSS (VmRSS sampled every
 * 50 ms, and VmHWM) and its RSS after the tail; the bytes the database files grew (while running,
 * and after the server exited and flushed); the time the server took to exit on SIGTERM, against
 * its SHUTDOWN_TIMEOUT_MS. Results go to bench/attack-results.json and a table is printed with the
 * goals next to the figures (bench/attack-report.ts). This is a measurement: the exit code is 0
 * unless the benchmark itself broke. The server's start, stop and /proc readings live in
 * bench/attack-server.ts.
 *
 * Options (env): ATTACK_ONLY=name,name (a subset), ATTACK_CLIENTS (20, for the GraphQL attacks; the
 * doors send the counts they name), ATTACK_TIMEOUT_MS (120000, per request),
 * ATTACK_SERVER=/path/to/dist/server.js (another build, e.g. an older commit's clone; never built),
 * ATTACK_SKIP_BUILD=1 (use dist/ as it is), ATTACK_OUT (the JSON file), ATTACK_SERVER_NODE_ARGS
 * (Node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it).
 */

import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { DOORS } from './attack-doors.js';
import { FAIRY } from './attack-fairy.js';
import { GAMES } from './attack-games.js';
import * as Q from './attack-queries.js';
import { type AttackResult, GOALS, goalsOf, type Phase, phaseOf, printTable } from './attack-report.js';
import {
  type Attack,
  type Ctx,
  cacheRows,
  dbBytes,
  ensureBuilt,
  memoryKb,
  root,
  serverPath,
  serverRoot,
  shutdownTimeoutMs,
  sleep,
  startServer,
  stopServer,
} from './attack-server.js';

const clients = Number(process.env.ATTACK_CLIENTS ?? 20);
const timeoutMs = Number(process.env.ATTACK_TIMEOUT_MS ?? 120_000);
const outFile = resolve(process.env.ATTACK_OUT ?? join(root, 'bench', 'attack-results.json'));
const DEADLINE_MS = 20 * 60_000;
const TAIL_MS = 2000;

// ---------------------------------------------------------------------------------------------
// Attacks

/** Every client sends `text` once, all at once. */
const all = (ctx: Ctx, text: string, options: Partial<Q.SendOptions> = {}) =>
  Promise.all(ctx.agents.map((agent) => Q.send(ctx.server.url, agent, text, { timeoutMs, ...options })));

const GRAPHQL_ATTACKS: Record<string, (ctx: Ctx) => Promise<Record<string, Phase>>> = {
  // No attack: the probes alone for 10 s, the noise floor of a shared machine to read the others against.
  idle: async () => {
    await sleep(10_000);
    return { main: phaseOf([]) };
  },
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

/** The GraphQL attacks (default limits), then the doors (pictures; some set limits of their own). */
const ATTACKS: Record<string, Attack> = {
  ...Object.fromEntries(Object.entries(GRAPHQL_ATTACKS).map(([name, run]) => [name, { run }])),
  ...DOORS,
  ...GAMES,
  ...FAIRY,
};

async function runAttack(name: string): Promise<AttackResult> {
  const started = performance.now();
  const attack = ATTACKS[name];
  const loadBefore = loadavg()[0];
  const server = await startServer(attack.env);
  const pid = server.child.pid!;
  let sampledKb = 0;
  let hwmKb = 0;
  const sampler = setInterval(() => {
    const { rss, hwm } = memoryKb(pid);
    sampledKb = Math.max(sampledKb, rss);
    hwmKb = Math.max(hwmKb, hwm);
  }, 50);
  const agents = Array.from({ length: clients }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  const ctx: Ctx = { server, agents, timeoutMs, notes: {} };
  const dbBefore = dbBytes(server.db);
  const probes = Q.startProbes(server.url, 20, timeoutMs);
  let phases: Record<string, Phase>;
  try {
    phases = await attack.run(ctx);
  } finally {
    await sleep(TAIL_MS);
  }
  const probed = await probes.stop();
  const { rss: rssAfterKb, hwm } = memoryKb(pid);
  hwmKb = Math.max(hwmKb, hwm);
  const dbRunning = dbBytes(server.db) - dbBefore;
  const exit = ctx.exit ?? (await stopServer(server));
  clearInterval(sampler);
  for (const agent of agents) agent.destroy();
  const rows = cacheRows(server.db);
  const result: AttackResult = {
    name,
    phases,
    probes: probed,
    peakRssMb: Math.round(Math.max(hwmKb, sampledKb) / 1024),
    peakRssSampledMb: Math.round(sampledKb / 1024),
    rssAfterMb: ctx.exit || rssAfterKb === 0 ? null : Math.round(rssAfterKb / 1024),
    dbBytes: dbRunning,
    dbBytesAfterExit: dbBytes(server.db) - dbBefore,
    cacheRows: rows,
    dbBytesPerCacheRow: rows ? Math.round((dbBytes(server.db) - dbBefore) / rows) : null,
    exit: { ...exit, sigtermDuringAttack: !!ctx.exit, timeoutMs: shutdownTimeoutMs(server) },
    serverEnv: server.env,
    loadavg1: [loadBefore, loadavg()[0]],
    serverLog: server.log,
    notes: ctx.notes,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  rmSync(server.dir, { recursive: true, force: true });
  return result;
}

const git = (...args: string[]) => spawnSync('git', args, { cwd: serverRoot, encoding: 'utf8' }).stdout?.trim() || null;

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
    `bench:attack: ${serverPath}, ${clients} clients, default limits unless an attack sets some, one fresh server and database per attack`,
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

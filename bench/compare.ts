/**
 * Two builds of the server compared on one machine (`npm run bench:compare`): both started side
 * by side, each on a fresh throw-away database, and loaded in turn, one-second autocannon windows
 * alternating between them (A B, then B A, ...), the requests of each summed.
 *
 * Why interleave: on a shared machine the speed available moves by a third within seconds, so two
 * runs of `bench:http` one after the other cannot tell 10 % apart. Windows this short, alternated
 * this often, put both builds through the same slow and fast moments. Run it with the same build on
 * both sides to see what difference the machine alone makes (it was up to 7 % here).
 *
 * COMPARE_WITH=/path/to/other/dist/server.js is the first build (an older commit's clone, built
 * there; docs/benchmarks.md shows how, and how to give it its own engine package); the second
 * is this checkout's (built first when dist/ is older than src/).
 * COMPARE_ROWS picks the rows (default `never,trivial`):
 * - trivial: `{ __typename }`;
 * - never: one new 8 x 8 question a request, written as literals (as bench:http's never-asked row);
 * - never-variables: the same, as the variables of one fixed document (bench:http's "never asked,
 *   variables");
 * - batch: a hundred new questions a request, as the variables of one batch document;
 * - warm: one fixed batch of a hundred questions, every time.
 * COMPARE_WINDOWS windows per build and row (default 12), COMPARE_CONNECTIONS (default 20),
 * COMPARE_ENV settings of both servers (e.g. `COMPARE_ENV="RESPONSE_CACHE_SIZE=0
 * RESULT_MEMO_SIZE=0"`: the warm row then reads SQLite). It prints each build's requests, its
 * server CPU time a request (from /proc), and the ratio of the second build's requests to the
 * first's.
 */
import { rmSync } from 'node:fs';
import { ensureBuilt, processCpuUs, type Server, serverPath, startServer, stopServer } from './attack-server.js';
import { type AutocannonRequest, autocannon } from './load-mix.js';
import {
  BATCH_OF_NEW,
  body,
  literal,
  madeAhead,
  ONE_QUESTION,
  PER_BATCH,
  randomQuestion,
  unseenQuestion,
} from './questions.js';
import { seededRandom } from './rng.js';

/** The rows there are. */
const ROWS = ['trivial', 'never', 'never-variables', 'batch', 'warm'];
const rows = (process.env.COMPARE_ROWS ?? 'never,trivial').split(',');
for (const row of rows)
  if (!ROWS.includes(row)) throw new Error(`COMPARE_ROWS: no row ${JSON.stringify(row)} (${ROWS.join(', ')})`);
const windows = Number(process.env.COMPARE_WINDOWS ?? 12);
const connections = Number(process.env.COMPARE_CONNECTIONS ?? 20);
/** Settings of both servers, `NAME=value` separated by spaces. */
const serverEnv = Object.fromEntries(
  (process.env.COMPARE_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
/** Request templates of each row; the new questions are shared by both builds, none asked twice. */
function rowRequests(row: string): AutocannonRequest {
  // A seed of each row's own, so that no row asks what another asked.
  const random = seededRandom(20261128 + 1000 * rows.indexOf(row));
  const seen = new Set<string>();
  switch (row) {
    case 'trivial':
      return { body: body('{ __typename }') };
    case 'never':
      return fresh(() => body(literal(unseenQuestion(random, seen))), 60_000);
    case 'never-variables':
      return fresh(() => body(ONE_QUESTION, { q: unseenQuestion(random, seen) }), 60_000);
    case 'batch':
      return fresh(
        () => body(BATCH_OF_NEW, { q: Array.from({ length: PER_BATCH }, () => unseenQuestion(random, seen)) }),
        600,
      );
    default:
      return { body: body(BATCH_OF_NEW, { q: Array.from({ length: PER_BATCH }, () => randomQuestion(random)) }) };
  }
}

/** Requests with the bodies `make` writes: `ready` of them before the row starts, more as needed. */
function fresh(make: () => string, ready: number): AutocannonRequest {
  const bodies = madeAhead(ready, make);
  return { setupRequest: (req) => ({ ...req, body: bodies() }) };
}

/** One window of `seconds` on `server`: its requests, its non-2xx and errors, its CPU time. */
async function window(server: Server, request: AutocannonRequest, seconds: number) {
  const before = processCpuUs(server.child.pid) ?? 0;
  const result = await autocannon({
    url: `${server.url}/graphql`,
    connections,
    duration: seconds,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, ...request }],
  });
  const cpuUs = (processCpuUs(server.child.pid) ?? 0) - before;
  return { requests: result.requests.total, failed: result.non2xx + result.errors, cpuUs };
}

async function main(): Promise<void> {
  const first = process.env.COMPARE_WITH;
  if (!first) throw new Error('COMPARE_WITH=/path/to/other/dist/server.js: the build to compare this one with');
  ensureBuilt();
  const paths = [first, serverPath];
  const servers = await Promise.all(paths.map((path) => startServer(serverEnv, path)));
  try {
    const settings = Object.keys(serverEnv).length > 0 ? ` (${process.env.COMPARE_ENV})` : '';
    console.log(
      `compare: A ${paths[0]}, B ${paths[1]}${settings}; ${windows} one-second windows each, ${connections} connections`,
    );
    for (const row of rows) {
      const request = rowRequests(row);
      for (const server of servers) await window(server, request, 1); // warm-up
      const sums = servers.map(() => ({ requests: 0, failed: 0, cpuUs: 0 }));
      for (let w = 0; w < windows; w++) {
        for (const i of w % 2 === 0 ? [0, 1] : [1, 0]) {
          const r = await window(servers[i], request, 1);
          sums[i].requests += r.requests;
          sums[i].failed += r.failed;
          sums[i].cpuUs += r.cpuUs;
        }
      }
      const [a, b] = sums.map(
        (s) =>
          `${s.requests} requests, ${(s.cpuUs / Math.max(1, s.requests)).toFixed(0)} µs CPU a request` +
          (s.failed > 0 ? `, ${s.failed} failed` : ''),
      );
      const ratio = sums[1].requests / Math.max(1, sums[0].requests);
      console.log(`  ${row.padEnd(8)} A ${a} | B ${b} | B / A ${ratio.toFixed(3)}`);
    }
  } finally {
    await Promise.all(servers.map(stopServer));
    for (const server of servers) rmSync(server.dir, { recursive: true, force: true });
  }
}

await main();

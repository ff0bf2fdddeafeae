/**
 * SIGKILL durability: nothing acknowledged is lost, nothing is half-written.
 *
 * The real server runs as a child process on one SQLite file for the whole test. Each round:
 *
 * 1. warm-up: a few new path questions are asked until the server answers them `cached: true`
 *    (their rows are in the cache table);
 * 2. load: eight concurrent clients save analyses (one to four queries each, notes and FENs
 *    sometimes), update analyses they saved earlier (title, notes, FEN and queries at once), and
 *    ask uncached path questions (so cache writes are running too), recording every request and
 *    what was acknowledged, while two more clients keep the worker threads busy with heavy
 *    batches of 64 x 64 maze questions (admitted, refused with OVERLOADED, or cut off with
 *    ENGINE_BUDGET_EXCEEDED);
 * 3. after the round's kill point (50, 200, 500 ms, then 1 s of load; later on a busy machine,
 *    the clients sending until then) the process gets SIGKILL, with requests in flight;
 * 4. a new process is started on the same file, and checked:
 *    - every analysis whose save was acknowledged, in this round or an earlier one, is there and
 *      intact: title, notes, FEN, and results equal to what the engine computes for its queries
 *      (keys, distances, layers); an analysis whose update was in flight at the kill holds either
 *      the old or the new version, whole;
 *    - nothing is half-written: every stored analysis (paged through `analyses`) is readable and
 *      is, field for field, one that some client sent; `PRAGMA integrity_check` is ok;
 *    - every acknowledged analysis's edit token still works (an update with it succeeds, and that
 *      becomes its acknowledged version) and a wrong one is FORBIDDEN;
 *    - the warm-up questions are answered `cached: true`, with the same answers as before.
 *
 * The figures of each round are printed at the end. DURABILITY_KILL_POINTS (comma-separated ms)
 * changes the kill points.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PathQuery, prepareQuery, solve, squareName } from '@chess-paths/engine';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mazeQuery } from '../../packages/engine/test/support/maze.js';
import { type ChildServer, startChildServer } from '../support/child-server.js';

const KILL_POINTS_MS = (process.env.DURABILITY_KILL_POINTS ?? '50,200,500,1000').split(',').map(Number);
const CLIENTS = 8;
/** A request not answered within this is a hang (they take milliseconds; heavy batches, a second). */
const REQUEST_TIMEOUT_MS = 15_000;

let dir: string;
let databaseFile: string;
let server: ChildServer | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chess-paths-durability-'));
  databaseFile = join(dir, 'durability.db');
});
afterAll(async () => {
  console.log(['durability (SIGKILL) rounds:', ...figures.map((f) => `  ${JSON.stringify(f)}`)].join('\n'));
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function start(): Promise<ChildServer> {
  // No mutation rate limit: the clients save as fast as they can.
  return startChildServer({
    env: { DATABASE_URL: `file:${databaseFile}`, RATE_LIMIT_MUTATIONS: '0', LOG_LEVEL: 'warn' },
  });
}

// ---------------------------------------------------------------------------------------------

/** What a client sends as an analysis's content. */
interface Content {
  title: string;
  notes: string | null;
  fen: string | null;
  queries: PathQuery[];
}

/** An analysis whose save was acknowledged (or that landed without an acknowledgement). */
interface Acknowledged {
  id: string;
  /** Undefined for a save that landed but whose answer never reached the client. */
  token?: string;
  /** The last acknowledged version. */
  content: Content;
  /** Versions sent by updates that were not acknowledged (in flight at the kill). */
  pending: Content[];
}

const acknowledged = new Map<string, Acknowledged>();
/** Every content ever sent in a save, by title (titles are unique): what an unacknowledged save may have left. */
const sentByTitle = new Map<string, Content>();

interface RoundFigures {
  killAfterMs: number;
  requests: number;
  savesAcknowledged: number;
  updatesAcknowledged: number;
  heavyBatchesAnswered: number;
  heavyBatchesOverloaded: number;
  heavyBatchesOverBudget: number;
  pathQueries: number;
  inFlightAtKill: number;
  mutationsInFlightAtKill: number;
  savesInFlightLanded: number;
  analysesStored: number;
  analysesVerified: number;
  tokensChecked: number;
  cacheRowsServedCached: number;
}
const figures: RoundFigures[] = [];

/** A small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const B8 = { files: 8, ranks: 8 };
const FENS = [
  '8/8/8/8/4K3/8/8/8 w - - 0 1',
  '4k3/8/8/3p4/8/2N5/8/4K3 b - - 0 40',
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
];
const PIECES = ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'KNIGHT', 'WHITE_PAWN', 'BLACK_PAWN'] as const;

function randomQuery(rand: () => number): PathQuery {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const kind = rand();
  if (kind < 0.6) {
    const from = Math.floor(rand() * 64);
    const to = Math.floor(rand() * 64);
    const q: PathQuery = {
      piece: pick(PIECES),
      from: [squareName(from, B8)],
      to: [squareName(to, B8), squareName((to * 7 + 3) % 64, B8)],
    };
    if (rand() < 0.4) q.blocked = [squareName((from + 9) % 64, B8)].filter((s) => s !== q.from[0] && !q.to.includes(s));
    if (rand() < 0.3) q.fen = pick(FENS);
    return q;
  }
  const side = 5 + Math.floor(rand() * 20);
  const board = { files: side, ranks: side };
  return {
    piece: pick(PIECES),
    board,
    from: [squareName(0, board)],
    to: [squareName(side * side - 1 - Math.floor(rand() * side), board)],
  };
}

function randomContent(rand: () => number, title: string): Content {
  const n = 1 + Math.floor(rand() * 4);
  const r = rand();
  return {
    title,
    notes:
      r < 0.3
        ? null
        : r < 0.6
          ? `notes ✓ ${title} ${'é'.repeat(Math.floor(rand() * 50))}`
          : `long ${'x'.repeat(2000 + Math.floor(rand() * 3000))}`,
    fen: rand() < 0.5 ? null : FENS[Math.floor(rand() * FENS.length)],
    queries: Array.from({ length: n }, () => randomQuery(rand)),
  };
}

const SAVE = 'mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken analysis { id title } } }';
const UPDATE =
  'mutation($id: ID!, $t: String!, $i: UpdateAnalysisInput!) { updateAnalysis(id: $id, editToken: $t, input: $i) { id title } }';
const READ_FIELDS = 'id title notes fen results { key distance layers { squares } }';

interface Gql {
  data?: any;
  errors?: { message: string; extensions?: { code?: string } }[];
}

async function gql(url: string, query: string, variables?: unknown, timeoutMs = REQUEST_TIMEOUT_MS): Promise<Gql> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return (await res.json()) as Gql;
}

// ---------------------------------------------------------------------------------------------
// Load

interface LoadResult {
  requests: number;
  saves: number;
  updates: number;
  paths: number;
  /** Heavy batches answered, refused at admission, and cut off by the engine budget. */
  heavy: number;
  overloaded: number;
  overBudget: number;
  inFlightAtKill: number;
  mutationsInFlightAtKill: number;
  /** Errors before the kill: none expected. */
  earlyFailures: string[];
}

/** Runs the clients until `killAfterMs`, then SIGKILLs the server while they are still sending. */
async function loadAndKill(s: ChildServer, round: number, killAfterMs: number): Promise<LoadResult> {
  const result: LoadResult = {
    requests: 0,
    saves: 0,
    updates: 0,
    paths: 0,
    heavy: 0,
    overloaded: 0,
    overBudget: 0,
    inFlightAtKill: 0,
    mutationsInFlightAtKill: 0,
    earlyFailures: [],
  };
  // The clients send until the kill, however late the timer fires: a busy machine delays the kill
  // point, never ends the load before it.
  let killed = false;
  let inFlight = 0;
  let mutationsInFlight = 0;

  const client = async (c: number) => {
    const rand = prng(round * 1000 + c + 1);
    const mine: Acknowledged[] = [];
    for (let i = 0; !killed; i++) {
      const r = rand();
      const isMutation = r < 0.9;
      inFlight++;
      if (isMutation) mutationsInFlight++;
      result.requests++;
      try {
        if (r < 0.65 || mine.length === 0) {
          const content = randomContent(rand, `r${round}-c${c}-s${i} ✓`);
          sentByTitle.set(content.title, content);
          const res = await gql(s.url, SAVE, { i: content });
          if (res.errors) throw new Error(JSON.stringify(res.errors));
          const saved: Acknowledged = {
            id: res.data.saveAnalysis.analysis.id,
            token: res.data.saveAnalysis.editToken,
            content,
            pending: [],
          };
          acknowledged.set(saved.id, saved);
          mine.push(saved);
          result.saves++;
        } else if (r < 0.9) {
          const target = mine[Math.floor(rand() * mine.length)];
          const next = randomContent(rand, `${target.content.title.split(' u')[0]} u${i}`);
          target.pending.push(next);
          const res = await gql(s.url, UPDATE, { id: target.id, t: target.token!, i: next });
          if (res.errors) throw new Error(JSON.stringify(res.errors));
          target.content = next;
          target.pending = [];
          result.updates++;
        } else {
          const res = await gql(s.url, `query($q: PathQuery!) { shortestPaths(query: $q) { distance } }`, {
            q: randomQuery(rand),
          });
          if (res.errors) throw new Error(JSON.stringify(res.errors));
          result.paths++;
        }
      } catch (err) {
        if (!killed) result.earlyFailures.push(String(err).slice(0, 300));
        return;
      } finally {
        inFlight--;
        if (isMutation) mutationsInFlight--;
      }
    }
  };

  /**
   * Heavy work meanwhile: batches of new 64 x 64 maze questions, solved on the worker threads. Refused
   * at admission (OVERLOADED) or cut off by the engine budget (ENGINE_BUDGET_EXCEEDED: a loaded
   * machine makes a batch take longer) is an answer too.
   */
  const heavyClient = async (h: number) => {
    for (let i = 0; !killed; i++) {
      const q = Array.from({ length: 50 }, (_, k) => mazeQuery((round * 7 + h * 3 + i) * 50 + k));
      try {
        const res = await gql(s.url, 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }', {
          q,
        });
        if (res.errors?.every((e) => e.extensions?.code === 'OVERLOADED')) result.overloaded++;
        else if (res.errors?.every((e) => e.extensions?.code === 'ENGINE_BUDGET_EXCEEDED')) result.overBudget++;
        else if (res.errors) throw new Error(JSON.stringify(res.errors).slice(0, 300));
        else result.heavy++;
      } catch (err) {
        if (!killed) result.earlyFailures.push(String(err).slice(0, 300));
        return;
      }
    }
  };

  const clients = [...Array.from({ length: CLIENTS }, (_, c) => client(c)), heavyClient(0), heavyClient(1)];
  await new Promise((r) => setTimeout(r, killAfterMs));
  result.inFlightAtKill = inFlight;
  result.mutationsInFlightAtKill = mutationsInFlight;
  killed = true;
  const exit = await s.kill('SIGKILL');
  expect(exit.signal).toBe('SIGKILL');
  await Promise.all(clients);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Checks

/** What the engine says about a list of queries: the expected results. */
function expectedResults(queries: PathQuery[]) {
  return queries.map((q) => {
    const solution = solve(q);
    return {
      key: prepareQuery(q).key,
      distance: solution.distance,
      layers: solution.layers.map((l) => ({ squares: [...l.squares] })),
    };
  });
}

const sameContent = (stored: { title: string; notes: string | null; fen: string | null }, content: Content) =>
  stored.title === content.title && stored.notes === content.notes && stored.fen === content.fen;

/** Checks one stored analysis against the versions it may hold; returns the one it holds. */
function checkStored(
  stored: { id: string; title: string; notes: string | null; fen: string | null; results: unknown[] },
  versions: Content[],
): Content {
  const match = versions.find(
    (v) => sameContent(stored, v) && JSON.stringify(stored.results) === JSON.stringify(expectedResults(v.queries)),
  );
  expect(
    match,
    `analysis ${stored.id} (${stored.title}) is none of the ${versions.length} versions sent: ${JSON.stringify(stored).slice(0, 400)}`,
  ).toBeDefined();
  return match!;
}

async function allStoredIds(url: string): Promise<{ ids: string[]; totalCount: number }> {
  const ids: string[] = [];
  let after: string | null = null;
  let totalCount = 0;
  for (let page = 0; page < 1000; page++) {
    const res: Gql = await gql(
      url,
      'query($a: String) { analyses(first: 1000, after: $a) { totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }',
      { a: after },
    );
    expect(res.errors).toBeUndefined();
    totalCount = res.data.analyses.totalCount;
    ids.push(...res.data.analyses.edges.map((e: { node: { id: string } }) => e.node.id));
    if (!res.data.analyses.pageInfo.hasNextPage) break;
    after = res.data.analyses.pageInfo.endCursor;
  }
  return { ids, totalCount };
}

/** Runs `f` over `items` with `n` at a time. */
async function eachLimited<T>(items: T[], n: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await f(items[next++]);
    }),
  );
}

/** Asks `queries` until every answer is `cached: true` (their rows are written); returns the answers. */
async function warmCache(url: string, queries: PathQuery[]) {
  const doc = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { key cached distance layers { squares } } }';
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await gql(url, doc, { q: queries });
    expect(res.errors).toBeUndefined();
    const answers = res.data.shortestPathsBatch as { key: string; cached: boolean }[];
    if (answers.every((a) => a.cached)) return answers;
    if (Date.now() > deadline) throw new Error('the warm-up questions never came back cached: true (30 s)');
    await new Promise((r) => setTimeout(r, 50));
  }
}

// ---------------------------------------------------------------------------------------------

describe('SIGKILL in the middle of writes', () => {
  const warm: { queries: PathQuery[]; answers: unknown[] }[] = [];

  KILL_POINTS_MS.forEach((killAfterMs, round) => {
    it(`round ${round + 1}: killed after ${killAfterMs} ms of load, restarted, nothing acknowledged lost, nothing half-written`, async () => {
      server ??= await start();

      // 1. Cache rows that must survive: questions no earlier round asked.
      const rand = prng(9_000 + round);
      const queries = Array.from({ length: 20 }, () => randomQuery(rand))
        .map((q) => ({ ...q, to: [...q.to, `${'abcdefgh'[round % 8]}${(round % 8) + 1}`] }))
        .filter((q) => !q.board);
      const answers = await warmCache(server.url, queries);
      warm.push({ queries, answers });

      // 2-3. Load, and SIGKILL in the middle of it.
      const load = await loadAndKill(server, round, killAfterMs);
      expect(load.earlyFailures).toEqual([]);
      expect(load.mutationsInFlightAtKill, 'writes in flight at the kill').toBeGreaterThan(0);

      // The file as the kill left it (the server holds its database exclusively while it runs, so
      // look now): intact, and every analysis row whole.
      const db = new Database(databaseFile, { fileMustExist: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const rows = db.prepare('SELECT "queries", "resultKeys" FROM "Analysis"').all() as {
          queries: string;
          resultKeys: string;
        }[];
        for (const row of rows)
          expect((JSON.parse(row.queries) as unknown[]).length).toBe((JSON.parse(row.resultKeys) as unknown[]).length);
      } finally {
        db.close();
      }

      // 4. Restart on the same file.
      server = await start();
      const url = server.url;

      // Every acknowledged analysis, of every round, is intact (or holds an in-flight update whole).
      const entries = [...acknowledged.values()];
      await eachLimited(entries, 8, async (entry) => {
        const res = await gql(url, `query($id: ID!) { analysis(id: $id) { ${READ_FIELDS} } }`, { id: entry.id });
        expect(res.errors).toBeUndefined();
        expect(
          res.data.analysis,
          `acknowledged analysis ${entry.id} (${entry.content.title}) is missing`,
        ).not.toBeNull();
        entry.content = checkStored(res.data.analysis, [entry.content, ...entry.pending]);
        entry.pending = [];
      });

      // Nothing half-written: every stored analysis is one that was sent, whole.
      const { ids, totalCount } = await allStoredIds(url);
      expect(ids).toHaveLength(totalCount);
      expect(new Set(ids).size).toBe(ids.length);
      let landedUnacknowledged = 0;
      await eachLimited(ids, 8, async (id) => {
        if (acknowledged.has(id)) return;
        const res = await gql(url, `query($id: ID!) { analysis(id: $id) { ${READ_FIELDS} } }`, { id });
        expect(res.errors).toBeUndefined();
        const sent = sentByTitle.get(res.data.analysis.title);
        expect(
          sent,
          `stored analysis ${id} has a title no client sent: ${JSON.stringify(res.data.analysis).slice(0, 300)}`,
        ).toBeDefined();
        checkStored(res.data.analysis, [sent!]);
        landedUnacknowledged++;
      });
      expect(ids.length).toBe(acknowledged.size + landedUnacknowledged);

      // Edit tokens still work; a wrong one does not.
      const thisRound = entries.filter((e) => e.content.title.startsWith(`r${round}-`));
      const sample = [
        ...thisRound,
        ...entries.filter((e) => !thisRound.includes(e) && e.token !== undefined).slice(0, 50),
      ];
      await eachLimited(sample, 8, async (entry) => {
        const wrong = await gql(url, UPDATE, { id: entry.id, t: `${entry.token}x`, i: { notes: 'stolen' } });
        expect(wrong.errors?.[0].extensions?.code).toBe('FORBIDDEN');
        const next: Content = { ...entry.content, notes: `checked after round ${round + 1}` };
        const res = await gql(url, UPDATE, { id: entry.id, t: entry.token, i: { notes: next.notes } });
        expect(res.errors, entry.id).toBeUndefined();
        entry.content = next;
      });

      // The cache rows written before every kill so far are served from the cache.
      let cachedServed = 0;
      for (const { queries: q, answers: before } of warm) {
        const res = await gql(
          url,
          'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { key cached distance layers { squares } } }',
          { q },
        );
        expect(res.errors).toBeUndefined();
        const after = res.data.shortestPathsBatch as { cached: boolean }[];
        expect(after.filter((a) => !a.cached)).toEqual([]);
        expect(after).toEqual(before);
        cachedServed += after.length;
      }

      figures.push({
        killAfterMs,
        requests: load.requests,
        savesAcknowledged: load.saves,
        updatesAcknowledged: load.updates,
        heavyBatchesAnswered: load.heavy,
        heavyBatchesOverloaded: load.overloaded,
        heavyBatchesOverBudget: load.overBudget,
        pathQueries: load.paths,
        inFlightAtKill: load.inFlightAtKill,
        mutationsInFlightAtKill: load.mutationsInFlightAtKill,
        savesInFlightLanded: landedUnacknowledged,
        analysesStored: ids.length,
        analysesVerified: entries.length + landedUnacknowledged,
        tokensChecked: sample.length,
        cacheRowsServedCached: cachedServed,
      });
      // Unacknowledged saves that landed are whole; from now on they are expected like the rest.
      for (const id of ids) {
        if (acknowledged.has(id)) continue;
        const res = await gql(url, `query($id: ID!) { analysis(id: $id) { title } }`, { id });
        const content = sentByTitle.get(res.data.analysis.title)!;
        acknowledged.set(id, { id, content, pending: [] });
      }
    }, 300_000); // a round takes a few seconds; a restart on a very busy machine, up to a minute
  });
});

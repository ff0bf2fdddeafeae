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
 * changes the kill points. The clients are in test/support/durability/workload.ts, the checks of
 * what was stored in checks.ts beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PathQuery } from '@chess-paths/engine';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from '../support/child-server.js';
import { allStoredIds, checkStored, eachLimited, warmCache } from '../support/durability/checks.js';
import {
  type Content,
  gql,
  type Ledger,
  loadAndKill,
  prng,
  READ_FIELDS,
  randomQuery,
  UPDATE,
} from '../support/durability/workload.js';

const KILL_POINTS_MS = (process.env.DURABILITY_KILL_POINTS ?? '50,200,500,1000').split(',').map(Number);

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

const ledger: Ledger = { acknowledged: new Map(), sentByTitle: new Map() };
const { acknowledged, sentByTitle } = ledger;

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
      const load = await loadAndKill(server, ledger, round, killAfterMs);
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

/**
 * Shutdown keeps its word (src/server.ts `close()` and `main()`, src/http/drain.ts), with the real
 * entry point in a child process stopped by SIGTERM:
 *
 * - with heavy work in flight and queued, the process exits 0 within SHUTDOWN_TIMEOUT_MS (plus a
 *   margin), and every request gets its whole answer or a clean refusal (503, OVERLOADED,
 *   Retry-After), none an error or an answer cut mid-body;
 * - SIGTERM right after saves were sent, in many rounds with varied delays, on connections of
 *   their own and on a kept-alive one: every save whose client got an answer is stored, and every
 *   stored save's client got its answer (no ECONNRESET after a commit); a save that was not
 *   stored was refused cleanly or never read. Only outcomes are asserted, never timings.
 *
 * The bound with a PostgreSQL row lock is in `server.shutdown.postgres.test.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { squareName } from '@chess-paths/engine';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { mazeQuery } from '../packages/engine/test/support/maze.js';
import { startChildServer } from './support/child-server.js';
import { describeOutcome, type RawOutcome, rawPost } from './support/raw-post.js';
import { sumMetric } from './support/test-server.js';

const SHUTDOWN_TIMEOUT_MS = 3000;
/** The server's own backstop allows 1 s past the timeout; 2 s more for a loaded machine's scheduling. */
const EXIT_MARGIN_MS = 3000;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function databaseUrl(): { url: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'chess-paths-shutdown-'));
  dirs.push(dir);
  const file = join(dir, 'shutdown.db');
  return { url: `file:${file}`, file };
}

/** Polls `check` until it is true (the conditions here come within seconds; vitest's timeout bounds it). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** True for a clean refusal: 503, code OVERLOADED, a Retry-After header. */
function isRefusal(outcome: RawOutcome): boolean {
  return (
    outcome.kind === 'answer' &&
    outcome.status === 503 &&
    outcome.retryAfter !== undefined &&
    outcome.json?.errors?.[0]?.extensions?.code === 'OVERLOADED'
  );
}

const BATCH = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }';
/** About 11 MB of answer: the distance to every square of a 128 x 128 board, 200 times. */
const LARGE = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distances } }';
const largeQueries = Array.from({ length: 200 }, (_, i) => ({
  piece: 'KING',
  board: { files: 128, ranks: 128 },
  from: [squareName(i, { files: 128, ranks: 128 })],
  to: ['dx128'],
}));

/** True once another connection can read the SQLite file: the server has closed it (it holds it exclusively). */
function databaseReadable(file: string): boolean {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: 0, fileMustExist: true });
    db.prepare('SELECT count(*) FROM "Analysis"').get();
    return true;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

describe('SIGTERM with heavy work in flight and queued', () => {
  it('exits 0 within SHUTDOWN_TIMEOUT_MS; every request gets its whole answer or a clean refusal', async () => {
    const { url, file } = databaseUrl();
    const server = await startChildServer({
      env: {
        DATABASE_URL: url,
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
        // One heavy request at a time, the rest wait at admission; no budget, so the one running
        // runs until shutdown cancels its engine work; every request really solves.
        HEAVY_REQUESTS: '1',
        ADMISSION_QUEUE: '64',
        ADMISSION_TIMEOUT_MS: '600000',
        ENGINE_BUDGET_MS: '0',
        RESULT_MEMO_SIZE: '0',
        RESPONSE_CACHE_SIZE: '0',
        MAX_BOARD_SIDE: '128',
      },
    });
    try {
      // A large answer whose client reads its first chunk, then nothing until the server has
      // closed its database, late in the shutdown: the answer waits half-sent meanwhile.
      let answerStarted!: () => void;
      const started = new Promise<void>((resolve) => {
        answerStarted = resolve;
      });
      let databaseClosed!: () => void;
      const closed = new Promise<void>((resolve) => {
        databaseClosed = resolve;
      });
      const large = rawPost(
        `${server.url}/graphql`,
        { query: LARGE, variables: { q: largeQueries } },
        {
          hold: () => {
            answerStarted();
            return closed;
          },
        },
      );
      await started;
      const metrics = () => fetch(`${server.url}/metrics`).then((r) => r.text());
      const solvedBefore = sumMetric(await metrics(), 'chess_paths_engine_solves_total');

      const REQUESTS = 10;
      let sent = 0;
      const outcomes = Array.from({ length: REQUESTS }, (_, i) => {
        const q = Array.from({ length: 200 }, (_, k) => mazeQuery(i * 200 + k, 128));
        return rawPost(`${server.url}/graphql`, { query: BATCH, variables: { q } }, { onSent: () => sent++ });
      });
      // Every request is on the wire, and the first is solving.
      await until(
        async () => sent === REQUESTS && sumMetric(await metrics(), 'chess_paths_engine_solves_total') > solvedBefore,
      );

      const signalled = performance.now();
      server.child.kill('SIGTERM');
      await until(() => databaseReadable(file) || !server.alive());
      databaseClosed();
      const exit = await server.exited;
      const exitMs = performance.now() - signalled;
      const results = await Promise.all(outcomes);

      expect(exit).toEqual({ code: 0, signal: null });
      expect(exitMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + EXIT_MARGIN_MS);
      const slow = await large;
      expect(describeOutcome(slow)).toBe('200');
      expect(slow.kind === 'answer' && slow.json.data.shortestPathsBatch.length).toBe(largeQueries.length);
      const seen = results.map(describeOutcome);
      for (const [i, outcome] of results.entries()) {
        // A whole answer (the one running answers once its engine work is cancelled) or a refusal.
        const whole = outcome.kind === 'answer' && outcome.status === 200 && outcome.json !== undefined;
        expect(whole || isRefusal(outcome), `request ${i}: ${seen[i]}`).toBe(true);
      }
      // The requests waiting for admission were refused at once.
      expect(results.filter(isRefusal).length, seen.join(', ')).toBeGreaterThan(0);
    } finally {
      await server.kill();
    }
  }, 120_000);
});

const SAVE =
  'mutation($title: String!) { saveAnalysis(input: { title: $title, queries: [{ piece: KING, from: ["e4"], to: ["a1"] }] }) { analysis { id } editToken } }';

/** One round's figures. */
interface Round {
  delayMs: number;
  outcomes: string[];
}
const rounds: Round[] = [];

describe('SIGTERM right after saves were sent', () => {
  afterAll(() => {
    console.log(['shutdown save race, rounds:', ...rounds.map((r) => `  ${JSON.stringify(r)}`)].join('\n'));
  });

  it('every answered save is stored, and every stored save was answered', async () => {
    const DELAYS_MS = [0, 1, 2, 3, 4, 6, 8, 10, 12, 16];
    const SAVES = 6;
    for (const delayMs of DELAYS_MS) {
      const { url, file } = databaseUrl();
      const server = await startChildServer({
        env: { DATABASE_URL: url, RATE_LIMIT_MUTATIONS: '0', SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) },
      });
      const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        // A kept-alive connection that has carried a request already (a warm server, too).
        const warm = await rawPost(
          `${server.url}/graphql`,
          { query: SAVE, variables: { title: 'warm' } },
          { agent: keepAlive },
        );
        expect(describeOutcome(warm)).toBe('200');
        // Saves on connections of their own, and two more on the kept-alive one (one after the other).
        const titles = Array.from({ length: SAVES }, (_, i) => `save ${i}`);
        const pending = titles.map((title, i) =>
          rawPost(`${server.url}/graphql`, { query: SAVE, variables: { title } }, i < 2 ? { agent: keepAlive } : {}),
        );
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        server.child.kill('SIGTERM');
        const exit = await server.exited;
        const outcomes = await Promise.all(pending);
        expect(exit).toEqual({ code: 0, signal: null });

        const db = new Database(file, { readonly: true });
        const stored = new Map(
          (db.prepare('SELECT "id", "title" FROM "Analysis"').all() as { id: string; title: string }[]).map((r) => [
            r.title,
            r.id,
          ]),
        );
        db.close();
        rounds.push({ delayMs, outcomes: outcomes.map(describeOutcome) });
        for (const [i, outcome] of outcomes.entries()) {
          const what = `round ${delayMs} ms, ${titles[i]}: ${describeOutcome(outcome)}, stored: ${stored.has(titles[i])}`;
          const saved = outcome.kind === 'answer' ? outcome.json?.data?.saveAnalysis : undefined;
          if (stored.has(titles[i])) {
            // Committed: its client got the answer, naming what was stored.
            expect(saved?.analysis?.id, what).toBe(stored.get(titles[i]));
          } else {
            // Not stored: refused cleanly, or never read (an error before any answer began).
            expect(saved, what).toBeUndefined();
            expect(isRefusal(outcome) || (outcome.kind === 'error' && !outcome.midBody), what).toBe(true);
          }
        }
      } finally {
        keepAlive.destroy();
        await server.kill();
      }
    }
  }, 300_000);
});

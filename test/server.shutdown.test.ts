/**
 * Shutdown keeps its word (src/server.ts `close()` and `main()`, src/http/drain.ts), with the real
 * entry point in a child process stopped by SIGTERM: with heavy work in flight and queued, the
 * process exits 0 within SHUTDOWN_TIMEOUT_MS (plus a margin), and every request gets its whole
 * answer or a clean refusal (503, OVERLOADED, Retry-After), none an error or an answer cut
 * mid-body.
 *
 * The race of SIGTERM with saves is in `server.shutdown.saves.test.ts`, the bound with a
 * PostgreSQL row lock in `server.shutdown.postgres.test.ts`.
 */
import { squareName } from '@chess-paths/engine';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { mazeQuery } from '../packages/engine/test/support/maze.js';
import { startChildServer } from './support/child-server.js';
import { describeOutcome, rawPost } from './support/raw-post.js';
import { isRefusal, SHUTDOWN_TIMEOUT_MS, shutdownDatabases } from './support/shutdown.js';
import { sumMetric } from './support/test-server.js';

/** The server's own backstop allows 1 s past the timeout; 2 s more for a loaded machine's scheduling. */
const EXIT_MARGIN_MS = 3000;

const databases = shutdownDatabases();
afterAll(() => databases.cleanup());
const databaseUrl = databases.next;

/** Polls `check` until it is true (the conditions here come within seconds; vitest's timeout bounds it). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
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

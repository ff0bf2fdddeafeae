/**
 * Shutdown keeps SHUTDOWN_TIMEOUT_MS on PostgreSQL when a statement cannot finish (src/server.ts
 * `close()`, src/store/close.ts): another connection holds a row lock (`SELECT ... FOR UPDATE` in
 * an open transaction) that an `updateAnalysis` of the server waits for. On SIGTERM the real
 * entry point (a child process) exits 0 within the timeout plus a margin, instead of waiting out
 * the 15 s statement timeout; the update's client gets a whole answer saying it failed
 * (SERVICE_UNAVAILABLE), and once the lock is let go the row is still as it was: the waiting
 * statement was ended in the database, not left to commit after its client was told otherwise.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from './support/child-server.js';
import { createTestDatabase, queryPostgres, skipPostgres, type TestDatabase } from './support/postgres.js';
import { describeOutcome, rawPost } from './support/raw-post.js';

const SHUTDOWN_TIMEOUT_MS = 3000;
/** The server's own backstop allows 1 s past the timeout; 2 s more for a loaded machine's scheduling. */
const EXIT_MARGIN_MS = 3000;

const SAVE = 'mutation { saveAnalysis(input: { title: "before", queries: [] }) { analysis { id } editToken } }';
const UPDATE =
  'mutation($id: ID!, $token: String!) { updateAnalysis(id: $id, editToken: $token, input: { title: "after" }) { version } }';

/** Polls `check` until it is true (vitest's timeout bounds it). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.skipIf(skipPostgres)('SIGTERM while an update waits for a row lock', () => {
  let db: TestDatabase;
  let server: ChildServer | undefined;
  let locker: pg.Client | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await server?.kill();
    await locker?.end().catch(() => undefined);
    await db?.drop();
  });

  it('exits 0 within SHUTDOWN_TIMEOUT_MS; the update is answered as failed and changed nothing', async () => {
    server = await startChildServer({
      env: { DATABASE_URL: db.url, SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) },
    });
    const graphql = `${server.url}/graphql`;
    const saved = await rawPost(graphql, { query: SAVE });
    expect(describeOutcome(saved)).toBe('200');
    const { analysis, editToken } = saved.kind === 'answer' ? saved.json.data.saveAnalysis : ({} as never);

    locker = new pg.Client({ connectionString: db.url });
    locker.on('error', () => undefined);
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM "Analysis" WHERE "id" = $1 FOR UPDATE', [analysis.id]);
    const update = rawPost(graphql, { query: UPDATE, variables: { id: analysis.id, token: editToken } });
    // The update is in the database, waiting for the lock.
    const waiting = async () =>
      (
        await queryPostgres<{ n: number }>(
          db.url,
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
      )[0].n > 0;
    await until(waiting);

    const signalled = performance.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    const exitMs = performance.now() - signalled;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(exitMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + EXIT_MARGIN_MS);

    const answered = await update;
    expect(describeOutcome(answered)).toBe('200 SERVICE_UNAVAILABLE');
    expect(answered.kind === 'answer' && answered.json.data).toBeNull();

    // Let go of the lock: had the server's statement been left waiting, it would write now.
    await locker.query('ROLLBACK');
    const serverBackends = async () =>
      (
        await queryPostgres<{ n: number }>(
          db.url,
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'chess-paths %'",
        )
      )[0].n === 0;
    await until(serverBackends);
    const rows = await queryPostgres(db.url, 'SELECT "title", "version" FROM "Analysis" WHERE "id" = $1', [
      analysis.id,
    ]);
    expect(rows).toEqual([{ title: 'before', version: 1 }]);
  }, 60_000);
});

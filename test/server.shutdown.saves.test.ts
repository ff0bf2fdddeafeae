/**
 * Shutdown keeps acknowledged saves (src/server.ts `close()`, src/http/drain.ts): SIGTERM right
 * after saves were sent to the real entry point in a child process, in many rounds with varied
 * delays, on connections of their own and on a kept-alive one. Every save whose client got an
 * answer is stored, and every stored save's client got its answer (no ECONNRESET after a commit);
 * a save that was not stored was refused cleanly or never read. Only outcomes are asserted, never
 * timings.
 */
import { Agent } from 'node:http';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildServer } from './support/child-server.js';
import { describeOutcome, rawPost } from './support/raw-post.js';
import { isRefusal, SHUTDOWN_TIMEOUT_MS, shutdownDatabases } from './support/shutdown.js';

const databases = shutdownDatabases();
afterAll(() => databases.cleanup());
const databaseUrl = databases.next;

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

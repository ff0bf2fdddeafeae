/**
 * The persistent cache across a server restart (issue 4), over real HTTP on a real SQLite file:
 * a first server answers a batch twice (every result solved both times: a cheap result is written
 * on its question's second ask, `caching/cache-policy.ts`), is stopped right after answering (its
 * shutdown must write the cache entries still queued), and a second server on the same file
 * answers the same batch with every result `cached: true` and zero engine solves (/metrics); a
 * batch asked only once before the restart was never written, and is solved again after it.
 * Once in-process with `close()`, once as child processes stopped with SIGTERM.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { squareName } from '@chess-paths/engine';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { serverArgs } from './support/child-server.js';
import { sumMetric } from './support/test-server.js';

const PIECES = ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'KNIGHT'] as const;
const BATCH = `query($q: [PathQuery!]!) {
  shortestPathsBatch(queries: $q) { key cached distance layers { bitboard } pathCount }
}`;

/** `n` (up to 4,032) distinct 8 x 8 questions. */
function queries(n: number) {
  const board = { files: 8, ranks: 8 };
  return Array.from({ length: n }, (_, i) => ({
    piece: PIECES[Math.floor(i / 64) % 5],
    from: [squareName(i % 64, board)],
    to: [squareName((i + 1 + Math.floor(i / 64)) % 64, board)],
  }));
}

interface Answer {
  key: string;
  cached: boolean;
  distance: number | null;
  layers: { bitboard: string }[];
  pathCount: string;
}

async function ask(url: string, q: unknown[]): Promise<Answer[]> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: BATCH, variables: { q } }),
  });
  const body = (await res.json()) as { data?: { shortestPathsBatch: Answer[] }; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data!.shortestPathsBatch;
}

async function metric(url: string, name: string): Promise<number> {
  return sumMetric(await (await fetch(`${url}/metrics`)).text(), name);
}

const withoutCached = (answers: Answer[]) => answers.map(({ cached: _cached, ...rest }) => rest);

/**
 * Longer than any test here may take: shutdown must write everything queued, and a loaded machine
 * must not turn that into "what fits in the time left" (the default 10 s).
 */
const SHUTDOWN_TIMEOUT_MS = '60000';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chess-paths-restart-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the cache survives a restart', () => {
  it('in process: close() writes what is queued; the next server answers from the cache alone', async () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATABASE_URL: `file:${join(dir, 'cache.db')}`,
      SHUTDOWN_TIMEOUT_MS,
    });
    const all = queries(400);
    const q = all.slice(0, 300);
    const once = all.slice(300);

    const first = await startServer(config);
    await first.ready;
    expect((await ask(first.url, once)).every((r) => !r.cached)).toBe(true);
    expect((await ask(first.url, q)).every((r) => !r.cached)).toBe(true);
    await first.settle(); // nothing to write: each was asked once
    const before = await ask(first.url, q);
    expect(before.every((r) => !r.cached)).toBe(true);
    expect(await metric(first.url, 'chess_paths_engine_solves_total')).toBe(700);
    await first.close(); // no settle(): shutdown itself must write the queued results

    const second = await startServer(config);
    try {
      await second.ready;
      const after = await ask(second.url, q);
      expect(after.every((r) => r.cached)).toBe(true);
      expect(withoutCached(after)).toEqual(withoutCached(before));
      expect(await metric(second.url, 'chess_paths_engine_solves_total')).toBe(0);
      expect(await metric(second.url, 'chess_paths_cache_hits_total')).toBe(300);
      // Asked once before the restart: never written, so solved again (and not looked up).
      expect((await ask(second.url, once)).every((r) => !r.cached)).toBe(true);
      expect(await metric(second.url, 'chess_paths_engine_solves_total')).toBe(100);
    } finally {
      await second.close();
    }
  });

  it('as child processes stopped with SIGTERM right after answering', { timeout: 240_000 }, async () => {
    const databaseUrl = `file:${join(dir, 'child.db')}`;
    const q = queries(500); // five cache writes of 100, resting between them unless shutting down

    const first = await startChild(databaseUrl);
    expect((await ask(first.url, q)).every((r) => !r.cached)).toBe(true); // not written: asked once
    const before = await ask(first.url, q); // written: asked twice
    expect(before.every((r) => !r.cached)).toBe(true);
    expect(await first.stop()).toBe(0);
    expect(first.log()).toContain('"msg":"shut down"');

    const second = await startChild(databaseUrl);
    try {
      const after = await ask(second.url, q);
      expect(after.filter((r) => !r.cached)).toEqual([]);
      expect(withoutCached(after)).toEqual(withoutCached(before));
      expect(await metric(second.url, 'chess_paths_engine_solves_total')).toBe(0);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});

/** The server (`serverArgs`: the build when current, else `src/server.ts`) as a child process on `databaseUrl`, once /health is 200. */
async function startChild(databaseUrl: string) {
  const child = spawn(process.execPath, serverArgs(), {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      SHUTDOWN_TIMEOUT_MS,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /"url":"(http:[^"]+)"/.exec(log);
      if (match) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`exited early with ${code}: ${log}`)));
  });
  // Until the database is open (a batch asked earlier would not be cached): a condition, not a delay.
  await vi.waitFor(async () => expect((await fetch(`${url}/health`)).status).toBe(200), {
    timeout: 30_000,
    interval: 25,
  });
  return {
    url,
    log: () => log,
    stop: async () => {
      child.kill('SIGTERM');
      // Past the shutdown timeout: only a hung shutdown is killed (and then fails the test: exit null).
      const timer = setTimeout(() => child.kill('SIGKILL'), Number(SHUTDOWN_TIMEOUT_MS) + 10_000);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

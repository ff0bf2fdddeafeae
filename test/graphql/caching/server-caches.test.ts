/**
 * The caches a server keeps in memory (`src/graphql/caching/server-caches.ts`, and those the
 * Apollo server and the GraphQL route make), as `/metrics` shows them through a real server: each
 * under `cache="…"` with its entries, estimated bytes and bound (its setting), read when scraped,
 * growing once a game is read, a question asked, a text validated, a response kept. The engine's
 * caches are the main thread's (this server runs no workers); a worker's are its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/** Each cache's setting here, bytes: distinct values, so that each gauge shows its own. */
const BOUNDS: Record<string, [string, number]> = {
  games: ['GAME_CACHE_BYTES', 8_000_000],
  hot_results: ['RESULT_MEMO_BYTES', 9_000_000],
  prepared_queries: ['PREPARED_QUERY_BYTES', 1_000_000],
  responses: ['RESPONSE_CACHE_BYTES', 2_000_000],
  documents: ['DOCUMENT_CACHE_BYTES', 3_000_000],
  shapes: ['SHAPE_CACHE_BYTES', 500_000],
  betza: ['BETZA_CACHE_BYTES', 700_000],
  boards: ['BOARD_CACHE_BYTES', 6_000_000],
};

const PGN = '[Event "Bounds"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *';
const GAME = 'query($p: String!) { game(pgn: $p) { result plies { san } } }';
const FAIRY =
  '{ shortestPaths(query: { piece: FAIRY, betza: "nDnA", board: { files: 10, ranks: 10 }, from: ["a1"], to: ["j10"] }) { distance } }';
const KING = '{ shortestPaths(query: { piece: KING, from: ["b2"], to: ["g7"] }) { distance } }';

let t: TestServer;
beforeAll(async () => {
  const env = Object.fromEntries(Object.values(BOUNDS).map(([name, bytes]) => [name, String(bytes)]));
  t = await startTestServer({ database: false, env, deps: { workers: false } });
});
afterAll(async () => {
  await t?.close();
});

const size = async (cache: string) => ({
  entries: await t.metric('chess_paths_cache_entries', { cache }),
  bytes: await t.metric('chess_paths_cache_bytes', { cache }),
  maxBytes: await t.metric('chess_paths_cache_max_bytes', { cache }),
});

/** POSTs `query` as the raw JSON text `body`, so that the same text comes in again. */
const post = async (body: string) => {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
};

describe('cache gauges on /metrics', () => {
  it("show every cache's bound, its setting", async () => {
    for (const [cache, [, bytes]] of Object.entries(BOUNDS)) expect((await size(cache)).maxBytes, cache).toBe(bytes);
  });

  it('grow once a game is read, and stay within the bound', async () => {
    const before = await size('games');
    const { body } = await t.gql(GAME, { p: PGN });
    expect(body.data?.game.plies).toHaveLength(6);
    const after = await size('games');
    expect(after.entries).toBe(before.entries + 1);
    // Six plies with their SAN, UCI and FEN, seven tags' worth of text: a few kilobytes.
    expect(after.bytes - before.bytes).toBeGreaterThan(2000);
    expect(after.bytes).toBeLessThanOrEqual(after.maxBytes);
  });

  it('grow once questions are asked and asked again: results, prepared inputs, documents, shapes, responses', async () => {
    const names = ['hot_results', 'prepared_queries', 'documents', 'shapes', 'responses'];
    const before = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await size(n)] as const)));
    const body = JSON.stringify({ query: KING });
    for (let i = 0; i < 3; i++) expect((await post(body)).data).toEqual({ shortestPaths: { distance: 5 } });
    for (const name of names) {
      const after = await size(name);
      expect(after.entries, name).toBeGreaterThan(before[name].entries);
      expect(after.bytes, name).toBeGreaterThan(before[name].bytes);
      expect(after.bytes, name).toBeLessThanOrEqual(after.maxBytes);
    }
  });

  it("grow once the engine reads a Betza text and builds a board's tables (the main thread's)", async () => {
    const betza = await size('betza');
    const boards = await size('boards');
    expect((await post(JSON.stringify({ query: FAIRY }))).errors).toBeUndefined();
    expect((await size('betza')).bytes).toBeGreaterThan(betza.bytes);
    expect((await size('boards')).bytes).toBeGreaterThan(boards.bytes);
  });
});

/**
 * The result cache's policy (`src/graphql/caching/cache-policy.ts`), in-process and over HTTP
 * against a real SQLite store: a cheap result is written on its question's second ask (so
 * `cached` is true from its third), a costly one at once (a large board, a long answer), one a
 * saved analysis refers to at once (a save counts as an ask); a key never written is not looked
 * up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CachePolicy, COSTLY_SQUARES, COSTLY_WORK } from '../../../src/graphql/caching/cache-policy.js';
import type { ResultCache } from '../../../src/store/types.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const q8 = (key: string) => ({ key, board: { files: 8, ranks: 8 } });
const cache = (mayHold?: (key: string) => boolean, exactKeys = true): ResultCache => ({
  getMany: async () => [],
  putMany: async () => {},
  ...(mayHold ? { mayHold, exactKeys } : {}),
});

describe('CachePolicy', () => {
  it('knows a second ask, without keeping the first', () => {
    const policy = new CachePolicy(1 << 16);
    expect(policy.ask('a')).toBe(false);
    expect(policy.ask('b')).toBe(false);
    expect(policy.ask('a')).toBe(true);
    expect(policy.ask('a')).toBe(true);
  });

  it('keeps a cheap result from its second ask, a costly or pinned one at once', () => {
    const policy = new CachePolicy(1 << 16);
    expect(policy.keep(q8('k'), 6, false, false)).toBe(false);
    expect(policy.keep(q8('k'), 6, true, false)).toBe(true);
    expect(policy.keep(q8('k'), 6, false, true)).toBe(true);
    // An 8 x 8 answer is never costly: 64 squares x at most 64 steps.
    expect(policy.keep(q8('k'), 63, false, false)).toBe(false);
    expect(64 * 64).toBeLessThan(COSTLY_WORK);
    const side = Math.floor(Math.sqrt(COSTLY_SQUARES));
    expect(policy.keep({ key: 'k', board: { files: side, ranks: side } }, 1, false, false)).toBe(false);
    expect(policy.keep({ key: 'k', board: { files: side + 1, ranks: side + 1 } }, 1, false, false)).toBe(true);
    // A long answer on a smaller board (a maze): 16 x 16 squares x 64 steps.
    const b16 = { key: 'k', board: { files: 16, ranks: 16 } };
    expect(policy.keep(b16, COSTLY_WORK / 256 - 1, false, false)).toBe(true);
    expect(policy.keep(b16, COSTLY_WORK / 256 - 2, false, false)).toBe(false);
    expect(policy.keep(b16, null, false, false)).toBe(false);
  });

  it('looks up a key unless the store says it never wrote it (costly ones too on PostgreSQL)', () => {
    const policy = new CachePolicy(1 << 16);
    const large = { key: 'k', board: { files: 32, ranks: 32 } };
    expect(policy.lookUp(cache(), q8('k'))).toBe(true);
    expect(
      policy.lookUp(
        cache(() => true),
        q8('k'),
      ),
    ).toBe(true);
    expect(
      policy.lookUp(
        cache(() => false),
        q8('k'),
      ),
    ).toBe(false);
    expect(
      policy.lookUp(
        cache(() => false),
        large,
      ),
    ).toBe(false);
    // Not exact (PostgreSQL: other replicas write): a costly question is looked up anyway.
    expect(
      policy.lookUp(
        cache(() => false, false),
        q8('k'),
      ),
    ).toBe(false);
    expect(
      policy.lookUp(
        cache(() => false, false),
        large,
      ),
    ).toBe(true);
  });
});

describe('over HTTP, on SQLite', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });
  const ask = async (query: string) => {
    const res = await t.gql(`{ shortestPaths(query: ${query}) { distance cached } }`);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.shortestPaths as { distance: number; cached: boolean };
  };
  const askCached = async (query: string) => {
    const answer = await ask(query);
    await t.server.settle();
    return answer.cached;
  };

  it('cheap: cached from the third ask; a key never written is not looked up', async () => {
    const query = '{ piece: QUEEN, from: ["b2"], to: ["g5"] }';
    const skipped = await t.metric('chess_paths_cache_lookups_skipped_total');
    const misses = await t.metric('chess_paths_cache_misses_total');
    expect([await askCached(query), await askCached(query), await askCached(query)]).toEqual([false, false, true]);
    expect(await t.metric('chess_paths_cache_lookups_skipped_total')).toBe(skipped + 2);
    expect(await t.metric('chess_paths_cache_misses_total')).toBe(misses + 2);
  });

  it('costly: a board of more than 512 squares is written at once, cached from the second ask', async () => {
    const query = '{ piece: KNIGHT, board: { files: 24, ranks: 24 }, from: ["a1"], to: ["x24"] }';
    expect([await askCached(query), await askCached(query)]).toEqual([false, true]);
  });

  it('costly: a long answer on a small board (a 16 x 16 snake, distance over 63) is written at once', async () => {
    // Every other rank open, joined at alternate ends: a king walks some 120 steps.
    const blocked: string[] = [];
    const files = 'abcdefghijklmnop';
    for (let rank = 2; rank <= 16; rank += 2) {
      const open = rank % 4 === 2 ? 'p' : 'a';
      for (const f of files) if (f !== open) blocked.push(`${f}${rank}`);
    }
    const query = `{ piece: KING, board: { files: 16, ranks: 16 }, from: ["a1"], to: ["p15"], blocked: ${JSON.stringify(blocked)} }`;
    const first = await ask(query);
    expect(first.distance).toBeGreaterThan(COSTLY_WORK / 256);
    await t.server.settle();
    expect(await askCached(query)).toBe(true);
  });

  it("a saved analysis's results are written on their first ask, and a save counts as an ask", async () => {
    const rook = { piece: 'ROOK', from: ['c2'], to: ['f7'] };
    const bishop = { piece: 'BISHOP', from: ['c2'], to: ['g6'] };
    const saved = await t.gql('mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { analysis { id } } }', {
      i: { title: 'policy', queries: [rook] },
    });
    expect(saved.body.errors).toBeUndefined();
    const id = saved.body.data.saveAnalysis.analysis.id;
    const read = async () => {
      const res = await t.gql('query($id: ID!) { analysis(id: $id) { results { cached } } }', { id });
      expect(res.body.errors).toBeUndefined();
      await t.server.settle();
      return res.body.data.analysis.results[0].cached as boolean;
    };
    expect([await read(), await read()]).toEqual([false, true]);
    // The bishop, saved without its results being read: its next ask is its second.
    const other = await t.gql('mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken } }', {
      i: { title: 'policy 2', queries: [bishop] },
    });
    expect(other.body.errors).toBeUndefined();
    const query = '{ piece: BISHOP, from: ["c2"], to: ["g6"] }';
    expect([await askCached(query), await askCached(query)]).toEqual([false, true]);
  });
});

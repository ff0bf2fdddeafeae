/**
 * Path questions never wait on a database that does not answer: a cache lookup that hangs (a
 * PostgreSQL server stopped mid-connection) is given up after CACHE_READ_WAIT_MS and the question
 * solved, counted as a cache error; once the store says reads fail too, it refuses them at once.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/types.js';
import { startTestServer, sumMetric } from '../../support/test-server.js';

const SEED = '{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) { distance cached } }';

/** A store whose every cache lookup hangs, and counts itself. */
function hungStore(): { store: Store; lookups: () => number } {
  let lookups = 0;
  const never = () => {
    throw new Error('not used');
  };
  const store: Store = {
    cache: {
      getMany: () => {
        lookups++;
        return new Promise(() => undefined);
      },
      putMany: async () => undefined,
    },
    analyses: { save: never, get: never, list: never, update: never, delete: never, authorize: never },
    healthy: async () => false,
    close: async () => undefined,
  };
  return { store, lookups: () => lookups };
}

describe('a cache lookup that never answers', () => {
  it('is given up after CACHE_READ_WAIT_MS: the question is solved and answered', async () => {
    const { store, lookups } = hungStore();
    const t = await startTestServer({ env: { CACHE_READ_WAIT_MS: '50' }, deps: { openStore: async () => store } });
    try {
      const res = await t.gql(SEED);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.shortestPaths).toEqual({ distance: 4, cached: false });
      expect(lookups()).toBe(1);
      const metrics = await (await fetch(`${t.url}/metrics`)).text();
      expect(sumMetric(metrics, 'chess_paths_cache_errors_total', { operation: 'get' })).toBe(1);
    } finally {
      await t.close();
    }
  });
});

/**
 * The background cache writer: one write at a time, results arriving meanwhile coalesced into the
 * next write, the queue bounded (oldest dropped and counted), failures logged, `idle()` waiting
 * for everything.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { solve } from '../../src/engine/index.js';
import type { PathResult } from '../../src/engine/types.js';
import { CacheWriter } from '../../src/graphql/cache-writer.js';
import { createMetrics } from '../../src/observability/metrics.js';
import type { Store, StoredResult } from '../../src/store/types.js';
import { sumMetric } from '../support/test-server.js';

/** Target square of each result written, by key. */
const names = new Map<string, string>();
const result = (to: string): PathResult => {
  const solved = solve({ piece: 'KING', from: ['a1'], to: [to] });
  names.set(solved.key, to);
  return solved;
};

function storeDouble(fail = false) {
  const writes: string[][] = [];
  const store = {
    cache: {
      getMany: async () => [],
      async putMany(rows: readonly StoredResult[]) {
        await new Promise((r) => setTimeout(r, 20));
        if (fail) throw new Error('disk full');
        writes.push(rows.map((row) => names.get(row.key) as string));
      },
    },
  } as unknown as Store;
  return { store, writes };
}

describe('CacheWriter', () => {
  it('writes one batch at a time and coalesces what arrives meanwhile', async () => {
    const { store, writes } = storeDouble();
    const writer = new CacheWriter({
      store: () => store,
      metrics: createMetrics(),
      logger: pino({ level: 'silent' }),
      maxPending: 100,
    });
    writer.enqueue([result('b2')]);
    await new Promise((r) => setTimeout(r, 5)); // the first write is running
    writer.enqueue([result('c3')]);
    writer.enqueue([result('d4'), result('e5')]);
    await writer.idle();
    expect(writes).toEqual([['b2'], ['c3', 'd4', 'e5']]);
  });

  it('drops the oldest waiting results past the bound, and counts them', async () => {
    const { store, writes } = storeDouble();
    const metrics = createMetrics();
    const writer = new CacheWriter({ store: () => store, metrics, logger: pino({ level: 'silent' }), maxPending: 2 });
    writer.enqueue([result('b2'), result('c3'), result('d4')]);
    await writer.idle();
    expect(writes).toEqual([['c3', 'd4']]);
    expect(
      sumMetric(await metrics.registry.metrics(), 'chess_paths_cache_errors_total', { operation: 'dropped' }),
    ).toBe(1);
  });

  it('logs and counts a failed write, and does nothing without a store', async () => {
    const { store } = storeDouble(true);
    const metrics = createMetrics();
    const writer = new CacheWriter({ store: () => store, metrics, logger: pino({ level: 'silent' }), maxPending: 10 });
    writer.enqueue([result('b2')]);
    await writer.idle();
    expect(sumMetric(await metrics.registry.metrics(), 'chess_paths_cache_errors_total', { operation: 'put' })).toBe(1);
    const none = new CacheWriter({
      store: () => undefined,
      metrics,
      logger: pino({ level: 'silent' }),
      maxPending: 10,
    });
    none.enqueue([result('b2')]);
    await none.idle();
  });
});

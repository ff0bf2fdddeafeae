/**
 * The engine's caches in a worker thread (`src/graphql/work/worker.ts`): each worker applies the
 * bounds the pool hands it as `workerData` (`EnginePool`'s `engineCacheBytes`, the server's
 * BETZA_CACHE_BYTES and BOARD_CACHE_BYTES), and without them keeps the engine's defaults.
 */
import { fileURLToPath } from 'node:url';
import { DEFAULT_ENGINE_CACHE_BYTES, type EngineCacheSize } from '@chess-paths/engine';
import { Piscina } from 'piscina';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerData } from '../../../src/graphql/work/pool.js';

const filename = fileURLToPath(new URL('../../support/engine-cache-worker.mjs', import.meta.url));
const pools: Piscina[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.destroy();
});

/** The engine cache sizes of a worker started with `workerData`. */
async function sizesIn(workerData: WorkerData): Promise<Record<string, EngineCacheSize>> {
  const pool = new Piscina({ filename, minThreads: 1, maxThreads: 1, workerData });
  pools.push(pool);
  return pool.run(null);
}

describe('a worker thread', () => {
  it("bounds the engine's caches by the pool's setting", async () => {
    const sizes = await sizesIn({ engineCacheBytes: { betza: 123_456, boards: 0 } });
    expect(sizes.betza.maxBytes).toBe(123_456);
    expect(sizes.boards.maxBytes).toBe(0);
  });

  it("keeps the engine's defaults without one", async () => {
    const sizes = await sizesIn({});
    expect(sizes.betza.maxBytes).toBe(DEFAULT_ENGINE_CACHE_BYTES.betza);
    expect(sizes.boards.maxBytes).toBe(DEFAULT_ENGINE_CACHE_BYTES.boards);
  });
});

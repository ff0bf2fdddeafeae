/**
 * The filter of written keys (`src/store/written-keys.ts`): a fingerprint set with no false
 * negatives and few false positives; in a store, on SQLite and on PostgreSQL, loaded at open from
 * the table (so it survives a restart), fed by every write; on PostgreSQL it reads what another
 * store on the same database wrote within about a second.
 */
import { randomBytes } from 'node:crypto';
import { prepareQuery, solve } from '@chess-paths/engine';
import { describe, expect, it, vi } from 'vitest';
import type { StoredResult } from '../../src/store/types.js';
import { FingerprintSet } from '../../src/store/written-keys.js';
import { describeEachDatabase } from '../support/postgres.js';
import { useCacheFixture } from '../support/result-cache-fixture.js';
import { bytesFrom } from '../support/store-fixtures.js';

const hexKey = () => randomBytes(32).toString('hex');

describe('FingerprintSet', () => {
  it('holds every key added, growing as it fills, and takes few others for held', () => {
    const set = new FingerprintSet();
    const keys = Array.from({ length: 100_000 }, hexKey);
    for (const key of keys) set.add(key);
    for (const key of keys) set.add(key);
    expect(keys.every((key) => set.has(key))).toBe(true);
    expect(set.size).toBeGreaterThan(99_990); // equal fingerprints count once
    expect(set.bytes).toBeLessThanOrEqual(8 * 2 ** Math.ceil(Math.log2(set.size)));
    let held = 0;
    for (let i = 0; i < 100_000; i++) if (set.has(hexKey())) held++;
    // 100,000 fingerprints of 32 bits: about 2 in a million.
    expect(held).toBeLessThan(10);
  });
});

function row(to: string): StoredResult {
  const query = { piece: 'KNIGHT' as const, from: ['a1'], to: [to] };
  const { key, problem } = prepareQuery(query);
  return { key, problem, distance: solve(query).distance, layers: bytesFrom(key, 20), pathCount: undefined };
}

describeEachDatabase('the filter of written keys', (database) => {
  const { openCache } = useCacheFixture(database);
  const sqlite = database.dialect === 'sqlite';

  it('is loaded at open, fed by writes, and loaded again from the table after a restart', async () => {
    const [a, b, c] = [row('c3'), row('h8'), row('e4')];
    const first = await openCache();
    const cache = first.store.cache;
    await vi.waitFor(() => expect(cache.mayHold?.(a.key)).toBe(false));
    expect(cache.exactKeys).toBe(sqlite);
    await cache.putMany([a, b]);
    expect([cache.mayHold?.(a.key), cache.mayHold?.(b.key), cache.mayHold?.(c.key)]).toEqual([true, true, false]);
    expect(cache.writtenKeysSize?.().entries).toBe(2);
    await first.store.close();

    const second = await openCache();
    await vi.waitFor(() => expect(second.store.cache.mayHold?.(c.key)).toBe(false));
    expect([second.store.cache.mayHold?.(a.key), second.store.cache.mayHold?.(b.key)]).toEqual([true, true]);
  });

  it.skipIf(sqlite)("reads another replica's writes within a few seconds", async () => {
    const a = row('d5');
    const one = await openCache();
    const two = await openCache();
    await vi.waitFor(() => expect(two.store.cache.mayHold?.(a.key)).toBe(false));
    await one.store.cache.putMany([a]);
    await vi.waitFor(() => expect(two.store.cache.mayHold?.(a.key)).toBe(true), { timeout: 5000, interval: 50 });
  });
});

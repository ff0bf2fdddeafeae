/**
 * The background cache writer: one write at a time, results arriving meanwhile coalesced into the
 * next write, results gathered before a write (but written at once when a write's worth waits, a
 * reader asks for one of them, or shutdown flushes), the queue bounded (oldest dropped and
 * counted), failures logged, `idle()` waiting for everything.
 */

import { type PathResult, solve } from '@chess-paths/engine';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { CacheWriter } from '../../../src/graphql/caching/cache-writer.js';
import { createMetrics } from '../../../src/observability/metrics.js';
import type { Store, StoredResult } from '../../../src/store/types.js';
import { sumMetric } from '../../support/test-server.js';

/** Target square of each result written, by key. */
const names = new Map<string, string>();
const result = (to: string): PathResult => {
  const solved = solve({ piece: 'KING', from: ['a1'], to: [to] });
  names.set(solved.key, to);
  return solved;
};

/**
 * A store whose writes record the targets they hold (and how many run at once). `writing`
 * resolves once a write has begun; with `hold`, writes do not end before `finish()`.
 */
function storeDouble(fail = false, hold = false) {
  const writes: string[][] = [];
  let begun: () => void = () => {};
  const writing = new Promise<void>((resolve) => {
    begun = resolve;
  });
  let finish: () => void = () => {};
  const finished = hold
    ? new Promise<void>((resolve) => {
        finish = resolve;
      })
    : Promise.resolve();
  /** Writes running now, and the most at once. */
  const running = { now: 0, most: 0 };
  const store = {
    cache: {
      getMany: async () => [],
      async putMany(rows: readonly StoredResult[]) {
        running.most = Math.max(running.most, ++running.now);
        begun();
        await finished;
        running.now--;
        if (fail) throw new Error('disk full');
        writes.push(rows.map((row) => names.get(row.key) as string));
      },
    },
  } as unknown as Store;
  return { store, writes, writing, finish, running };
}

describe('CacheWriter', () => {
  it('writes one batch at a time and coalesces what arrives meanwhile', async () => {
    const { store, writes, writing, finish, running } = storeDouble(false, true);
    const writer = new CacheWriter({
      store: () => store,
      metrics: createMetrics(),
      logger: pino({ level: 'silent' }),
      maxPending: 100,
    });
    writer.enqueue([result('b2')]);
    await writing; // the first write is running
    writer.enqueue([result('c3')]);
    writer.enqueue([result('d4'), result('e5')]);
    // The turn in which a second write would begin (a drain waits one), before the first ends.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    finish();
    await writer.idle();
    expect(writes).toEqual([['b2'], ['c3', 'd4', 'e5']]);
    expect(running.most).toBe(1);
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

  /**
   * A writer over `store` that gathers for ten minutes once results keep coming: then only a
   * write's worth waiting, a reader or a flush makes it write (a test that waits for the gathering
   * fails by its own timeout).
   */
  const gathering = (store: Store, maxPending = 1000) =>
    new CacheWriter({
      store: () => store,
      metrics: createMetrics(),
      logger: pino({ level: 'silent' }),
      maxPending,
      gatherMs: 600_000,
    });
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('writes the first results after a quiet spell at once, then gathers while results keep coming', async () => {
    const { store, writes } = storeDouble();
    const writer = gathering(store);
    writer.enqueue([result('a1')]);
    await writer.idle(); // would take the gathering time if the first write gathered
    expect(writes).toEqual([['a1']]);
    writer.enqueue([result('c3')]);
    await turn();
    await turn();
    const b2 = result('b2');
    writer.enqueue([b2]);
    expect(writer.written([result('d4').key])).toBeUndefined(); // never queued
    expect(writes).toEqual([['a1']]);
    // Asked for again: written at once, ahead of what was queued before it, with it.
    const waiting = writer.written([b2.key]);
    expect(waiting).toBeInstanceOf(Promise);
    await waiting;
    expect(writes).toEqual([['a1'], ['b2', 'c3']]);
    expect(writer.written([b2.key])).toBeUndefined();
    await writer.idle();
  });

  it('a reader of a result being written waits for that write to end', async () => {
    const { store, writes, writing, finish } = storeDouble(false, true);
    const writer = gathering(store);
    const b2 = result('b2');
    writer.enqueue([b2]);
    const first = writer.written([b2.key]) as Promise<void>;
    await writing;
    // Asked again while its write runs: it still waits to be written.
    const second = writer.written([b2.key]) as Promise<void>;
    expect(second).toBeInstanceOf(Promise);
    let settled = false;
    void second.then(() => {
      settled = true;
    });
    await turn();
    expect(settled).toBe(false);
    finish();
    await Promise.all([first, second]);
    expect(writes).toEqual([['b2']]);
  });

  it('writes without gathering when a write of results is waiting, and at shutdown', async () => {
    const { store, writes } = storeDouble();
    const writer = gathering(store);
    const hundred = Array.from({ length: 100 }, (_, i) => result(`${'abcdefgh'[i % 8]}${1 + (Math.floor(i / 8) % 8)}`));
    writer.enqueue([result('a1')]);
    await writer.idle(); // the first write: at once
    // Results keep coming: gathered, until a write's worth is waiting.
    writer.enqueue(hundred.slice(0, 60));
    await turn();
    await turn();
    writer.enqueue(hundred.slice(60));
    await writer.idle(); // would take the gathering time without the full write
    expect(writes.map((w) => w.length)).toEqual([1, 100]);
    writer.enqueue([result('b2')]);
    await writer.flush(); // would take the gathering time if shutdown did not end it
    expect(writes.map((w) => w.length)).toEqual([1, 100, 1]);
  });

  it("a write's worth is the queue's bound when that is under a hundred: nothing is dropped while gathering", async () => {
    const { store, writes } = storeDouble();
    const writer = gathering(store, 5);
    writer.enqueue([result('a1')]);
    await writer.idle();
    writer.enqueue([result('b2'), result('c3'), result('d4')]);
    await turn();
    writer.enqueue([result('e5'), result('f6')]);
    await writer.idle(); // would take the gathering time, and drop the oldest past five
    expect(writes).toEqual([['a1'], ['b2', 'c3', 'd4', 'e5', 'f6']]);
  });

  it('a reader goes on when its result fails to be written, is dropped, or is dropped at shutdown', async () => {
    const failing = storeDouble(true);
    const writer = gathering(failing.store);
    const b2 = result('b2');
    writer.enqueue([b2]);
    await writer.written([b2.key]);
    expect(writer.written([b2.key])).toBeUndefined();

    // Dropped past the queue's bound while its reader waits (behind a write that has not ended).
    const held = storeDouble(false, true);
    const small = gathering(held.store, 2);
    small.enqueue([result('a1')]);
    await held.writing;
    const c3 = result('c3');
    small.enqueue([c3]);
    let settled = false;
    void (small.written([c3.key]) as Promise<void>).then(() => {
      settled = true;
    });
    small.enqueue([result('d4'), result('e5')]);
    await turn();
    expect(settled).toBe(true);
    // Dropped at shutdown while its reader waits.
    const f6 = result('f6');
    small.enqueue([f6]);
    settled = false;
    void (small.written([f6.key]) as Promise<void>).then(() => {
      settled = true;
    });
    const flushed = small.flush(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await turn();
    expect(settled).toBe(true);
    held.finish();
    await flushed;
    expect(held.writes).toEqual([['a1']]);
  });

  it('a reader of a result being written does not hurry the writes after it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
    try {
      const { store, writes, writing, finish } = storeDouble(false, true);
      const writer = gathering(store);
      const a1 = result('a1');
      writer.enqueue([a1]);
      await vi.advanceTimersByTimeAsync(0);
      await writing;
      const b2 = result('b2');
      writer.enqueue([b2]);
      const waiting = writer.written([a1.key]) as Promise<void>;
      await vi.advanceTimersByTimeAsync(10);
      finish();
      await waiting;
      await vi.advanceTimersByTimeAsync(1000); // past the rest, far within the gathering
      expect(writes).toEqual([['a1']]);
      expect(writer.written([b2.key])).toBeInstanceOf(Promise);
      await writer.flush();
      expect(writes).toEqual([['a1'], ['b2']]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('rests after a write for as long as it took, even when a write of results is waiting', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
    try {
      const { store, writes, writing, finish } = storeDouble(false, true);
      const writer = gathering(store);
      const squares = (rank: number) => Array.from({ length: 100 }, (_, i) => result(`${'abcdefgh'[i % 8]}${rank}`));
      writer.enqueue(squares(2));
      await vi.advanceTimersByTimeAsync(0);
      await writing;
      writer.enqueue(squares(3));
      await vi.advanceTimersByTimeAsync(400); // the first write takes 400 ms
      finish();
      await vi.advanceTimersByTimeAsync(100); // resting since the write ended
      writer.enqueue(squares(4));
      await vi.advanceTimersByTimeAsync(250);
      expect(writes.map((w) => w.length)).toEqual([100]); // still resting
      await vi.advanceTimersByTimeAsync(100);
      // The rest over, both waiting writes (the second took no time, so no rest).
      expect(writes.map((w) => w.length)).toEqual([100, 100, 100]);
      await writer.idle();
    } finally {
      vi.useRealTimers();
    }
  });
});

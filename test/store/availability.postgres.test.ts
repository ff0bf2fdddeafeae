/**
 * PostgreSQL going away and coming back, without touching the machine's server: the store talks
 * to it through a small TCP proxy in this process, and the test cuts the proxy (every connection
 * destroyed, no new one accepted) and opens it again. While it is cut, analyses and cache
 * operations reject with `DatabaseUnavailableError` (SERVICE_UNAVAILABLE) within a bounded time,
 * never hanging, and `healthy()` is false; once it is back, the same store recovers by itself
 * (its pool makes new connections; a write is let through again after `retryMs`). Also: the pool
 * is bounded (`poolSize`), so a burst of operations queues on it rather than opening more
 * connections, and opening a store on a server that does not answer fails within the connect
 * timeout instead of hanging.
 *
 * The breaker's windows (`retryMs`, `healthFreshMs`) run on a clock the test moves (`now`), so
 * "not yet" and "now due" do not depend on how fast the machine is. The connect timeout, and how
 * long a transaction may wait to start and run, are long (30 s): a burst queued on the pool never
 * fails as busy on a loaded machine, and the bounds on "fails, never hangs" can be generous
 * (10 s) and still tell a quick failure from one that waited a timeout out.
 */
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, type OpenedStore, openStore, type StoreOptions } from '../../src/store/index.js';
import { createTestDatabase, skipPostgres, type TestDatabase } from '../support/postgres.js';
import { questionOf, recordingLogger, syntheticResult } from '../support/store-fixtures.js';
import { TcpProxy } from '../support/tcp-proxy.js';

/** The connect timeout of the stores `openThrough` opens (`busyTimeoutMs`), ms. */
const CONNECT_TIMEOUT_MS = 30_000;
/**
 * Longest time an operation on a cut server may take to fail: generous for a loaded machine (it
 * normally fails in a few ms), yet below the 15 s query timeout and the 30 s connect timeout an
 * operation that hung on the wire or waited for the server would run into.
 */
const FAILS_WITHIN_MS = 10_000;

/** How long `promise` takes to settle, and how. */
async function timed<T>(promise: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await promise;
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

describe.skipIf(skipPostgres)('PostgreSQL availability through a proxy', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  const open: OpenedStore[] = [];
  /** The stores' clock, ms: it moves only when a test advances it. */
  let clock = 0;

  beforeEach(async () => {
    db = await createTestDatabase();
    proxy = new TcpProxy();
    await proxy.open();
  });
  afterEach(async () => {
    await proxy.cut();
    // Closing a store whose connections were cut must not hang either.
    for (const store of open.splice(0)) await store.close();
    await db.drop();
  });

  async function openThrough(options: Partial<StoreOptions> = {}, healthFreshMs = 100): Promise<OpenedStore> {
    const store = await openStore(
      {
        databaseUrl: proxy.url(db.url),
        maxCacheBytes: 1 << 20,
        maxAnalysisBytes: 1 << 20,
        maxAnalysesBytes: 0,
        retryMs: 200,
        busyTimeoutMs: CONNECT_TIMEOUT_MS,
        ...options,
      },
      {
        logger: recordingLogger(),
        healthFreshMs,
        now: () => clock,
        // A burst queued on the pool waits as long as a loaded machine makes it, not Prisma's 2 s.
        transactionOptions: { maxWait: CONNECT_TIMEOUT_MS, timeout: CONNECT_TIMEOUT_MS },
      },
    );
    open.push(store);
    return store;
  }

  /**
   * Rejects with DatabaseUnavailableError, code SERVICE_UNAVAILABLE, within `FAILS_WITHIN_MS`:
   * `tried`, the database was asked (the driver's error is the cause), or `refused` by the
   * breaker itself, without a round trip (no driver error behind it).
   */
  async function expectUnavailable(operation: Promise<unknown>, how: 'tried' | 'refused'): Promise<void> {
    const { ms: took, error } = await timed(operation);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect((error as DatabaseUnavailableError).code).toBe('SERVICE_UNAVAILABLE');
    if (how === 'tried') expect((error as Error).cause).toBeDefined();
    else expect((error as Error).cause).toBeUndefined();
    expect(took).toBeLessThan(FAILS_WITHIN_MS);
  }

  it('a cut server: every operation fails as unavailable within a bounded time; restored: the same store recovers', async () => {
    const store = await openThrough();
    const { analysis, editToken } = await store.analyses.save({ title: 'before', queries: [], resultKeys: [] });
    const row = syntheticResult(1, 100);
    await store.cache.putMany([row]);
    expect(await store.healthy()).toBe(true);

    await proxy.cut();
    await expectUnavailable(store.analyses.save({ title: 'during', queries: [], resultKeys: [] }), 'tried');
    expect(store.unavailableReason?.()).toEqual(expect.any(String));
    // A read is tried while only writes fail; once one fails too, reads are refused at once like
    // writes until a trial is due (a path question's cache lookup does not wait for a connection).
    await expectUnavailable(store.analyses.get(analysis.id), 'tried');
    await expectUnavailable(store.analyses.list({ first: 5 }), 'refused');
    await expectUnavailable(store.cache.getMany([questionOf(row)]), 'refused');
    clock += 199;
    await expectUnavailable(store.analyses.update(analysis.id, editToken, { title: 'during' }), 'refused');
    await expectUnavailable(store.analyses.delete(analysis.id, editToken), 'refused');
    await expectUnavailable(store.cache.putMany([syntheticResult(2, 100)]), 'refused');
    const health = await timed(store.healthy());
    expect(health.value).toBe(false);
    expect(health.ms).toBeLessThan(FAILS_WITHIN_MS);
    clock += 1; // retryMs: the next write is a trial, and it fails again
    await expectUnavailable(store.analyses.save({ title: 'during', queries: [], resultKeys: [] }), 'tried');

    await proxy.open();
    // Writes stay refused until retryMs has passed since the last trial (though the server would
    // take them now); then one goes through.
    clock += 199;
    await expectUnavailable(store.analyses.save({ title: 'too soon', queries: [], resultKeys: [] }), 'refused');
    await expectUnavailable(store.analyses.update(analysis.id, editToken, { title: 'too soon' }), 'refused');
    await expectUnavailable(store.analyses.delete(analysis.id, editToken), 'refused');
    clock += 1;
    const saved = await store.analyses.save({ title: 'after', queries: [], resultKeys: [] });
    expect(saved.analysis.title).toBe('after');
    expect(store.unavailableReason?.()).toBeUndefined();
    expect(await store.healthy()).toBe(true);
    // Nothing written while it was cut; everything before and after is there.
    expect((await store.analyses.get(analysis.id))?.title).toBe('before');
    expect((await store.analyses.list({ first: 10 })).edges.map((e) => e.node.title).sort()).toEqual([
      'after',
      'before',
    ]);
    expect((await store.cache.getMany([questionOf(row)]))[0]?.key).toBe(row.key);
  });

  it('healthy() turns true by itself after the server comes back, one trial per retry interval', async () => {
    const store = await openThrough({ retryMs: 200 }, 50);
    expect(await store.healthy()).toBe(true);
    await proxy.cut();
    clock += 50; // healthFreshMs: health must be earned by a new write
    expect(await store.healthy()).toBe(false);
    await proxy.open();
    clock += 199;
    expect(await store.healthy()).toBe(false); // no trial before retryMs, though the server is back
    clock += 1;
    expect(await store.healthy()).toBe(true);
    expect(store.unavailableReason?.()).toBeUndefined();
  });

  it('operations in flight when the server goes away all settle, saved or unavailable, none hanging', async () => {
    const store = await openThrough();
    let settled = 0;
    type Cut = { at: number; settled: number; done: Promise<void> };
    let onCut!: (cut: Cut) => void;
    const cutting = new Promise<Cut>((resolve) => {
      onCut = resolve;
    });
    const work = Array.from({ length: 400 }, (_, i) =>
      (i % 4 === 3
        ? store.analyses.list({ first: 3 })
        : store.analyses.save({ title: `t${i}`, notes: 'x'.repeat(1000), queries: [], resultKeys: [] })
      ).finally(() => {
        // Cut while the burst is under way, as the 20th operation settles (cut() destroys every
        // connection before it returns): some operations done, others on the wire or queued.
        if (++settled === 20) onCut({ at: performance.now(), settled, done: proxy.cut() });
      }),
    );
    const cut = await cutting;
    await cut.done;
    expect(cut.settled).toBeLessThan(work.length);
    const outcomes = await Promise.allSettled(work);
    expect(performance.now() - cut.at).toBeLessThan(FAILS_WITHIN_MS);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(DatabaseUnavailableError);
    }
    expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBeGreaterThanOrEqual(20);
    expect(outcomes.some((o) => o.status === 'rejected')).toBe(true);

    // Every acknowledged save is stored, once the server is back.
    await proxy.open();
    clock += 200; // retryMs: the next write is a trial
    await store.analyses.save({ title: 'after', queries: [], resultKeys: [] });
    const saves = outcomes.filter((_, i) => i % 4 !== 3);
    const acknowledged = saves.filter((o) => o.status === 'fulfilled').length;
    const { totalCount } = await store.analyses.list({ first: 1 });
    // A save whose COMMIT reached the server just before the cut may be stored although it was
    // reported unavailable: the count may exceed the acknowledged saves, never fall short.
    expect(totalCount).toBeGreaterThanOrEqual(acknowledged + 1);
    expect(totalCount).toBeLessThanOrEqual(saves.length + 1);
  });

  it('a pool of 2: a burst of 60 operations all complete, queued on at most 2 connections', async () => {
    const store = await openThrough({ poolSize: 2 });
    const { analysis, editToken } = await store.analyses.save({ title: 'pool', queries: [], resultKeys: [] });
    proxy.peak = proxy.clients(); // the migrator's connection is closed by now
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 15; i++) {
      work.push(store.analyses.save({ title: `burst ${i}`, queries: [], resultKeys: [] }));
      work.push(store.analyses.update(analysis.id, editToken, { notes: `n${i}` }));
      work.push(store.analyses.list({ first: 5 }));
      work.push(store.cache.putMany([syntheticResult(i, 200)]));
    }
    await Promise.all(work);
    expect(proxy.peak).toBe(2);
    expect(await store.totals()).toMatchObject({ analysisRows: 16, cacheRows: 15 });
    expect((await store.analyses.get(analysis.id))?.version).toBe(16);
  });

  it('opening a store on a server that refuses connections fails at once, not hanging', async () => {
    await proxy.cut();
    const { ms, error } = await timed(openThrough());
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toMatch(/ECONNREFUSED/);
    expect(ms).toBeLessThan(FAILS_WITHIN_MS); // at once: it did not wait out the 30 s connect timeout
  });

  it('opening a store on a server that accepts but never answers fails within the connect timeout', async () => {
    // A listener that takes connections and says nothing, as a hung server or a black hole.
    const silent = createServer(() => undefined);
    const held: Socket[] = [];
    silent.on('connection', (socket) => held.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const port = (silent.address() as { port: number }).port;
    try {
      const url = new URL(db.url);
      url.port = String(port);
      const { ms, error } = await timed(
        openStore(
          {
            databaseUrl: url.toString(),
            maxCacheBytes: 0,
            maxAnalysisBytes: 1 << 20,
            maxAnalysesBytes: 0,
            busyTimeoutMs: 1000,
          },
          { logger: recordingLogger() },
        ),
      );
      expect(error).toBeInstanceOf(Error);
      expect(String(error)).toMatch(/timeout/i);
      // The migrator waits max(busyTimeoutMs, 5000) ms for its connection, once: less than two
      // such waits, however late a loaded machine fires the timer.
      expect(ms).toBeGreaterThanOrEqual(4500);
      expect(ms).toBeLessThan(2 * 5000);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

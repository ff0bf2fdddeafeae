/**
 * Idempotent saves, on SQLite and on PostgreSQL (each test on a fresh database): a save retried
 * with its idempotency key answers the first save's analysis and edit token and stores nothing;
 * the same key with other input is refused and stores nothing; ten saves with one key at once
 * (through two stores on PostgreSQL, as two replicas) store one analysis and all answer it; the
 * token of a retry updates the analysis; a key past its window is a new save (the store's clock is
 * moved, nothing sleeps); a retry whose analysis was deleted says so; expired records are purged a
 * few a save; and the record, read from the database, holds neither the key nor the token.
 */
import { createHash } from 'node:crypto';
import type { PathQuery } from '@chess-paths/engine';
import Database from 'better-sqlite3';
import { beforeEach, expect, it } from 'vitest';
import { analysisBytes } from '../../src/store/analysis-budget.js';
import { openEditToken } from '../../src/store/idempotency-key.js';
import { PURGE_BATCH } from '../../src/store/idempotent-save.js';
import {
  databaseFileFromUrl,
  IdempotencyKeyReusedError,
  IdempotentSaveGoneError,
  type OpenedStore,
  type StoreOptions,
} from '../../src/store/index.js';
import { describeEachDatabase, queryPostgres, useTestStores } from '../support/postgres.js';

const HOUR = 3_600_000;
const queries: PathQuery[] = [{ piece: 'KNIGHT', from: ['a1'], to: ['h8'] }];
const input = { title: 'Knight', notes: 'first', fen: null, queries, resultKeys: ['a'.repeat(64)] };

describeEachDatabase('idempotent saves', (database) => {
  const stores = useTestStores(database);
  /** The stores' clock of idempotency records; tests move it. */
  let clock: Date;
  let store: OpenedStore;

  const open = (options: Partial<StoreOptions> = {}) =>
    stores.open({ idempotencyWindowMs: 24 * HOUR, poolSize: 4, ...options }, { idempotencyClock: () => clock });

  beforeEach(async () => {
    clock = new Date('2026-11-25T12:00:00.000Z');
    store = await open();
  });

  const analysisRows = async () => (await store.totals()).analysisRows;

  /** Every idempotency record, read by a connection of its own once the stores are closed. */
  async function records(): Promise<Record<string, unknown>[]> {
    await stores.close(store);
    const sql = 'SELECT * FROM "IdempotentSave" ORDER BY "createdAt"';
    if (database.dialect === 'postgresql') return queryPostgres(stores.url(), sql);
    const db = new Database(databaseFileFromUrl(stores.url()), { readonly: true });
    try {
      return db.prepare(sql).all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }

  it('answers a retry with the first save, token included, and stores nothing new', async () => {
    const first = await store.analyses.save(input, { idempotencyKey: 'key-1' });
    expect(first.replayed).toBe(false);
    const bytesAfterFirst = (await store.totals()).analysisBytes;
    const retry = await store.analyses.save(input, { idempotencyKey: 'key-1' });
    expect(retry).toEqual({ ...first, replayed: true });
    expect(await analysisRows()).toBe(1);
    // The byte budget counts the analysis alone, once.
    expect((await store.totals()).analysisBytes).toBe(bytesAfterFirst);
    expect(bytesAfterFirst).toBe(
      analysisBytes({ ...input, queries: JSON.stringify(queries), resultKeys: JSON.stringify(input.resultKeys) }),
    );
    // Without a key, or with another one, it is a new save.
    const other = await store.analyses.save(input, { idempotencyKey: 'key-2' });
    const plain = await store.analyses.save(input);
    expect(new Set([first.analysis.id, other.analysis.id, plain.analysis.id]).size).toBe(3);
    expect(await analysisRows()).toBe(3);
  });

  it('recognises the same input whatever the order of its fields', async () => {
    const first = await store.analyses.save(input, { idempotencyKey: 'k' });
    const reordered = {
      resultKeys: input.resultKeys,
      queries: [{ to: ['h8'], from: ['a1'], piece: 'KNIGHT' } as PathQuery],
      fen: null,
      notes: 'first',
      title: 'Knight',
    };
    expect((await store.analyses.save(reordered, { idempotencyKey: 'k' })).analysis.id).toBe(first.analysis.id);
  });

  it('refuses the same key with other input, naming the key, and stores nothing', async () => {
    await store.analyses.save(input, { idempotencyKey: 'key-1' });
    const changed = [
      { ...input, title: 'Other' },
      { ...input, notes: null },
      { ...input, fen: '8/8/8/8/8/8/8/8 w - - 0 1' },
      { ...input, queries: [], resultKeys: [] },
    ];
    for (const other of changed) {
      const error = await store.analyses
        .save(other, { idempotencyKey: 'key-1', clientKey: 'what-the-client-sent' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
      expect((error as IdempotencyKeyReusedError).message).toContain('"what-the-client-sent"');
      expect((error as IdempotencyKeyReusedError).extensions()).toEqual({ idempotencyKey: 'what-the-client-sent' });
    }
    expect(await analysisRows()).toBe(1);
  });

  it('stores one analysis for ten saves with one key at once, and every one answers it', async () => {
    // On PostgreSQL two stores share the database, as two replicas would; SQLite has one store.
    const other = database.dialect === 'postgresql' ? await open() : store;
    const saves = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? store : other).analyses.save(input, { idempotencyKey: 'race' }),
      ),
    );
    expect(new Set(saves.map((s) => s.analysis.id)).size).toBe(1);
    expect(new Set(saves.map((s) => s.editToken)).size).toBe(1);
    expect(saves.filter((s) => !s.replayed)).toHaveLength(1);
    expect(await analysisRows()).toBe(1);
    expect(await records()).toHaveLength(1);
  });

  it('lets one of ten saves with one key and different inputs at once win; the others are refused', async () => {
    const other = database.dialect === 'postgresql' ? await open() : store;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? store : other).analyses.save({ ...input, title: `take ${i}` }, { idempotencyKey: 'race' }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(IdempotencyKeyReusedError);
    }
    expect(await analysisRows()).toBe(1);
  });

  it('gives a retry a token that updates the analysis, and answers the analysis as it is now', async () => {
    const first = await store.analyses.save(input, { idempotencyKey: 'k' });
    const retry = await store.analyses.save(input, { idempotencyKey: 'k' });
    const updated = await store.analyses.update(retry.analysis.id, retry.editToken, { title: 'Renamed' });
    expect(updated.version).toBe(2);
    const again = await store.analyses.save(input, { idempotencyKey: 'k' });
    expect(again.analysis).toMatchObject({ id: first.analysis.id, title: 'Renamed', version: 2 });
    expect(again.editToken).toBe(first.editToken);
  });

  it('makes a new save of a key past its window, and replaces its record', async () => {
    const first = await store.analyses.save(input, { idempotencyKey: 'k' });
    clock = new Date(clock.getTime() + 24 * HOUR - 1);
    expect((await store.analyses.save(input, { idempotencyKey: 'k' })).analysis.id).toBe(first.analysis.id);
    clock = new Date(clock.getTime() + 1);
    const second = await store.analyses.save(input, { idempotencyKey: 'k' });
    expect(second.replayed).toBe(false);
    expect(second.analysis.id).not.toBe(first.analysis.id);
    expect(second.editToken).not.toBe(first.editToken);
    // The key now stands for the second save, even with other input than the first.
    expect((await store.analyses.save(input, { idempotencyKey: 'k' })).analysis.id).toBe(second.analysis.id);
    expect(await analysisRows()).toBe(2);
    expect(await records()).toHaveLength(1);
  });

  it('says so when the analysis of a retried save was deleted since, and stores nothing', async () => {
    const first = await store.analyses.save(input, { idempotencyKey: 'gone' });
    await store.analyses.delete(first.analysis.id, first.editToken);
    const error = await store.analyses.save(input, { idempotencyKey: 'gone' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotentSaveGoneError);
    expect((error as IdempotentSaveGoneError).code).toBe('NOT_FOUND');
    expect((error as Error).message).toContain('"gone"');
    expect((error as Error).message).toContain(first.analysis.id);
    expect(await analysisRows()).toBe(0);
  });

  it(`purges expired records at most ${PURGE_BATCH} a save, oldest first`, async () => {
    const total = PURGE_BATCH + 8;
    for (let i = 0; i < total; i++) {
      await store.analyses.save({ ...input, title: `t${i}` }, { idempotencyKey: `old-${i}` });
      clock = new Date(clock.getTime() + 1000);
    }
    const lastOld = clock.getTime() - 1000;
    clock = new Date(lastOld + 24 * HOUR); // every old record but the newest has expired
    await store.analyses.save(input, { idempotencyKey: 'new' });
    const left = await records();
    // The save purged PURGE_BATCH of the total - 1 expired; the newest old one and the new one stay.
    expect(left).toHaveLength(total - PURGE_BATCH + 1);
    const createdAt = (r: Record<string, unknown>) => new Date(r.createdAt as string | number | Date).getTime();
    expect(Math.min(...left.map(createdAt))).toBe(lastOld - 1000 * (total - PURGE_BATCH - 1));
  });

  it('keeps neither the key nor the token in the database: a hash, and the token sealed under the key', async () => {
    const key = 'c0ffee00-1234-4abc-8def-000000000001';
    const { analysis, editToken } = await store.analyses.save(input, { idempotencyKey: key });
    const [row] = await records();
    const text = JSON.stringify(row);
    expect(text).not.toContain(editToken);
    expect(text).not.toContain(Buffer.from(editToken, 'base64url').toString('hex'));
    expect(text).not.toContain(key);
    expect(row.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(row.analysisId).toBe(analysis.id);
    const sealed = String(row.sealedToken);
    expect(openEditToken(key, sealed, analysis.id)).toBe(editToken);
    expect(openEditToken(`${key}x`, sealed, analysis.id)).toBeUndefined();
    expect(openEditToken(key, sealed, 'another-id')).toBeUndefined();
  });
});

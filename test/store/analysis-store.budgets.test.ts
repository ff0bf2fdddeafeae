/**
 * The byte budgets of saved analyses, on SQLite and on PostgreSQL alike (each test on a fresh
 * database of its own): the stored size of one analysis (UTF-8 bytes plus a fixed overhead), one
 * analysis over MAX_ANALYSIS_BYTES and a save or growing update past ANALYSES_MAX_BYTES refused
 * whole, shrinking always allowed, deletes freeing their bytes, and concurrent saves on one store
 * unable to squeeze past the total together (two stores, as two replicas: see
 * `analysis-store.concurrency.test.ts`).
 */

import type { PathQuery } from '@chess-paths/engine';
import { beforeEach, expect, it } from 'vitest';
import { ANALYSIS_ROW_OVERHEAD, analysisBytes } from '../../src/store/analysis-budget.js';
import { type OpenedStore, StorageLimitError, type StoreOptions } from '../../src/store/index.js';
import { describeEachDatabase, useTestStores } from '../support/postgres.js';

const queries: PathQuery[] = [
  { piece: 'KNIGHT', from: ['a1'], to: ['h8'] },
  { piece: 'ROOK', from: ['a1'], to: ['h8'], board: { files: 10, ranks: 10 }, blocked: ['b1'], mask: null },
];
const resultKeys = ['a'.repeat(64), 'b'.repeat(64)];

describeEachDatabase('analysis byte budgets', (database) => {
  const stores = useTestStores(database);
  let store: OpenedStore;
  beforeEach(async () => {
    store = await stores.open();
  });

  /** Reopens the store on the same database with other budgets. */
  async function reopen(budgets: Partial<StoreOptions>): Promise<void> {
    await stores.close(store);
    store = await stores.open(budgets);
  }

  const sizeOf = (a: {
    title: string;
    notes?: string | null;
    fen?: string | null;
    queries: PathQuery[];
    resultKeys: string[];
  }) =>
    analysisBytes({
      title: a.title,
      notes: a.notes ?? null,
      fen: a.fen ?? null,
      queries: JSON.stringify(a.queries),
      resultKeys: JSON.stringify(a.resultKeys),
    });

  async function rejection(promise: Promise<unknown>): Promise<StorageLimitError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StorageLimitError);
    return error as StorageLimitError;
  }

  it('counts the UTF-8 bytes of title, notes, FEN, queries and result keys, plus a fixed overhead', async () => {
    const input = { title: 'Échecs ♞', notes: 'naïve', fen: '8/8/8/8/8/8/8/8 w - - 0 1', queries, resultKeys };
    expect(sizeOf(input)).toBe(
      ANALYSIS_ROW_OVERHEAD +
        11 +
        6 +
        25 +
        Buffer.byteLength(JSON.stringify(queries)) +
        Buffer.byteLength(JSON.stringify(resultKeys)),
    );
    await store.analyses.save(input);
    expect(await store.totals()).toMatchObject({ analysisRows: 1, analysisBytes: sizeOf(input) });
  });

  it('refuses one analysis over MAX_ANALYSIS_BYTES, saved or updated, naming the size, limit and variable; nothing is written', async () => {
    await reopen({ maxAnalysisBytes: 2000 });
    const kept = await store.analyses.save({ title: 'small', queries, resultKeys });
    const before = await store.totals();
    const big = { title: 'big', notes: 'é'.repeat(1000), queries, resultKeys };
    const error = await rejection(store.analyses.save(big));
    expect(error.variable).toBe('MAX_ANALYSIS_BYTES');
    expect(error.max).toBe(2000);
    expect(error.message).toBe(
      `this analysis would store ${sizeOf(big)} bytes, over the limit of 2000 (MAX_ANALYSIS_BYTES)`,
    );
    expect(await store.totals()).toEqual(before);

    const grown = await rejection(store.analyses.update(kept.analysis.id, kept.editToken, { notes: 'x'.repeat(2000) }));
    expect(grown.variable).toBe('MAX_ANALYSIS_BYTES');
    expect(await store.analyses.get(kept.analysis.id)).toEqual(kept.analysis);
    expect(await store.totals()).toEqual(before);
    // Exactly at the limit is allowed.
    const room = 2000 - sizeOf({ title: 'small', queries, resultKeys });
    const updated = await store.analyses.update(kept.analysis.id, kept.editToken, { notes: 'y'.repeat(room) });
    expect(updated.notes).toHaveLength(room);
    expect((await store.totals()).analysisBytes).toBe(2000);
  });

  it('refuses a save or a growing update past ANALYSES_MAX_BYTES, rolling it back whole; deletes free their bytes', async () => {
    const one = { title: 'a', notes: 'n'.repeat(500), queries, resultKeys };
    const size = sizeOf(one);
    await reopen({ maxAnalysesBytes: 3 * size + 10 });
    const saved = [];
    for (let i = 0; i < 3; i++) saved.push(await store.analyses.save(one));
    const full = await store.totals();
    expect(full.analysisBytes).toBe(3 * size);

    const error = await rejection(store.analyses.save(one));
    expect(error.variable).toBe('ANALYSES_MAX_BYTES');
    expect(error.max).toBe(3 * size + 10);
    expect(error.message).toBe(
      `saving this analysis (${size} bytes) would bring all analyses to ${4 * size} bytes, over the limit of ${3 * size + 10} (ANALYSES_MAX_BYTES)`,
    );
    expect(await store.totals()).toEqual(full);
    expect((await store.analyses.list({ first: 10 })).totalCount).toBe(3);

    // Growing by 10 bytes fits; by 11 does not, and changes nothing.
    const grown = await store.analyses.update(saved[0].analysis.id, saved[0].editToken, { title: 'a'.repeat(11) });
    expect(grown.title).toBe('a'.repeat(11));
    const tooMuch = await rejection(
      store.analyses.update(saved[1].analysis.id, saved[1].editToken, { title: 'b'.repeat(2) }),
    );
    expect(tooMuch.message).toMatch(
      /^this change \(1 more bytes\) would bring all analyses to \d+ bytes, over the limit of \d+ \(ANALYSES_MAX_BYTES\)$/,
    );
    expect(await store.analyses.get(saved[1].analysis.id)).toEqual(saved[1].analysis);

    // Shrinking is always allowed, even over a budget lowered below what is stored.
    await reopen({ maxAnalysesBytes: size });
    const shrunk = await store.analyses.update(saved[1].analysis.id, saved[1].editToken, { notes: null });
    expect(shrunk.notes).toBeNull();
    await reopen({ maxAnalysesBytes: 3 * size + 10 });

    expect(await store.analyses.delete(saved[2].analysis.id, saved[2].editToken)).toBe(true);
    expect(await store.analyses.delete(saved[1].analysis.id, saved[1].editToken)).toBe(true);
    expect((await store.totals()).analysisBytes).toBe(size + 10);
    await store.analyses.save(one);
    await store.analyses.save(one);
    expect((await store.totals()).analysisBytes).toBe(3 * size + 10);
  });

  it('lets no pair of concurrent saves squeeze past the total budget', async () => {
    const one = { title: 'c', notes: 'n'.repeat(300), queries, resultKeys };
    const size = sizeOf(one);
    await reopen({ maxAnalysesBytes: 5 * size + size / 2 });
    const outcomes = await Promise.allSettled(Array.from({ length: 16 }, () => store.analyses.save(one)));
    const saved = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(saved).toHaveLength(5);
    expect(refused).toHaveLength(11);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(StorageLimitError);
    expect(await store.totals()).toMatchObject({ analysisRows: 5, analysisBytes: 5 * size });
    expect((await store.analyses.list({ first: 100 })).totalCount).toBe(5);
  });
});

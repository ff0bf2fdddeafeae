/**
 * Concurrent writes of analyses, on SQLite and on PostgreSQL, each test on a fresh database.
 *
 * On PostgreSQL two stores are opened on the same database, as two replicas of the service would
 * be, and the work is spread over both: only the database can order their writes. On SQLite the
 * one store holds its file exclusively (a second store cannot open it: `connection.test.ts`), so
 * "both stores" is that one store, and the concurrency is its own interleaving of transactions.
 *
 * What must hold: concurrent updates of one analysis are applied one after the other and none is
 * lost (the versions they return are 2, 3, ... with no gap, each record is its predecessor plus
 * its own patch, the final row is the last writer's); an update naming a stale `expectedVersion`
 * is a `ConflictError` with the right versions and changes nothing, so read-modify-write clients
 * that retry on conflict lose nothing either; and concurrent saves through both stores cannot
 * together go over `maxAnalysesBytes`.
 */

import type { PathQuery } from '@chess-paths/engine';
import { expect, it } from 'vitest';
import { analysisBytes } from '../../src/store/analysis-budget.js';
import {
  type AnalysisPatch,
  type AnalysisRecord,
  ConflictError,
  type OpenedStore,
  StorageLimitError,
  type StoreOptions,
} from '../../src/store/index.js';
import { describeEachDatabase, useTestStores } from '../support/postgres.js';

/** The stored text of an analysis record, as the byte budget counts it. */
const bytesOf = (a: Pick<AnalysisRecord, 'title' | 'notes' | 'fen' | 'queries' | 'resultKeys'>) =>
  analysisBytes({
    title: a.title,
    notes: a.notes,
    fen: a.fen,
    queries: JSON.stringify(a.queries),
    resultKeys: JSON.stringify(a.resultKeys),
  });

/** The fields a patch may change, for comparing records whatever their timestamps. */
const content = (a: AnalysisRecord) => ({
  id: a.id,
  title: a.title,
  notes: a.notes,
  fen: a.fen,
  queries: a.queries,
  resultKeys: a.resultKeys,
  version: a.version,
});

describeEachDatabase('concurrent analysis writes', (database) => {
  const stores = useTestStores(database);

  /** Two stores on the test's database (one and the same on SQLite; see the file comment). */
  async function replicas(options: Partial<StoreOptions> = {}): Promise<[OpenedStore, OpenedStore]> {
    // Bursts here queue on the pool (and on PostgreSQL on the row's lock) by design: a connection
    // may take longer than Prisma's default 2 s wait on a busy machine, which is not what is tested.
    const extras = { transactionOptions: { maxWait: 60_000, timeout: 60_000 } };
    const a = await stores.open({ poolSize: 4, ...options }, extras);
    const b = database.dialect === 'postgresql' ? await stores.open({ poolSize: 4, ...options }, extras) : a;
    return [a, b];
  }

  it('applies 20 concurrent updates through two stores one after the other: no version skipped, none lost', async () => {
    const [a, b] = await replicas();
    const { analysis: initial, editToken } = await a.analyses.save({
      title: 'start',
      notes: 'n0',
      fen: null,
      queries: [],
      resultKeys: [],
    });
    // Each update has its own title and changes one other field; two more change nothing.
    const patches: AnalysisPatch[] = Array.from({ length: 20 }, (_, i) => {
      const title = `title ${i}`;
      if (i % 3 === 0) return { title, notes: `notes ${i}` };
      if (i % 3 === 1) return { title, fen: `8/8/8/8/8/8/8/${i % 8 || 8} w - - 0 1` };
      const query: PathQuery = { piece: 'KING', from: ['a1'], to: [`h${(i % 8) + 1}`] };
      return { title, queries: [query], resultKeys: [String(i).padStart(64, '0')] };
    });
    patches.splice(7, 0, {});
    patches.splice(15, 0, {});
    const results = await Promise.all(
      patches.map((patch, i) => (i % 2 === 0 ? a : b).analyses.update(initial.id, editToken, patch)),
    );

    const changes = (patch: AnalysisPatch) => Object.keys(patch).length > 0;
    const written = results.flatMap((record, i) => (changes(patches[i]) ? [{ record, patch: patches[i] }] : []));
    const changing = written.length;
    expect(changing).toBe(20);
    // The updates that changed something wrote versions 2..21, each exactly once.
    const order = written.sort((x, y) => x.record.version - y.record.version);
    expect(order.map((w) => w.record.version)).toEqual(Array.from({ length: changing }, (_, i) => i + 2));
    // Replayed in version order, each record is the one before it plus its own patch: no update
    // was worked out on a stale row, and the last writer's value of every field is what is stored.
    let state = content(initial);
    for (const { record, patch } of order) {
      state = { ...state, ...patch, version: state.version + 1 };
      expect(content(record)).toEqual(state);
    }
    const final = await b.analyses.get(initial.id);
    expect(final && content(final)).toEqual(state);
    expect(final?.version).toBe(1 + changing);
    // The no-op updates returned a version that existed, unchanged.
    for (const [i, patch] of patches.entries()) {
      if (!changes(patch)) expect(results[i].version).toBeLessThanOrEqual(1 + changing);
    }
    // The running total followed every size change: it is the final row's size.
    expect(await a.totals()).toMatchObject({ analysisRows: 1, analysisBytes: bytesOf(final as AnalysisRecord) });
  });

  it('60 concurrent updates of one analysis through two stores all succeed, and the stores stay healthy', async () => {
    // More updaters than an update's attempts at compare-and-set: on PostgreSQL they queue on the
    // row's lock instead of racing, and nothing of it may read as the database being down.
    const [a, b] = await replicas();
    const { analysis, editToken } = await a.analyses.save({ title: 's', queries: [], resultKeys: [] });
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).analyses.update(analysis.id, editToken, { title: `t${i}` })),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect((await a.analyses.get(analysis.id))?.version).toBe(61);
    expect(await a.healthy()).toBe(true);
    expect(await b.healthy()).toBe(true);
    await expect(b.analyses.save({ title: 'after', queries: [], resultKeys: [] })).resolves.toBeTruthy();
  });

  it('gives ConflictError with the expected and current versions for a stale expectedVersion, changing nothing', async () => {
    const [a, b] = await replicas();
    const { analysis, editToken } = await a.analyses.save({ title: 't', queries: [], resultKeys: [] });
    expect(analysis.version).toBe(1);
    const read = await a.analyses.get(analysis.id);
    // The other replica updates it meanwhile.
    const other = await b.analyses.update(analysis.id, editToken, { notes: 'from b' }, 1);
    expect(other.version).toBe(2);

    const error = await a.analyses
      .update(analysis.id, editToken, { notes: 'from a' }, read?.version)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'CONFLICT', expectedVersion: 1, currentVersion: 2 });
    expect((error as ConflictError).extensions()).toEqual({ expectedVersion: 1, currentVersion: 2 });
    expect(await a.analyses.get(analysis.id)).toEqual(other);

    // A version from the future conflicts as well; the current one is accepted.
    await expect(a.analyses.update(analysis.id, editToken, { notes: 'x' }, 7)).rejects.toMatchObject({
      expectedVersion: 7,
      currentVersion: 2,
    });
    const applied = await a.analyses.update(analysis.id, editToken, { notes: 'from a' }, 2);
    expect(applied).toMatchObject({ notes: 'from a', version: 3 });
  });

  it('20 read-modify-write clients on two stores, retrying on conflict, append to the notes without losing one', async () => {
    const [a, b] = await replicas();
    const { analysis, editToken } = await a.analyses.save({ title: 'log', notes: '', queries: [], resultKeys: [] });
    const append = async (store: OpenedStore, line: string) => {
      for (let attempt = 0; attempt < 200; attempt++) {
        const current = await store.analyses.get(analysis.id);
        if (!current) throw new Error('analysis vanished');
        try {
          const notes = `${current.notes ?? ''}${line}\n`;
          return await store.analyses.update(analysis.id, editToken, { notes }, current.version);
        } catch (error) {
          if (!(error instanceof ConflictError)) throw error;
          // The conflict names the version this client read and a later one.
          expect(error.expectedVersion).toBe(current.version);
          expect(error.currentVersion).toBeGreaterThan(current.version);
        }
      }
      throw new Error(`${line}: still conflicting after 200 attempts`);
    };
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const results = await Promise.all(lines.map((line, i) => append(i % 2 === 0 ? a : b, line)));
    expect(results.map((r) => r.version).sort((x, y) => x - y)).toEqual(lines.map((_, i) => i + 2));

    const final = await a.analyses.get(analysis.id);
    expect(final?.version).toBe(21);
    const stored = (final?.notes ?? '').split('\n').filter(Boolean);
    expect([...stored].sort()).toEqual([...lines].sort());
    // Each acknowledged append is in the notes in the order of the versions it wrote.
    const byVersion = [...results].sort((x, y) => x.version - y.version);
    expect(stored).toEqual(byVersion.map((r) => (r.notes ?? '').split('\n').filter(Boolean).at(-1)));
  });

  it('lets no pair of concurrent saves through two stores squeeze past a total budget that fits only one', async () => {
    const one = { title: 'budget', notes: 'n'.repeat(300), queries: [] as PathQuery[], resultKeys: [] as string[] };
    const size = bytesOf({ ...one, fen: null });
    const [a, b] = await replicas({ maxAnalysesBytes: size + Math.floor(size / 2) });
    for (let round = 0; round < 8; round++) {
      const outcomes = await Promise.allSettled([a.analyses.save(one), b.analyses.save(one)]);
      const saved = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(saved).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toBeInstanceOf(StorageLimitError);
      expect(refused[0]).toMatchObject({ variable: 'ANALYSES_MAX_BYTES' });
      expect(await b.totals()).toMatchObject({ analysisRows: 1, analysisBytes: size });
      // Make room for the next round, through either store.
      await (round % 2 === 0 ? a : b).analyses.delete(saved[0].analysis.id, saved[0].editToken);
    }

    // A burst of 16 through both stores against room for 5: exactly 5 are saved.
    await stores.close(a);
    if (b !== a) await stores.close(b);
    const [e, f] = await replicas({ maxAnalysesBytes: 5 * size + Math.floor(size / 2) });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? e : f).analyses.save(one)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(StorageLimitError);
    }
    expect(await e.totals()).toMatchObject({ analysisRows: 5, analysisBytes: 5 * size });
    expect((await f.analyses.list({ first: 100 })).totalCount).toBe(5);
  });
});

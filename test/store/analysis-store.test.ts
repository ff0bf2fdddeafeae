/**
 * Saved analyses, on SQLite and on PostgreSQL alike (each test on a fresh database of its own):
 * CRUD with right, wrong, missing and foreign edit tokens (nothing changes without the right one,
 * and the token is stored only as its hash), newest-first pagination with opaque cursors, and
 * analyses surviving close and reopen. Byte budgets are in `analysis-store.budgets.test.ts`,
 * concurrent updates through two stores in `analysis-store.concurrency.test.ts`, the last
 * version (2^31 - 1) in `analysis-store.versions.test.ts`.
 */
import { createHash } from 'node:crypto';
import { InputError, type PathQuery } from '@chess-paths/engine';
import Database from 'better-sqlite3';
import { beforeEach, expect, it, vi } from 'vitest';
import { databaseFileFromUrl, ForbiddenError, NotFoundError, type OpenedStore } from '../../src/store/index.js';
import { describeEachDatabase, queryPostgres, useTestStores } from '../support/postgres.js';

const queries: PathQuery[] = [
  { piece: 'KNIGHT', from: ['a1'], to: ['h8'] },
  { piece: 'ROOK', from: ['a1'], to: ['h8'], board: { files: 10, ranks: 10 }, blocked: ['b1'], mask: null },
];
const resultKeys = ['a'.repeat(64), 'b'.repeat(64)];

describeEachDatabase('analyses', (database) => {
  const stores = useTestStores(database);
  let store: OpenedStore;
  beforeEach(async () => {
    store = await stores.open();
  });

  /** Rows of the table, as the store's running totals count them. */
  async function rowCount(): Promise<number> {
    return (await store.totals()).analysisRows;
  }

  /**
   * The stored row, as a connection of its own reads it: closes the store first, since on SQLite
   * no other connection may read the file while the store holds it (on PostgreSQL it could, but
   * the test reads after close on both, so it checks the same thing).
   */
  async function storedRow(id: string): Promise<Record<string, unknown>> {
    await stores.close(store);
    if (database.dialect === 'postgresql') {
      const [row] = await queryPostgres(stores.url(), 'SELECT * FROM "Analysis" WHERE id = $1', [id]);
      return row;
    }
    const db = new Database(databaseFileFromUrl(stores.url()), { readonly: true });
    try {
      return db.prepare('SELECT * FROM "Analysis" WHERE id = ?').get(id) as Record<string, unknown>;
    } finally {
      db.close();
    }
  }

  it('saves and reads back exactly what was given, with a strong token stored only as a hash', async () => {
    const { analysis, editToken } = await store.analyses.save({
      title: 'Knight tour bits',
      notes: 'first try',
      fen: '8/8/8/8/8/8/8/N7 w - - 0 1',
      queries,
      resultKeys,
    });
    expect(Buffer.from(editToken, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(editToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(analysis).toMatchObject({ title: 'Knight tour bits', notes: 'first try', queries, resultKeys });
    expect(analysis.createdAt).toBeInstanceOf(Date);
    expect(analysis.updatedAt.getTime()).toBe(analysis.createdAt.getTime());

    const read = await store.analyses.get(analysis.id);
    expect(read).toEqual(analysis);
    expect(await store.analyses.get('no-such-id')).toBeNull();

    const other = await store.analyses.save({ title: 'Other', queries: [], resultKeys: [] });
    expect(other.editToken).not.toBe(editToken);
    expect(other.analysis.notes).toBeNull();
    expect(other.analysis.fen).toBeNull();

    const row = await storedRow(analysis.id);
    expect(Object.values(row).some((v) => typeof v === 'string' && v.includes(editToken))).toBe(false);
    expect(row.editTokenHash).toBe(createHash('sha256').update(editToken).digest('hex'));
  });

  it("updates only with the right token; wrong, missing and another analysis's token change nothing", async () => {
    const a = await store.analyses.save({ title: 'A', notes: 'n', fen: null, queries, resultKeys });
    const b = await store.analyses.save({ title: 'B', queries: [], resultKeys: [] });
    const before = await store.analyses.get(a.analysis.id);

    for (const token of [
      b.editToken,
      '',
      'x',
      a.editToken.slice(0, -1),
      `${a.editToken}x`,
      a.editToken.toUpperCase(),
    ]) {
      await expect(store.analyses.update(a.analysis.id, token, { title: 'hacked' })).rejects.toBeInstanceOf(
        ForbiddenError,
      );
      await expect(store.analyses.delete(a.analysis.id, token)).rejects.toBeInstanceOf(ForbiddenError);
    }
    await expect(
      store.analyses.update(a.analysis.id, undefined as unknown as string, { title: 'hacked' }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(await store.analyses.get(a.analysis.id)).toEqual(before);

    await expect(store.analyses.update('missing', a.editToken, { title: 'x' })).rejects.toBeInstanceOf(NotFoundError);

    // The clock has moved on since the save (updatedAt is this process's Date): the update is later.
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(a.analysis.updatedAt.getTime()), { interval: 1 });
    const updated = await store.analyses.update(a.analysis.id, a.editToken, {
      title: 'A2',
      notes: null,
      queries: [queries[1]],
      resultKeys: [resultKeys[1]],
    });
    expect(updated).toMatchObject({ id: a.analysis.id, title: 'A2', notes: null, fen: null, queries: [queries[1]] });
    expect(updated.resultKeys).toEqual([resultKeys[1]]);
    expect(updated.createdAt).toEqual(a.analysis.createdAt);
    expect(updated.updatedAt.getTime()).toBeGreaterThan(a.analysis.updatedAt.getTime());
    expect(await store.analyses.get(a.analysis.id)).toEqual(updated);

    // Absent fields stay; the patch must keep one key per query.
    const kept = await store.analyses.update(a.analysis.id, a.editToken, { fen: '8/8/8/8/8/8/8/8 w - - 0 1' });
    expect(kept).toMatchObject({ title: 'A2', fen: '8/8/8/8/8/8/8/8 w - - 0 1', queries: [queries[1]] });
    await expect(store.analyses.update(a.analysis.id, a.editToken, { queries })).rejects.toBeInstanceOf(InputError);
    expect((await store.analyses.get(a.analysis.id))?.queries).toEqual([queries[1]]);

    // B is untouched by all of this.
    expect(await store.analyses.get(b.analysis.id)).toEqual(b.analysis);
  });

  it('deletes with the right token only; unknown ids give false', async () => {
    const a = await store.analyses.save({ title: 'A', queries, resultKeys });
    const b = await store.analyses.save({ title: 'B', queries, resultKeys });
    expect(await rowCount()).toBe(2);
    await expect(store.analyses.delete(a.analysis.id, b.editToken)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await rowCount()).toBe(2);
    expect(await store.analyses.delete(a.analysis.id, a.editToken)).toBe(true);
    expect(await store.analyses.get(a.analysis.id)).toBeNull();
    await expect(store.analyses.delete(a.analysis.id, a.editToken)).rejects.toBeInstanceOf(NotFoundError);
    await expect(store.analyses.delete('missing', 'whatever')).rejects.toBeInstanceOf(NotFoundError);
    expect(await store.analyses.get(b.analysis.id)).toEqual(b.analysis);
  });

  it('lists newest first with opaque cursors and a total count', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const { analysis } = await store.analyses.save({ title: `T${i}`, queries: [], resultKeys: [] });
      ids.push(analysis.id);
      // Some share a millisecond, some don't: after every third save, until the clock moves on.
      if (i % 3 === 0)
        await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(analysis.createdAt.getTime()), { interval: 1 });
    }
    const all = await store.analyses.list({ first: 100 });
    expect(all.totalCount).toBe(7);
    expect(all.hasNextPage).toBe(false);
    const order = all.edges.map((e) => e.node);
    for (let i = 1; i < order.length; i++) {
      const [p, q] = [order[i - 1], order[i]];
      expect(
        p.createdAt.getTime() > q.createdAt.getTime() ||
          (p.createdAt.getTime() === q.createdAt.getTime() && p.id > q.id),
      ).toBe(true);
    }
    expect(new Set(order.map((n) => n.id))).toEqual(new Set(ids));
    // The last one saved is among the first (several may share its millisecond; ids break the tie).
    const newest = order[0].createdAt.getTime();
    expect(order.filter((n) => n.createdAt.getTime() === newest).map((n) => n.title)).toContain('T6');

    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page = await store.analyses.list({ first: 3, after });
      pages++;
      expect(page.totalCount).toBe(7);
      expect(page.edges.length).toBeLessThanOrEqual(3);
      seen.push(...page.edges.map((e) => e.node.id));
      expect(page.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
      if (!page.hasNextPage) break;
      after = page.endCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(order.map((n) => n.id));

    const empty = await store.analyses.list({ first: 0 });
    expect(empty).toEqual({ edges: [], hasNextPage: true, endCursor: null, totalCount: 7 });
    const last = await store.analyses.list({ first: 5, after: all.edges.at(-1)!.cursor });
    expect(last).toEqual({ edges: [], hasNextPage: false, endCursor: null, totalCount: 7 });
  });

  it('lists a page of large analyses whole and in order, read in chunks with turns of the event loop between them', async () => {
    const notes = (i: number) => `${i}`.repeat(300_000);
    for (let i = 0; i < 7; i++) await store.analyses.save({ title: `L${i}`, notes: notes(i), queries, resultKeys });
    const all = await store.analyses.list({ first: 100 });
    // 7 x 300 KB is several chunks: every row is still there, whole, in the page's order.
    expect(all.edges.map((e) => e.node.title).sort()).toEqual(['L0', 'L1', 'L2', 'L3', 'L4', 'L5', 'L6']);
    for (const { node } of all.edges) expect(node.notes).toBe(notes(Number(node.title.slice(1))));
    expect(all.edges.map((e) => e.node)).toEqual(
      await Promise.all(all.edges.map(async (e) => await store.analyses.get(e.node.id))),
    );
    const firstThree = await store.analyses.list({ first: 3 });
    expect(firstThree.edges.map((e) => e.node.id)).toEqual(all.edges.slice(0, 3).map((e) => e.node.id));
    expect(firstThree.hasNextPage).toBe(true);
    // Turns of the event loop counted while a page is read (a timer that keeps rescheduling itself).
    let turns = 0;
    let reading = true;
    const count = () => {
      turns++;
      if (reading) setImmediate(count);
    };
    setImmediate(count);
    await store.analyses.list({ first: 100 });
    reading = false;
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('rejects malformed cursors with an InputError on `after`', async () => {
    await store.analyses.save({ title: 'T', queries: [], resultKeys: [] });
    const good = (await store.analyses.list({ first: 1 })).endCursor!;
    for (const bad of [
      '',
      'not a cursor',
      '!!!',
      Buffer.from('analysis:x:y').toString('base64url'),
      `${good}=`,
      good.slice(0, 5),
    ]) {
      const error = await store.analyses.list({ first: 2, after: bad }).catch((e: unknown) => e);
      expect(error, bad).toBeInstanceOf(InputError);
      expect((error as InputError).argument).toEqual(['after']);
      expect((error as InputError).message).toMatch(/is not a valid cursor/);
    }
  });

  it('survives close and reopen', async () => {
    const { analysis, editToken } = await store.analyses.save({ title: 'Keep me', queries, resultKeys });
    await stores.close(store);
    store = await stores.open();
    expect(await store.analyses.get(analysis.id)).toEqual(analysis);
    const updated = await store.analyses.update(analysis.id, editToken, { title: 'Kept' });
    expect(updated.title).toBe('Kept');
    expect((await store.analyses.list({ first: 10 })).totalCount).toBe(1);
    expect(await store.healthy()).toBe(true);
  });
});

/**
 * Saved analyses against a real SQLite file: CRUD with right, wrong, missing and foreign edit
 * tokens (nothing changes without the right one), newest-first pagination with opaque cursors,
 * analyses surviving close and reopen, and the byte budgets (one analysis, all of them: refused
 * whole, concurrent saves cannot both pass, deletes free their bytes).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/engine/errors.js';
import type { PathQuery } from '../../src/engine/types.js';
import { ANALYSIS_ROW_OVERHEAD, analysisBytes } from '../../src/store/analysis-budget.js';
import {
  ForbiddenError,
  NotFoundError,
  type OpenedStore,
  openStore,
  StorageLimitError,
  type StoreOptions,
} from '../../src/store/index.js';
import { recordingLogger, tempDir } from '../support/store-fixtures.js';

let dir: string;
let cleanup: () => void;
let store: OpenedStore;
let url: string;

const options = (budgets: Partial<StoreOptions> = {}): StoreOptions => ({
  databaseUrl: url,
  maxCacheBytes: 1 << 20,
  maxAnalysisBytes: 1 << 20,
  maxAnalysesBytes: 0,
  ...budgets,
});

beforeEach(async () => {
  ({ dir, cleanup } = tempDir());
  url = `file:${join(dir, 'nested', 'analyses.db')}`;
  store = await openStore(options(), { logger: recordingLogger() });
});
afterEach(async () => {
  await store.close();
  cleanup();
});

const queries: PathQuery[] = [
  { piece: 'KNIGHT', from: ['a1'], to: ['h8'] },
  { piece: 'ROOK', from: ['a1'], to: ['h8'], board: { files: 10, ranks: 10 }, blocked: ['b1'], mask: null },
];
const resultKeys = ['a'.repeat(64), 'b'.repeat(64)];

/** Rows of the table, as the store's running totals count them (no other connection may read the file). */
async function rowCount(): Promise<number> {
  return (await store.totals()).analysisRows;
}

/** Reopens the store with other budgets. */
async function reopen(budgets: Partial<StoreOptions>): Promise<void> {
  await store.close();
  store = await openStore(options(budgets), { logger: recordingLogger() });
}

describe('analyses', () => {
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

    await store.close();
    const db = new Database(join(dir, 'nested', 'analyses.db'), { readonly: true });
    try {
      const row = db.prepare('SELECT * FROM "Analysis" WHERE id = ?').get(analysis.id) as Record<string, unknown>;
      expect(Object.values(row).some((v) => typeof v === 'string' && v.includes(editToken))).toBe(false);
      expect(row.editTokenHash).toBe(createHash('sha256').update(editToken).digest('hex'));
    } finally {
      db.close();
    }
    store = await openStore(options(), { logger: recordingLogger() });
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

    await new Promise((r) => setTimeout(r, 5));
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
      ids.push((await store.analyses.save({ title: `T${i}`, queries: [], resultKeys: [] })).analysis.id);
      if (i % 3 === 0) await new Promise((r) => setTimeout(r, 3)); // some share a millisecond, some don't
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
    await store.close();
    store = await openStore(options(), { logger: recordingLogger() });
    expect(await store.analyses.get(analysis.id)).toEqual(analysis);
    const updated = await store.analyses.update(analysis.id, editToken, { title: 'Kept' });
    expect(updated.title).toBe('Kept');
    expect((await store.analyses.list({ first: 10 })).totalCount).toBe(1);
    expect(await store.healthy()).toBe(true);
  });
});

describe('analysis byte budgets', () => {
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

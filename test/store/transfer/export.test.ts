/**
 * Export (`src/store/transfer/export.ts`) and the move between the two databases: SQLite ->
 * PostgreSQL -> SQLite gives equal analyses and cached results; an export spans many keyset
 * pages, writes each row once in id order, and waits for a slow output (what it has written but
 * the output has not taken stays bounded); on PostgreSQL it reads one snapshot while another
 * store keeps saving; it refuses a SQLite file that does not exist or that a store holds, and an
 * analysis PostgreSQL cannot store (a NUL character) is refused with its line on the way there.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANALYSIS_ROW_OVERHEAD } from '../../../src/store/analysis-budget.js';
import { openTransferDatabase } from '../../../src/store/transfer/database.js';
import { exportStore, PAGE_IDS, READ_BYTES } from '../../../src/store/transfer/export.js';
import { TransferError } from '../../../src/store/transfer/format.js';
import { describeEachDatabase, POSTGRESQL, SQLITE, skipPostgres, type TestDatabase } from '../../support/postgres.js';
import {
  cacheFixtures,
  contentOf,
  exportText,
  importText,
  linesOf,
  memoryWritable,
  openTestStore,
  saveFixtures,
} from './fixtures.js';

describe.skipIf(skipPostgres)('moving house: SQLite -> PostgreSQL -> SQLite', () => {
  const made: TestDatabase[] = [];
  afterEach(async () => {
    for (const db of made.splice(0)) await db.drop();
  });
  const create = async (kind: typeof SQLITE) => {
    const db = await kind.create();
    made.push(db);
    return db;
  };

  it('gives back equal analyses (ids, titles, notes, versions, timestamps) and results', async () => {
    const first = await create(SQLITE);
    const rows = cacheFixtures(6);
    const store = await openTestStore(first.url);
    const saved = await saveFixtures(store, 9);
    await store.cache.putMany(rows);
    await store.close();
    const original = await contentOf(first.url, rows);

    const postgres = await create(POSTGRESQL);
    await importText(postgres.url, (await exportText(first.url, true)).text);
    const moved = await contentOf(postgres.url, rows);
    expect(moved.analyses).toEqual(original.analyses);
    expect(moved.analyses.map((a) => a.id).sort()).toEqual(saved.map((s) => s.id).sort());
    expect(moved.cache).toEqual(original.cache);

    const back = await create(SQLITE);
    await importText(back.url, (await exportText(postgres.url, true)).text);
    const returned = await contentOf(back.url, rows);
    expect(returned.analyses).toEqual(original.analyses);
    expect(returned.cache).toEqual(original.cache);
    expect(returned.totals.analysisRows).toBe(original.totals.analysisRows);
    expect(returned.totals.analysisBytes).toBe(original.totals.analysisBytes);
  });

  it('refuses, with its line, an analysis holding a NUL character on its way to PostgreSQL', async () => {
    const sqlite = await create(SQLITE);
    const store = await openTestStore(sqlite.url);
    await saveFixtures(store, 3);
    await store.analyses.save({ title: 'nul', notes: 'a\u0000b', queries: [], resultKeys: [] });
    await store.close();
    const { text } = await exportText(sqlite.url);
    const line = linesOf(text).findIndex((l) => l.title === 'nul') + 1;
    const postgres = await create(POSTGRESQL);
    await expect(importText(postgres.url, text)).rejects.toThrow(
      new RegExp(`^line ${line}: the analysis field "notes" holds a NUL character`),
    );
    expect((await contentOf(postgres.url)).analyses).toEqual([]);
    // SQLite stores it.
    const other = await create(SQLITE);
    expect((await importText(other.url, text)).analyses.added).toBe(4);
  });
});

describeEachDatabase('export', (database) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await database.create();
  });
  afterEach(async () => {
    await db.drop();
  });

  /** Inserts `n` analyses straight into the table (faster than saves), ids in random order. */
  async function insertMany(n: number, notesBytes = 10): Promise<string[]> {
    const store = await openTestStore(db.url);
    await store.close();
    const transfer = await openTransferDatabase(db.url, { busyTimeoutMs: 5000, create: true });
    const ids: string[] = [];
    try {
      for (let start = 0; start < n; start += 500) {
        const data = Array.from({ length: Math.min(500, n - start) }, (_, k) => {
          const i = start + k;
          const id = randomUUID();
          ids.push(id);
          const notes = `${i}`.padEnd(notesBytes, '.');
          const at = new Date(Date.UTC(2026, 0, 1) + i * 1000);
          return {
            id,
            title: `bulk ${i}`,
            notes,
            queries: '[]',
            resultKeys: '[]',
            editTokenHash: createHash('sha256').update(id).digest('hex'),
            createdAt: at,
            updatedAt: at,
            bytes: ANALYSIS_ROW_OVERHEAD + `bulk ${i}`.length + notes.length + 4,
          };
        });
        await transfer.prisma.analysis.createMany({ data });
      }
    } finally {
      await transfer.close();
    }
    return ids;
  }

  it('writes every analysis once, in id order, across many pages', async () => {
    const ids = await insertMany(PAGE_IDS * 2 + 17);
    const { text, counts } = await exportText(db.url);
    const lines = linesOf(text);
    expect(counts).toEqual({ analyses: ids.length, cachedResults: 0 });
    expect(lines[0]).toMatchObject({ type: 'header', format: 'chess-paths-export', version: 1, cache: false });
    expect(lines.at(-1)).toEqual({ type: 'end', analyses: ids.length, cachedResults: 0 });
    const exported = lines.slice(1, -1).map((l) => l.id);
    expect(exported).toEqual([...ids].sort());
    expect(text.endsWith('\n')).toBe(true);
  });

  it('waits for a slow output: what it has written but the output has not taken stays bounded', async () => {
    await insertMany(600, 20_000); // about 12 MB of notes
    const transfer = await openTransferDatabase(db.url, { busyTimeoutMs: 5000, create: false });
    try {
      const out = memoryWritable({ delayMs: 1, highWaterMark: 64 * 1024 });
      const counts = await exportStore(transfer, out.stream, { cache: false });
      expect(counts.analyses).toBe(600);
      expect(linesOf(out.text())).toHaveLength(602);
      // At most one chunk of rows beyond the output's own buffer.
      expect(out.peakBuffered()).toBeLessThan(64 * 1024 + READ_BYTES + 64 * 1024);
    } finally {
      await transfer.close();
    }
  });

  it('refuses a SQLite file that does not exist, creating nothing', async () => {
    if (database.dialect !== 'sqlite') return;
    const url = `${db.url}.missing`;
    await expect(openTransferDatabase(url, { busyTimeoutMs: 100, create: false })).rejects.toThrow(
      /there is no SQLite database at/,
    );
  });

  it('refuses, saying to stop the service, a SQLite file that a store holds', async () => {
    if (database.dialect !== 'sqlite') return;
    const store = await openTestStore(db.url);
    try {
      const refusal = await openTransferDatabase(db.url, { busyTimeoutMs: 200, create: false }).catch((e) => e);
      expect(refusal).toBeInstanceOf(TransferError);
      expect(refusal.message).toMatch(/in use by another process \(database is locked.*stop it/);
    } finally {
      await store.close();
    }
  });

  it('on PostgreSQL, reads one snapshot while another store saves', async () => {
    if (database.dialect !== 'postgresql') return;
    await insertMany(PAGE_IDS + 50);
    const store = await openTestStore(db.url);
    const transfer = await openTransferDatabase(db.url, { busyTimeoutMs: 5000, create: false });
    try {
      const out = memoryWritable({ highWaterMark: 1024 });
      const saves: Promise<unknown>[] = [];
      // A writable that saves an analysis through the store each time it is first written to
      // after a page: the export's snapshot must not see them.
      const original = out.stream._write.bind(out.stream);
      out.stream._write = (chunk, encoding, callback) => {
        const save = store.analyses.save({ title: `during ${saves.length}`, queries: [], resultKeys: [] });
        saves.push(save);
        save.then(() => original(chunk, encoding, callback), callback);
      };
      const counts = await exportStore(transfer, out.stream, { cache: false });
      expect(saves.length).toBeGreaterThan(1);
      expect(counts.analyses).toBe(PAGE_IDS + 50);
      expect(linesOf(out.text()).filter((l) => l.type === 'analysis')).toHaveLength(PAGE_IDS + 50);
      // The export returns once its last line is handed to the stream, which may still be
      // writing it (and so saving): the saves are counted once they have all committed.
      await Promise.all(saves);
      expect((await store.totals()).analysisRows).toBe(PAGE_IDS + 50 + saves.length);
    } finally {
      await transfer.close();
      await store.close();
    }
  });
});

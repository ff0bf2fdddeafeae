/**
 * Import of an export file (`src/store/transfer/import.ts`), on SQLite and on PostgreSQL alike:
 * a copy into an empty database equal to the source (ids, titles, notes, versions, timestamps,
 * cached results), edit tokens that still work (a wrong one still FORBIDDEN), a second import
 * that changes nothing, and damaged files refused whole: the error names the line, and the
 * target's analyses and totals are exactly as before (checked through the store).
 */
import { Readable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ForbiddenError, type StoredResult } from '../../../src/store/index.js';
import { openTransferDatabase } from '../../../src/store/transfer/database.js';
import { TransferError } from '../../../src/store/transfer/format.js';
import { importStore } from '../../../src/store/transfer/import.js';
import { describeEachDatabase, type TestDatabase } from '../../support/postgres.js';
import {
  cacheFixtures,
  contentOf,
  exportText,
  importText,
  LIMITS,
  linesOf,
  openTestStore,
  type SavedFixture,
  saveFixtures,
  textOf,
} from './fixtures.js';

describeEachDatabase('import', (database) => {
  let source: TestDatabase;
  let target: TestDatabase;
  let saved: SavedFixture[];
  let rows: StoredResult[];
  let exported: string;
  beforeEach(async () => {
    source = await database.create();
    target = await database.create();
    const store = await openTestStore(source.url);
    try {
      saved = await saveFixtures(store);
      rows = cacheFixtures();
      await store.cache.putMany(rows);
    } finally {
      await store.close();
    }
    exported = (await exportText(source.url, true)).text;
  });
  afterEach(async () => {
    await source.drop();
    await target.drop();
  });

  /** Expects `text` refused with a message naming `line` (and matching `reason`), nothing written. */
  async function expectRefused(text: string, line: number | undefined, reason: RegExp): Promise<void> {
    const before = await contentOf(target.url, rows);
    const refusal = await importText(target.url, text).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(TransferError);
    const error = refusal as TransferError;
    expect(error.line).toBe(line);
    if (line !== undefined) expect(error.message).toMatch(new RegExp(`^line ${line}: `));
    expect(error.message).toMatch(reason);
    expect(await contentOf(target.url, rows)).toEqual(before);
  }

  it('copies every analysis and cached result exactly; a second import changes nothing', async () => {
    const first = await importText(target.url, exported);
    expect(first).toEqual({
      analyses: { added: saved.length, unchanged: 0 },
      cachedResults: { added: rows.length, unchanged: 0 },
    });
    const copy = await contentOf(target.url, rows);
    const original = await contentOf(source.url, rows);
    expect(copy.analyses).toEqual(original.analyses);
    expect(copy.analyses.map((a) => a.version).sort()).toContain(3);
    expect(copy.cache).toEqual(rows.map((row) => ({ ...row, layers: expect.any(Uint8Array) })));
    expect(copy.cache.map((row) => Buffer.from(row!.layers).toString('hex'))).toEqual(
      rows.map((row) => Buffer.from(row.layers).toString('hex')),
    );
    expect(copy.totals).toEqual(original.totals);

    const second = await importText(target.url, exported);
    expect(second).toEqual({
      analyses: { added: 0, unchanged: saved.length },
      cachedResults: { added: 0, unchanged: rows.length },
    });
    expect(await contentOf(target.url, rows)).toEqual(copy);
    // And the copy exports to the same lines: the header's time aside, and the hit counts that
    // the lookups above added to the copy's cache rows.
    const unhit = (text: string) =>
      linesOf(text)
        .slice(1)
        .map(({ hitCount: _, lastHitAt: __, ...line }) => line);
    expect(unhit((await exportText(target.url, true)).text)).toEqual(unhit(exported));
  });

  it('keeps the edit tokens working, and a wrong token is still refused', async () => {
    await importText(target.url, exported);
    const store = await openTestStore(target.url);
    try {
      const [one, two] = saved;
      const updated = await store.analyses.update(one.id, one.token, { notes: 'after the move' });
      expect(updated.notes).toBe('after the move');
      await expect(store.analyses.update(two.id, one.token, { notes: 'x' })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(store.analyses.delete(two.id, 'not-the-token')).rejects.toBeInstanceOf(ForbiddenError);
      expect(await store.analyses.delete(two.id, two.token)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('reads a file given in small chunks (lines split across them)', async () => {
    const bytes = Buffer.from(exported, 'utf8');
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7));
    const db = await openTransferDatabase(target.url, { busyTimeoutMs: 5000, create: true });
    try {
      const summary = await importStore(db, () => Readable.from(chunks), LIMITS);
      expect(summary.analyses.added).toBe(saved.length);
    } finally {
      await db.close();
    }
    expect((await contentOf(target.url)).analyses).toEqual((await contentOf(source.url)).analyses);
  });

  it('refuses a file cut in the middle of a line, naming the line', async () => {
    const lines = exported.split('\n');
    const cut = `${lines.slice(0, 3).join('\n')}\n${lines[3].slice(0, 20)}`;
    await expectRefused(cut, 4, /cut short/);
  });

  it('refuses a file cut at a line boundary (no end line)', async () => {
    const lines = exported.split('\n');
    await expectRefused(`${lines.slice(0, 4).join('\n')}\n`, 4, /without its end line/);
  });

  it('refuses a line that is not JSON, whole', async () => {
    const lines = linesOf(exported);
    const text = textOf(lines).split('\n');
    text[5] = '{"type":"analysis", oops}';
    await expectRefused(text.join('\n'), 6, /not valid JSON/);
  });

  it('refuses a field of the wrong type, an unknown field and a missing one', async () => {
    const lines = linesOf(exported);
    await expectRefused(textOf(lines.map((l, i) => (i === 2 ? { ...l, version: '2' } : l))), 3, /"version"/);
    await expectRefused(
      textOf(lines.map((l, i) => (i === 2 ? { ...l, title: 7 } : l))),
      3,
      /"title": 7 is not a string/,
    );
    await expectRefused(
      textOf(lines.map((l, i) => (i === 4 ? { ...l, editToken: 'x' } : l))),
      5,
      /unknown field "editToken"/,
    );
    await expectRefused(
      textOf(lines.map((l, i) => (i === 3 ? { ...l, createdAt: '2026-01-01' } : l))),
      4,
      /"createdAt"/,
    );
    const { notes: _, ...noNotes } = lines[2];
    await expectRefused(textOf(lines.map((l, i) => (i === 2 ? noNotes : l))), 3, /"notes": missing/);
    const cacheLine = lines.findIndex((l) => l.type === 'cachedResult');
    await expectRefused(
      textOf(lines.map((l, i) => (i === cacheLine ? { ...l, layers: 'not base64!' } : l))),
      cacheLine + 1,
      /"layers"/,
    );
  });

  it('refuses an end line whose counts differ, and lines after it', async () => {
    const lines = linesOf(exported);
    const last = lines.length - 1;
    await expectRefused(textOf(lines.map((l, i) => (i === last ? { ...l, analyses: 99 } : l))), last + 1, /counts 99/);
    await expectRefused(textOf([...lines, lines[1]]), lines.length + 1, /after its end line/);
  });

  it('refuses an analysis over MAX_ANALYSIS_BYTES and all of them over ANALYSES_MAX_BYTES', async () => {
    const lines = linesOf(exported);
    const big = textOf(lines.map((l, i) => (i === 3 ? { ...l, notes: 'x'.repeat(LIMITS.maxAnalysisBytes) } : l)));
    await expectRefused(big, 4, /MAX_ANALYSIS_BYTES/);
    const before = await contentOf(target.url);
    await expect(importText(target.url, exported, { ...LIMITS, maxAnalysesBytes: 1000 })).rejects.toThrow(
      /over the limit of 1000 \(ANALYSES_MAX_BYTES\)/,
    );
    expect(await contentOf(target.url)).toEqual(before);
  });

  it('rolls every row back when the last check before the commit refuses (a file changed between the passes)', async () => {
    const before = await contentOf(target.url, rows);
    const changed = () => {
      throw new TransferError('analyses.jsonl changed while it was being imported; nothing was imported');
    };
    await expect(importText(target.url, exported, LIMITS, { beforeCommit: changed })).rejects.toThrow(
      /changed while it was being imported/,
    );
    expect(await contentOf(target.url, rows)).toEqual(before);
    // The same file, unchanged, is then imported whole.
    const summary = await importText(target.url, exported, LIMITS, { beforeCommit: () => undefined });
    expect(summary.analyses.added).toBe(saved.length);
  });

  it('refuses an id already in the database with other content, naming the line and the fields', async () => {
    await importText(target.url, linesOf(exported).length > 0 ? exported : '');
    // The source moves on: one analysis is updated after the export, then exported again.
    const store = await openTestStore(source.url);
    try {
      await store.analyses.update(saved[1].id, saved[1].token, { notes: 'later' });
    } finally {
      await store.close();
    }
    const later = (await exportText(source.url, true)).text;
    const line = linesOf(later).findIndex((l) => l.id === saved[1].id) + 1;
    await expectRefused(
      later,
      line,
      /differs from the analysis with this id already in the database.*notes, version, updatedAt/,
    );
  });

  it('refuses a file holding one id twice with different content', async () => {
    const lines = linesOf(exported);
    const twin = { ...lines[2], title: 'another title' };
    const text = textOf([...lines.slice(0, -1), twin, { ...lines[lines.length - 1], analyses: saved.length + 1 }]);
    await expectRefused(text, lines.length, /differs from .*title/);
  });

  it('refuses a file that is not an export, and an empty one', async () => {
    await expectRefused('{"id":"x"}\n', 1, /not the header|"type"/);
    await expectRefused('', undefined, /empty/);
    const lines = linesOf(exported);
    await expectRefused(textOf([{ ...lines[0], version: 2 }, ...lines.slice(1)]), 1, /version 2 of the format/);
  });
});

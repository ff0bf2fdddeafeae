/**
 * A SQLite file removed or replaced while the store has it open: the connection would write on
 * into a file no one opens again, and every save acknowledged since would be gone at the next
 * start. The store notices at its next write or health check: the write fails as unavailability
 * (nothing acknowledged), health is false with the reason, and a store opened again on the path
 * (a restart) starts afresh on the path.
 */
import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, type OpenedStore, openStore } from '../../src/store/index.js';
import { recordingLogger, tempDir } from '../support/store-fixtures.js';

const BUDGETS = { maxCacheBytes: 1 << 24, maxAnalysisBytes: 1 << 20, maxAnalysesBytes: 0 };
const INPUT = { title: 't', notes: null, fen: null, pgn: null, queries: [], resultKeys: [] };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(file: string): Promise<OpenedStore> {
  const store = await openStore({ databaseUrl: `file:${file}`, ...BUDGETS }, { logger: recordingLogger() });
  cleanups.push(() => store.close());
  return store;
}

describe('a SQLite file removed or replaced while the store runs', () => {
  it('fails writes and health once the file is removed; a store opened again starts afresh', async () => {
    const { dir, cleanup } = tempDir('chess-paths-file-');
    cleanups.push(cleanup);
    const file = join(dir, 'data', 'x.db');
    const store = await open(file);
    await store.analyses.save(INPUT);
    expect(await store.healthy()).toBe(true);

    rmSync(join(dir, 'data'), { recursive: true, force: true });
    const refused = await store.analyses.save(INPUT).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DatabaseUnavailableError);
    expect((refused as DatabaseUnavailableError).reason).toBe(
      'the database file x.db was removed while the service ran: restart the service to create it again',
    );
    expect(await store.healthy()).toBe(false);
    expect(store.unavailableReason?.()).toMatch(/was removed while the service ran/);
    await store.close();

    const again = await open(file);
    await again.analyses.save(INPUT);
    expect((await again.analyses.list({ first: 10 })).totalCount).toBe(1);
  });

  it('fails health at once when the file is replaced, though a write succeeded just before', async () => {
    const { dir, cleanup } = tempDir('chess-paths-file-');
    cleanups.push(cleanup);
    const file = join(dir, 'x.db');
    const store = await open(file);
    await store.analyses.save(INPUT);
    copyFileSync(file, join(dir, 'copy.db'));
    renameSync(join(dir, 'copy.db'), file);
    expect(await store.healthy()).toBe(false);
    expect(store.unavailableReason?.()).toBe(
      'the database file x.db was replaced while the service ran: restart the service to open it',
    );
    await expect(store.analyses.save(INPUT)).rejects.toBeInstanceOf(DatabaseUnavailableError);
  });
});

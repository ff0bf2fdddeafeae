/**
 * The `-shm` fault. In SQLite's default (shared) WAL locking, the WAL index is a `-shm` file mapped
 * into memory, and truncating it while the process runs kills the process with SIGBUS (shown here
 * in a child process). The store's connection sets `locking_mode = EXCLUSIVE` before its first
 * access, so the WAL index lives in heap memory: no `-shm` file is created or mapped, and a `-shm`
 * file made, truncated or made unreadable beside the database changes nothing, and a process
 * killed in that mode loses no committed write. The cost, also shown: no other connection can
 * read the database while the store has it open.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PrismaClient } from '../../src/store/generated/prisma/client.js';
import { type OpenedStore, openStore, type StoreExtras } from '../../src/store/index.js';
import { questionOf, recordingLogger, syntheticResult, tempDir } from '../support/store-fixtures.js';

let dir: string;
let cleanup: () => void;
let file: string;
const open: OpenedStore[] = [];

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  file = join(dir, 'x.db');
});
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
  cleanup();
});

async function openX(extras: StoreExtras = {}): Promise<OpenedStore> {
  const store = await openStore(
    {
      databaseUrl: `file:${file}`,
      maxCacheBytes: 0,
      maxAnalysisBytes: 1 << 20,
      maxAnalysesBytes: 0,
      busyTimeoutMs: 50,
      retryMs: 50,
    },
    { logger: recordingLogger(), ...extras },
  );
  open.push(store);
  return store;
}

async function closeX(store: OpenedStore): Promise<void> {
  await store.close();
  open.splice(open.indexOf(store), 1);
}

/** Files this process has mapped whose path is `path` (Linux); undefined without /proc. */
function mappedFiles(path: string): string[] | undefined {
  if (!existsSync('/proc/self/maps')) return undefined;
  return readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .filter((line) => line.endsWith(` ${path}`));
}

/** Writes enough to go through the WAL, a checkpoint and back. */
async function exercise(store: OpenedStore, from: number): Promise<void> {
  const rows = Array.from({ length: 40 }, (_, i) => syntheticResult(from + i, 120_000)); // ~5 MB: past an auto-checkpoint
  await store.cache.putMany(rows);
  const got = await store.cache.getMany(rows.map(questionOf));
  expect(got.every((g, i) => g?.key === rows[i].key)).toBe(true);
  const { analysis, editToken } = await store.analyses.save({ title: `t${from}`, queries: [], resultKeys: [] });
  expect((await store.analyses.update(analysis.id, editToken, { notes: 'n' })).notes).toBe('n');
}

describe('-shm', () => {
  it('the fault: with shared locking, truncating the -shm file kills the process with SIGBUS', () => {
    const require = createRequire(import.meta.url);
    const script = (exclusive: boolean) => `
      const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
      const fs = require('node:fs');
      const file = ${JSON.stringify(join(dir, exclusive ? 'excl.db' : 'shared.db'))};
      const db = new Database(file);
      ${exclusive ? "db.pragma('locking_mode = EXCLUSIVE');" : ''}
      db.pragma('journal_mode = WAL');
      db.exec('CREATE TABLE t (x)');
      if (fs.existsSync(file + '-shm')) fs.truncateSync(file + '-shm', 0);
      for (let i = 0; i < 100; i++) db.prepare('INSERT INTO t VALUES (?)').run(i);
      console.log(db.prepare('SELECT COUNT(*) AS n FROM t').get().n);
    `;
    const shared = spawnSync(process.execPath, ['-e', script(false)], { encoding: 'utf8', timeout: 20_000 });
    expect(shared.signal).toBe('SIGBUS');
    const exclusive = spawnSync(process.execPath, ['-e', script(true)], { encoding: 'utf8', timeout: 20_000 });
    expect({ signal: exclusive.signal, status: exclusive.status, out: exclusive.stdout.trim() }).toEqual({
      signal: null,
      status: 0,
      out: '100',
    });
  });

  it('a process killed while holding the database exclusively loses no committed write', async () => {
    const require = createRequire(import.meta.url);
    const store = await openX();
    await closeX(store); // migrated, then closed: the child holds it now
    const script = `
      const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
      const db = new Database(${JSON.stringify(file)});
      db.pragma('locking_mode = EXCLUSIVE');
      const insert = db.prepare(\`INSERT INTO "Analysis" ("id", "title", "queries", "resultKeys", "editTokenHash", "bytes", "updatedAt") VALUES (?, 't', '[]', '[]', 'h', 300, CURRENT_TIMESTAMP)\`);
      for (let i = 0; i < 50; i++) insert.run('a' + i);
      process.kill(process.pid, 'SIGKILL');
    `;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(child.signal).toBe('SIGKILL');
    expect(existsSync(`${file}-wal`)).toBe(true); // the writes are still in the WAL only
    const reopened = await openX();
    expect(await reopened.totals()).toMatchObject({ analysisRows: 50, analysisBytes: 50 * 300 });
    expect((await reopened.analyses.list({ first: 100 })).totalCount).toBe(50);
  });

  it('the store maps no -shm file, and holds the database alone while it is open', async () => {
    const store = await openX();
    await exercise(store, 0);
    expect(existsSync(`${file}-shm`)).toBe(false);
    const maps = mappedFiles(`${file}-shm`);
    if (maps) expect(maps).toEqual([]);

    const other = new Database(file, { timeout: 50 });
    try {
      expect(() => other.prepare('SELECT COUNT(*) FROM "Analysis"').get()).toThrow(/database is locked/);
      // A second store on the same file cannot start either: it says the database is locked.
      await expect(openX()).rejects.toThrow(/database is locked/);
      await closeX(store);
      expect(other.prepare('SELECT COUNT(*) AS n FROM "Analysis"').get()).toEqual({ n: 1 });
    } finally {
      other.close();
    }
  });

  it('a -shm file made, truncated and made unreadable while the store runs changes nothing; a restart finds every write', async () => {
    const store = await openX();
    await exercise(store, 0);
    const shm = `${file}-shm`;
    writeFileSync(shm, Buffer.alloc(32 * 1024, 0xff));
    await exercise(store, 100);
    truncateSync(shm, 0);
    chmodSync(shm, 0o000);
    await exercise(store, 200);
    expect(await store.healthy()).toBe(true);
    const totals = await store.totals();
    expect(totals).toMatchObject({ cacheRows: 120, analysisRows: 3 });
    await closeX(store);

    chmodSync(shm, 0o600);
    const reopened = await openX();
    expect(await reopened.totals()).toEqual(totals);
    const again = await reopened.cache.getMany([0, 120, 239].map((i) => questionOf(syntheticResult(i, 120_000))));
    expect(again.map((g) => g?.layers.byteLength)).toEqual([120_000, 120_000, 120_000]);
    expect((await reopened.analyses.list({ first: 10 })).edges.map((e) => e.node.notes)).toEqual(['n', 'n', 'n']);
  });

  it('at start-up, waits up to the busy timeout for another process to close the database, then takes it and never waits again', async () => {
    await closeX(await openX());
    const require = createRequire(import.meta.url);
    // Another process holds a read lock until its stdin is closed, or for `ms` (the store's open
    // is synchronous: this process cannot tell it to let go meanwhile), then exits.
    const hold = async (ms?: number) => {
      const release = ms === undefined ? "process.stdin.on('end', release).resume();" : `setTimeout(release, ${ms});`;
      const child = spawn(process.execPath, [
        '-e',
        `const db = new (require(${JSON.stringify(require.resolve('better-sqlite3'))}))(${JSON.stringify(file)});
         db.exec('BEGIN'); db.prepare('SELECT COUNT(*) FROM "Analysis"').get();
         function release() { db.exec('COMMIT'); db.close(); process.exit(0); }
         console.log('locked'); ${release}`,
      ]);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      return { exited, release: () => child.stdin.end() };
    };

    const holder = await hold();
    try {
      const started = performance.now();
      await expect(openX({ busyTimeoutMs: 200 })).rejects.toThrow(/database is locked/);
      expect(performance.now() - started).toBeGreaterThanOrEqual(190); // it waited the busy timeout
    } finally {
      holder.release();
      await holder.exited;
    }

    // Let go 300 ms after taking it: the store waits for it (a long busy timeout, so that a
    // loaded machine cannot make it run out) and opens.
    const { exited } = await hold(300);
    const opening = performance.now();
    let prisma!: PrismaClient;
    const store = await openX({ busyTimeoutMs: 30_000, onConnected: (client) => void (prisma = client) });
    // It got the database once the other one let go, not at the end of its busy timeout.
    expect(performance.now() - opening).toBeLessThan(15_000);
    await exited;
    expect(await store.healthy()).toBe(true);
    const [{ timeout }] = await prisma.$queryRawUnsafe<{ timeout: bigint }[]>('PRAGMA busy_timeout');
    expect(Number(timeout)).toBe(0);
    // The other process left its -shm file behind; the store does not use it.
    const maps = mappedFiles(`${file}-shm`);
    if (maps) expect(maps).toEqual([]);
  });

  it('a bad budget is refused before the database is opened, so it is not left locked', async () => {
    await expect(
      openStore(
        { databaseUrl: `file:${file}`, maxCacheBytes: -1, maxAnalysisBytes: 1, maxAnalysesBytes: 0 },
        { logger: recordingLogger() },
      ),
    ).rejects.toThrow(/maxCacheBytes must be a non-negative integer/);
    const store = await openX();
    expect(await store.healthy()).toBe(true);
  });

  it('normal locking stays available for tools and tests that need a second connection', async () => {
    const store = await openX({ lockingMode: 'normal' });
    await store.analyses.save({ title: 'shared', queries: [], resultKeys: [] });
    const other = new Database(file, { readonly: true });
    try {
      expect(other.prepare('SELECT "title" FROM "Analysis"').pluck().all()).toEqual(['shared']);
    } finally {
      other.close();
    }
  });
});

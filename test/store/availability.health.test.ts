/**
 * Health is earned by real writes: the store runs a trial write when it opens (a database that
 * cannot be written opens unavailable, with SQLite's reason, and recovers by itself), and again
 * when the last successful write is older than `healthFreshMs`, so a disk that fills up while
 * nothing is written shows on `healthy()`. A full disk is made with `PRAGMA max_page_count` on
 * the store's own connection, after a VACUUM has removed the free pages the migrations left.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PrismaClient } from '../../src/store/generated/prisma/client.js';
import { DatabaseUnavailableError, type OpenedStore, openStore, type StoreExtras } from '../../src/store/index.js';
import { recordingLogger, tempDir } from '../support/store-fixtures.js';

let dir: string;
let cleanup: () => void;
const open: OpenedStore[] = [];

beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
  cleanup();
});

/** Lets the file grow no more: every write that needs a new page fails with SQLITE_FULL. */
async function fillDisk(prisma: PrismaClient): Promise<void> {
  await prisma.$executeRawUnsafe('VACUUM');
  const [{ page_count: pages }] = await prisma.$queryRawUnsafe<{ page_count: bigint }[]>('PRAGMA page_count');
  await prisma.$queryRawUnsafe(`PRAGMA max_page_count = ${Number(pages)}`);
}

async function mendDisk(prisma: PrismaClient): Promise<void> {
  await prisma.$queryRawUnsafe('PRAGMA max_page_count = 1073741823');
}

async function openWith(
  extras: StoreExtras & { retryMs?: number },
): Promise<{ store: OpenedStore; prisma: PrismaClient; probes: () => number }> {
  let prisma!: PrismaClient;
  let probes = 0;
  const { onConnected, retryMs, ...rest } = extras;
  const store = await openStore(
    {
      databaseUrl: `file:${join(dir, 'health.db')}`,
      maxCacheBytes: 1 << 20,
      maxAnalysisBytes: 1 << 20,
      maxAnalysesBytes: 0,
      retryMs: retryMs ?? 50,
    },
    {
      logger: recordingLogger(),
      // Prisma reports the statements that succeeded: these are the trial writes that passed.
      onQuery: (e) => {
        if (e.query.startsWith('INSERT INTO "CachedResult"') && e.params.includes('~health-probe')) probes++;
      },
      ...rest,
      onConnected: async (client) => {
        prisma = client;
        await onConnected?.(client);
      },
    },
  );
  open.push(store);
  return { store, prisma, probes: () => probes };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('health', () => {
  it('runs a trial write at open, and then vouches for health without another while writes are recent', async () => {
    const { store, probes } = await openWith({ healthFreshMs: 60_000 });
    expect(probes()).toBe(1);
    expect(store.unavailableReason?.()).toBeUndefined();
    expect(await store.healthy()).toBe(true);
    expect(probes()).toBe(1);
  });

  it('opens a database that cannot be written as unavailable, with its reason, and recovers by itself', async () => {
    const { store, prisma } = await openWith({ onConnected: fillDisk, retryMs: 300 });
    expect(store.unavailableReason?.()).toBe('database or disk is full'); // the trial write at open failed
    expect(await store.healthy()).toBe(false);
    // Reads work; writes are refused at once.
    expect((await store.analyses.list({ first: 1 })).totalCount).toBe(0);
    await expect(store.analyses.save({ title: 't', queries: [], resultKeys: [] })).rejects.toBeInstanceOf(
      DatabaseUnavailableError,
    );

    await mendDisk(prisma);
    await sleep(320); // retryMs
    expect(await store.healthy()).toBe(true);
    expect(store.unavailableReason?.()).toBeUndefined();
    expect((await store.analyses.save({ title: 't', queries: [], resultKeys: [] })).analysis.title).toBe('t');
  });

  it('notices a disk that filled up while nothing was written, once the last write is older than healthFreshMs', async () => {
    const { store, prisma, probes } = await openWith({ healthFreshMs: 100 });
    expect(await store.healthy()).toBe(true);
    await fillDisk(prisma);
    expect(await store.healthy()).toBe(true); // the trial at open still vouches
    expect(probes()).toBe(1);
    await sleep(120);
    expect(await store.healthy()).toBe(false); // a trial write ran, and failed
    expect(store.unavailableReason?.()).toBe('database or disk is full');

    await mendDisk(prisma);
    await sleep(60);
    expect(await store.healthy()).toBe(true);
    expect(probes()).toBe(2);
    // A successful save vouches again: no trial needed right after it.
    await store.analyses.save({ title: 'ok', queries: [], resultKeys: [] });
    const before = probes();
    expect(await store.healthy()).toBe(true);
    expect(probes()).toBe(before);
  });
});

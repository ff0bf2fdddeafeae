/**
 * Health is earned by real writes, on SQLite and on PostgreSQL alike: the store runs a trial
 * write when it opens (a database that cannot be written opens unavailable, with the database's
 * reason, and recovers by itself), and again when the last successful write is older than
 * `healthFreshMs`, so a disk that fills up while nothing is written shows on `healthy()`.
 *
 * A full disk is made from inside, through the store's own connection. SQLite: `PRAGMA
 * max_page_count`, after a VACUUM has removed the free pages the migrations left. PostgreSQL
 * (whose disk the test cannot fill without harming the machine's server): statement triggers that
 * raise PostgreSQL's own `disk_full` error (SQLSTATE 53100, the class of a full disk) on every
 * write to the store's tables, so the error reaches the store in the server's shape and words.
 * PostgreSQL's unreachable server is in `availability.postgres.test.ts`.
 *
 * The store's retry and freshness windows run on a clock the test moves (`now`), so no test
 * sleeps, and none depends on how fast the machine is.
 */
import { expect, it } from 'vitest';
import type { PrismaClient } from '../../src/store/generated/prisma/client.js';
import { DatabaseUnavailableError, type OpenedStore, type StoreExtras } from '../../src/store/index.js';
import { describeEachDatabase, type StoreDatabase, useTestStores } from '../support/postgres.js';

/** How a full disk is made and mended on each database, and the reason the store then gives. */
interface FullDisk {
  fill(prisma: PrismaClient): Promise<void>;
  mend(prisma: PrismaClient): Promise<void>;
  reason: string;
}

/** Lets the file grow no more: every write that needs a new page fails with SQLITE_FULL. */
const SQLITE_FULL: FullDisk = {
  async fill(prisma) {
    await prisma.$executeRawUnsafe('VACUUM');
    const [{ page_count: pages }] = await prisma.$queryRawUnsafe<{ page_count: bigint }[]>('PRAGMA page_count');
    await prisma.$queryRawUnsafe(`PRAGMA max_page_count = ${Number(pages)}`);
  },
  async mend(prisma) {
    await prisma.$queryRawUnsafe('PRAGMA max_page_count = 1073741823');
  },
  reason: 'database or disk is full',
};

const PG_FULL_MESSAGE = 'could not extend file "base/1/2": No space left on device';
const PG_TABLES = ['CachedResult', 'Analysis'];

/** Every insert, update or delete on the store's tables fails as on a full disk (SQLSTATE 53100). */
const POSTGRES_FULL: FullDisk = {
  async fill(prisma) {
    await prisma.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION "test_disk_full"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION '${PG_FULL_MESSAGE}' USING ERRCODE = 'disk_full'; END $$`,
    );
    for (const table of PG_TABLES) {
      await prisma.$executeRawUnsafe(
        `CREATE TRIGGER "test_disk_full" BEFORE INSERT OR UPDATE OR DELETE ON "${table}"
         FOR EACH STATEMENT EXECUTE FUNCTION "test_disk_full"()`,
      );
    }
  },
  async mend(prisma) {
    for (const table of PG_TABLES) await prisma.$executeRawUnsafe(`DROP TRIGGER "test_disk_full" ON "${table}"`);
  },
  reason: PG_FULL_MESSAGE,
};

describeEachDatabase('health', (database: StoreDatabase) => {
  const stores = useTestStores(database);
  const disk = database.dialect === 'sqlite' ? SQLITE_FULL : POSTGRES_FULL;
  /** The stores' clock, ms: it moves only when a test advances it. */
  let clock = 0;

  async function openWith(
    extras: StoreExtras & { retryMs?: number },
  ): Promise<{ store: OpenedStore; prisma: PrismaClient; probes: () => number }> {
    let prisma!: PrismaClient;
    let probes = 0;
    const { onConnected, retryMs, ...rest } = extras;
    clock = 1_000_000;
    const store = await stores.open(
      { retryMs: retryMs ?? 50 },
      {
        now: () => clock,
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
    return { store, prisma, probes: () => probes };
  }

  it('runs a trial write at open, and then vouches for health without another while writes are recent', async () => {
    const { store, probes } = await openWith({ healthFreshMs: 60_000 });
    expect(probes()).toBe(1);
    expect(store.unavailableReason?.()).toBeUndefined();
    expect(await store.healthy()).toBe(true);
    expect(probes()).toBe(1);
  });

  it('opens a database that cannot be written as unavailable, with its reason, and recovers by itself', async () => {
    const { store, prisma } = await openWith({ onConnected: disk.fill, retryMs: 300 });
    expect(store.unavailableReason?.()).toBe(disk.reason); // the trial write at open failed
    expect(await store.healthy()).toBe(false);
    // Reads work; writes are refused at once.
    expect((await store.analyses.list({ first: 1 })).totalCount).toBe(0);
    await expect(store.analyses.save({ title: 't', queries: [], resultKeys: [] })).rejects.toBeInstanceOf(
      DatabaseUnavailableError,
    );

    await disk.mend(prisma);
    clock += 299;
    expect(await store.healthy()).toBe(false); // no trial before retryMs, though the disk is mended
    clock += 1; // retryMs since the trial at open: healthy() runs a trial write, and it passes
    expect(await store.healthy()).toBe(true);
    expect(store.unavailableReason?.()).toBeUndefined();
    expect((await store.analyses.save({ title: 't', queries: [], resultKeys: [] })).analysis.title).toBe('t');
  });

  it('notices a disk that filled up while nothing was written, once the last write is older than healthFreshMs', async () => {
    const { store, prisma, probes } = await openWith({ healthFreshMs: 100 });
    expect(await store.healthy()).toBe(true);
    await disk.fill(prisma);
    clock += 99;
    expect(await store.healthy()).toBe(true); // the trial at open still vouches
    expect(probes()).toBe(1);
    clock += 1; // the last write is healthFreshMs old
    expect(await store.healthy()).toBe(false); // a trial write ran, and failed
    expect(store.unavailableReason?.()).toBe(disk.reason);

    await disk.mend(prisma);
    clock += 50; // retryMs
    expect(await store.healthy()).toBe(true);
    expect(probes()).toBe(2);
    // A successful save vouches again: no trial needed right after it.
    await store.analyses.save({ title: 'ok', queries: [], resultKeys: [] });
    const before = probes();
    expect(await store.healthy()).toBe(true);
    expect(probes()).toBe(before);
  });
});

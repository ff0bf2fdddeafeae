/**
 * The service's one SQLite connection, and the trial write that proves it can write.
 *
 * Prisma's better-sqlite3 adapter opens exactly one better-sqlite3 connection per client (the
 * factory's `connect`), and the migrator's own connection is closed before it opens. In WAL mode,
 * SQLite normally keeps the WAL index in a `-shm` file mapped into memory; when that file is
 * truncated (or replaced) while the process runs, the next access to the mapping kills the whole
 * process with SIGBUS, and no JavaScript can catch it. With `PRAGMA locking_mode = EXCLUSIVE` set
 * before the connection first reads the database, SQLite keeps the WAL index in heap memory and
 * never creates nor maps a `-shm` file: such faults cannot reach the process.
 *
 * The cost: the connection holds an exclusive lock on the database from its first access until it
 * closes, so no other process (a `sqlite3` shell, Prisma Studio, a second instance) can read it
 * meanwhile, and it cannot open it while another process has it open. `configureConnection` makes
 * that first access at open, waiting up to the busy timeout for other processes to let go (start-
 * up waits like the migrator; if they do not, opening fails and the server retries it later).
 * Once the lock is held no other connection can ever hold one against it, so the busy timeout is
 * then set to 0: nothing can make a statement wait for a lock while requests are served. `normal`
 * mode keeps SQLite's default (shared) locking and the busy timeout, for tests and tools that
 * need a second connection.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type Database from 'better-sqlite3';
import type { PrismaClient } from './generated/prisma/client.js';

/** How the service's connection locks the database (see the file comment). */
export type LockingMode = 'exclusive' | 'normal';

/**
 * The adapter factory that keeps the better-sqlite3 connection it opened (the adapter's `client`),
 * so the store can run a few hot statements of its own on it, prepared once (`./cache-reads.ts`).
 * It is the same connection Prisma uses: same lock, same transactions, same view of the data.
 */
export class BetterSqlite3Factory extends PrismaBetterSqlite3 {
  #database: Database.Database | undefined;

  override async connect(): ReturnType<PrismaBetterSqlite3['connect']> {
    const adapter = await super.connect();
    const client = (adapter as unknown as { client?: Database.Database }).client;
    this.#database = typeof client?.prepare === 'function' ? client : undefined;
    return adapter;
  }

  /** The connection last opened, while it is open (undefined before, after its close, or if the adapter hides it). */
  database(): Database.Database | undefined {
    return this.#database?.open ? this.#database : undefined;
  }
}

/** The adapter factory that sets `locking_mode = EXCLUSIVE` first on every connection it opens. */
class ExclusiveBetterSqlite3 extends BetterSqlite3Factory {
  override async connect(): ReturnType<PrismaBetterSqlite3['connect']> {
    const adapter = await super.connect();
    try {
      // Before any statement reads the database: only then is no shared-memory WAL index made.
      await adapter.executeScript('PRAGMA locking_mode = EXCLUSIVE;');
    } catch (error) {
      await adapter.dispose();
      throw error;
    }
    return adapter;
  }
}

/** Prisma's driver-adapter factory for the database file `file`. */
export function connectionFactory(
  file: string,
  options: { lockingMode: LockingMode; busyTimeoutMs: number },
): BetterSqlite3Factory {
  const config = { url: file, timeout: options.busyTimeoutMs };
  return options.lockingMode === 'exclusive' ? new ExclusiveBetterSqlite3(config) : new BetterSqlite3Factory(config);
}

/**
 * First statements on a new connection: `synchronous = NORMAL` (WAL is persistent, set by the
 * migrator), which reads the schema and so, in exclusive mode, takes the lock (waiting up to the
 * busy timeout); then, in exclusive mode, a busy timeout of 0.
 */
export async function configureConnection(prisma: PrismaClient, lockingMode: LockingMode): Promise<void> {
  await prisma.$queryRawUnsafe('PRAGMA synchronous = NORMAL');
  if (lockingMode === 'exclusive') await prisma.$queryRawUnsafe('PRAGMA busy_timeout = 0');
}

/**
 * A check that `file` is still the database file the service opened (same device and inode):
 * removed or replaced while the connection is open, it would be written on, unlinked, and every
 * write since lost at the next start. Returns why it cannot be trusted, or undefined.
 */
export function fileIdentityCheck(file: string): () => string | undefined {
  const opened = statSync(file);
  return () => {
    const now = statSync(file, { throwIfNoEntry: false });
    // Said on the public /health: the file's name without where it lives.
    const name = basename(file);
    if (now === undefined)
      return `the database file ${name} was removed while the service ran: restart the service to create it again`;
    if (now.ino !== opened.ino || now.dev !== opened.dev)
      return `the database file ${name} was replaced while the service ran: restart the service to open it`;
    return undefined;
  };
}

/** Key of the trial row; never a real cache key (those are hex). */
const PROBE_KEY = '~health-probe';

/**
 * The trial write: a cache row holding 8 KiB, inserted and deleted in one committed transaction,
 * so it needs the write lock, write access, new pages and room in the WAL, like any real write,
 * and leaves nothing behind (the running totals go up and back down in the same transaction).
 */
export async function probeWrite(prisma: PrismaClient): Promise<void> {
  await prisma.$transaction([
    prisma.$executeRawUnsafe(
      'INSERT INTO "CachedResult" ("key", "piece", "files", "ranks", "mask", "sources", "targets", "bytes", "layers") ' +
        "VALUES (?, 'KING', 1, 1, '0x0', '0x0', '0x0', 8192, zeroblob(8192)) ON CONFLICT DO NOTHING",
      PROBE_KEY,
    ),
    prisma.$executeRawUnsafe('DELETE FROM "CachedResult" WHERE "key" = ?', PROBE_KEY),
  ]);
}

/**
 * The database of `chess-paths export` and `import`, opened as the server opens its store, minus
 * the server's parts (availability, caches, the trial write): the project's own migrator first
 * (`../migrate.ts` or `../migrate-postgres.ts`), then a Prisma client.
 *
 * SQLite: one connection in `locking_mode=EXCLUSIVE`, as the service's (no `-shm` file), which
 * waits up to the busy timeout for other processes to let go of the file and then holds it until
 * the command ends. A running service holds its file the same way, so a command pointed at a
 * served SQLite file fails with `database is locked` after the busy timeout: the message says to
 * stop the service first. An export never creates a file: a URL naming no file is refused.
 *
 * PostgreSQL: a pool of two connections (`../connection-postgres.ts`); the migrator takes its
 * advisory lock only when something is pending, so a command runs beside live replicas.
 */
import { existsSync, mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { databaseFileFromUrl } from '../../config/kinds.js';
import { configureConnection, connectionFactory } from '../connection.js';
import { postgresAdapter, storeApplicationName } from '../connection-postgres.js';
import { type Dialect, dialectOf, redactUrl } from '../dialect.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaClient as PostgresPrismaClient } from '../generated/prisma-postgres/client.js';
import { MigrationError, migrate, type StoreLogger } from '../migrate.js';
import { migratePostgres } from '../migrate-postgres.js';
import { TransferError } from './format.js';

/** An open database for a transfer. */
export interface TransferDatabase {
  prisma: PrismaClient;
  dialect: Dialect;
  /** The URL for messages (password hidden). */
  where: string;
  close(): Promise<void>;
  /**
   * After `close`: removes the SQLite file this open created (with its journal) and the
   * directories it made for it, so a refused import leaves nothing behind. Nothing otherwise.
   */
  discard(): void;
}

/** Options of `openTransferDatabase`. */
export interface OpenTransferOptions {
  /** How long to wait for another process's lock (SQLite) or a connection (PostgreSQL), ms. */
  busyTimeoutMs: number;
  /** False for an export: a SQLite URL must name a file that exists. */
  create: boolean;
  logger?: StoreLogger;
  /** Migrations to apply instead of the package's (tests). */
  migrationsDir?: string;
}

const quiet: StoreLogger = { warn: () => undefined, error: () => undefined };

/** True for SQLite's `database is locked` (SQLITE_BUSY), from the driver or through Prisma. */
function isLocked(error: unknown): boolean {
  const text = `${(error as { code?: unknown } | null)?.code ?? ''} ${error instanceof Error ? error.message : ''}`;
  return /SQLITE_BUSY|database is locked/.test(text);
}

/** Migrates and opens the database at `url`; see the file comment. */
export async function openTransferDatabase(url: string, options: OpenTransferOptions): Promise<TransferDatabase> {
  const dialect = dialectOf(url);
  const where = redactUrl(url);
  if (!dialect) {
    throw new TransferError(
      `the database URL ${JSON.stringify(where)} is neither a file: URL (SQLite) nor postgresql://`,
    );
  }
  const logger = options.logger ?? quiet;
  const busyTimeoutMs = options.busyTimeoutMs;
  let prisma: PrismaClient;
  let discard: () => void = () => undefined;
  if (dialect === 'sqlite') {
    let file: string;
    try {
      file = databaseFileFromUrl(url);
    } catch (error) {
      throw new TransferError((error as Error).message);
    }
    if (!options.create && !existsSync(file)) {
      throw new TransferError(`there is no SQLite database at ${file} (check --database or DATABASE_URL)`);
    }
    const existed = existsSync(file);
    const madeDirectory = mkdirSync(dirname(file), { recursive: true });
    if (!existed) discard = () => removeCreated(file, madeDirectory);
    const locked = () =>
      new TransferError(
        `the SQLite database ${file} is in use by another process (database is locked, after waiting ${busyTimeoutMs} ms). ` +
          'A running chess-paths service holds its SQLite file alone: stop it, then run this command again.',
      );
    try {
      migrate(file, { migrationsDir: options.migrationsDir, busyTimeoutMs, logger });
    } catch (error) {
      if (isLocked(error) || (error instanceof MigrationError && /exclusive access/.test(error.message)))
        throw locked();
      throw error;
    }
    prisma = new PrismaClient({ adapter: connectionFactory(file, { lockingMode: 'exclusive', busyTimeoutMs }) });
    try {
      await prisma.$connect();
      await configureConnection(prisma, 'exclusive');
    } catch (error) {
      await prisma.$disconnect().catch(() => undefined);
      throw isLocked(error) ? locked() : error;
    }
  } else {
    const connectTimeoutMs = Math.max(busyTimeoutMs, 5000);
    try {
      await migratePostgres(url, { migrationsDir: options.migrationsDir, connectTimeoutMs, logger });
    } catch (error) {
      if (error instanceof MigrationError) throw error;
      throw new TransferError(`cannot open the PostgreSQL database ${where}: ${(error as Error).message}`);
    }
    const adapter = postgresAdapter(url, {
      applicationName: storeApplicationName(),
      poolSize: 2,
      connectTimeoutMs,
      logger,
    });
    // Both generated clients have the same models and methods (as in ../index.ts).
    prisma = new PostgresPrismaClient({ adapter }) as unknown as PrismaClient;
    await prisma.$connect();
  }
  return { prisma, dialect, where, close: () => prisma.$disconnect(), discard };
}

/** Removes the SQLite file `file` and its journals, then the directories up to `madeDirectory` (the first one made), if empty. */
function removeCreated(file: string, madeDirectory: string | undefined): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
  if (madeDirectory === undefined) return;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return; // not empty (something else was put there meanwhile): left as it is
    }
    if (dir === madeDirectory || dirname(dir) === dir) return;
  }
}

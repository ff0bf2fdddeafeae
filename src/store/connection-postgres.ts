/**
 * The service's PostgreSQL connections: a bounded `pg` pool (DATABASE_POOL_SIZE) behind Prisma's
 * pg driver adapter, and the trial write that proves the database writable. An operation that
 * finds every connection busy waits for one at most the connect timeout, then fails as busy
 * (SERVICE_UNAVAILABLE for that operation alone) instead of queueing without end. A server that
 * stops answering on an open connection cannot hold an operation longer than `QUERY_TIMEOUT_MS`
 * (and TCP keep-alive finds dead peers). Errors of idle connections (the server restarting) are
 * only logged: the pool replaces them, and the store recovers without a restart once the
 * database answers again. Every connection of one store carries the store's own
 * `application_name`, so that a close that cannot wait (`terminateBusyBackends`) can end exactly
 * the store's statements still running, from a connection of its own.
 */
import { randomBytes } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { PrismaClient } from './generated/prisma/client.js';
import type { StoreLogger } from './migrate.js';

/** Longest wait for the answer to one statement, ms (the largest is a chunk of a few hundred rows). */
const QUERY_TIMEOUT_MS = 15_000;

/** Options of the pool. */
export interface PostgresPoolOptions {
  /** Most connections (DATABASE_POOL_SIZE). */
  poolSize: number;
  /** Longest wait for a free connection or a new one, ms. */
  connectTimeoutMs: number;
  logger: StoreLogger;
  /** `application_name` of every connection (`storeApplicationName()`). */
  applicationName: string;
}

/** A name for one store's connections: the process and a random part, unique on the server. */
export function storeApplicationName(): string {
  return `chess-paths ${process.pid} ${randomBytes(4).toString('hex')}`;
}

/** Prisma's driver-adapter factory for the PostgreSQL database at `url`. */
export function postgresAdapter(url: string, options: PostgresPoolOptions): PrismaPg {
  const onError = (err: Error) => options.logger.warn({ err: err.message }, 'PostgreSQL connection error');
  return new PrismaPg(
    {
      connectionString: url,
      max: options.poolSize,
      connectionTimeoutMillis: options.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      query_timeout: QUERY_TIMEOUT_MS,
      statement_timeout: QUERY_TIMEOUT_MS,
      keepAlive: true,
      application_name: options.applicationName,
    },
    { onPoolError: onError, onConnectionError: onError },
  );
}

/** Key of the trial row; never a real cache key (those are hex). */
const PROBE_KEY = '~health-probe';

/**
 * The trial write on PostgreSQL: a cache row of 8 KiB inserted and deleted in one committed
 * transaction (a real write through the pool, the WAL and the triggers; nothing left behind).
 */
export async function probeWritePostgres(prisma: PrismaClient): Promise<void> {
  await prisma.$transaction([
    prisma.$executeRawUnsafe(
      'INSERT INTO "CachedResult" ("key", "piece", "files", "ranks", "mask", "sources", "targets", "bytes", "layers") ' +
        "VALUES ($1, 'KING', 1, 1, '0x0', '0x0', '0x0', 8192, decode(repeat('00', 8192), 'hex')) ON CONFLICT DO NOTHING",
      PROBE_KEY,
    ),
    prisma.$executeRawUnsafe('DELETE FROM "CachedResult" WHERE "key" = $1', PROBE_KEY),
  ]);
}

/**
 * Terminates the backends of the connections named `applicationName` that are not idle (running a
 * statement, or inside a transaction), from a connection of its own, within `timeoutMs`. A
 * terminated backend rolls back what it was doing: nothing of it commits later. Resolves with how
 * many were terminated.
 */
export async function terminateBusyBackends(url: string, applicationName: string, timeoutMs: number): Promise<number> {
  const ms = Math.max(1, Math.floor(timeoutMs));
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: ms, query_timeout: ms });
  client.on('error', () => undefined); // the answer or the timeout says what happened
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE application_name = $1 AND pid <> pg_backend_pid() AND state IS DISTINCT FROM 'idle'`,
      [applicationName],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

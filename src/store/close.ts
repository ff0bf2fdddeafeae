/**
 * Closing the store within a time. A graceful close (pending hit counts written, Prisma
 * disconnected) waits for whatever is still running: on PostgreSQL, a statement queued on a row
 * lock another connection holds waits out the statement timeout (15 s), and the pool's end waits
 * for it; a shutdown that must end within SHUTDOWN_TIMEOUT_MS cannot. So the graceful close gets
 * half of the time; then `force` ends what still runs (PostgreSQL: the store's busy backends are
 * terminated, so a write they were doing can never commit after its request was answered), and
 * the close gets the rest. If it still has not finished, it is left behind with a warning: the
 * process is about to exit, and a database that was never told is no worse off than after a crash
 * (SQLite rolls back an unfinished transaction when it next opens; PostgreSQL when the connection
 * drops).
 */
import type { StoreLogger } from './migrate.js';

/** How a bounded close ends. */
export interface CloseSteps {
  /** The whole time, ms; not finite: wait for the graceful close however long it takes. */
  timeoutMs: number;
  /** The graceful close. */
  graceful: () => Promise<void>;
  /** Ends what keeps the graceful close waiting, within the ms it is given (none: only wait). */
  force?: (timeoutMs: number) => Promise<void>;
  logger: StoreLogger;
}

/** True if `promise` settled within `ms` (not finite: waits). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    if (Number.isFinite(ms)) timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  const settled = promise.then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs the steps as the file comment says; rejects only when the graceful close failed in time. */
export async function closeWithin({ timeoutMs, graceful, force, logger }: CloseSteps): Promise<void> {
  const started = performance.now();
  const left = () => Math.max(0, timeoutMs - (performance.now() - started));
  const closing = graceful();
  if (await settlesWithin(closing, timeoutMs / 2)) return closing;
  if (force) {
    logger.warn({ timeoutMs }, 'database close is waiting for statements in flight: ending them');
    const forcing = force(left()).catch((err: unknown) =>
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'ending statements in flight failed'),
    );
    await settlesWithin(forcing, left());
  }
  if (await settlesWithin(closing, left())) return closing;
  logger.warn({ timeoutMs }, 'database did not close in time; left to close on its own');
}

/**
 * The records of idempotent saves (`IdempotentSave`), apart from the analysis store so that the
 * save itself stays readable: finding a retry's first save, recording a new one in the save's
 * transaction, recognising the loser of a race on one key, and purging expired records.
 *
 * A record lives `windowMs` from its `createdAt` (the store's clock, which tests move). A retry
 * within the window answers the first save; past it the record is expired, counts for nothing,
 * and a save with its key is a new save that replaces it. Expired records are also purged, at
 * most `PURGE_BATCH` a save, oldest first, so that no save pays for a large backlog.
 *
 * Two saves with one key at once: on SQLite the store's transactions run one after the other, so
 * the second finds the first's record. On PostgreSQL both may find none; the second's insert of
 * the record then waits on the primary key for the first to commit and fails as a unique
 * violation, which rolls its whole transaction back (its analysis too), and the save is tried
 * again: it now finds the first's record.
 */

import { IdempotencyKeyReusedError, IdempotentSaveGoneError } from './errors.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { hashIdempotencyKey, openEditToken, saveFingerprint, sealEditToken } from './idempotency-key.js';

/** Expired records deleted at most per save. */
export const PURGE_BATCH = 32;

/** The default window: a day. */
export const DEFAULT_IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

type Tx = Pick<PrismaClient, 'idempotentSave'>;
type AnalysisRow = NonNullable<Awaited<ReturnType<PrismaClient['analysis']['findUnique']>>>;

/** One save's idempotency: its key, the key's hash, the input's fingerprint. */
export interface IdempotentSaveKey {
  key: string;
  clientKey: string;
  keyHash: string;
  fingerprint: string;
}

/** The key and fingerprint of a save of `input` under `key`. */
export function idempotentSaveKey(
  key: string,
  clientKey: string,
  input: { title: string; notes: string | null; fen: string | null; pgn?: string | null; queries: unknown },
): IdempotentSaveKey {
  return { key, clientKey, keyHash: hashIdempotencyKey(key), fingerprint: saveFingerprint(input) };
}

/** A retry's first save: its analysis as it is now, and its edit token. */
export interface FirstSave {
  row: AnalysisRow;
  editToken: string;
}

/**
 * The first save of `save`'s key, when its record is live at `now`: throws
 * `IdempotencyKeyReusedError` when that save's input differs, `IdempotentSaveGoneError` when its
 * analysis was deleted since. An expired record is deleted here (in the caller's transaction), so
 * that the new save can take its key.
 */
export async function findFirstSave(
  tx: Pick<PrismaClient, 'idempotentSave' | 'analysis'>,
  save: IdempotentSaveKey,
  now: Date,
  windowMs: number,
): Promise<FirstSave | undefined> {
  const record = await tx.idempotentSave.findUnique({ where: { keyHash: save.keyHash } });
  if (!record) return undefined;
  const expiredBefore = new Date(now.getTime() - windowMs);
  if (record.createdAt <= expiredBefore) {
    await tx.idempotentSave.deleteMany({ where: { keyHash: save.keyHash, createdAt: { lte: expiredBefore } } });
    return undefined;
  }
  if (record.fingerprint !== save.fingerprint) throw new IdempotencyKeyReusedError(save.clientKey);
  const editToken = openEditToken(save.key, record.sealedToken, record.analysisId);
  if (editToken === undefined) {
    // The hash matched, so the key is the one that sealed it: the row was altered.
    throw new Error(`the record of idempotency key ${JSON.stringify(save.clientKey)} cannot be read back`);
  }
  const row = await tx.analysis.findUnique({ where: { id: record.analysisId } });
  if (!row) throw new IdempotentSaveGoneError(save.clientKey, record.analysisId);
  return { row, editToken };
}

/** Writes the record of a new save (in the save's transaction). */
export async function recordSave(
  tx: Tx,
  save: IdempotentSaveKey,
  analysisId: string,
  editToken: string,
  now: Date,
): Promise<void> {
  await tx.idempotentSave.create({
    data: {
      keyHash: save.keyHash,
      fingerprint: save.fingerprint,
      analysisId,
      sealedToken: sealEditToken(save.key, editToken, analysisId),
      createdAt: now,
    },
  });
}

/** True for the unique violation of a record's key: another save with the key committed first. */
export function isKeyTaken(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const level = current as {
      code?: unknown;
      kind?: unknown;
      meta?: { driverAdapterError?: { cause?: unknown } };
      cause?: unknown;
    };
    if (level.code === 'P2002' || level.kind === 'UniqueConstraintViolation') return true;
    current = level.meta?.driverAdapterError?.cause ?? level.cause;
  }
  return false;
}

/** Deletes at most `PURGE_BATCH` records expired at `now`, oldest first; how many went. */
export async function purgeExpired(prisma: Tx, now: Date, windowMs: number): Promise<number> {
  const expiredBefore = new Date(now.getTime() - windowMs);
  const expired = await prisma.idempotentSave.findMany({
    where: { createdAt: { lte: expiredBefore } },
    orderBy: { createdAt: 'asc' },
    take: PURGE_BATCH,
    select: { keyHash: true },
  });
  if (expired.length === 0) return 0;
  const { count } = await prisma.idempotentSave.deleteMany({
    where: { keyHash: { in: expired.map((r) => r.keyHash) }, createdAt: { lte: expiredBefore } },
  });
  return count;
}

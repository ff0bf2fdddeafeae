/**
 * Saved analyses in the `Analysis` table.
 *
 * The edit token is 256 random bits (base64url), returned once by `save` and stored only as its
 * SHA-256; a presented token is hashed and compared with `timingSafeEqual`. Changes and deletions
 * check the token inside the same transaction as the write, so a wrong token changes nothing.
 * Listing is newest first (`createdAt` desc, then `id` desc) with opaque keyset cursors. Every
 * update writes the next `version` by compare-and-set, so concurrent updates through several
 * replicas are applied one after the other, and an update may insist on the version it read.
 * An analysis at version 2^31 - 1, the last a 32-bit version holds, is not updated any more.
 *
 * Byte budgets (`./analysis-budget.ts`): an analysis larger than `maxAnalysisBytes` is refused
 * before anything is written; the total of all analyses (kept by triggers in `StoreTotals`) is
 * checked inside the transaction that writes, after the write (which takes the write lock), so a
 * save or update that would go over `maxAnalysesBytes` rolls back whole, and two concurrent saves
 * cannot both pass: the second sees the first one's bytes.
 *
 * A save may carry an idempotency key (`./idempotent-save.ts`): its record is written in the
 * save's transaction, and a retry with the same key within the window answers the first save's
 * analysis and token and stores nothing. The record is not counted in the byte budgets: it has a
 * fixed size whatever the client sends (hashes, an id, a sealed token: about 300 bytes), and it
 * expires with the window.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { InputError, type PathQuery } from '@chess-paths/engine';
import { AnalysisBudget, analysisBytes } from './analysis-budget.js';
import { decodeAnalysisCursor, encodeAnalysisCursor } from './analysis-cursor.js';
import { chunkBy, yieldToEventLoop } from './chunks.js';
import type { Dialect } from './dialect.js';
import { ConflictError, DatabaseBusyError, ForbiddenError, NotFoundError, VersionLimitError } from './errors.js';
import type { PrismaClient } from './generated/prisma/client.js';
import {
  DEFAULT_IDEMPOTENCY_WINDOW_MS,
  findFirstSave,
  idempotentSaveKey,
  isKeyTaken,
  purgeExpired,
  recordSave,
} from './idempotent-save.js';
import type { StoreLogger } from './migrate.js';
import { READ_ROWS } from './result-cache.js';
import { MAX_INT } from './transfer/fields.js';
import type {
  AnalysisPage,
  AnalysisPatch,
  AnalysisRecord,
  AnalysisStore,
  SavedAnalysis,
  SaveOptions,
} from './types.js';

interface AnalysisRow {
  id: string;
  title: string;
  notes: string | null;
  fen: string | null;
  pgn: string | null;
  queries: string;
  resultKeys: string;
  editTokenHash: string;
  bytes: number;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

/** Hex SHA-256 of an edit token. */
function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time check of a presented token against the stored hash. */
function tokenMatches(token: unknown, storedHash: string): boolean {
  if (typeof token !== 'string' || token.length === 0) return false;
  const presented = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

function toRecord(row: AnalysisRow): AnalysisRecord {
  return {
    id: row.id,
    title: row.title,
    notes: row.notes,
    fen: row.fen,
    pgn: row.pgn,
    queries: JSON.parse(row.queries) as PathQuery[],
    resultKeys: JSON.parse(row.resultKeys) as string[],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  };
}

function checkLengths(queries: readonly PathQuery[], resultKeys: readonly string[]): void {
  if (queries.length !== resultKeys.length) {
    throw new InputError(['resultKeys'], resultKeys.length, `must list one key per query (${queries.length})`);
  }
}

/** Attempts of an update that keeps meeting concurrent updates of the same analysis. */
const MAX_UPDATE_ATTEMPTS = 20;

/**
 * Most stored bytes of analyses one statement of a listing reads (a larger analysis is read
 * alone): a quarter of the cache's READ_BYTES, since the pages of several clients resume in the
 * same turn of the event loop, one chunk each.
 */
const LIST_READ_BYTES = 256 * 1024;

/** Attempts of a save that lost the race for its idempotency key (the next one reads the winner's record). */
const MAX_SAVE_ATTEMPTS = 3;

/** Budgets of `PrismaAnalysisStore`, in bytes, and its database's dialect. */
export interface AnalysisStoreOptions {
  /** The database's SQL dialect (default SQLite). */
  dialect?: Dialect;
  /** Most stored bytes of one analysis. */
  maxAnalysisBytes: number;
  /** Most stored bytes of all analyses together (0: no limit). */
  maxAnalysesBytes: number;
  /** How long an idempotency key is kept, ms (default 24 h). */
  idempotencyWindowMs?: number;
  /** The clock of idempotency records (default the system's; tests move it past the window). */
  clock?: () => Date;
  /** Where a failed purge of expired idempotency records is reported (default: nowhere). */
  logger?: StoreLogger;
}

/** Saved analyses (SQLite or PostgreSQL); see the file comment. */
export class PrismaAnalysisStore implements AnalysisStore {
  readonly #prisma: PrismaClient;
  readonly #budget: AnalysisBudget;
  readonly #dialect: Dialect;
  readonly #windowMs: number;
  readonly #clock: () => Date;
  readonly #logger: StoreLogger | undefined;

  constructor(prisma: PrismaClient, options: AnalysisStoreOptions) {
    this.#prisma = prisma;
    this.#dialect = options.dialect ?? 'sqlite';
    this.#budget = new AnalysisBudget(options.maxAnalysisBytes, options.maxAnalysesBytes);
    const windowMs = options.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS;
    if (!Number.isSafeInteger(windowMs) || windowMs < 1) {
      throw new RangeError(`idempotencyWindowMs must be a positive integer, got ${windowMs}`);
    }
    this.#windowMs = windowMs;
    this.#clock = options.clock ?? (() => new Date());
    this.#logger = options.logger;
  }

  async save(
    input: {
      title: string;
      notes?: string | null;
      fen?: string | null;
      pgn?: string | null;
      queries: PathQuery[];
      resultKeys: string[];
    },
    options: SaveOptions = {},
  ): Promise<SavedAnalysis> {
    checkLengths(input.queries, input.resultKeys);
    const fields = {
      title: input.title,
      notes: input.notes ?? null,
      fen: input.fen ?? null,
      pgn: input.pgn ?? null,
      queries: JSON.stringify(input.queries),
      resultKeys: JSON.stringify(input.resultKeys),
    };
    const bytes = analysisBytes(fields);
    const key = options.idempotencyKey;
    const idempotent =
      key === undefined
        ? undefined
        : idempotentSaveKey(key, options.clientKey ?? key, { ...fields, queries: input.queries });
    if (!idempotent) this.#budget.checkOne(bytes);
    const editToken = randomBytes(32).toString('base64url');
    const id = randomUUID();
    for (let attempt = 1; ; attempt++) {
      try {
        const saved = await this.#prisma.$transaction(async (tx) => {
          const now = this.#clock();
          if (idempotent) {
            const first = await findFirstSave(tx, idempotent, now, this.#windowMs);
            if (first) return { analysis: toRecord(first.row), editToken: first.editToken, replayed: true };
            this.#budget.checkOne(bytes);
          }
          const created = await tx.analysis.create({
            data: { id, ...fields, bytes, editTokenHash: hashToken(editToken), createdAt: now, updatedAt: now },
          });
          if (idempotent) await recordSave(tx, idempotent, id, editToken, now);
          await this.#budget.checkTotal(tx, bytes, 0);
          return { analysis: toRecord(created), editToken, replayed: false };
        });
        if (!saved.replayed) await this.#purge();
        return saved;
      } catch (error) {
        // Another save with this key committed first: the next attempt answers its result.
        if (idempotent && attempt < MAX_SAVE_ATTEMPTS && isKeyTaken(error)) continue;
        throw error;
      }
    }
  }

  /** Deletes a few expired idempotency records; a failure leaves them for a later save. */
  async #purge(): Promise<void> {
    try {
      await purgeExpired(this.#prisma, this.#clock(), this.#windowMs);
    } catch (error) {
      this.#logger?.warn({ err: error }, 'purging expired idempotency records failed; a later save tries again');
    }
  }

  async get(id: string): Promise<AnalysisRecord | null> {
    const row = await this.#prisma.analysis.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  async list(args: { first: number; after?: string | null }): Promise<AnalysisPage> {
    const { first } = args;
    if (!Number.isInteger(first) || first < 0) {
      throw new InputError(['first'], first, 'must be a non-negative integer');
    }
    const after = args.after == null ? null : decodeAnalysisCursor(args.after);
    const where = after
      ? {
          OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
        }
      : {};
    // The page's ids and sizes first, then its rows in chunks of LIST_READ_BYTES with the event
    // loop let run between them: a page of 50 analyses near MAX_ANALYSIS_BYTES is tens of
    // megabytes, which one synchronous SQLite read would hold the event loop for. A row deleted
    // between the two reads is left out of the page.
    const [sizes, totalCount] = await this.#prisma.$transaction([
      this.#prisma.analysis.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: first + 1,
        select: { id: true, bytes: true },
      }),
      this.#prisma.analysis.count(),
    ]);
    const byId = new Map<string, AnalysisRow>();
    for (const [n, chunk] of chunkBy(sizes.slice(0, first), READ_ROWS, LIST_READ_BYTES, (row) => row.bytes).entries()) {
      if (n > 0) await yieldToEventLoop();
      const rows = await this.#prisma.analysis.findMany({ where: { id: { in: chunk.map((row) => row.id) } } });
      for (const row of rows) byId.set(row.id, row);
    }
    const page = sizes.slice(0, first).flatMap(({ id }) => byId.get(id) ?? []);
    const edges = page.map((row) => ({ cursor: encodeAnalysisCursor(row.createdAt, row.id), node: toRecord(row) }));
    return {
      edges,
      hasNextPage: sizes.length > first,
      endCursor: edges.length > 0 ? edges[edges.length - 1].cursor : null,
      totalCount,
    };
  }

  async update(id: string, editToken: string, patch: AnalysisPatch, expectedVersion?: number): Promise<AnalysisRecord> {
    // Compare-and-set on the version: a concurrent update (another request, another replica)
    // between the read and the write makes the write match nothing; the whole change is then
    // worked out again on what that update wrote, so neither is lost.
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#prisma.$transaction(async (tx) => {
        // On PostgreSQL, concurrent updates of one analysis queue on its row lock (SQLite has one
        // writer anyway), so the compare-and-set below only fails in a race it cannot see.
        if (this.#dialect === 'postgresql') {
          await tx.$queryRawUnsafe('SELECT 1 FROM "Analysis" WHERE "id" = $1 FOR UPDATE', id);
        }
        const row = await tx.analysis.findUnique({ where: { id } });
        if (!row) throw new NotFoundError(id);
        if (!tokenMatches(editToken, row.editTokenHash)) throw new ForbiddenError(id);
        if (expectedVersion !== undefined && expectedVersion !== row.version) {
          throw new ConflictError(expectedVersion, row.version);
        }
        const current = toRecord(row);
        checkLengths(patch.queries ?? current.queries, patch.resultKeys ?? current.resultKeys);
        const data: {
          title?: string;
          notes?: string | null;
          fen?: string | null;
          pgn?: string | null;
          queries?: string;
          resultKeys?: string;
        } = {};
        if (patch.title !== undefined) data.title = patch.title;
        if (patch.notes !== undefined) data.notes = patch.notes;
        if (patch.fen !== undefined) data.fen = patch.fen;
        if (patch.pgn !== undefined) data.pgn = patch.pgn;
        if (patch.queries !== undefined) data.queries = JSON.stringify(patch.queries);
        if (patch.resultKeys !== undefined) data.resultKeys = JSON.stringify(patch.resultKeys);
        if (Object.keys(data).length === 0) return current;
        // The next version must still fit the API's Int and PostgreSQL's INTEGER: past it,
        // PostgreSQL would fail the write with an overflow, and SQLite would store a version that
        // no listing of analyses could serve.
        if (row.version >= MAX_INT) throw new VersionLimitError(row.version, MAX_INT);
        const bytes = analysisBytes({
          title: data.title ?? row.title,
          notes: data.notes !== undefined ? data.notes : row.notes,
          fen: data.fen !== undefined ? data.fen : row.fen,
          pgn: data.pgn !== undefined ? data.pgn : row.pgn,
          queries: data.queries ?? row.queries,
          resultKeys: data.resultKeys ?? row.resultKeys,
        });
        this.#budget.checkOne(bytes);
        const written = { ...data, bytes, updatedAt: new Date(), version: row.version + 1 };
        const { count } = await tx.analysis.updateMany({ where: { id, version: row.version }, data: written });
        if (count === 0) return undefined; // changed meanwhile: work it out again
        await this.#budget.checkTotal(tx, bytes, row.bytes);
        return toRecord({ ...row, ...written });
      });
      if (outcome) return outcome;
      if (attempt >= MAX_UPDATE_ATTEMPTS) {
        throw new DatabaseBusyError(`the analysis kept changing under ${MAX_UPDATE_ATTEMPTS} attempts to update it`);
      }
    }
  }

  async authorize(id: string, editToken: string): Promise<void> {
    const row = await this.#prisma.analysis.findUnique({ where: { id }, select: { editTokenHash: true } });
    if (!row) throw new NotFoundError(id);
    if (!tokenMatches(editToken, row.editTokenHash)) throw new ForbiddenError(id);
  }

  /**
   * Deletes an analysis; true once it is gone. An unknown id (never saved, or deleted already) is
   * `NotFoundError`, as for `update`: a client retrying a delete learns the analysis is gone.
   */
  async delete(id: string, editToken: string): Promise<boolean> {
    return this.#prisma.$transaction(async (tx) => {
      const row = await tx.analysis.findUnique({ where: { id }, select: { editTokenHash: true } });
      if (!row) throw new NotFoundError(id);
      if (!tokenMatches(editToken, row.editTokenHash)) throw new ForbiddenError(id);
      // deleteMany: a delete that lost a race to another one finds nothing, which is not-found too.
      const { count } = await tx.analysis.deleteMany({ where: { id } });
      if (count === 0) throw new NotFoundError(id);
      return true;
    });
  }
}

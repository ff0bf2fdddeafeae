/**
 * The persistent result cache: the `CachedResult` table, with no memory layer of its own (the
 * service keeps hot results in memory above the store).
 *
 * Rows hold the caller's encoded layers as opaque bytes: the store never decodes them (the caller
 * does, off the event loop). A row is returned only when its stored canonical inputs equal the
 * requested problem and its path count is decimal text; anything else is a miss, logged, and is
 * overwritten by the next put.
 *
 * Every statement is bounded work (better-sqlite3 runs it on the event loop, see `./chunks.ts`):
 * - `getMany` first reads the sizes of the wanted rows (`SIZE_KEYS` keys a statement, without
 *   touching their BLOBs), then the rows themselves in chunks of at most `READ_ROWS` rows and
 *   `READ_BYTES` bytes, yielding to the event loop between statements. On SQLite the reads of
 *   whole rows run as statements prepared once on Prisma's own connection (`./cache-reads.ts`):
 *   the same SQL without Prisma's per-query planning.
 * - `putMany` writes multi-row upserts of at most `WRITE_ROWS` rows and `WRITE_BYTES` bytes, one
 *   transaction each with the first eviction statement (`./cache-budget.ts`), yielding between
 *   them; when that statement deleted its maximum, more eviction transactions follow. On SQLite
 *   the same statements run without Prisma (`./cache-writes.ts`) when no transaction is open.
 * - Hits are counted in memory and written in the background (`./hit-counter.ts`).
 * - `mayHold` answers from the filter of written keys (`./written-keys.ts`), loaded at open and
 *   fed by every write, so that the caller need not look up a key never written; on PostgreSQL it
 *   reads what other replicas wrote every second and is loaded whole every ten minutes.
 */
import type { Piece } from '@chess-paths/engine';
import { CacheBudget, cacheRowBytes, EVICT_ROWS } from './cache-budget.js';
import { type CachedRow, ROW_COLUMNS, type SqliteRowReads } from './cache-reads.js';
import type { SqliteRowWrites } from './cache-writes.js';
import { chunkBy, yieldToEventLoop } from './chunks.js';
import { type Dialect, placeholders } from './dialect.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { HitCounter } from './hit-counter.js';
import type { StoreLogger } from './migrate.js';
import type { PreparedProblem, ResultCache, StoredResult } from './types.js';
import { WrittenKeys } from './written-keys.js';

/** Options of `PrismaResultCache`. */
export interface ResultCacheOptions {
  /** Most bytes of the table (0: no limit). */
  maxCacheBytes: number;
  logger: StoreLogger;
  /** Delay before pending hit counts are written (ms). */
  hitFlushDelayMs?: number;
  /** Runs the background writes of hit counts (the store passes its availability guard). */
  guardWrite?: <T>(write: () => Promise<T>) => Promise<T>;
  /** The database's SQL dialect (default SQLite). */
  dialect?: Dialect;
  /** SQLite: whole rows read by a statement prepared once (`./cache-reads.ts`) rather than through Prisma. */
  rowReads?: SqliteRowReads;
  /** SQLite: rows written by statements prepared once (`./cache-writes.ts`) rather than through Prisma. */
  rowWrites?: SqliteRowWrites;
}

/** Keys per size lookup (the BLOBs are not read). */
export const SIZE_KEYS = 256;
/** Most rows per read of whole rows (small 8 x 8 rows: a batch of a few hundred in one read). */
export const READ_ROWS = 256;
/** Most bytes (as stored in `bytes`) per read of whole rows; a larger row is read alone. */
export const READ_BYTES = 1024 * 1024;
/**
 * Boards up to this many squares have small rows by construction (three 256-digit bitboards,
 * layers of at most 1,024 squares): such a row is at most `SMALL_ROW_BYTES`, and a row that
 * claims more is refused at write. Their lookups read whole rows at once, with no size lookup.
 */
export const SMALL_BOARD_SQUARES = 1024;
/** Most bytes of a row of a small board. */
export const SMALL_ROW_BYTES = 8 * 1024;
/** Rows of small boards per read: within READ_BYTES whatever they hold. */
export const SMALL_READ_ROWS = Math.floor(READ_BYTES / SMALL_ROW_BYTES);
/** Most rows per write transaction. */
export const WRITE_ROWS = 128;
/** Most bytes per write transaction; a larger row is written alone. */
export const WRITE_BYTES = 512 * 1024;

const PARAMS_PER_ROW = 13;
const INSERT_HEAD =
  'INSERT INTO "CachedResult" ("key", "piece", "files", "ranks", "mask", "sources", "targets", "distance", ' +
  '"pathCount", "bytes", "layers", "createdAt", "hitCount", "lastHitAt") VALUES';
const INSERT_ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)';
// An existing row (a corrupted one, or one another request stored meanwhile) is overwritten but
// keeps its createdAt and hitCount.
const INSERT_TAIL =
  'ON CONFLICT ("key") DO UPDATE SET "piece" = excluded."piece", "files" = excluded."files", ' +
  '"ranks" = excluded."ranks", "mask" = excluded."mask", "sources" = excluded."sources", ' +
  '"targets" = excluded."targets", "distance" = excluded."distance", "pathCount" = excluded."pathCount", ' +
  '"bytes" = excluded."bytes", "layers" = excluded."layers", "lastHitAt" = excluded."lastHitAt"';

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/**
 * The `piece` column's text: the piece, and for a fairy piece its canonical Betza text after a
 * colon (`FAIRY:NN`), so a fairy row needs no column of its own and its inputs are still compared.
 */
export function pieceColumn(problem: StoredResult['problem']): string {
  return problem.betza === undefined ? problem.piece : `${problem.piece}:${problem.betza}`;
}

/** The piece and Betza text of a `piece` column (`pieceColumn` read back). */
export function readPieceColumn(text: string): { piece: Piece; betza?: string } {
  const colon = text.indexOf(':');
  return colon < 0 ? { piece: text as Piece } : { piece: text.slice(0, colon) as Piece, betza: text.slice(colon + 1) };
}

/** Same canonical inputs. */
export function sameProblem(a: StoredResult['problem'], b: StoredResult['problem']): boolean {
  return (
    a.piece === b.piece &&
    a.betza === b.betza &&
    a.files === b.files &&
    a.ranks === b.ranks &&
    a.mask === b.mask &&
    a.sources === b.sources &&
    a.targets === b.targets
  );
}

const ROW_SELECT = Object.fromEntries(ROW_COLUMNS.map((c) => [c, true])) as Record<(typeof ROW_COLUMNS)[number], true>;

/** The row as a `StoredResult`; throws on anything malformed. */
function toStored(row: CachedRow): StoredResult {
  if (row.pathCount !== null && !DECIMAL.test(row.pathCount))
    throw new Error(`bad pathCount ${row.pathCount.slice(0, 40)}`);
  if (row.distance !== null && !(Number.isSafeInteger(row.distance) && row.distance >= 0))
    throw new Error(`bad distance ${row.distance}`);
  if (!(row.layers instanceof Uint8Array)) throw new Error('layers are not bytes');
  return {
    key: row.key,
    problem: {
      ...readPieceColumn(row.piece),
      files: row.files,
      ranks: row.ranks,
      mask: row.mask,
      sources: row.sources,
      targets: row.targets,
    },
    distance: row.distance,
    layers: row.layers,
    pathCount: row.pathCount === null ? undefined : BigInt(row.pathCount),
  };
}

/** The cache; see the file comment. */
export class PrismaResultCache implements ResultCache {
  readonly #prisma: PrismaClient;
  readonly #options: ResultCacheOptions;
  readonly #dialect: Dialect;
  readonly #budget: CacheBudget;
  readonly #hits: HitCounter;
  readonly #written: WrittenKeys;

  constructor(prisma: PrismaClient, options: ResultCacheOptions) {
    this.#prisma = prisma;
    this.#options = options;
    this.#budget = new CacheBudget(prisma, options.maxCacheBytes, options.dialect);
    this.#dialect = options.dialect ?? 'sqlite';
    this.#hits = new HitCounter(prisma, options);
    this.#written = new WrittenKeys(prisma);
  }

  /** Loads the filter of written keys (failure logged: all looked up); on PostgreSQL, refreshes it. */
  loadWrittenKeys(): Promise<void> {
    return this.#written.start(this.#dialect === 'postgresql', this.#options.logger);
  }

  /** False when no row for `key` was ever written (as far as the filter of written keys knows). */
  mayHold(key: string): boolean {
    return this.#written.mayHold(key);
  }

  /** Whether `mayHold` is exact: loaded, and no other process writes the table (SQLite). */
  get exactKeys(): boolean {
    return this.#written.ready && this.#dialect === 'sqlite';
  }

  /** Keys held by the filter of written keys and the bytes of its table. */
  writtenKeysSize(): { entries: number; bytes: number } {
    return this.#written.size();
  }

  async getMany(problems: readonly PreparedProblem[]): Promise<(StoredResult | undefined)[]> {
    const out: (StoredResult | undefined)[] = new Array(problems.length).fill(undefined);
    const wanted = new Map<string, number[]>();
    problems.forEach(({ key }, i) => {
      const indices = wanted.get(key);
      if (indices) indices.push(i);
      else wanted.set(key, [i]);
    });
    let statements = 0;
    const pace = () => (statements++ > 0 ? yieldToEventLoop() : Promise.resolve());
    const read = async (chunk: readonly string[]) => {
      await pace();
      const rows =
        this.#options.rowReads?.read(chunk) ??
        (await this.#prisma.cachedResult.findMany({ where: { key: { in: [...chunk] } }, select: ROW_SELECT }));
      for (const row of rows) this.#use(row, problems, wanted.get(row.key) ?? [], out);
    };

    // Small boards: whole rows at once (their size is bounded); large ones: sizes first.
    const small: string[] = [];
    const keys: string[] = [];
    for (const [key, [first]] of wanted) {
      const { files, ranks } = problems[first].problem;
      (files * ranks <= SMALL_BOARD_SQUARES ? small : keys).push(key);
    }
    for (let start = 0; start < small.length; start += SMALL_READ_ROWS)
      await read(small.slice(start, start + SMALL_READ_ROWS));

    for (let start = 0; start < keys.length; start += SIZE_KEYS) {
      await pace();
      const sizes = await this.#sizes(keys.slice(start, start + SIZE_KEYS));
      for (const chunk of chunkBy(sizes, READ_ROWS, READ_BYTES, (row) => row.bytes))
        await read(chunk.map((row) => row.key));
    }
    return out;
  }

  async putMany(results: readonly StoredResult[]): Promise<void> {
    const fresh = new Map<string, { result: StoredResult; bytes: number }>();
    for (const result of results) {
      if (fresh.has(result.key)) continue;
      const bytes = cacheRowBytes(result);
      const { files, ranks } = result.problem;
      if (files * ranks <= SMALL_BOARD_SQUARES && bytes > SMALL_ROW_BYTES) {
        this.#options.logger.warn(
          { key: result.key, bytes, limit: SMALL_ROW_BYTES },
          'row of a small board larger than any encoding makes; not stored',
        );
      } else if (this.#budget.fits(bytes)) fresh.set(result.key, { result, bytes });
      else
        this.#options.logger.warn(
          { key: result.key, bytes, maxCacheBytes: this.#budget.maxBytes },
          'result larger than the whole cache budget; not stored',
        );
    }
    if (fresh.size === 0) return;
    // Hits first, so that eviction sees when the rows were last used.
    if (this.#hits.pending > 0) await this.flush();

    const chunks = chunkBy([...fresh.values()], WRITE_ROWS, WRITE_BYTES, (row) => row.bytes);
    for (let c = 0; c < chunks.length; c++) {
      if (c > 0) await yieldToEventLoop();
      const now = new Date();
      const params: unknown[] = [];
      for (const { result, bytes } of chunks[c]) {
        const { problem } = result;
        params.push(
          result.key,
          pieceColumn(problem),
          problem.files,
          problem.ranks,
          problem.mask,
          problem.sources,
          problem.targets,
          result.distance,
          result.pathCount === undefined ? null : result.pathCount.toString(),
          bytes,
          result.layers,
          now,
          now,
        );
      }
      const rows = params.length / PARAMS_PER_ROW;
      const sql = placeholders(
        this.#dialect,
        `${INSERT_HEAD} ${Array.from({ length: rows }, () => INSERT_ROW).join(', ')} ${INSERT_TAIL}`,
      );
      const direct = this.#options.rowWrites?.write({ upsertSql: sql, values: params, evict: this.#budget.evictSql() });
      if (direct !== undefined) {
        this.#written.add(chunks[c].map(({ result }) => result.key));
        if (direct >= EVICT_ROWS) {
          await yieldToEventLoop();
          await this.#budget.evict();
        }
        continue;
      }
      const upsert = this.#prisma.$executeRawUnsafe(sql, ...params);
      const evict = this.#budget.evictStatement();
      const statements = evict ? [upsert, evict] : [upsert];
      const [, deleted] = await this.#prisma.$transaction(statements);
      this.#written.add(chunks[c].map(({ result }) => result.key));
      if (deleted !== undefined && deleted >= EVICT_ROWS) {
        await yieldToEventLoop();
        await this.#budget.evict();
      }
    }
  }

  /**
   * Runs the size lookup once for a key no row has: Prisma plans a query the first time it meets
   * it (near 100 ms of the event loop). A failure is left to the first real lookup.
   */
  async warmUp(): Promise<void> {
    try {
      await this.#sizes(['']);
    } catch {
      // The first real lookup meets the same failure and reports it.
    }
  }

  /** The stored size of each row of `keys` there is (the lookup a large board's read starts with). */
  #sizes(keys: readonly string[]): Promise<{ key: string; bytes: number }[]> {
    return this.#prisma.cachedResult.findMany({
      where: { key: { in: [...keys] } },
      select: { key: true, bytes: true },
    });
  }

  /** Writes pending hit counts now (also waits for a flush in progress). */
  flush(): Promise<void> {
    return this.#hits.flush();
  }

  /** Writes what is pending and stops the background timer; the cache is unusable afterwards. */
  close(): Promise<void> {
    this.#written.close();
    return this.#hits.close();
  }

  /** Serves `row` to the questions at `indices` that asked for exactly its problem. */
  #use(
    row: CachedRow,
    problems: readonly PreparedProblem[],
    indices: number[],
    out: (StoredResult | undefined)[],
  ): void {
    let stored: StoredResult;
    try {
      stored = toStored(row);
    } catch (error) {
      this.#options.logger.warn({ key: row.key, err: error }, 'unreadable cache row treated as a miss');
      return;
    }
    for (const i of indices) {
      if (!sameProblem(stored.problem, problems[i].problem)) {
        this.#options.logger.warn({ key: row.key }, 'cache row for this key holds another problem; treated as a miss');
        continue;
      }
      out[i] = stored;
      this.#hits.count(row.key);
    }
  }
}

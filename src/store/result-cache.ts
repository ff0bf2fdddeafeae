/**
 * The persistent result cache: the `CachedResult` table behind a small in-memory LRU.
 *
 * - `getMany`: keys the LRU holds cost nothing; the rest are one `findMany`. A row is used only
 *   when its stored canonical inputs equal the requested problem and it decodes and rebuilds
 *   (`restoreResult`) consistently; anything else is a miss (and is overwritten by the next put).
 * - Hits are counted in memory and written in the background (one transaction per flush, a short
 *   delay after the hits, or inside the next `putMany`, or at close); errors go to the logger.
 * - `putMany`: one transaction holding the multi-row upsert of the new results, the pending hit
 *   counts, and the eviction of least recently used rows beyond `maxCacheRows`.
 *
 * Layers are stored compactly: each layer bitboard (`0x` + ceil(files*ranks/4) hex digits) as
 * ceil(digits/2) big-endian bytes, all layers concatenated in one BLOB, with their count. The path
 * count is stored only when it is already known (`knownPathCount`): counting is lazy, and storing
 * must not pay for a field nobody asked for, so it is NULL otherwise and computed on read if asked.
 */
import { LRUCache } from 'lru-cache';
import { restoreResult } from '../engine/index.js';
import type { CanonicalProblem, PathResult, Piece } from '../engine/types.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { StoreLogger } from './migrate.js';
import { DatabaseUnavailableError, type PreparedProblem, type ResultCache } from './types.js';

/** What a cache entry holds: enough to rebuild the result without solving. */
export interface StoredEntry {
  problem: CanonicalProblem;
  distance: number | null;
  /** Layer bitboards, as the engine prints them. */
  layers: string[];
  /** Undefined when it was not known when stored. */
  pathCount: bigint | undefined;
}

export interface ResultCacheOptions {
  /** Entries of the in-memory LRU; 0 disables it. */
  lruSize: number;
  /** Maximum rows of the table. */
  maxCacheRows: number;
  logger: StoreLogger;
  /** Delay before pending hit counts are written (ms). */
  hitFlushDelayMs?: number;
  /** Runs the background writes of hit counts (the store passes its availability guard). */
  guardWrite?: <T>(write: () => Promise<T>) => Promise<T>;
}

/** Keys per `findMany`: far below SQLite's limit of bound parameters. */
const KEYS_PER_QUERY = 10_000;
/** Rows per INSERT statement (13 bound parameters each). */
const ROWS_PER_INSERT = 500;
const PARAMS_PER_ROW = 13;
const INSERT_HEAD =
  'INSERT INTO "CachedResult" ("key", "piece", "files", "ranks", "mask", "sources", "targets", "distance", ' +
  '"layerCount", "layers", "pathCount", "createdAt", "hitCount", "lastHitAt") VALUES';
const INSERT_ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)';
const INSERT_TAIL =
  'ON CONFLICT ("key") DO UPDATE SET "piece" = excluded."piece", "files" = excluded."files", ' +
  '"ranks" = excluded."ranks", "mask" = excluded."mask", "sources" = excluded."sources", ' +
  '"targets" = excluded."targets", "distance" = excluded."distance", "layerCount" = excluded."layerCount", ' +
  '"layers" = excluded."layers", "pathCount" = excluded."pathCount", "lastHitAt" = excluded."lastHitAt"';
/** Upper bound of the LRU's memory, counted in characters of the layer strings. */
const LRU_MAX_CHARS = 64 * 1024 * 1024;

/** Hex digits of a bitboard of `files` x `ranks` squares. */
export function bitboardDigits(files: number, ranks: number): number {
  return Math.ceil((files * ranks) / 4);
}

/** Packs layer bitboards into one byte array: ceil(digits/2) bytes per layer. */
export function encodeLayers(bitboards: readonly string[], files: number, ranks: number): Uint8Array<ArrayBuffer> {
  const digits = bitboardDigits(files, ranks);
  const perLayer = Math.ceil(digits / 2);
  const out = new Uint8Array(perLayer * bitboards.length);
  bitboards.forEach((bitboard, i) => {
    if (bitboard.length !== digits + 2 || !bitboard.startsWith('0x')) {
      throw new Error(`layer ${i} is not a ${files} x ${ranks} bitboard: ${bitboard.slice(0, 40)}`);
    }
    const hex = digits % 2 === 1 ? `0${bitboard.slice(2)}` : bitboard.slice(2);
    const bytes = Buffer.from(hex, 'hex');
    if (bytes.length !== perLayer) throw new Error(`layer ${i} has non-hex digits`);
    out.set(bytes, i * perLayer);
  });
  return out;
}

/** Inverse of `encodeLayers`; throws when the bytes do not hold exactly `count` layers. */
export function decodeLayers(bytes: Uint8Array, count: number, files: number, ranks: number): string[] {
  const digits = bitboardDigits(files, ranks);
  const perLayer = Math.ceil(digits / 2);
  if (!Number.isInteger(count) || count < 0 || bytes.length !== perLayer * count) {
    throw new Error(`stored layers hold ${bytes.length} bytes, expected ${count} x ${perLayer}`);
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const layers: string[] = [];
  for (let i = 0; i < count; i++) {
    let hex = buffer.toString('hex', i * perLayer, (i + 1) * perLayer);
    if (digits % 2 === 1) {
      if (hex[0] !== '0') throw new Error(`layer ${i} has bits beyond the board`);
      hex = hex.slice(1);
    }
    layers.push(`0x${hex}`);
  }
  return layers;
}

function sameProblem(a: CanonicalProblem, b: CanonicalProblem): boolean {
  return (
    a.piece === b.piece &&
    a.files === b.files &&
    a.ranks === b.ranks &&
    a.mask === b.mask &&
    a.sources === b.sources &&
    a.targets === b.targets
  );
}

interface CachedRow {
  key: string;
  piece: string;
  files: number;
  ranks: number;
  mask: string;
  sources: string;
  targets: string;
  distance: number | null;
  layerCount: number;
  layers: Uint8Array;
  pathCount: string | null;
}

/** Decodes a row; throws on anything malformed. */
function decodeRow(row: CachedRow): StoredEntry {
  if (row.pathCount !== null && !/^(0|[1-9][0-9]*)$/.test(row.pathCount)) {
    throw new Error(`bad pathCount ${row.pathCount.slice(0, 40)}`);
  }
  return {
    problem: {
      piece: row.piece as Piece,
      files: row.files,
      ranks: row.ranks,
      mask: row.mask,
      sources: row.sources,
      targets: row.targets,
    },
    distance: row.distance,
    layers: decodeLayers(row.layers, row.layerCount, row.files, row.ranks),
    pathCount: row.pathCount === null ? undefined : BigInt(row.pathCount),
  };
}

function entrySize(entry: StoredEntry): number {
  let size = 256 + entry.problem.mask.length + entry.problem.sources.length + entry.problem.targets.length;
  for (const layer of entry.layers) size += layer.length;
  return size;
}

export class PrismaResultCache implements ResultCache {
  readonly #prisma: PrismaClient;
  readonly #options: ResultCacheOptions;
  readonly #lru: LRUCache<string, StoredEntry> | null;
  /** Hits not yet written: key -> number of hits. */
  #pendingHits = new Map<string, number>();
  #lastHitAt = new Date(0);
  #flushTimer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(prisma: PrismaClient, options: ResultCacheOptions) {
    this.#prisma = prisma;
    this.#options = options;
    this.#lru =
      options.lruSize > 0
        ? new LRUCache<string, StoredEntry>({
            max: options.lruSize,
            maxSize: LRU_MAX_CHARS,
            sizeCalculation: entrySize,
          })
        : null;
  }

  async getMany(problems: readonly PreparedProblem[]): Promise<(PathResult | undefined)[]> {
    const out: (PathResult | undefined)[] = new Array(problems.length).fill(undefined);
    const wanted = new Map<string, number[]>();
    for (let i = 0; i < problems.length; i++) {
      const { key, problem } = problems[i];
      const entry = this.#lru?.get(key);
      if (entry && sameProblem(entry.problem, problem)) {
        const result = this.#restore(key, problem, entry);
        if (result) {
          out[i] = result;
          this.#hit(key);
          continue;
        }
        this.#lru?.delete(key);
      }
      const indices = wanted.get(key);
      if (indices) indices.push(i);
      else wanted.set(key, [i]);
    }

    if (wanted.size > 0) {
      const keys = [...wanted.keys()];
      const rows: CachedRow[] = [];
      for (let start = 0; start < keys.length; start += KEYS_PER_QUERY) {
        rows.push(
          ...(await this.#prisma.cachedResult.findMany({
            where: { key: { in: keys.slice(start, start + KEYS_PER_QUERY) } },
            select: {
              key: true,
              piece: true,
              files: true,
              ranks: true,
              mask: true,
              sources: true,
              targets: true,
              distance: true,
              layerCount: true,
              layers: true,
              pathCount: true,
            },
          })),
        );
      }
      for (const row of rows) {
        let entry: StoredEntry;
        try {
          entry = decodeRow(row);
        } catch (error) {
          this.#options.logger.warn({ key: row.key, err: error }, 'unreadable cache row treated as a miss');
          continue;
        }
        let used = false;
        for (const i of wanted.get(row.key) ?? []) {
          const { key, problem } = problems[i];
          if (!sameProblem(entry.problem, problem)) {
            this.#options.logger.warn({ key }, 'cache row for this key holds another problem; treated as a miss');
            continue;
          }
          const result = this.#restore(key, problem, entry);
          if (!result) continue;
          out[i] = result;
          used = true;
          this.#hit(key);
        }
        if (used) this.#lru?.set(row.key, entry);
      }
    }
    return out;
  }

  async putMany(results: readonly PathResult[]): Promise<void> {
    const fresh = new Map<string, PathResult>();
    for (const result of results) {
      if (!result.cached && !fresh.has(result.key)) fresh.set(result.key, result);
    }
    if (fresh.size === 0) return;

    const now = new Date();
    const entries: [string, StoredEntry][] = [];
    const params: unknown[] = [];
    for (const result of fresh.values()) {
      const { problem } = result;
      const layers = result.layers.map((layer) => layer.bitboard);
      // Never `result.pathCount`: that would count the paths of every result stored.
      const pathCount = result.knownPathCount;
      entries.push([result.key, { problem, distance: result.distance, layers, pathCount }]);
      params.push(
        result.key,
        problem.piece,
        problem.files,
        problem.ranks,
        problem.mask,
        problem.sources,
        problem.targets,
        result.distance,
        layers.length,
        encodeLayers(layers, problem.files, problem.ranks),
        pathCount === undefined ? null : pathCount.toString(),
        now,
        now,
      );
    }
    // Multi-row upserts: Prisma's `upsert` costs one round trip through the query compiler per
    // row (about 1 ms each); one statement per chunk costs a few ms for hundreds of rows. An
    // existing row (a corrupted one, or one another request stored meanwhile) is overwritten but
    // keeps its createdAt and hitCount.
    const upserts = [];
    for (let start = 0; start < entries.length; start += ROWS_PER_INSERT) {
      const rows = Math.min(ROWS_PER_INSERT, entries.length - start);
      upserts.push(
        this.#prisma.$executeRawUnsafe(
          `${INSERT_HEAD} ${Array.from({ length: rows }, () => INSERT_ROW).join(', ')} ${INSERT_TAIL}`,
          ...params.slice(start * PARAMS_PER_ROW, (start + rows) * PARAMS_PER_ROW),
        ),
      );
    }

    const hits = this.#takePendingHits();
    try {
      await this.#prisma.$transaction([
        ...upserts,
        ...this.#hitUpdates(hits.counts, hits.at),
        this.#prisma.$executeRaw`
          DELETE FROM "CachedResult" WHERE "key" IN (
            SELECT "key" FROM "CachedResult" ORDER BY "lastHitAt" ASC, "key" ASC
            LIMIT max((SELECT COUNT(*) FROM "CachedResult") - ${this.#options.maxCacheRows}, 0))`,
      ]);
    } catch (error) {
      this.#restorePendingHits(hits.counts);
      throw error;
    }
    for (const [key, entry] of entries) this.#lru?.set(key, entry);
  }

  /** Writes pending hit counts now (also waits for a flush in progress). */
  async flush(): Promise<void> {
    if (this.#flushTimer) {
      clearTimeout(this.#flushTimer);
      this.#flushTimer = null;
    }
    const hits = this.#takePendingHits();
    const previous = this.#flushing;
    const run = previous.then(async () => {
      if (hits.counts.size === 0) return;
      const guard = this.#options.guardWrite ?? ((write) => write());
      try {
        await guard(() => this.#prisma.$transaction(this.#hitUpdates(hits.counts, hits.at)));
      } catch (error) {
        // Unavailability is logged once, by the store, when it starts.
        if (error instanceof DatabaseUnavailableError) return;
        this.#options.logger.error(
          { keys: hits.counts.size, err: error },
          'could not record cache hits (hit counts and last-hit times not updated)',
        );
      }
    });
    this.#flushing = run;
    await run;
  }

  /** Writes what is pending and stops the background timer; the cache is unusable afterwards. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
    this.#lru?.clear();
  }

  #restore(key: string, problem: CanonicalProblem, entry: StoredEntry): PathResult | undefined {
    try {
      const result = restoreResult(problem, entry.layers, entry.pathCount);
      if (result.key !== key) throw new Error(`restored key ${result.key} differs`);
      if (result.distance !== entry.distance) {
        throw new Error(`restored distance ${result.distance} differs from stored ${entry.distance}`);
      }
      return result;
    } catch (error) {
      this.#options.logger.warn({ key, err: error }, 'cached result could not be rebuilt; treated as a miss');
      return undefined;
    }
  }

  #hit(key: string): void {
    this.#pendingHits.set(key, (this.#pendingHits.get(key) ?? 0) + 1);
    this.#lastHitAt = new Date();
    if (!this.#flushTimer && !this.#closed) {
      this.#flushTimer = setTimeout(() => {
        this.#flushTimer = null;
        void this.flush();
      }, this.#options.hitFlushDelayMs ?? 200);
      this.#flushTimer.unref();
    }
  }

  #takePendingHits(): { counts: Map<string, number>; at: Date } {
    const counts = this.#pendingHits;
    this.#pendingHits = new Map();
    return { counts, at: this.#lastHitAt };
  }

  #restorePendingHits(counts: Map<string, number>): void {
    for (const [key, n] of counts) this.#pendingHits.set(key, (this.#pendingHits.get(key) ?? 0) + n);
  }

  /** One `updateMany` per distinct hit count (usually one). */
  #hitUpdates(counts: Map<string, number>, at: Date) {
    const byCount = new Map<number, string[]>();
    for (const [key, n] of counts) {
      const keys = byCount.get(n);
      if (keys) keys.push(key);
      else byCount.set(n, [key]);
    }
    const updates = [];
    for (const [n, keys] of byCount) {
      for (let start = 0; start < keys.length; start += KEYS_PER_QUERY) {
        updates.push(
          this.#prisma.cachedResult.updateMany({
            where: { key: { in: keys.slice(start, start + KEYS_PER_QUERY) } },
            data: { hitCount: { increment: n }, lastHitAt: at },
          }),
        );
      }
    }
    return updates;
  }
}

/**
 * A small in-memory memo of ready-to-serve results, in front of the per-request loader. The
 * engine's results are immutable answers whose lazy fields are computed once and kept, so a hot
 * question (the playground's example, a popular position) is served from the same object again:
 * no store lookup, no rebuilding, layers and pictures already computed, and the resolver returns
 * synchronously, which keeps graphql-js on its fast synchronous path.
 *
 * With a store, only results that came from the persistent cache (`cached: true`) are kept, so
 * `cached` keeps its meaning: a fresh solve is written to the store first and memoised when it is
 * next read back. Without a store every result is kept. At most RESULT_MEMO_SIZE results are kept
 * and at most `MEMO_MAX_BYTES` of them, least recently used dropped first; a result's size is
 * counted from its packed layers, with room for the views its fields build when read (lazy
 * fields of large results are computed on the worker pool and never kept on the result).
 *
 * It also remembers, for recently seen query inputs, the engine's prepared problem: a repeated
 * question then skips validation and the SHA-256 of its canonical key (a few microseconds, which
 * is much of what a hot request costs). The input is identified by an exact JSON text of all its
 * fields; only inputs that prepared successfully are remembered.
 */
import { LRUCache } from 'lru-cache';
import { packedBytes } from '../engine/index.js';
import type { PathQuery, PathResult } from '../engine/types.js';
import type { Prepared } from './engine.js';
import { knownPacked } from './work/handles.js';

/** Largest board (in squares) whose prepared problems are remembered. */
const MAX_MEMO_SQUARES = 1024;
/** Most bytes of memoised results. */
export const MEMO_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Estimated memory of a memoised result: its packed layers and the views built from them, or,
 * for a result solved here whose layers were never packed, its board; plus its problem text.
 */
function resultSize(result: PathResult): number {
  const packed = knownPacked(result);
  const layers = packed ? 8 * packedBytes(packed) : 2 * result.board.files * result.board.ranks + 64 * ((result.distance ?? 0) + 1);
  return 1024 + layers + 3 * result.mask.length;
}

/** Hot results by canonical key, and prepared problems by query input. */
export class ResultMemo {
  readonly #lru: LRUCache<string, PathResult> | undefined;
  readonly #prepared: LRUCache<string, Prepared> | undefined;

  constructor(size: number) {
    this.#lru = size > 0 ? new LRUCache({ max: size, maxSize: MEMO_MAX_BYTES, sizeCalculation: resultSize }) : undefined;
    this.#prepared = size > 0 ? new LRUCache({ max: size }) : undefined;
  }

  /** The prepared problem of a query input, remembered when `prepare` succeeds on a small board. */
  prepare(query: PathQuery, prepare: (query: PathQuery) => Prepared): Prepared {
    if (!this.#prepared) return prepare(query);
    const id = inputId(query);
    let prepared = this.#prepared.get(id);
    if (prepared === undefined) {
      prepared = prepare(query);
      if (prepared.board.files * prepared.board.ranks <= MAX_MEMO_SQUARES) this.#prepared.set(id, prepared);
    }
    return prepared;
  }

  /** The memoised result for a key, if any. */
  get(key: string): PathResult | undefined {
    return this.#lru?.get(key);
  }

  /** Offers a result; kept when it is from the cache (or there is no store). */
  offer(result: PathResult, haveStore: boolean): void {
    if (!this.#lru || (haveStore && !result.cached)) return;
    this.#lru.set(result.key, result);
  }
}

/** Exact text of every field of a query input (field order fixed, absent and null alike). */
function inputId(q: PathQuery): string {
  return JSON.stringify([q.piece, q.board?.files, q.board?.ranks, q.from, q.to, q.mask ?? null, q.blocked ?? null, q.fen ?? null]);
}

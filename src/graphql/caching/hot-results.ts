/**
 * A small in-memory set of ready-to-serve results, in front of the per-request loader. The
 * engine's results are immutable answers whose lazy fields are computed once and kept, so a hot
 * question (the playground's example, a popular position) is served from the same object again:
 * no store lookup, no rebuilding, layers and pictures already computed, and the resolver returns
 * synchronously, which keeps graphql-js on its fast synchronous path.
 *
 * With a store, only results that came from the persistent cache (`cached: true`) are kept, so
 * `cached` keeps its meaning: a fresh solve is written to the store first (on its question's
 * second ask, or at once when costly: `cache-policy.ts`) and kept when it is next read back. Without a store every result is kept. At most RESULT_MEMO_SIZE results are kept
 * and at most RESULT_MEMO_BYTES of them, least recently used dropped first, none over an eighth of
 * that; a result's size is counted from its packed layers, with room for the views its fields
 * build when read (lazy fields of large results are computed on the worker pool and never kept on
 * the result).
 */

import { type PathResult, packedBytes } from '@chess-paths/engine';
import { LRUCache } from 'lru-cache';
import { knownPacked } from '../work/handles.js';
import { byteBound, type CacheSize, lruSize } from './sizes.js';

/** Default bound of the hot results, bytes. */
export const HOT_RESULTS_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Estimated memory of a hot result: its packed layers and the views built from them, or, for a
 * result solved here whose layers were never packed, its board; plus its problem text, and the
 * slabs it may hold (`SLAB_HELD`).
 */
function resultSize(result: PathResult): number {
  const packed = knownPacked(result);
  const layers = packed
    ? 8 * packedBytes(packed)
    : 2 * result.board.files * result.board.ranks + 64 * ((result.distance ?? 0) + 1);
  return 1024 + layers + 3 * result.mask.length + (result.board.files * result.board.ranks > 64 ? SLAB_HELD : 0);
}

/**
 * What a result on a board larger than 8 x 8 may keep alive besides its own words: the engine
 * cuts its problem's and its layers' small typed arrays from shared 8 kB slabs, and a kept view
 * keeps its slab.
 */
const SLAB_HELD = 2 * 8192;

/** Hot results by canonical key, least recently used dropped first. */
export class HotResults {
  readonly #lru: LRUCache<string, PathResult> | undefined;
  readonly #maxBytes: number;

  /** Keeps at most `size` results (0: none) and `maxBytes` of them (0: none). */
  constructor(size: number, maxBytes = HOT_RESULTS_MAX_BYTES) {
    this.#maxBytes = maxBytes;
    this.#lru = size > 0 && maxBytes > 0 ? new LRUCache({ max: size, ...byteBound(maxBytes, resultSize) }) : undefined;
  }

  /** The hot result for a key, if any. */
  get(key: string): PathResult | undefined {
    return this.#lru?.get(key);
  }

  /** Offers a result; kept when it is from the cache (or there is no store). */
  offer(result: PathResult, haveStore: boolean): void {
    if (!this.#lru || (haveStore && !result.cached)) return;
    this.#lru.set(result.key, result);
  }

  /** Results kept and their estimated bytes. */
  size(): CacheSize {
    return lruSize(this.#lru, this.#maxBytes);
  }
}

/**
 * Remembers, for recently seen query inputs, the engine's prepared problem: a repeated question
 * then skips validation and the SHA-256 of its canonical key (a few microseconds, which is much
 * of what a hot request costs). An input is identified by an exact JSON text of all its fields;
 * only inputs that prepared successfully, on small boards, with texts of at most 4 KB, are
 * remembered, at most RESULT_MEMO_SIZE of them and PREPARED_QUERY_BYTES in all. An input is
 * remembered from its second sighting (`Doorkeeper`): a stream of questions each asked once
 * remembers nothing, and makes no garbage of the list's.
 */

import type { PathQuery } from '@chess-paths/engine';
import { LRUCache } from 'lru-cache';
import type { Prepared } from '../work/engine-api.js';
import { Doorkeeper } from './doorkeeper.js';
import { byteBound, type CacheSize, CHARACTER_BYTES, lruSize, textBytes } from './sizes.js';

/** Default bound of the prepared problems remembered, bytes. */
export const PREPARED_QUERY_BYTES = 16 * 1024 * 1024;
/** Largest board (in squares) whose prepared problems are remembered. */
const MAX_REMEMBERED_SQUARES = 1024;
/**
 * Longest input text remembered. The count bounds the entries, this their keys: a mask may carry
 * any number of leading zeros, and a Betza text or a FEN is long, up to what a body holds.
 */
const MAX_REMEMBERED_INPUT = 4096;

/**
 * Estimated bytes of a remembered input: its text, and the prepared problem (its square sets as
 * numbers or the buffer holding them, and, once asked, its canonical problem's texts: three sets in hex, a Betza text, the
 * 64-digit key). The fairy piece itself is the engine's, kept in its Betza cache.
 */
function entrySize(prepared: Prepared, id: string): number {
  const squares = prepared.board.files * prepared.board.ranks;
  const betza = prepared.fairy?.betza.length ?? 0;
  const texts = 3 * Math.ceil(squares / 4) + betza + 64;
  // A typed array's whole buffer: the engine cuts small ones from a shared 8 kB slab, which a
  // remembered problem keeps alive.
  const data = prepared.data instanceof Int32Array ? prepared.data.buffer.byteLength : 8 * prepared.data.length;
  return 512 + textBytes(id) + data + CHARACTER_BYTES * texts;
}

/** Prepared problems by query input, least recently used dropped first. */
export class PreparedQueries {
  readonly #lru: LRUCache<string, Prepared> | undefined;
  readonly #doorkeeper = new Doorkeeper();
  readonly #maxBytes: number;

  /** Remembers at most `size` inputs (0: none) and `maxBytes` of them (0: none). */
  constructor(size: number, maxBytes = PREPARED_QUERY_BYTES) {
    this.#maxBytes = maxBytes;
    this.#lru = size > 0 && maxBytes > 0 ? new LRUCache({ max: size, ...byteBound(maxBytes, entrySize) }) : undefined;
  }

  /** Inputs remembered and their estimated bytes. */
  size(): CacheSize {
    return lruSize(this.#lru, this.#maxBytes);
  }

  /** The prepared problem of a query input: remembered, or made by `prepare` (and remembered). */
  get(query: PathQuery, prepare: (query: PathQuery) => Prepared): Prepared {
    if (!this.#lru) return prepare(query);
    const id = inputId(query);
    let prepared = this.#lru.get(id);
    if (prepared === undefined) {
      prepared = prepare(query);
      if (
        prepared.board.files * prepared.board.ranks <= MAX_REMEMBERED_SQUARES &&
        id.length <= MAX_REMEMBERED_INPUT &&
        this.#doorkeeper.seen(id)
      )
        this.#lru.set(id, prepared);
    }
    return prepared;
  }
}

/** Exact text of every field of a query input (field order fixed, absent and null alike). */
function inputId(q: PathQuery): string {
  return JSON.stringify([
    q.piece,
    q.board?.files,
    q.board?.ranks,
    q.from,
    q.to,
    q.mask ?? null,
    q.blocked ?? null,
    q.fen ?? null,
    q.betza ?? null,
  ]);
}

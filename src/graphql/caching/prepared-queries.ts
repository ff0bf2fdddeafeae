/**
 * Remembers, for recently seen query inputs, the engine's prepared problem: a repeated question
 * then skips validation and the SHA-256 of its canonical key (a few microseconds, which is much
 * of what a hot request costs). An input is identified by an exact JSON text of all its fields;
 * only inputs that prepared successfully, on small boards, with texts of at most 4 KB, are
 * remembered, so the memory is bounded by the count. An input is remembered from its second sighting (`Doorkeeper`): a
 * stream of questions each asked once remembers nothing, and makes no garbage of the list's.
 */

import type { PathQuery } from '@chess-paths/engine';
import { LRUCache } from 'lru-cache';
import type { Prepared } from '../work/engine-api.js';
import { Doorkeeper } from './doorkeeper.js';

/** Largest board (in squares) whose prepared problems are remembered. */
const MAX_REMEMBERED_SQUARES = 1024;
/**
 * Longest input text remembered. The count bounds the entries, this their keys: a mask may carry
 * any number of leading zeros, and a Betza text or a FEN is long, up to what a body holds.
 */
const MAX_REMEMBERED_INPUT = 4096;

/** Prepared problems by query input, least recently used dropped first. */
export class PreparedQueries {
  readonly #lru: LRUCache<string, Prepared> | undefined;
  readonly #doorkeeper = new Doorkeeper();

  /** Remembers at most `size` inputs (0: none). */
  constructor(size: number) {
    this.#lru = size > 0 ? new LRUCache({ max: size }) : undefined;
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

/**
 * What the persistent result cache keeps, and which questions are looked up in it: "cache on
 * second hit", as CDNs treat one-hit wonders.
 *
 * A result that costs less to solve again than to write and read back does not earn a row on its
 * first ask: an 8 x 8 question is solved in about a microsecond, while writing its row costs tens
 * of microseconds of the event loop and a lookup that misses 33 more. So a fresh result is handed
 * to the cache writer when
 * - its question was asked before (this is its second ask, or later: see below);
 * - it was costly to solve: a board of more than `COSTLY_SQUARES` squares (every pooled solve is
 *   one), or a long answer, board squares x (distance + 1) of `COSTLY_WORK` or more (a maze on a
 *   smaller board; never an 8 x 8). Measured (random questions, one `solveBatch`): 8 x 8 about
 *   1 µs, 16 x 16 6-25 µs, 24 x 24 15-60 µs, 32 x 32 40-215 µs. The solve's own time is not used:
 *   a first, cold solve of an 8 x 8 takes a millisecond, and `cached` would turn true one ask
 *   earlier or not depending on the JIT;
 * - a saved analysis refers to it (the request marks those keys: `Analysis.results`).
 * Everything else is answered and forgotten.
 *
 * A second ask is known without keeping first asks (no result is held): a doorkeeper (TinyLFU's,
 * `./doorkeeper.ts`) records each key asked in two bits of a fixed 512 KiB filter, cleared after
 * 524,288 new keys. A false "asked before" (at worst about one key in twenty just before a
 * clearing) writes one row for a one-hit wonder, as before this policy; a clearing makes a key
 * wait for one more ask. It is per process: a question asked once on each of two replicas, or once
 * before a restart and once after, is asked once as far as each process knows (a shared count
 * would be a write per first ask, which is what this saves).
 *
 * Lookups: a key the store's filter of written keys says was never written is not looked up
 * (`ResultCache.mayHold`). On PostgreSQL that filter lags other replicas' writes by about a
 * second, so a costly question is looked up whatever it says (a lookup that misses costs far
 * less than such a solve); a cheap one is solved again, which is all a stale filter costs.
 */
import type { ResultCache } from '../../store/index.js';
import { Doorkeeper } from './doorkeeper.js';

/** Boards of more squares than this are costly to solve: their results are written at once. */
export const COSTLY_SQUARES = 512;
/** Board squares x (distance + 1) from which an answer is costly (the flood fill's work). */
export const COSTLY_WORK = 16_384;
/** Bits of the filter of keys asked: 512 KiB, cleared after an eighth as many new keys. */
const ASKED_BITS = 1 << 22;

/** A question as the policy sees it. */
export interface AskedQuestion {
  key: string;
  board: { files: number; ranks: number };
}

/** The policy's state: the keys asked, in fixed memory. */
export class CachePolicy {
  readonly #asked: Doorkeeper;

  constructor(bits = ASKED_BITS) {
    this.#asked = new Doorkeeper(bits);
  }

  /** Records an ask of `key`; true when it was (probably) asked before. */
  ask(key: string): boolean {
    return this.#asked.seen(key);
  }

  /** Whether `question` is worth a lookup in `cache`. */
  lookUp(cache: ResultCache, question: AskedQuestion): boolean {
    if (!cache.mayHold || cache.mayHold(question.key)) return true;
    return !cache.exactKeys && costly(question);
  }

  /**
   * Whether a fresh result is written: asked before, costly (its board, or its board and
   * `distance`: null when unreachable), or referred to by a saved analysis (`pinned`).
   */
  keep(question: AskedQuestion, distance: number | null, askedBefore: boolean, pinned: boolean): boolean {
    if (askedBefore || pinned || costly(question)) return true;
    return question.board.files * question.board.ranks * ((distance ?? 0) + 1) >= COSTLY_WORK;
  }
}

/** Costly by its board alone. */
function costly(question: AskedQuestion): boolean {
  return question.board.files * question.board.ranks > COSTLY_SQUARES;
}

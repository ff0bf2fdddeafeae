/**
 * The games read from PGN, kept by their text. A game is a pure function of its text, so it is
 * read once per text and kept (by the text's SHA-256, least recently used first), the reading
 * itself shared by the requests that ask for the same text at once.
 *
 * What is kept is bounded in bytes (GAME_CACHE_BYTES), each game weighed by its strings and
 * objects (`sizes.ts`): its tags, its plies with their SAN, UCI and FEN, its journeys. A game is
 * far from its text's size once read (a 1,000-ply game of 6 KB takes some 300 to 500 KB, a text
 * of 6,500 tag pairs about 900 KB), so a count of games would bound nothing. A game over an
 * eighth of the bound is read and answered but not kept. Readings in flight wait apart from the kept games:
 * they belong to the requests that wait for them, and what they hold is those requests' own.
 */

import { type Game, InputError } from '@chess-paths/engine';
import { LRUCache } from 'lru-cache';
import { byteBound, type CacheSize, estimateBytes, lruSize } from './sizes.js';

/** Default bound of the games kept, bytes. */
export const GAME_CACHE_BYTES = 64 * 1024 * 1024;

/** Games read, by the SHA-256 of their text. */
export class GameCache {
  /** Games read, and readings that failed for their text. */
  readonly #kept: LRUCache<string, Game | InputError> | undefined;
  /** Readings in flight, shared by the requests that ask for the same text meanwhile. */
  readonly #reading = new Map<string, Promise<Game>>();
  readonly #maxBytes: number;

  /** Keeps at most `maxBytes` of games (0: none; readings in flight are still shared). */
  constructor(maxBytes = GAME_CACHE_BYTES) {
    this.#maxBytes = maxBytes;
    this.#kept = maxBytes > 0 ? new LRUCache<string, Game | InputError>(byteBound(maxBytes, estimateBytes)) : undefined;
  }

  /**
   * The game of `key`, from `read` once. A reading that failed for its text (an `InputError`) is
   * kept too, as the same text fails the same way; one that failed for its request (budget spent,
   * client gone) is dropped, and a request that was waiting on it reads the text itself.
   */
  async get(key: string, read: () => Promise<Game>): Promise<Game> {
    const kept = this.#kept?.get(key);
    if (kept instanceof InputError) throw kept;
    if (kept) return kept;
    const reading = this.#reading.get(key);
    if (reading) {
      try {
        return await reading;
      } catch (err) {
        if (err instanceof InputError) throw err;
      }
    }
    return this.#read(key, read);
  }

  /** Entries kept and their estimated bytes. */
  size(): CacheSize {
    return lruSize(this.#kept, this.#maxBytes);
  }

  #read(key: string, read: () => Promise<Game>): Promise<Game> {
    const reading = read();
    this.#reading.set(key, reading);
    const settled = () => {
      if (this.#reading.get(key) === reading) this.#reading.delete(key);
    };
    reading.then(
      (game) => {
        settled();
        this.#kept?.set(key, game);
      },
      (err: unknown) => {
        settled();
        if (err instanceof InputError) this.#kept?.set(key, err);
      },
    );
    return reading;
  }
}

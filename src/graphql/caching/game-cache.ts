/**
 * The games read from PGN, kept by their text. A game is a pure function of its text, so it is
 * read once per text and kept (by the text's SHA-256, least recently used first), the reading
 * itself shared by the requests that ask for the same text at once.
 */

import { type Game, InputError } from '@chess-paths/engine';
import { LRUCache } from 'lru-cache';

/** Games kept, each with its positions' FENs (a 1,000-ply game is about 100 KB). */
const KEPT_GAMES = 256;

/** Games read, by the SHA-256 of their text. */
export class GameCache {
  readonly #games = new LRUCache<string, Promise<Game>>({ max: KEPT_GAMES });

  /**
   * The game of `key`, from `read` once. A reading that failed for its text (an `InputError`) is
   * kept too, as the same text fails the same way; one that failed for its request (budget spent,
   * client gone) is dropped, and a request that was waiting on it reads the text itself.
   */
  async get(key: string, read: () => Promise<Game>): Promise<Game> {
    const kept = this.#games.get(key);
    if (kept) {
      try {
        return await kept;
      } catch (err) {
        if (err instanceof InputError) throw err;
      }
    }
    const reading = read();
    this.#games.set(key, reading);
    reading.catch((err: unknown) => {
      if (!(err instanceof InputError) && this.#games.get(key) === reading) this.#games.delete(key);
    });
    return reading;
  }
}

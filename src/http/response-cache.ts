/**
 * A cache of whole GraphQL responses, for requests answered entirely from memoised path results.
 *
 * A path result never changes, and a memoised one is served as it is, so a request whose every
 * path question was a memo hit, that touched nothing else with state (analyses, mutations) and had
 * no errors, gets the same response every time the same document and variables come in. Such
 * responses are kept here by the exact request text (the `Accept` header, which chooses the
 * response's content type, and the raw body: document, variables and operation name), and sent
 * again without parsing or executing anything. Which responses qualify is one rule, in
 * `src/graphql/caching/replay.ts`. Bounded by RESPONSE_CACHE_SIZE entries and by bytes; 0 turns it off.
 */
import { LRUCache } from 'lru-cache';

/** Longest request body kept as a key, characters. */
export const MAX_KEY_LENGTH = 16 * 1024;
/** Longest response kept, characters. */
export const MAX_RESPONSE_LENGTH = 64 * 1024;
/** Upper bound of the memory of all entries, characters of keys and responses. */
const MAX_TOTAL_LENGTH = 32 * 1024 * 1024;

/** A response as sent. */
export interface CachedResponse {
  contentType: string;
  body: string;
}

/** Whole responses by request text. */
export class ResponseCache {
  readonly #lru: LRUCache<string, CachedResponse> | undefined;

  constructor(size: number) {
    this.#lru =
      size > 0
        ? new LRUCache<string, CachedResponse>({
            max: size,
            maxSize: MAX_TOTAL_LENGTH,
            sizeCalculation: (value, key) => key.length + value.body.length + 64,
          })
        : undefined;
  }

  /** The key of a request, or undefined when it cannot be kept (cache off, body too long). */
  keyOf(accept: string | undefined, body: string): string | undefined {
    if (!this.#lru || body.length > MAX_KEY_LENGTH) return undefined;
    return `${accept ?? ''}\n${body}`;
  }

  /** The response kept for a key. */
  get(key: string): CachedResponse | undefined {
    return this.#lru?.get(key);
  }

  /** Keeps a response (unless it is too long). */
  set(key: string, response: CachedResponse): void {
    if (response.body.length <= MAX_RESPONSE_LENGTH) this.#lru?.set(key, response);
  }
}

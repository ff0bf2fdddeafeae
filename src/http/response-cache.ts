/**
 * A cache of whole GraphQL responses, for requests answered entirely from memoised path results.
 *
 * A path result never changes, and a memoised one is served as it is, so a request whose every
 * path question was a memo hit, that touched nothing else with state (analyses, mutations) and had
 * no errors, gets the same response every time the same document and variables come in. Such
 * responses are kept here by the exact request text (the `Accept` header, which chooses the
 * response's content type, and the raw body: document, variables and operation name), and sent
 * again without parsing or executing anything. Which responses qualify is one rule, in
 * `src/graphql/caching/replay.ts`. Bounded by RESPONSE_CACHE_SIZE entries and RESPONSE_CACHE_BYTES
 * (keys and responses at 2 bytes a character); either at 0 turns it off.
 *
 * A response is kept only for a request text seen before (`Doorkeeper`): a stream of questions
 * each asked once (a front end going through positions) keeps nothing and evicts nothing, and a
 * text asked again is kept from its second answer on.
 */
import { LRUCache } from 'lru-cache';
import { Doorkeeper } from '../graphql/caching/doorkeeper.js';
import { byteBound, type CacheSize, lruSize, textBytes } from '../graphql/caching/sizes.js';

/** Longest request body kept as a key, characters. */
export const MAX_KEY_LENGTH = 16 * 1024;
/** Longest response kept, characters. */
export const MAX_RESPONSE_LENGTH = 64 * 1024;
/** Default bound of the memory of all entries, bytes. */
export const RESPONSE_CACHE_BYTES = 32 * 1024 * 1024;

/** Estimated bytes of a kept response: its key, its body, its content type and the object. */
function entrySize(value: CachedResponse, key: string): number {
  return 64 + textBytes(key) + textBytes(value.body) + textBytes(value.contentType);
}

/** A response as sent. */
export interface CachedResponse {
  contentType: string;
  body: string;
}

/** What the cache has for a request: its kept response, or the key to keep its response under. */
export interface Lookup {
  /** The response kept for this request text. */
  response?: CachedResponse;
  /** Set when the response may be kept (the cache is on, the body short enough, the text seen before). */
  key?: string;
}

/** Whole responses by request text. */
export class ResponseCache {
  readonly #lru: LRUCache<string, CachedResponse> | undefined;
  readonly #doorkeeper = new Doorkeeper();
  readonly #maxBytes: number;

  /** Keeps at most `size` responses (0: none) and `maxBytes` of them (0: none). */
  constructor(size: number, maxBytes = RESPONSE_CACHE_BYTES) {
    this.#maxBytes = maxBytes;
    this.#lru =
      size > 0 && maxBytes > 0
        ? new LRUCache<string, CachedResponse>({ max: size, ...byteBound(maxBytes, entrySize) })
        : undefined;
  }

  /** Responses kept and their estimated bytes. */
  size(): CacheSize {
    return lruSize(this.#lru, this.#maxBytes);
  }

  /** The kept response of a request (its Accept header and body), or the key to keep it under. */
  lookup(accept: string | undefined, body: string): Lookup {
    if (!this.#lru || body.length > MAX_KEY_LENGTH) return {};
    const key = `${accept ?? ''}\n${body}`;
    const response = this.#lru.get(key);
    if (response) return { response };
    return this.#doorkeeper.seen(key) ? { key } : {};
  }

  /** Keeps a response (unless it is too long, or over an eighth of the bound). */
  set(key: string, response: CachedResponse): void {
    if (response.body.length <= MAX_RESPONSE_LENGTH) this.#lru?.set(key, response);
  }
}

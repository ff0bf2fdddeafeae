/**
 * Apollo's store of parsed and validated documents, by the hash of their text: a document seen
 * before costs neither parse nor validation. Apollo's default store is the same LRU bounded at
 * 30 MiB (here DOCUMENT_CACHE_BYTES, 30 MiB by default, none over an eighth of it), but it weighs
 * each new document by writing it out as JSON (`JSON.stringify` of the whole syntax tree,
 * locations included), which for a short question written with literals costs about what parsing
 * it did. Here a document is weighed by the length of its text, which the
 * parser recorded in the root's location, times `BYTES_PER_CHARACTER`: about Apollo's measure for
 * a question (16 to 30 per character), more than it for a document of long string literals (a
 * large mask), which the store then keeps fewer of.
 *
 * Apollo keys the store by a prefix of its own (the schema's hash) and the text's SHA-256 hash
 * (64 hex digits, `queryHash`). The store learns the prefix from the first document Apollo
 * stores, so that `has(queryHash)` can say whether Apollo will find a text, and a document
 * validated by other means (`known-shapes.ts`) can be handed over (`offer`): Apollo's next look-up
 * of that hash finds it, and it is then kept like any other.
 *
 * A document is kept only when its text was validated before (`Doorkeeper`): a stream of new
 * questions written with literals, each asked once, would otherwise fill the store with documents
 * never read again, and the collector of the heap's old generation would pay for each. A text
 * that comes again is parsed and validated a second time, and kept from then on.
 */
import type { DocumentStore } from '@apollo/server';
import type { DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import { Doorkeeper } from '../caching/doorkeeper.js';
import { byteBound, type CacheSize, lruSize } from '../caching/sizes.js';

/** Default bound: Apollo's of its default store, in its measure (JSON characters). */
export const DOCUMENT_STORE_BYTES = 30 * 1024 * 1024;

/** About what Apollo's measure (the tree as JSON) gives per character of document text. */
export const BYTES_PER_CHARACTER = 16;

/** Length of a `queryHash` (hex SHA-256), the end of every key Apollo uses. */
const HASH_LENGTH = 64;

/** A document's weight: its text's length times BYTES_PER_CHARACTER (as JSON when it has no location). */
export function documentWeight(document: DocumentNode): number {
  const loc = document.loc;
  if (loc) return Math.max(1, (loc.end - loc.start) * BYTES_PER_CHARACTER);
  return Math.max(1, JSON.stringify(document).length);
}

/** The store handed to Apollo (`store`), and what `known-shapes.ts` asks of it. */
export class ValidatedDocuments {
  readonly #lru: LRUCache<string, DocumentNode> | undefined;
  readonly #maxBytes: number;
  /** Apollo's prefix of keys, once seen. */
  #prefix: string | undefined;
  /** Documents offered for the next look-up of their hash. */
  readonly #offered = new Map<string, DocumentNode>();
  /** Which texts were validated before. */
  readonly #doorkeeper = new Doorkeeper();
  /** Called with every document Apollo validated (and offered to the store). */
  readonly #onStored: ((document: DocumentNode) => void) | undefined;

  /** Keeps at most `maxBytes` of documents (0: none). */
  constructor(maxBytes = DOCUMENT_STORE_BYTES, onStored?: (document: DocumentNode) => void) {
    this.#maxBytes = maxBytes;
    this.#lru = maxBytes > 0 ? new LRUCache<string, DocumentNode>(byteBound(maxBytes, documentWeight)) : undefined;
    this.#onStored = onStored;
  }

  /** Documents kept and their weight. */
  size(): CacheSize {
    return lruSize(this.#lru, this.#maxBytes);
  }

  /** The store as Apollo's `documentStore` option. */
  readonly store: DocumentStore = {
    get: async (key) => this.#lru?.get(key) ?? this.#take(key),
    set: async (key, document) => {
      this.#prefix ??= key.length >= HASH_LENGTH ? key.slice(0, key.length - HASH_LENGTH) : undefined;
      this.#keep(key, document);
      this.#onStored?.(document);
    },
    delete: async (key) => this.#lru?.delete(key) ?? false,
  };

  /** Whether Apollo's look-up of this text's hash will find a document (false before the prefix is known). */
  has(queryHash: string): boolean {
    return this.#prefix !== undefined && (this.#lru?.has(this.#prefix + queryHash) ?? false);
  }

  /** Whether documents can be offered yet (Apollo's prefix is known). */
  get ready(): boolean {
    return this.#prefix !== undefined;
  }

  /** Hands Apollo's next look-up of `queryHash` this document, valid for its text. */
  offer(queryHash: string, document: DocumentNode): void {
    // Taken by the look-up that follows at once; a handful at most wait (a batch's operations),
    // and never more than 64 documents of texts of at most 16 KiB (`known-shapes.ts`).
    if (this.#offered.size >= 64) this.#offered.clear();
    this.#offered.set(queryHash, document);
  }

  #take(key: string): DocumentNode | undefined {
    if (this.#prefix === undefined || !key.startsWith(this.#prefix)) return undefined;
    const hash = key.slice(this.#prefix.length);
    const document = this.#offered.get(hash);
    if (document === undefined) return undefined;
    this.#offered.delete(hash);
    this.#keep(key, document);
    return document;
  }

  /** Keeps a document whose text was validated before (see the file comment). */
  #keep(key: string, document: DocumentNode): void {
    if (this.#lru && this.#doorkeeper.seen(key)) this.#lru.set(key, document);
  }
}

/** A store of validated documents for Apollo (`documentStore`), without shapes. */
export function documentStore(maxBytes = DOCUMENT_STORE_BYTES): DocumentStore {
  return new ValidatedDocuments(maxBytes).store;
}

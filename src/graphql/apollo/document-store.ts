/**
 * Apollo's store of parsed and validated documents, by the hash of their text: a document seen
 * before costs neither parse nor validation. Apollo's default store is the same LRU bounded at
 * 30 MiB, but it weighs each new document by writing it out as JSON (`JSON.stringify` of the
 * whole syntax tree, locations included), which for a short question written with literals costs
 * about what parsing it did. Here a document is weighed by the length of its text, which the
 * parser recorded in the root's location, times `BYTES_PER_CHARACTER`: about Apollo's measure for
 * a question (16 to 30 per character), more than it for a document of long string literals (a
 * large mask), which the store then keeps fewer of.
 */
import type { DocumentStore } from '@apollo/server';
import type { DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';

/** Apollo's bound of its default store, in its measure (JSON characters). */
export const DOCUMENT_STORE_BYTES = 30 * 1024 * 1024;

/** About what Apollo's measure (the tree as JSON) gives per character of document text. */
export const BYTES_PER_CHARACTER = 16;

/** A document's weight: its text's length times BYTES_PER_CHARACTER (as JSON when it has no location). */
export function documentWeight(document: DocumentNode): number {
  const loc = document.loc;
  if (loc) return Math.max(1, (loc.end - loc.start) * BYTES_PER_CHARACTER);
  return Math.max(1, JSON.stringify(document).length);
}

/** The store of validated documents handed to Apollo (`documentStore`). */
export function documentStore(maxBytes = DOCUMENT_STORE_BYTES): DocumentStore {
  const lru = new LRUCache<string, DocumentNode>({ maxSize: maxBytes, sizeCalculation: documentWeight });
  return {
    get: async (key) => lru.get(key),
    set: async (key, document) => {
      lru.set(key, document);
    },
    delete: async (key) => lru.delete(key),
  };
}

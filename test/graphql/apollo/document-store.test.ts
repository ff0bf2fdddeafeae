/**
 * The store of validated documents (`src/graphql/apollo/document-store.ts`): a document is weighed
 * by its text's length, about what Apollo's measure (the tree as JSON) gives, the store keeps
 * the most recently used documents within its bound, and only those of texts validated before.
 */
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { documentStore, documentWeight } from '../../../src/graphql/apollo/document-store.js';
import { SEED_QUERY } from '../../support/test-server.js';

const DOCUMENTS = [
  '{ __typename }',
  `{ shortestPaths(query: ${SEED_QUERY}) { distance layers { squares } pathCount } }`,
  `{ shortestPaths(query: { piece: KNIGHT, from: ["b1"], to: ["h8"], mask: "0xffffefffbffffdff" }) { distance layers { squares } pathCount } }`,
  'query($q: PathQuery!) { shortestPaths(query: $q) { distance layers { squares } pathCount } }',
  `query Seed { a: shortestPaths(query: ${SEED_QUERY}) { ...F } } fragment F on PathResult { distance overlay { ascii svg(orientation: BLACK) } }`,
];

describe('document store', () => {
  it("weighs a document by its text, within a factor of two of Apollo's JSON measure", () => {
    for (const text of DOCUMENTS) {
      const document = parse(text);
      const json = Buffer.byteLength(JSON.stringify(document), 'utf8');
      const weight = documentWeight(document);
      expect(weight, text).toBeGreaterThan(json / 2);
      expect(weight, text).toBeLessThan(json * 2);
    }
    // Without locations it falls back to the JSON measure.
    const bare = parse(DOCUMENTS[1], { noLocation: true });
    expect(documentWeight(bare)).toBe(JSON.stringify(bare).length);
  });

  it('keeps a document from the second time its text is validated', async () => {
    const store = documentStore();
    const document = parse(DOCUMENTS[2]);
    await store.set('once', document);
    expect(await store.get('once')).toBeUndefined();
    await store.set('once', document);
    expect(await store.get('once')).toBe(document);
  });

  it('keeps documents by key within its bound, the least recently used leaving first', async () => {
    const documents = DOCUMENTS.slice(1, 4).map((text) => parse(text));
    const bound = documentWeight(documents[0]) + documentWeight(documents[1]) + documentWeight(documents[2]) - 1;
    const store = documentStore(bound);
    // Each set twice: the first only makes its text known (the doorkeeper).
    const set = async (key: string, document: (typeof documents)[number]) => {
      await store.set(key, document);
      await store.set(key, document);
    };
    await set('a', documents[0]);
    await set('b', documents[1]);
    expect(await store.get('a')).toBe(documents[0]); // a is now the most recently used
    await set('c', documents[2]);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBe(documents[0]);
    expect(await store.get('c')).toBe(documents[2]);
    expect(await store.delete('c')).toBe(true);
    expect(await store.get('c')).toBeUndefined();
  });
});

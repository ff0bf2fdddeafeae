/**
 * The store of validated documents (`src/graphql/apollo/document-store.ts`): a document is weighed
 * by its text's length, about what Apollo's measure (the tree as JSON) gives, the store keeps
 * the most recently used documents within its bound (none over an eighth of it), and only those
 * of texts validated before.
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
    const document = parse(DOCUMENTS[1]);
    const weight = documentWeight(document);
    const store = documentStore(8 * weight);
    // Each set twice: the first only makes its text known (the doorkeeper).
    const set = async (key: string, kept = document) => {
      await store.set(key, kept);
      await store.set(key, kept);
    };
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) await set(key);
    expect(await store.get('a')).toBe(document); // a is now the most recently used
    await set('i');
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBe(document);
    expect(await store.get('i')).toBe(document);
    expect(await store.delete('i')).toBe(true);
    expect(await store.get('i')).toBeUndefined();
  });

  it('keeps no document over an eighth of its bound, and none with a bound of 0', async () => {
    const small = parse(DOCUMENTS[0]);
    const store = documentStore(8 * documentWeight(small));
    const large = parse(DOCUMENTS[4]);
    await store.set('large', large);
    await store.set('large', large);
    expect(await store.get('large')).toBeUndefined();
    const none = documentStore(0);
    await none.set('small', small);
    await none.set('small', small);
    expect(await none.get('small')).toBeUndefined();
  });
});

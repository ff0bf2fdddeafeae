/**
 * Problem keys: the portable SHA-256 and an installed one (the service's `node:crypto`) give the
 * same digest of any text, so a key never depends on which computed it; `useSha256()` puts the
 * portable one back.
 */
import { hash } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareQuery } from '../../src/index.js';
import { sha256Hex, useSha256 } from '../../src/util/sha256.js';

const nodeSha256 = (text: string) => hash('sha256', text, 'hex');

afterEach(() => useSha256());

describe('sha256Hex', () => {
  it('equals node:crypto on any text, unicode and long texts included', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ minLength: 1000, maxLength: 5000 })),
        (text) => {
          expect(sha256Hex(text)).toBe(nodeSha256(text));
        },
      ),
      { numRuns: 300 },
    );
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('uses an installed implementation, and the portable one again when reset', () => {
    const query = { piece: 'KING' as const, board: { files: 100, ranks: 90 }, from: ['a1'], to: ['cv90'] };
    const portable = prepareQuery(query).key;
    const seen: string[] = [];
    useSha256((text) => {
      seen.push(text);
      return nodeSha256(text);
    });
    expect(prepareQuery(query).key).toBe(portable);
    expect(seen).toHaveLength(1);
    useSha256();
    expect(prepareQuery(query).key).toBe(portable);
    expect(seen).toHaveLength(1);
  });
});

/**
 * The engine's own base64url codec (src/util/base64url.ts) writes and reads path cursors
 * exactly as `Buffer` did before it, so cursors held by clients and caches keep working.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64Url, encodeBase64Url } from '../../src/util/base64url.js';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('base64url', () => {
  it('encodes any bytes as Buffer does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(encodeBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      }),
      { numRuns: 2000 },
    );
  });

  it('decodes the URL and standard alphabets, padded or not, as Buffer does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        for (const form of [Buffer.from(bytes).toString('base64url'), Buffer.from(bytes).toString('base64')]) {
          expect(text(decodeBase64Url(form))).toBe(text(Buffer.from(form, 'base64url')));
          expect(text(decodeBase64Url(form))).toBe(text(bytes));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reads leniently, like Buffer on Node 20: skips other characters, stops at =, drops a lone last character', () => {
    expect(text(decodeBase64Url('cGF0aDoy OC4x\nOS4xMC4xLjA'))).toBe('path:28.19.10.1.0');
    expect(text(decodeBase64Url('cGF0aDoy*OC4xOS4xMC4xLjA'))).toBe('path:28.19.10.1.0');
    expect(text(decodeBase64Url('cGF0aDoy=OC4xOS4xMC4xLjA'))).toBe('path:2');
    expect(text(decodeBase64Url('YQ'))).toBe('a');
    expect(text(decodeBase64Url('YQ=a'))).toBe('a');
    expect(text(decodeBase64Url('Y'))).toBe('');
    expect(text(decodeBase64Url(''))).toBe('');
    expect(text(decodeBase64Url('-_-_'))).toBe(text(decodeBase64Url('+/+/')));
  });

  it('keeps the cursors the engine wrote with Buffer', () => {
    const known: [string, string][] = [
      ['cGF0aDoyOC4xOS4xMC4xLjA', 'path:28.19.10.1.0'],
      ['cGF0aDoxLjE4LjI4LjQ1LjYy', 'path:1.18.28.45.62'],
      ['cGF0aDowLjM5OQ', 'path:0.399'],
    ];
    for (const [cursor, path] of known) {
      expect(encodeBase64Url(new TextEncoder().encode(path))).toBe(cursor);
      expect(new TextDecoder().decode(decodeBase64Url(cursor))).toBe(path);
    }
  });
});

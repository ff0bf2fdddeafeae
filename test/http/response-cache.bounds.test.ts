/**
 * The response cache's bound (`src/http/response-cache.ts`): responses kept within their bound in
 * estimated bytes (request texts and responses at 2 bytes a character), the least recently used
 * leaving first, none over an eighth of the bound.
 */
import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/http/response-cache.js';

describe('ResponseCache', () => {
  it('keeps responses within its bound in bytes, and none over an eighth of it', () => {
    const body = (i: number) => JSON.stringify({ query: `{ a${i}: __typename }` });
    const keep = (cache: ResponseCache, i: number, text = 'x'.repeat(100)) => {
      cache.lookup('application/json', body(i));
      const { key } = cache.lookup('application/json', body(i));
      if (key) cache.set(key, { contentType: 'application/json', body: text });
    };
    const probe = new ResponseCache(100);
    keep(probe, 0);
    const weight = probe.size().bytes;
    const cache = new ResponseCache(100, 8 * weight);
    for (let i = 0; i < 8; i++) keep(cache, i);
    expect(cache.size()).toEqual({ entries: 8, bytes: 8 * weight, maxBytes: 8 * weight });
    expect(cache.lookup('application/json', body(0)).response).toBeDefined();
    keep(cache, 8);
    expect(cache.lookup('application/json', body(1)).response).toBeUndefined();
    expect(cache.lookup('application/json', body(0)).response).toBeDefined();
    keep(cache, 9, 'x'.repeat(1000));
    expect(cache.lookup('application/json', body(9)).response).toBeUndefined();
  });
});

/**
 * The engine's caches bounded in bytes (src/util/memory.ts): the list itself (least recently used
 * out first past the bound, an entry over an eighth of the bound never kept, entries that grow),
 * and the two caches as a program sees them through `setEngineCacheBytes` and
 * `engineCacheSizes`: Betza texts read, and what is built per board size.
 */

import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { isBetzaKept, readBetza } from '../../src/betza/betza.js';
import { solve } from '../../src/core/solve.js';
import { DEFAULT_ENGINE_CACHE_BYTES, engineCacheSizes, KeptCache, setEngineCacheBytes } from '../../src/util/memory.js';

describe('KeptCache', () => {
  it('drops the least recently used entries past its bound in bytes', () => {
    const cache = new KeptCache<string>(800);
    cache.set('a', 'A', 100);
    cache.set('b', 'B', 100);
    cache.set('c', 'C', 100);
    expect(cache.get('a')).toBe('A'); // a is now the most recently used: b goes first
    for (const key of ['d', 'e', 'f', 'g', 'h']) cache.set(key, key, 100);
    expect(cache.size).toEqual({ entries: 8, bytes: 800, maxBytes: 800 });
    cache.set('i', 'I', 100);
    expect(cache.has('b')).toBe(false);
    expect(cache.has('a')).toBe(true);
    expect(cache.size.bytes).toBe(800);
  });

  it('counts its changes, and only those: a look-up of the most recent entry changes nothing', () => {
    const cache = new KeptCache<string>(800);
    cache.set('a', 'A', 100);
    cache.set('b', 'B', 100);
    let version = cache.version;
    cache.get('b');
    cache.get('missing');
    cache.has('a');
    expect(cache.version).toBe(version);
    for (const change of [
      () => cache.get('a'),
      () => cache.set('c', 'C', 100),
      () => cache.resize('c', 200),
      () => cache.delete('a'),
    ]) {
      change();
      expect(cache.version).toBeGreaterThan(version);
      version = cache.version;
    }
  });

  it('keeps what a plain least-recently-used list keeps, under any sequence of uses', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
    const op = fc.oneof(
      fc.tuple(fc.constant('get' as const), key, fc.constant(0)),
      fc.tuple(fc.constant('set' as const), key, fc.integer({ min: 1, max: 150 })),
      fc.tuple(fc.constant('resize' as const), key, fc.integer({ min: 1, max: 150 })),
      fc.tuple(fc.constant('delete' as const), key, fc.constant(0)),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.integer({ min: 2, max: 5 }), (ops, maxEntries) => {
        const cache = new KeptCache<number>(800, maxEntries);
        // The model: [key, value, bytes], least recently used first (a resize changes the bytes alone).
        let model: [string, number, number][] = [];
        const bytesOf = () => model.reduce((sum, [, , b]) => sum + b, 0);
        const trim = () => {
          while (bytesOf() > 800 || model.length > maxEntries) model.shift();
        };
        for (const [kind, k, bytes] of ops) {
          const at = model.findIndex(([m]) => m === k);
          if (kind === 'get') {
            expect(cache.get(k)).toBe(at < 0 ? undefined : model[at][1]);
            if (at >= 0) model.push(model.splice(at, 1)[0]);
          } else if (kind === 'set') {
            cache.set(k, bytes, bytes);
            model = model.filter(([m]) => m !== k);
            if (bytes <= 100) model.push([k, bytes, bytes]);
            trim();
          } else if (kind === 'resize') {
            cache.resize(k, bytes);
            if (at >= 0 && bytes > 100) model.splice(at, 1);
            else if (at >= 0) model[at] = [k, model[at][1], bytes];
            trim();
          } else {
            cache.delete(k);
            if (at >= 0) model.splice(at, 1);
          }
          expect(cache.size).toEqual({ entries: model.length, bytes: bytesOf(), maxBytes: 800 });
          for (const m of ['a', 'b', 'c', 'd', 'e', 'f']) expect(cache.has(m)).toBe(model.some(([x]) => x === m));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps no entry over an eighth of its bound, and drops one that grows past it', () => {
    const cache = new KeptCache<string>(800);
    cache.set('small', 's', 100);
    cache.set('huge', 'h', 101);
    expect(cache.has('huge')).toBe(false);
    expect(cache.size).toEqual({ entries: 1, bytes: 100, maxBytes: 800 });
    cache.resize('small', 60);
    expect(cache.size.bytes).toBe(60);
    cache.resize('small', 101);
    expect(cache.size).toEqual({ entries: 0, bytes: 0, maxBytes: 800 });
  });

  it('trims at once to a lower bound, and keeps nothing at 0', () => {
    const cache = new KeptCache<number>(1600);
    for (let i = 0; i < 8; i++) cache.set(String(i), i, 200);
    cache.maxBytes = 800;
    // 200 is over an eighth of 800: every entry goes.
    expect(cache.size.entries).toBe(0);
    for (let i = 0; i < 8; i++) cache.set(String(i), i, 100);
    expect(cache.size.entries).toBe(8);
    cache.maxBytes = 0;
    cache.set('x', 1, 1);
    expect(cache.size).toEqual({ entries: 0, bytes: 0, maxBytes: 0 });
  });

  it('keeps at most maxEntries entries', () => {
    const cache = new KeptCache<number>(1_000_000, 2);
    for (let i = 0; i < 3; i++) cache.set(String(i), i, 1);
    expect(cache.has('0')).toBe(false);
    expect(cache.size.entries).toBe(2);
  });
});

describe('the engine caches', () => {
  afterEach(() => setEngineCacheBytes(DEFAULT_ENGINE_CACHE_BYTES));

  it('counts Betza texts read, and keeps none over an eighth of the bound', () => {
    const before = engineCacheSizes().betza;
    readBetza('nDnA');
    const after = engineCacheSizes().betza;
    expect(after.entries).toBeGreaterThan(before.entries);
    expect(after.bytes).toBeGreaterThan(before.bytes);
    // A text of 48 rays: about 17 KB with its tables, over an eighth of 64 KiB.
    const long = 'NNCCZZWWFFDDAAHHGG';
    setEngineCacheBytes({ betza: 64 * 1024 });
    expect(readBetza(long).rays.length).toBe(48);
    expect(isBetzaKept(long)).toBe(false);
    expect(engineCacheSizes().betza.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('drops the least recently read Betza texts past the bound', () => {
    setEngineCacheBytes({ betza: 32 * 1024 });
    readBetza('WnD');
    // Limited rides of each atom: 30 texts of about 1.5 to 3 KB each, more than 32 KiB in all.
    const texts = ['F', 'D', 'A', 'N', 'H'].flatMap((a) => [2, 3, 4, 5, 6, 7].map((n) => `${a}${n}`));
    for (const text of texts) {
      readBetza('WnD'); // kept in use: never the least recently used
      readBetza(text);
    }
    const { bytes, maxBytes } = engineCacheSizes().betza;
    expect(bytes).toBeLessThanOrEqual(maxBytes);
    expect(isBetzaKept('WnD')).toBe(true);
    expect(isBetzaKept(texts[0])).toBe(false);
  });

  it('keeps what a board size needs within its bound, and still solves when it keeps nothing', () => {
    const query = { piece: 'ROOK' as const, board: { files: 48, ranks: 48 }, from: ['a1'], to: ['h9'] };
    const distance = solve(query).distance;
    expect(engineCacheSizes().boards.bytes).toBeGreaterThan(0);
    setEngineCacheBytes({ boards: 0 });
    expect(engineCacheSizes().boards).toEqual({ entries: 0, bytes: 0, maxBytes: 0 });
    expect(solve(query).distance).toBe(distance);
    expect(solve({ ...query, piece: 'FAIRY', betza: 'nDnA' }).distance).toBe(
      solve({ ...query, piece: 'FAIRY', betza: 'nDnA' }).distance,
    );
    expect(engineCacheSizes().boards.entries).toBe(0);
  });

  it('drops the least recently used board sizes past the bound', () => {
    setEngineCacheBytes({ boards: 256 * 1024 });
    for (let side = 33; side <= 80; side++) {
      solve({ piece: 'QUEEN', board: { files: side, ranks: side }, from: ['a1'], to: ['b3'] });
      const { bytes, maxBytes } = engineCacheSizes().boards;
      expect(bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(engineCacheSizes().boards.entries).toBeGreaterThan(0);
  });

  it('refuses a bound that is not a whole number of bytes', () => {
    expect(() => setEngineCacheBytes({ boards: -1 })).toThrow(RangeError);
    expect(() => setEngineCacheBytes({ betza: 1.5 })).toThrow(RangeError);
  });
});

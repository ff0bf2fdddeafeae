/**
 * The general fill kept per board size (`word-fills.ts`): `wordFillFor` answers the same fill as
 * looking up the board's geometry and fill, skipping the look-ups only while the `boards` cache
 * stands still, and never remembers a fill the cache does not keep.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { geometryOf } from '../../src/board/geometry.js';
import { solve } from '../../src/core/solve.js';
import { wordFillFor, wordFillOf } from '../../src/core/word-fills.js';
import { DEFAULT_ENGINE_CACHE_BYTES, engineCacheSizes, setEngineCacheBytes } from '../../src/util/memory.js';

const board = { files: 10, ranks: 10 };
const other = { files: 12, ranks: 9 };

describe('wordFillFor', () => {
  afterEach(() => setEngineCacheBytes(DEFAULT_ENGINE_CACHE_BYTES));

  it('gives the kept fill of the board, again and after other boards were used', () => {
    const fill = wordFillFor(board);
    expect(wordFillFor(board)).toBe(fill);
    expect(wordFillOf(geometryOf(board))).toBe(fill);
    const second = wordFillFor(other);
    expect(second).not.toBe(fill);
    solve({ piece: 'FAIRY', betza: 'NN', board: other, from: ['a1'], to: ['c5'] });
    expect(wordFillFor(board)).toBe(fill);
    expect(wordFillFor(other)).toBe(second);
  });

  it('remembers nothing the cache does not keep', () => {
    setEngineCacheBytes({ boards: 0 });
    const first = wordFillFor(board);
    expect(wordFillFor(board)).not.toBe(first);
    expect(engineCacheSizes().boards.entries).toBe(0);
  });

  it('looks the board up again once the cache dropped its fill', () => {
    const fill = wordFillFor(board);
    setEngineCacheBytes({ boards: 0 });
    setEngineCacheBytes(DEFAULT_ENGINE_CACHE_BYTES);
    const again = wordFillFor(board);
    expect(again).not.toBe(fill);
    expect(wordFillFor(board)).toBe(again);
  });
});

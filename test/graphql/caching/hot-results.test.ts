/**
 * The hot results (`src/graphql/caching/hot-results.ts`): kept within their bound in estimated
 * bytes, the least recently used leaving first, none over an eighth of the bound.
 */
import { type PathQuery, type PathResult, solve } from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import { HotResults } from '../../../src/graphql/caching/hot-results.js';

/** King questions on 8 x 8 at distance 7, each of the same weight as a hot result. */
const KINGS: PathQuery[] = ['a1', 'b1', 'c1', 'd1', 'e1', 'f1', 'g1', 'a2', 'a3', 'a4'].map((from) => ({
  piece: 'KING',
  from: [from],
  to: ['h8'],
}));

describe('HotResults', () => {
  it('keeps results within its bound in bytes, and none over an eighth of it', () => {
    const results = KINGS.map((q) => solve(q) as PathResult);
    const probe = new HotResults(100);
    probe.offer(results[0], false);
    const weight = probe.size().bytes;
    const hot = new HotResults(100, 8 * weight);
    for (const r of results.slice(0, 8)) hot.offer(r, false);
    expect(hot.size()).toEqual({ entries: 8, bytes: 8 * weight, maxBytes: 8 * weight });
    expect(hot.get(results[0].key)).toBe(results[0]);
    hot.offer(results[8], false);
    expect(hot.get(results[1].key)).toBeUndefined();
    expect(hot.get(results[0].key)).toBe(results[0]);
    const large = solve({ piece: 'KING', board: { files: 32, ranks: 32 }, from: ['a1'], to: ['b2'] }) as PathResult;
    hot.offer(large, false);
    expect(hot.get(large.key)).toBeUndefined();
    expect(hot.size().bytes).toBeLessThanOrEqual(8 * weight);
  });
});

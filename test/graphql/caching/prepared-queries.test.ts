/**
 * Prepared problems by query input (`src/graphql/caching/prepared-queries.ts`): an input is
 * prepared again until its second sighting, then remembered; large boards and a size of 0 are
 * never remembered; the inputs remembered stay within their bound in estimated bytes, the least
 * recently used leaving first, none over an eighth of the bound.
 */
import { type PathQuery, prepareQuery } from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import { PreparedQueries } from '../../../src/graphql/caching/prepared-queries.js';

function counting() {
  let calls = 0;
  return {
    prepare: (query: PathQuery) => {
      calls++;
      return prepareQuery(query);
    },
    calls: () => calls,
  };
}

const KNIGHT: PathQuery = { piece: 'KNIGHT', from: ['b1'], to: ['h8'] };

describe('PreparedQueries', () => {
  it('remembers an input from its second sighting on', () => {
    const queries = new PreparedQueries(100);
    const c = counting();
    const first = queries.get(KNIGHT, c.prepare);
    const second = queries.get({ ...KNIGHT }, c.prepare);
    expect(c.calls()).toBe(2);
    const third = queries.get({ ...KNIGHT }, c.prepare);
    expect(c.calls()).toBe(2);
    expect(third).toBe(second);
    expect(first.key).toBe(second.key);
    // Another input (another mask) is another entry.
    queries.get({ ...KNIGHT, mask: '0xffffffffffffffff' }, c.prepare);
    expect(c.calls()).toBe(3);
  });

  it('never remembers large boards, long texts, nor anything with size 0', () => {
    const large: PathQuery = { piece: 'KING', board: { files: 64, ranks: 64 }, from: ['a1'], to: ['b2'] };
    // An 8 x 8 mask with 5,000 leading zeros: a valid question, but its input would be a 5 KB key.
    const padded: PathQuery = { ...KNIGHT, mask: `0x${'0'.repeat(5000)}ffffffffffffffff` };
    for (const [queries, query] of [
      [new PreparedQueries(100), large],
      [new PreparedQueries(100), padded],
      [new PreparedQueries(0), KNIGHT],
    ] as const) {
      const c = counting();
      for (let i = 0; i < 4; i++) queries.get(query, c.prepare);
      expect(c.calls()).toBe(4);
    }
  });
});

/** King questions on 8 x 8 at distance 7, each of the same weight. */
const KINGS: PathQuery[] = ['a1', 'b1', 'c1', 'd1', 'e1', 'f1', 'g1', 'a2', 'a3', 'a4'].map((from) => ({
  piece: 'KING',
  from: [from],
  to: ['h8'],
}));

describe('PreparedQueries within its bound in bytes', () => {
  it('remembers inputs within its bound in bytes, and none over an eighth of it', () => {
    const seenTwice = (queries: PreparedQueries, q: PathQuery) => {
      queries.get(q, prepareQuery);
      queries.get(q, prepareQuery);
    };
    const probe = new PreparedQueries(100);
    seenTwice(probe, KINGS[0]);
    const weight = probe.size().bytes;
    const queries = new PreparedQueries(100, 8 * weight);
    for (const q of KINGS.slice(0, 8)) seenTwice(queries, q);
    expect(queries.size()).toEqual({ entries: 8, bytes: 8 * weight, maxBytes: 8 * weight });
    seenTwice(queries, KINGS[8]);
    let calls = 0;
    const counting = (q: PathQuery) => {
      calls++;
      return prepareQuery(q);
    };
    queries.get(KINGS[0], counting); // gone: the least recently used
    queries.get(KINGS[8], counting); // kept
    expect(calls).toBe(1);
    // A long FEN-free mask text on the same board weighs more than the others: not kept.
    seenTwice(queries, { ...KINGS[9], mask: `0x${'0'.repeat(600)}ffffffffffffffff` });
    expect(queries.size().entries).toBe(8);
  });
});

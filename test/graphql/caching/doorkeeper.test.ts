/**
 * The doorkeeper (`src/graphql/caching/doorkeeper.ts`): a key is "seen" from its second sighting
 * on, keys never recorded are rarely taken for seen, and the sightings are cleared after
 * `capacity` new keys.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Doorkeeper } from '../../../src/graphql/caching/doorkeeper.js';

describe('Doorkeeper', () => {
  it('says seen from the second sighting of a key on', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 300 }), { minLength: 1, maxLength: 200 }), (keys) => {
        const door = new Doorkeeper(1 << 16);
        for (const key of keys) door.seen(key);
        for (const key of keys) expect(door.seen(key), key).toBe(true);
      }),
    );
  });

  it('takes few new keys for seen while under its capacity', () => {
    const bits = 1 << 16;
    const door = new Doorkeeper(bits);
    const recorded = bits / 8;
    for (let i = 0; i < recorded - 1; i++) door.seen(`{ shortestPaths(query: { piece: KNIGHT, mask: "${i}" }) }`);
    let false_ = 0;
    const probes = 10_000;
    for (let i = 0; i < probes; i++) if (door.seen(`never recorded ${i}`)) false_++;
    // Two bits of 2^16 per key and 2^13 keys: about 5 % at the fullest (the probes add to it).
    expect(false_ / probes).toBeLessThan(0.12);
  });

  it('forgets every sighting once capacity new keys are recorded', () => {
    const door = new Doorkeeper(1 << 12, 4);
    door.seen('a');
    expect(door.seen('a')).toBe(true);
    for (const key of ['b', 'c', 'd']) door.seen(key); // a, b, c, d: at capacity
    expect(door.seen('a')).toBe(true);
    door.seen('e'); // the fifth new key clears, then records e
    expect(door.seen('e')).toBe(true);
    expect(door.seen('a')).toBe(false);
  });

  it('refuses a size that is not a power of two', () => {
    expect(() => new Doorkeeper(1000)).toThrow(RangeError);
  });
});

/**
 * `solve` while a caller's code solves another question in the middle of reading a query: a
 * getter on the query, on an element of a square list, a Proxy list, or a getter on the options.
 * The 8 x 8 fast path keeps its words in module-level scratch, so such a nested call must change
 * nothing: the answer (or the error) is the one the general path gives, which reads the query
 * into objects of its own.
 */
import { describe, expect, it } from 'vitest';
import { type PathQuery, solve, solveBatch } from '../../src/index.js';

/** Another question, solved from inside a getter. */
const nested = () => solve({ piece: 'ROOK', from: ['d4'], to: ['d5'], mask: '0xfffffffffffffffe' });

/** What the general path says of `query`: its layers as names, or its error message. */
function general(query: PathQuery): string[][] | string {
  try {
    return solve(query, { representation: 'general' }).layers.map((l) => l.squares);
  } catch (error) {
    return (error as Error).message;
  }
}

/** What `solve` says of `query`, in the same terms. */
function fast(query: PathQuery): string[][] | string {
  try {
    return solve(query).layers.map((l) => l.squares);
  } catch (error) {
    return (error as Error).message;
  }
}

/** A list whose first element is read through a getter that solves another question. */
function listWithGetter(names: string[]): string[] {
  const list = [...names];
  const first = list[0];
  Object.defineProperty(list, 0, {
    get() {
      nested();
      return first;
    },
  });
  return list;
}

const cases: [string, () => PathQuery][] = [
  [
    'a bad name in from, then a getter on to',
    () =>
      ({
        piece: 'KING',
        from: ['z9', 'a1'],
        get to() {
          nested();
          return ['c3'];
        },
      }) as PathQuery,
  ],
  [
    'a bad name in from, then a getter on an element of to',
    () => ({ piece: 'KING', from: ['a0'], to: listWithGetter(['c3']) }),
  ],
  [
    'a good query with a getter on an element of from',
    () => ({ piece: 'KNIGHT', from: listWithGetter(['b1']), to: ['c3', 'h8'] }),
  ],
  [
    'a Proxy list whose reads solve',
    () => ({
      piece: 'QUEEN',
      from: new Proxy(['a1'], {
        get(target, key, receiver) {
          nested();
          return Reflect.get(target, key, receiver);
        },
      }),
      to: ['h7'],
      mask: '0xfffffffffffffdff',
    }),
  ],
  [
    'a getter on the mask',
    () =>
      ({
        piece: 'BISHOP',
        from: ['c1'],
        to: ['h6', 'a3'],
        get mask() {
          nested();
          return '0xffffffffffffffff';
        },
      }) as PathQuery,
  ],
];

describe('solve with a nested solve while the query is read', () => {
  for (const [name, make] of cases) {
    it(name, () => {
      const expected = general(make());
      expect(fast(make())).toEqual(expected);
      expect(nested().distance).toBe(1); // the nested question was answered too
    });
  }

  it('a bad name stays an error through solveBatch', () => {
    expect(() => solveBatch([cases[0][1]()])).toThrow(/\[0\]\.from\[0\]: "z9" is not a square/);
  });

  it('a getter on the options that solves another question', () => {
    const options = {
      get kernel() {
        nested();
        return 'auto' as const;
      },
    };
    const r = solve({ piece: 'KING', from: ['a1'], to: ['h8'] }, options);
    expect(r.distance).toBe(7);
    expect(r.sources.squares).toEqual(['a1']);
    expect(r.targets.squares).toEqual(['h8']);
  });
});

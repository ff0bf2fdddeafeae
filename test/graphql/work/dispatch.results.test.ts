/**
 * The work dispatcher's answers on a real worker pool (one thread, a queue of four tasks; the pool
 * and its recording view come from test/support/dispatch-pool.ts):
 * - one request keeps at most as many tasks on the pool as there are workers, however many calls
 *   it makes at once;
 * - large problems solved on the pool give the layers the engine gives on the main thread, in
 *   tasks of at most TASK_WEIGHT, while light items never leave the main thread;
 * - a bad item comes back as an Error in its place, the others answered;
 * - lazy fields computed on the pool equal the main thread's, a bad cursor included.
 */

import {
  InputError,
  type PackedLayers,
  type PathConnection,
  type PathQuery,
  type PathResult,
  packLayers,
  prepareQuery,
  renderAscii,
  renderSvg,
  solve,
} from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import { checkWellFormedXml } from '../../../packages/engine/test/support/xml.js';
import { INLINE_WEIGHT, TASK_WEIGHT, WorkDispatcher } from '../../../src/graphql/work/dispatch.js';
import { EngineBudget, EngineBudgetError } from '../../../src/graphql/work/engine-budget.js';
import { fieldWeight } from '../../../src/graphql/work/fields.js';
import {
  type FieldItem,
  type LazyField,
  type PageWire,
  pageFromWire,
  wireOf,
} from '../../../src/graphql/work/tasks.js';
import { mazeQuery, plain, pool, sent, spy, useDispatchPool, wire } from '../../support/dispatch-pool.js';

const squaresOf = (q: PathQuery) => (q.board?.files ?? 8) * (q.board?.ranks ?? 8);

useDispatchPool();

describe('solving on the pool', () => {
  it('keeps one request to as many tasks on the pool as it has workers, over all its calls', async () => {
    let onPool = 0;
    let most = 0;
    const counting = {
      get threads() {
        return spy.threads;
      },
      async run(task: Parameters<typeof spy.run>[0]) {
        most = Math.max(most, ++onPool);
        try {
          return await spy.run(task);
        } finally {
          onPool--;
        }
      },
    } as unknown as typeof spy;
    const dispatcher = new WorkDispatcher(counting, new EngineBudget(0));
    // Six calls at once, as a list of analyses reading each one's game: six tasks would overflow
    // the queue of four, and keep another request's task waiting behind all of them.
    const values = await Promise.all(
      Array.from({ length: 6 }, (_, i) => dispatcher.run('solve', [wire(mazeQuery(i))], [4096])),
    );
    expect(values.flat().filter((v) => v instanceof Error)).toEqual([]);
    expect(most).toBe(spy.threads);
  });

  it("gives the main thread's layers, heavy items in tasks of at most TASK_WEIGHT, light items inline", async () => {
    sent.length = 0;
    const queries: PathQuery[] = [
      ...Array.from({ length: 12 }, (_, i) => mazeQuery(i * 7)),
      ...Array.from({ length: 4 }, (_, i) => mazeQuery(i * 3, 32)),
      {
        piece: 'QUEEN',
        board: { files: 48, ranks: 40 },
        from: ['a1', 'c7'],
        to: ['av40', 'b39'],
        blocked: ['b2', 'c3', 'a2', 'ab20'],
      },
      { piece: 'KNIGHT', board: { files: 60, ranks: 61 }, from: ['a1'], to: ['b1', 'bh61'] },
      // Unreachable on a large board: no layers.
      { piece: 'WHITE_PAWN', board: { files: 50, ranks: 50 }, from: ['c10'], to: ['c9'] },
      // Light: solved on this thread.
      { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] },
      { piece: 'KNIGHT', board: { files: 20, ranks: 20 }, from: ['a1'], to: ['t20'] },
    ];
    const weights = queries.map(squaresOf);
    const values = await new WorkDispatcher(spy, new EngineBudget(0)).run('solve', queries.map(wire), weights);
    expect(values).toHaveLength(queries.length);
    queries.forEach((q, i) => {
      expect(values[i], `item ${i}`).not.toBeInstanceOf(Error);
      expect(plain(values[i] as PackedLayers), `item ${i}`).toEqual(plain(packLayers(solve(q))));
    });
    expect((values[queries.length - 3] as PackedLayers).starts.length).toBe(0);

    // What went to the pool: every item over INLINE_WEIGHT, once, in tasks within TASK_WEIGHT.
    const pooledKeys = sent.flatMap((task) =>
      (task.items as ReturnType<typeof wire>[]).map((w) => `${w.files}x${w.ranks}`),
    );
    const heavyKeys = queries
      .filter((q) => squaresOf(q) > INLINE_WEIGHT)
      .map((q) => `${q.board!.files}x${q.board!.ranks}`);
    expect(pooledKeys.sort()).toEqual(heavyKeys.sort());
    for (const task of sent) {
      expect(task.kind).toBe('solve');
      const weight = (task.items as ReturnType<typeof wire>[]).reduce((sum, w) => sum + w.files * w.ranks, 0);
      expect(weight <= TASK_WEIGHT || task.items.length === 1).toBe(true);
    }
    expect(sent.length).toBeGreaterThanOrEqual(Math.ceil(heavyKeys.length / Math.floor(TASK_WEIGHT / 4096)));
  });

  it('reports a bad item as an Error in its place, the others answered', async () => {
    const good = mazeQuery(3);
    const bad = { ...wire(good), piece: 'DRAGON' } as unknown as ReturnType<typeof wire>;
    const values = await new WorkDispatcher(pool, new EngineBudget(0)).run(
      'solve',
      [wire(good), bad, wire(good)],
      [4096, 4096, 4096],
    );
    expect(plain(values[0] as PackedLayers)).toEqual(plain(packLayers(solve(good))));
    expect(values[1]).toBeInstanceOf(Error);
    expect(values[1]).not.toBeInstanceOf(EngineBudgetError);
    expect(plain(values[2] as PackedLayers)).toEqual(plain(packLayers(solve(good))));
  });
});

/** A page as plain data (its edges format their fields when read). */
function plainPage(page: PathConnection) {
  return {
    edges: page.edges.map((e) => ({ cursor: e.cursor, node: { squares: e.node.squares } })),
    pageInfo: { ...page.pageInfo },
    totalCount: page.totalCount,
  };
}

describe('lazy fields on the pool', () => {
  /** What the main thread answers for a field of a result. */
  function mainThread(result: PathResult, item: Pick<FieldItem, 'field' | 'first' | 'after'>): unknown {
    switch (item.field) {
      case 'pathCount':
        return result.pathCount;
      case 'path':
        return result.path;
      case 'paths':
        return result.paths({ first: item.first, after: item.after });
      case 'distances':
        return Int32Array.from(result.distances, (d) => (d === null ? -1 : d));
      case 'ascii':
        return renderAscii(result);
      case 'svg':
        return renderSvg(result);
      case 'layerBitboards':
        return result.layers.map((l) => l.bitboard);
    }
  }

  it("equal the main thread's (pathCount, path, paths pages with cursors, distances, ascii, svg, layer bitboards)", async () => {
    const queries: PathQuery[] = [
      mazeQuery(11),
      mazeQuery(57),
      {
        piece: 'QUEEN',
        board: { files: 40, ranks: 40 },
        from: ['a1', 'c7'],
        to: ['an40', 'b39'],
        blocked: ['b2', 'c3', 'a2'],
      },
      { piece: 'KNIGHT', board: { files: 64, ranks: 64 }, from: ['a1'], to: ['bl64', 'a64'] },
      { piece: 'BLACK_PAWN', board: { files: 40, ranks: 40 }, from: ['c1'], to: ['c40'] },
    ];
    const results = queries.map((q) => solve(q));
    expect(results[0].distance).toBeGreaterThan(1000);
    const items: FieldItem[] = [];
    const owners: PathResult[] = [];
    const add = (r: PathResult, field: LazyField, first?: number | null, after?: string | null) => {
      items.push({
        problem: wireOf(prepareQuery(queries[results.indexOf(r as (typeof results)[number])])),
        layers: packLayers(r),
        field,
        first,
        after,
      });
      owners.push(r);
    };
    for (const r of results) {
      add(r, 'pathCount');
      add(r, 'path');
      add(r, 'paths', 5);
      const page = r.paths({ first: 5 });
      if (page.pageInfo.endCursor) add(r, 'paths', 7, page.pageInfo.endCursor);
      if (page.edges.length >= 3) add(r, 'paths', 2, page.edges[1].cursor);
      add(r, 'distances');
      add(r, 'svg');
      add(r, 'layerBitboards');
      if ((r.distance ?? 0) < 50) add(r, 'ascii');
    }
    const weights = items.map((item, i) => Math.max(INLINE_WEIGHT + 1, fieldWeight(owners[i], item.field, item.first)));
    sent.length = 0;
    const values = await new WorkDispatcher(spy, new EngineBudget(0)).run('field', items, weights);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.reduce((n, t) => n + t.items.length, 0)).toBe(items.length);
    items.forEach((item, i) => {
      const label = `${owners[i].piece} ${owners[i].board.files}x${owners[i].board.ranks} ${item.field} ${item.first ?? ''} ${item.after ?? ''}`;
      expect(values[i], label).not.toBeInstanceOf(Error);
      // A page crosses as square indices; formatted, it is the main thread's page.
      const value =
        item.field === 'paths' ? plainPage(pageFromWire(values[i] as PageWire, owners[i].board)) : values[i];
      const expected = mainThread(owners[i], item);
      expect(value, label).toEqual(item.field === 'paths' ? plainPage(expected as PathConnection) : expected);
      if (item.field === 'svg') expect(checkWellFormedXml(value as string), label).toBe('svg');
    });
    // The page after a cursor continues the first page.
    const maze = results[0];
    const ten = maze.paths({ first: 12 });
    const pageIndex = items.findIndex((it, i) => owners[i] === maze && it.field === 'paths' && it.first === 7);
    expect(pageFromWire(values[pageIndex] as PageWire, maze.board).edges.map((e) => e.node.squares)).toEqual(
      ten.edges.slice(5, 12).map((e) => e.node.squares),
    );
    // The unreachable result: empty answers.
    const unreachable = results[4];
    expect(unreachable.reachable).toBe(false);
    expect(values[owners.indexOf(unreachable)]).toBe(0n);
  });

  it('a bad cursor comes back as the InputError the main thread throws', async () => {
    const r = solve(mazeQuery(20));
    let expected: unknown;
    try {
      r.paths({ first: 3, after: 'not-a-cursor' });
    } catch (err) {
      expected = err;
    }
    expect(expected).toBeInstanceOf(InputError);
    const [value] = await new WorkDispatcher(pool, new EngineBudget(0)).run(
      'field',
      [
        {
          problem: wireOf(prepareQuery(mazeQuery(20))),
          layers: packLayers(r),
          field: 'paths',
          first: 3,
          after: 'not-a-cursor',
        },
      ],
      [INLINE_WEIGHT + 1],
    );
    expect(value).toBeInstanceOf(InputError);
    expect((value as InputError).message).toBe((expected as InputError).message);
    expect((value as InputError).argument).toEqual((expected as InputError).argument);
  });

  it('a known path count is served as given, not recomputed', async () => {
    const r = solve(mazeQuery(21));
    const [value] = await new WorkDispatcher(pool, new EngineBudget(0)).run(
      'field',
      [{ problem: wireOf(prepareQuery(mazeQuery(21))), layers: packLayers(r), pathCount: 424242n, field: 'pathCount' }],
      [INLINE_WEIGHT + 1],
    );
    expect(value).toBe(424242n);
  });
});

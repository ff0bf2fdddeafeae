/**
 * The work dispatcher on a real worker pool (one thread, a queue of four tasks):
 * - large problems solved on the pool give the layers the engine gives on the main thread, in
 *   tasks of at most TASK_WEIGHT, while light items never leave the main thread;
 * - the request's budget (shared memory) stops a running task between items and the dispatcher
 *   sends no further task: items not done end as EngineBudgetError (an account with a microsecond
 *   left is spent by the first item, however fast the machine, so exactly one is done);
 * - `budget.cancel()` drops the request's queued tasks without running them;
 * - a full queue refuses with OverloadedError;
 * - lazy fields computed on the pool equal the main thread's.
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
import { Piscina } from 'piscina';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mazeQuery as maze } from '../../../packages/engine/test/support/maze.js';
import { checkWellFormedXml } from '../../../packages/engine/test/support/xml.js';
import { INLINE_WEIGHT, TASK_WEIGHT, WorkDispatcher } from '../../../src/graphql/work/dispatch.js';
import { EngineBudget, EngineBudgetError } from '../../../src/graphql/work/engine-budget.js';
import { fieldWeight } from '../../../src/graphql/work/fields.js';
import { EnginePool, OverloadedError } from '../../../src/graphql/work/pool.js';
import {
  type FieldItem,
  type LazyField,
  type PageWire,
  pageFromWire,
  type Task,
  type TaskAnswer,
  wireOf,
} from '../../../src/graphql/work/tasks.js';

const wire = (q: PathQuery) => wireOf(prepareQuery(q));
const mazeQuery = (i: number, side: 32 | 64 | 128 = 64) => maze(i, side) as PathQuery;
const squaresOf = (q: PathQuery) => (q.board?.files ?? 8) * (q.board?.ranks ?? 8);
const plain = (p: PackedLayers) => ({ squares: Array.from(p.squares), starts: Array.from(p.starts) });

let pool: EnginePool;
/** Every task the dispatchers below hand to the pool, and what came back. */
let sent: Task[] = [];
let answers: TaskAnswer[] = [];
/** Tasks handed to the pool through `spy` that have not come back yet. */
let running = 0;
/** The pool as a dispatcher sees it, recording tasks. */
let spy: EnginePool;
/** Worker threads piscina has ended (a task aborted from outside would end one). */
let workersEnded = 0;
/** An account with one microsecond left: the first item any task runs spends it. */
function nearlySpent(): EngineBudget {
  const budget = new EngineBudget(1);
  budget.charge(0.999);
  return budget;
}

/** A one-item task: it comes back once the worker is free (and alive). */
async function oneItem(): Promise<TaskAnswer> {
  return pool.run({ kind: 'solve', items: [wire({ piece: 'ROOK', from: ['a1'], to: ['h8'] })] });
}

beforeAll(async () => {
  const run = vi.spyOn(Piscina.prototype, 'run');
  pool = new EnginePool({ threads: 1, maxQueue: 4 });
  spy = {
    get threads() {
      return pool.threads;
    },
    run(task: Task): Promise<TaskAnswer> {
      sent.push(task);
      running++;
      return pool.run(task).then(
        (answer) => {
          running--;
          answers.push(answer);
          return answer;
        },
        (err: unknown) => {
          running--;
          throw err;
        },
      );
    },
  } as unknown as EnginePool;
  // The worker starts (and loads the engine through tsx) before the tests.
  await oneItem();
  const piscina = run.mock.contexts[0] as Piscina;
  run.mockRestore();
  piscina.on('workerDestroy', () => workersEnded++);
  await oneItem();
});

afterAll(async () => {
  await pool?.close();
});

describe('solving on the pool', () => {
  it("gives the main thread's layers, heavy items in tasks of at most TASK_WEIGHT, light items inline", async () => {
    sent = [];
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

describe('the budget stops the work', () => {
  it('cuts a batch of many large problems short: the rest are EngineBudgetError, no further task is sent', async () => {
    // 128 x 128 mazes, in tasks of 8; the account has a microsecond left, so the first item
    // spends it.
    const queries = Array.from({ length: 96 }, (_, i) => mazeQuery(i, 128));
    const items = queries.map(wire);
    sent = [];
    answers = [];
    const budget = nearlySpent();
    const values = await new WorkDispatcher(spy, budget).run(
      'solve',
      items,
      items.map(() => 4096),
    );
    const done = values.filter((v) => !(v instanceof Error));
    const cut = values.filter((v) => v instanceof EngineBudgetError);
    console.log(`1 µs left: ${done.length}/96 solved, ${budget.spentMs.toFixed(1)} ms spent, ${sent.length} task(s)`);
    // Stopped at the first item past the budget, far below the whole batch: the task in flight
    // stopped between its items, and no task followed.
    expect(done).toHaveLength(1);
    expect(done.length + cut.length).toBe(96);
    expect(plain(values[0] as PackedLayers)).toEqual(plain(packLayers(solve(queries[0]))));
    expect(budget.spentMs).toBeGreaterThanOrEqual(1);
    expect(sent).toHaveLength(1);
    expect(sent[0].items).toHaveLength(8);
    expect(answers).toEqual([expect.objectContaining({ stopped: true })]);
    expect(answers[0].values).toHaveLength(1);
    expect(budget.cancelled).toBeInstanceOf(EngineBudgetError);
    // Nothing of the batch goes on in the background: every task it sent has come back, none is
    // queued, and the worker (not ended) takes the next task.
    expect(running).toBe(0);
    expect(pool.queued).toBe(0);
    expect((await oneItem()).values).toHaveLength(1);
    expect(workersEnded).toBe(0);
  });

  it('stops a running task between items (one task of 30 items)', async () => {
    const queries = Array.from({ length: 30 }, (_, i) => mazeQuery(i + 100));
    sent = [];
    answers = [];
    const budget = nearlySpent();
    // Weights just over INLINE_WEIGHT: all 30 items fit one task.
    const values = await new WorkDispatcher(spy, budget).run(
      'solve',
      queries.map(wire),
      queries.map(() => INLINE_WEIGHT + 1),
    );
    expect(sent).toHaveLength(1);
    expect(sent[0].items).toHaveLength(30);
    const done = values.findIndex((v) => v instanceof Error);
    console.log(`one task, 1 µs left: ${done} of 30 items done, ${budget.spentMs.toFixed(1)} ms spent`);
    // The item that spent the account is done; the task stopped before the next one.
    expect(done).toBe(1);
    expect(answers).toEqual([expect.objectContaining({ stopped: true })]);
    for (const v of values.slice(done)) expect(v).toBeInstanceOf(EngineBudgetError);
    expect(plain(values[0] as PackedLayers)).toEqual(plain(packLayers(solve(queries[0]))));
    expect(running).toBe(0);
    expect((await oneItem()).values).toHaveLength(1);
    expect(workersEnded).toBe(0);
  });

  it('spent before anything runs: nothing is sent, every item is EngineBudgetError', async () => {
    const budget = new EngineBudget(1);
    budget.charge(2);
    sent = [];
    const values = await new WorkDispatcher(spy, budget).run(
      'solve',
      [wire(mazeQuery(1)), wire({ piece: 'KING', from: ['a1'], to: ['h8'] })],
      [4096, 64],
    );
    expect(sent).toHaveLength(0);
    expect(values[0]).toBeInstanceOf(EngineBudgetError);
    expect(values[1]).toBeInstanceOf(EngineBudgetError);
  });

  it('budget.cancel(): queued tasks end without doing any work as soon as a worker takes them; the running one is not disturbed', async () => {
    const blockerItems = Array.from({ length: 100 }, (_, i) => wire(mazeQuery(i + 200)));
    const order: string[] = [];
    // From here to the cancels below nothing awaits: piscina hands a queued task to the worker
    // only when this thread hears that the blocker is done, so the two requests' tasks are still
    // queued when they are cancelled, however fast the worker is.
    const blocker = pool.run({ kind: 'solve', items: blockerItems }).then((answer) => {
      order.push('blocker');
      return answer;
    });
    expect(pool.queued).toBe(0); // running

    // Two requests whose tasks wait behind it; one cancelled with a reason, one with none.
    const gone = new EngineBudget(0);
    const overrun = new EngineBudget(50);
    const a = new WorkDispatcher(pool, gone)
      .run('solve', [wire(mazeQuery(1)), wire(mazeQuery(2))], [4096, 4096])
      .then((v) => {
        order.push('a');
        return v;
      });
    const b = new WorkDispatcher(pool, overrun).run('solve', [wire(mazeQuery(3))], [4096]).then((v) => {
      order.push('b');
      return v;
    });
    expect(pool.queued).toBe(2);
    const reason = new Error('the client went away');
    gone.cancel(reason);
    overrun.cancel();
    const [va, vb] = await Promise.all([a, b]);
    expect(va).toEqual([reason, reason]);
    expect(vb[0]).toBeInstanceOf(EngineBudgetError);
    // They end after the blocker (tasks are never aborted from outside: piscina would end the
    // worker), and nothing of theirs ran.
    expect(order).toEqual(['blocker', 'a', 'b']);
    expect(pool.queued).toBe(0);
    expect(gone.spentMs).toBe(0);
    expect(overrun.spentMs).toBe(0);
    // Work of a cancelled request is refused from then on, without a task.
    expect(await new WorkDispatcher(pool, gone).run('solve', [wire(mazeQuery(4))], [4096])).toEqual([reason]);
    const answer = await blocker;
    expect(answer.stopped).toBe(false);
    expect(answer.values).toHaveLength(100);
  });

  // piscina ends the worker thread when it aborts a running task; the service never aborts tasks
  // that way, so a cancelled task stops between items, keeps what it did, and the worker stays.
  it('cancelling while a task runs stops it between items and keeps the worker', async () => {
    // Seven tasks of 31 (the last of 14) 128 x 128 mazes, one at a time on the one worker.
    const queries = Array.from({ length: 200 }, (_, i) => mazeQuery(i + 300, 128));
    const budget = new EngineBudget(0);
    const solving = new WorkDispatcher(pool, budget).run(
      'solve',
      queries.map(wire),
      queries.map(() => INLINE_WEIGHT + 1),
    );
    // The worker adds each item's time to the account when the item is done: a task is running.
    await vi.waitFor(() => expect(budget.spentMs).toBeGreaterThan(0), { timeout: 30_000, interval: 1 });
    expect(pool.queued).toBe(0); // the task is running, not queued
    const reason = new Error('the client went away');
    budget.cancel(reason);
    const values = await solving;
    // Items done before the cancel keep their values, the rest fail with its reason; the worker
    // was not ended, and takes the next task.
    const done = values.findIndex((v) => v instanceof Error);
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(200);
    for (const v of values.slice(done)) expect(v).toBe(reason);
    expect(plain(values[done - 1] as PackedLayers)).toEqual(plain(packLayers(solve(queries[done - 1]))));
    expect((await oneItem()).values).toHaveLength(1);
    expect(workersEnded).toBe(0);
  });
});

describe('a full queue', () => {
  it('refuses with OverloadedError, directly and through the dispatcher (which cancels the request)', async () => {
    // Everything is handed to the pool before anything awaits: the queue cannot move meanwhile
    // (piscina hands a queued task to the worker only when this thread hears the blocker is done).
    const blockerItems = Array.from({ length: 60 }, (_, i) => wire(mazeQuery(i + 400, 128)));
    const queuedItems = Array.from({ length: 4 }, (_, i) => wire(mazeQuery(i)));
    const [ninth, fifth] = [wire(mazeQuery(9)), wire(mazeQuery(5))];
    const blocker = pool.run({ kind: 'solve', items: blockerItems });
    expect(pool.queued).toBe(0); // running
    const queued = queuedItems.map((item) => pool.run({ kind: 'solve', items: [item] }));
    expect(pool.queued).toBe(4);
    const direct = pool.run({ kind: 'solve', items: [ninth] });
    const budget = new EngineBudget(0);
    const dispatched = new WorkDispatcher(pool, budget).run(
      'solve',
      [fifth, wire({ piece: 'KING', from: ['e4'], to: ['h8'] })],
      [4096, 64],
    );
    await expect(direct).rejects.toBeInstanceOf(OverloadedError);
    const values = await dispatched;
    expect(values[0]).toBeInstanceOf(OverloadedError);
    expect((values[0] as OverloadedError).retryAfterSeconds).toBeGreaterThan(0);
    // The light item was answered here all the same.
    expect(plain(values[1] as PackedLayers)).toEqual(
      plain(packLayers(solve({ piece: 'KING', from: ['e4'], to: ['h8'] }))),
    );
    expect(budget.cancelled).toBeDefined();
    expect(budget.cancelled).toBe(values[0]);

    for (const answer of await Promise.all(queued)) expect(answer.values).toHaveLength(1);
    expect(pool.queued).toBe(0);
    expect((await blocker).values).toHaveLength(60);
    // Room again.
    const after = await new WorkDispatcher(pool, new EngineBudget(0)).run('solve', [wire(mazeQuery(6))], [4096]);
    expect(plain(after[0] as PackedLayers)).toEqual(plain(packLayers(solve(mazeQuery(6)))));
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
    sent = [];
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

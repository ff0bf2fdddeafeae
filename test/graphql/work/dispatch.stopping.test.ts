/**
 * How the work dispatcher stops, on a real worker pool (one thread, a queue of four tasks; the pool
 * and its recording view come from test/support/dispatch-pool.ts):
 * - the request's budget (shared memory) stops a running task between items and the dispatcher
 *   sends no further task: items not done end as EngineBudgetError (an account with a microsecond
 *   left is spent by the first item, however fast the machine, so exactly one is done);
 * - `budget.cancel()` drops the request's queued tasks without running them, and stops a running
 *   one between items without ending the worker;
 * - a full queue refuses with OverloadedError.
 */

import { type PackedLayers, packLayers, solve } from '@chess-paths/engine';
import { describe, expect, it, vi } from 'vitest';
import { INLINE_WEIGHT, WorkDispatcher } from '../../../src/graphql/work/dispatch.js';
import { EngineBudget, EngineBudgetError } from '../../../src/graphql/work/engine-budget.js';
import { OverloadedError } from '../../../src/graphql/work/pool.js';
import {
  answers,
  mazeQuery,
  oneItem,
  plain,
  pool,
  running,
  sent,
  spy,
  useDispatchPool,
  wire,
  workersEnded,
} from '../../support/dispatch-pool.js';

/** An account with one microsecond left: the first item any task runs spends it. */
function nearlySpent(): EngineBudget {
  const budget = new EngineBudget(1);
  budget.charge(0.999);
  return budget;
}

useDispatchPool();

describe('the budget stops the work', () => {
  it('cuts a batch of many large problems short: the rest are EngineBudgetError, no further task is sent', async () => {
    // 128 x 128 mazes, in tasks of 8; the account has a microsecond left, so the first item
    // spends it.
    const queries = Array.from({ length: 96 }, (_, i) => mazeQuery(i, 128));
    const items = queries.map(wire);
    sent.length = 0;
    answers.length = 0;
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
    sent.length = 0;
    answers.length = 0;
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
    sent.length = 0;
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

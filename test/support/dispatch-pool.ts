/**
 * A real engine worker pool for the work dispatcher's tests (`test/graphql/work/dispatch.*.test.ts`):
 * one thread and a queue of four tasks, started (and its worker warmed up) before a file's tests
 * and closed after them, with a view of it that records every task a dispatcher hands over and
 * what came back, and a count of the worker threads piscina has ended. Also the small conversions
 * those tests share: a query as the pool receives it, the maze questions, layers as plain data.
 */
import { type PackedLayers, type PathQuery, prepareQuery } from '@chess-paths/engine';
import { Piscina } from 'piscina';
import { afterAll, beforeAll, vi } from 'vitest';
import { mazeQuery as maze } from '../../packages/engine/test/support/maze.js';
import { EnginePool } from '../../src/graphql/work/pool.js';
import { type Task, type TaskAnswer, wireOf } from '../../src/graphql/work/tasks.js';

/** A query as it crosses to the pool. */
export const wire = (q: PathQuery) => wireOf(prepareQuery(q));
/** The `i`th maze question on a board of side `side` (a king crossing a serpentine maze). */
export const mazeQuery = (i: number, side: 32 | 64 | 128 = 64) => maze(i, side) as PathQuery;
/** Packed layers as plain arrays, to compare with `toEqual`. */
export const plain = (p: PackedLayers) => ({ squares: Array.from(p.squares), starts: Array.from(p.starts) });

/** The pool (one thread, a queue of four tasks); set by `useDispatchPool`'s `beforeAll`. */
export let pool: EnginePool;
/** Every task the dispatchers hand to the pool through `spy`; a test empties it before it counts. */
export const sent: Task[] = [];
/** What came back for the tasks in `sent`; a test empties it before it counts. */
export const answers: TaskAnswer[] = [];
/** Tasks handed to the pool through `spy` that have not come back yet. */
export let running = 0;
/** The pool as a dispatcher sees it, recording tasks; set by `useDispatchPool`'s `beforeAll`. */
export let spy: EnginePool;
/** Worker threads piscina has ended (a task aborted from outside would end one). */
export let workersEnded = 0;

/** A one-item task: it comes back once the worker is free (and alive). */
export async function oneItem(): Promise<TaskAnswer> {
  return pool.run({ kind: 'solve', items: [wire({ piece: 'ROOK', from: ['a1'], to: ['h8'] })] });
}

/** Registers the hooks that start the pool (and its worker) before a file's tests and close it after. */
export function useDispatchPool(): void {
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
}

/**
 * `EnginePool.close()`: it lets a worker still loading finish, and a running task return its
 * answer, before it ends the workers (ending a worker thread mid-load or mid-WebAssembly is where
 * Node has crashed whole processes); past the close grace it ends them anyway, the task failing;
 * after it, `run` is refused at once with OVERLOADED.
 */

import { prepareQuery } from '@chess-paths/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { EnginePool, OverloadedError } from '../../../src/graphql/work/pool.js';
import { wireOf } from '../../../src/graphql/work/tasks.js';

const pools: EnginePool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});

/** A knight question on 256 x 256: some milliseconds of work on the WebAssembly kernel. */
const knight = (i: number) =>
  wireOf(prepareQuery({ piece: 'KNIGHT', from: [`a${i + 1}`], to: ['iv256'], board: { files: 256, ranks: 256 } }));

describe('EnginePool.close', () => {
  it('waits for a worker still loading and a task it was given, then ends the workers', async () => {
    // The grace is long enough for any machine, however loaded: closing waits on the task itself.
    const pool = new EnginePool({ threads: 1, maxQueue: 8, closeGraceMs: 600_000 });
    pools.push(pool);
    // Sent at once, while the worker is still loading its modules, then closed at once.
    const answer = pool.run({ kind: 'solve', items: [knight(0), knight(1)] });
    await pool.close();
    const { values, stopped } = await answer;
    expect(stopped).toBe(false);
    expect(values).toHaveLength(2);
    await expect(pool.run({ kind: 'solve', items: [knight(2)] })).rejects.toBeInstanceOf(OverloadedError);
  });

  it('ends the workers once the grace has passed, the task still running failing', async () => {
    const pool = new EnginePool({ threads: 1, maxQueue: 8, closeGraceMs: 1 });
    pools.push(pool);
    // Many fills: far more than a millisecond of work, so the grace ends first.
    const answer = pool.run({ kind: 'solve', items: Array.from({ length: 200 }, (_, i) => knight(i % 250)) });
    const outcome = answer.then(
      () => 'answered',
      () => 'failed',
    );
    await pool.close();
    expect(await outcome).toBe('failed');
  });
});

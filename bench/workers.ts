/**
 * Where engine work should run (`npm run bench:workers`): for problems of growing board size, the
 * time of a fill done on the main thread against the same fill sent to a worker thread and back
 * (structured clone each way, the message, the packed answer), one at a time. The dispatcher keeps
 * work on the main thread below the size where the hop costs more than the work itself
 * (`INLINE_WEIGHT` in src/graphql/work/dispatch.ts). Ratios matter here, not absolute figures:
 * both are measured in the same run.
 */
import { prepareQuery, squareName } from '@chess-paths/engine';
import { INLINE_WEIGHT } from '../src/graphql/work/dispatch.js';
import { EnginePool } from '../src/graphql/work/pool.js';
import { type ProblemWire, runTask, wireOf } from '../src/graphql/work/tasks.js';

const ROUNDS = Number(process.env.WORKERS_ROUNDS ?? 300);

/** Mean microseconds of `f` over `n` runs, after a warm-up. */
async function time(n: number, f: () => unknown): Promise<number> {
  for (let i = 0; i < Math.min(50, n); i++) await f();
  const started = performance.now();
  for (let i = 0; i < n; i++) await f();
  return ((performance.now() - started) / n) * 1000;
}

const pool = new EnginePool({ threads: 1, maxQueue: 16 });
console.log(`inline limit: ${INLINE_WEIGHT} board squares`);
console.log('board     piece   main thread   via a worker   worker / main');
for (const side of [8, 16, 24, 32, 48, 64]) {
  for (const piece of ['KING', 'QUEEN'] as const) {
    const board = { files: side, ranks: side };
    const wire: ProblemWire = wireOf(
      prepareQuery({ piece, board, from: ['a1'], to: [squareName(side * side - 1, board)] }),
    );
    const here = await time(ROUNDS, () => runTask({ kind: 'solve', items: [wire] }));
    const there = await time(ROUNDS, () => pool.run({ kind: 'solve', items: [wire] }));
    console.log(
      `${`${side} x ${side}`.padEnd(10)}${piece.padEnd(8)}${`${here.toFixed(1)} us`.padStart(11)}${`${there.toFixed(1)} us`.padStart(15)}${`${(there / here).toFixed(2)}`.padStart(16)}`,
    );
  }
}
await pool.close();

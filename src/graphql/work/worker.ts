/**
 * The worker threads' entry point: piscina calls the default export with each task. It does
 * exactly what the main thread does with a small task (`runTask`), so where a piece of work ran
 * never changes its answer.
 *
 * The engine's caches belong to each thread: the pool hands every worker the server's bounds of
 * them (BETZA_CACHE_BYTES, BOARD_CACHE_BYTES, as `workerData`), which it applies once loaded, so
 * each worker keeps its own within the same bounds as the main thread.
 *
 * A PNG (`raster`) answers one turn of the thread's event loop later: piscina hands a worker its
 * next task without turning it (it waits on Atomics), and the memory of resvg's objects, collected
 * right after the picture (`raster.ts`), is given back by finalizers that run on that turn.
 * Without it a busy worker kept every picture's pixels (60 PNGs 1200 pixels wide: 400 MB).
 */
import { workerData } from 'node:worker_threads';
import { setEngineCacheBytes } from '@chess-paths/engine';
import type { WorkerData } from './pool.js';
import { runTask, type Task, type TaskAnswer } from './tasks.js';

const bounds = (workerData as WorkerData | undefined)?.engineCacheBytes;
if (bounds) setEngineCacheBytes(bounds);

/** Runs one task. */
export default function work(task: Task): TaskAnswer | Promise<TaskAnswer> {
  const answer = runTask(task);
  if (task.kind !== 'raster') return answer;
  return new Promise((resolve) => setImmediate(() => resolve(answer)));
}

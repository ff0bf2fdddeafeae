/**
 * The worker threads' entry point: piscina calls the default export with each task. It does
 * exactly what the main thread does with a small task (`runTask`), so where a piece of work ran
 * never changes its answer.
 */
import { runTask, type Task, type TaskAnswer } from './tasks.js';

/** Runs one task. */
export default function work(task: Task): TaskAnswer {
  return runTask(task);
}

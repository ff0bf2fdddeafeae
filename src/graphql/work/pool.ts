/**
 * The worker pool (piscina) that runs heavy engine work off the event loop: fills of large
 * boards, the expensive lazy fields of large results, and the cache's encoding and decoding.
 *
 * Its queue is bounded (WORK_QUEUE tasks): a task that finds it full is refused at once with an
 * `OverloadedError` instead of waiting behind unbounded work, so memory held by queued tasks stays
 * bounded. Tasks stop themselves when their request's budget is spent or its work cancelled
 * (`tasks.ts`); they are never aborted from outside, since piscina ends the worker thread to abort
 * a running task. `close()` ends the workers even mid-task: shutdown never waits for engine work.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { ErrorCode, ServiceError } from '../../errors.js';
import type { Task, TaskAnswer } from './tasks.js';

/** The service has more work in flight than it accepts; try again shortly. */
export class OverloadedError extends ServiceError {
  override readonly name = 'OverloadedError';
  readonly code = ErrorCode.Overloaded;
  constructor(
    message: string,
    /** Seconds the client should wait before trying again. */
    readonly retryAfterSeconds = 1,
  ) {
    super(message);
  }

  override extensions(): Record<string, unknown> {
    return { retryAfter: this.retryAfterSeconds };
  }
}

/** Options of the pool. */
export interface PoolOptions {
  /** Worker threads; 0: one fewer than the cores, at least one. */
  threads: number;
  /** Most tasks waiting for a worker. */
  maxQueue: number;
}

/** The worker script: the built `worker.js`, or the TypeScript source through tsx. */
function workerFile(): string {
  const built = fileURLToPath(new URL('./worker.js', import.meta.url));
  return existsSync(built) ? built : fileURLToPath(new URL('./worker-source.mjs', import.meta.url));
}

/** Engine work on worker threads. */
export class EnginePool {
  readonly #pool: Piscina<Task, TaskAnswer>;
  readonly #maxQueue: number;
  #closed = false;

  constructor(options: PoolOptions) {
    const threads = options.threads > 0 ? options.threads : Math.max(1, availableParallelism() - 1);
    this.#maxQueue = options.maxQueue;
    this.#pool = new Piscina<Task, TaskAnswer>({
      filename: workerFile(),
      minThreads: threads,
      maxThreads: threads,
      maxQueue: options.maxQueue,
      // Workers stay up: starting one costs tens of milliseconds of CPU.
      idleTimeout: 2 ** 31 - 1,
    });
  }

  /** Worker threads. */
  get threads(): number {
    return this.#pool.maxThreads;
  }

  /** Tasks waiting for a worker. */
  get queued(): number {
    return this.#pool.queueSize;
  }

  /** Runs a task on a worker; `OverloadedError` when the queue is full or the pool closed. */
  async run(task: Task): Promise<TaskAnswer> {
    if (this.#closed) throw new OverloadedError('The service is shutting down');
    if (this.#pool.queueSize >= this.#maxQueue) {
      throw new OverloadedError(
        `The engine's work queue is full (${this.#maxQueue} tasks, WORK_QUEUE): try again shortly`,
      );
    }
    return this.#pool.run(task);
  }

  /** Ends every worker at once (tasks in flight fail); later `run`s are refused. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.destroy();
  }
}

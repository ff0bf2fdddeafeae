/**
 * The worker pool (piscina) that runs heavy engine work off the event loop: fills of large
 * boards, the expensive lazy fields of large results, and the cache's encoding and decoding.
 *
 * Its queue is bounded (WORK_QUEUE tasks): a task that finds it full is refused at once with an
 * `OverloadedError` instead of waiting behind unbounded work, so memory held by queued tasks stays
 * bounded. Tasks stop themselves when their request's budget is spent or its work cancelled
 * (`tasks.ts`); they are never aborted from outside, since piscina ends the worker thread to abort
 * a running task.
 *
 * `close()` gives the workers a moment (`CLOSE_GRACE_MS`) to finish loading and to return the tasks
 * they run (their requests' work is cancelled by then, so a task stops within one item), then ends
 * them, done or not: shutdown never waits long for engine work. The moment is there because ending
 * a worker thread while it is still loading its modules (a custom module loader's own thread then
 * runs beside it), or while it runs WebAssembly, is where Node has had process-wide crashes; a
 * server closed right after it started (tests do it all the time) would otherwise end every worker
 * mid-load.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { EngineCacheName } from '@chess-paths/engine';
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

/** Longest `close()` waits for the workers to finish loading and return their tasks, ms. */
export const CLOSE_GRACE_MS = 2000;

/** Options of the pool. */
export interface PoolOptions {
  /** Worker threads; 0: one fewer than the cores, at least one. */
  threads: number;
  /** Most tasks waiting for a worker. */
  maxQueue: number;
  /** Longest `close()` waits for loading workers and running tasks, ms (default `CLOSE_GRACE_MS`). */
  closeGraceMs?: number;
  /** Bounds of the engine's caches in each worker, bytes (default: the engine's). */
  engineCacheBytes?: Partial<Record<EngineCacheName, number>>;
}

/** What each worker gets when it starts (`worker.ts`). */
export interface WorkerData {
  engineCacheBytes?: Partial<Record<EngineCacheName, number>>;
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
  readonly #closeGraceMs: number;
  /** Settles once every worker has loaded (an empty task answered by each). */
  readonly #loaded: Promise<unknown>;
  /** Tasks sent and not yet returned. */
  readonly #running = new Set<Promise<unknown>>();
  #closed = false;

  constructor(options: PoolOptions) {
    const threads = options.threads > 0 ? options.threads : Math.max(1, availableParallelism() - 1);
    this.#maxQueue = options.maxQueue;
    this.#closeGraceMs = options.closeGraceMs ?? CLOSE_GRACE_MS;
    this.#pool = new Piscina<Task, TaskAnswer>({
      filename: workerFile(),
      minThreads: threads,
      maxThreads: threads,
      maxQueue: options.maxQueue,
      // Workers stay up: starting one costs tens of milliseconds of CPU.
      idleTimeout: 2 ** 31 - 1,
      workerData: { engineCacheBytes: options.engineCacheBytes } satisfies WorkerData,
    });
    // An empty task per thread answers once a worker has loaded: what `close()` waits for.
    const empty: Task = { kind: 'solve', items: [] };
    this.#loaded = Promise.allSettled(Array.from({ length: threads }, () => this.#pool.run(empty)));
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
    const running = this.#pool.run(task);
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    this.#running.add(settled);
    void settled.then(() => this.#running.delete(settled));
    return running;
  }

  /**
   * Ends every worker, after at most the close grace for them to finish loading and return the
   * tasks they run (tasks still running then fail); later `run`s are refused at once.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.#closeGraceMs);
    });
    await Promise.race([Promise.allSettled([this.#loaded, ...this.#running]), grace]);
    clearTimeout(timer);
    await this.#pool.destroy();
  }
}

/**
 * Admission control: a process-wide bound on heavy requests in flight. A request whose estimated
 * engine work (`limits/cost.ts`, computed with its variables before execution) marks it as heavy must
 * hold one of HEAVY_REQUESTS places while it executes; past them it waits in a short queue
 * (ADMISSION_QUEUE places, at most ADMISSION_TIMEOUT_MS) or, when the queue is full or the wait
 * runs out, is refused with an `OverloadedError`: HTTP 503, a Retry-After header and code
 * OVERLOADED, before anything of it ran. Light requests (the seed example, small questions,
 * `{ __typename }`) never wait here, so they keep being answered while heavy ones queue.
 *
 * Together with MAX_RESPONSE_BYTES per request this bounds the memory of answers being built:
 * at most HEAVY_REQUESTS x MAX_RESPONSE_BYTES of large output at a time (docs/reliability.md).
 */
import { OverloadedError } from './pool.js';

/** Options of the gate. */
export interface AdmissionOptions {
  /** Heavy requests executing at once. */
  slots: number;
  /** Heavy requests waiting at once. */
  queue: number;
  /** Longest wait, ms. */
  timeoutMs: number;
}

/** Seconds a refused client is told to wait. */
const RETRY_AFTER_SECONDS = 1;

/** The gate heavy requests pass. */
export class Admission {
  #inFlight = 0;
  readonly #waiting: { admit: () => void; refuse: (err: Error) => void; timer: NodeJS.Timeout }[] = [];
  #closed = false;

  constructor(private readonly options: AdmissionOptions) {}

  /** Heavy requests executing now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Heavy requests waiting now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Waits for a place; resolves with its release (call it once). Throws `OverloadedError`. */
  async acquire(): Promise<() => void> {
    if (this.#closed)
      throw new OverloadedError('The service is shutting down: try again in a moment', RETRY_AFTER_SECONDS);
    if (this.#inFlight < this.options.slots) {
      this.#inFlight++;
      return this.#releaser();
    }
    if (this.#waiting.length >= this.options.queue || this.options.timeoutMs === 0) {
      throw this.#refusal('no place is free and the queue is full');
    }
    await new Promise<void>((resolve, reject) => {
      const entry = {
        admit: () => {
          clearTimeout(entry.timer);
          resolve();
        },
        refuse: (err: Error) => {
          clearTimeout(entry.timer);
          reject(err);
        },
        timer: setTimeout(() => {
          this.#waiting.splice(this.#waiting.indexOf(entry), 1);
          reject(this.#refusal(`no place came free within ${this.options.timeoutMs} ms`));
        }, this.options.timeoutMs),
      };
      this.#waiting.push(entry);
    });
    return this.#releaser();
  }

  /** Shutdown: every waiting request is refused at once, and so is every later one. */
  close(): void {
    this.#closed = true;
    for (const entry of this.#waiting.splice(0)) {
      entry.refuse(new OverloadedError('The service is shutting down: try again in a moment', RETRY_AFTER_SECONDS));
    }
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next.admit();
      else this.#inFlight--;
    };
  }

  #refusal(why: string): OverloadedError {
    return new OverloadedError(
      `The service is busy with heavy requests (HEAVY_REQUESTS ${this.options.slots}, ADMISSION_QUEUE ${this.options.queue}): ${why}; try again in a moment`,
      RETRY_AFTER_SECONDS,
    );
  }
}

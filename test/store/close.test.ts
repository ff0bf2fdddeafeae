/**
 * `closeWithin` (src/store/close.ts): a graceful close that finishes is all there is; one that
 * keeps waiting gets `force` run once, with the time left, after which it may still finish; one
 * that never finishes is left behind with a warning, and the call still returns; a graceful close
 * that fails makes the call fail. The order of the steps is asserted, never how long they took.
 */
import { describe, expect, it } from 'vitest';
import { closeWithin } from '../../src/store/close.js';
import { recordingLogger } from '../support/store-fixtures.js';

/** A promise and the functions that settle it. */
function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('closeWithin', () => {
  it('returns once the graceful close finishes, without forcing anything', async () => {
    const steps: string[] = [];
    const logger = recordingLogger();
    await closeWithin({
      timeoutMs: 60_000,
      graceful: async () => {
        steps.push('graceful');
      },
      force: async () => {
        steps.push('force');
      },
      logger,
    });
    expect(steps).toEqual(['graceful']);
    expect(logger.lines).toEqual([]);
  });

  it('forces a graceful close that keeps waiting, with the time left, and then sees it finish', async () => {
    const steps: string[] = [];
    const waiting = deferred();
    const logger = recordingLogger();
    await closeWithin({
      timeoutMs: 200,
      graceful: async () => {
        steps.push('graceful');
        await waiting.promise;
        steps.push('graceful done');
      },
      force: async (ms) => {
        steps.push('force');
        expect(ms).toBeGreaterThan(0);
        expect(ms).toBeLessThanOrEqual(200);
        waiting.resolve(); // what held the close is ended
      },
      logger,
    });
    expect(steps).toEqual(['graceful', 'force', 'graceful done']);
    expect(logger.lines.map((l) => l.msg)).toEqual(['database close is waiting for statements in flight: ending them']);
  });

  it('leaves behind a close that never finishes, with a warning, and returns', async () => {
    const logger = recordingLogger();
    const never = new Promise<void>(() => {});
    await closeWithin({ timeoutMs: 50, graceful: () => never, logger });
    expect(logger.lines.map((l) => l.msg)).toEqual(['database did not close in time; left to close on its own']);
  });

  it('returns even when forcing fails or hangs, and says so', async () => {
    const logger = recordingLogger();
    const never = new Promise<void>(() => {});
    await closeWithin({
      timeoutMs: 60,
      graceful: () => never,
      force: async () => {
        throw new Error('connection refused');
      },
      logger,
    });
    expect(logger.lines.map((l) => l.msg)).toEqual([
      'database close is waiting for statements in flight: ending them',
      'ending statements in flight failed',
      'database did not close in time; left to close on its own',
    ]);
    await closeWithin({ timeoutMs: 60, graceful: () => never, force: () => never, logger: recordingLogger() });
  });

  it('fails when the graceful close fails in time', async () => {
    const failing = deferred();
    const closing = closeWithin({ timeoutMs: 60_000, graceful: () => failing.promise, logger: recordingLogger() });
    failing.reject(new Error('disconnect failed'));
    await expect(closing).rejects.toThrow('disconnect failed');
  });

  it('waits for the graceful close however long it takes when the time is not finite', async () => {
    const waiting = deferred();
    let done = false;
    const closing = closeWithin({
      timeoutMs: Number.POSITIVE_INFINITY,
      graceful: () => waiting.promise,
      force: async () => {
        throw new Error('never forced');
      },
      logger: recordingLogger(),
    }).then(() => {
      done = true;
    });
    // Several turns of the event loop pass (a finite timer would have been set to 1 ms).
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(done).toBe(false);
    waiting.resolve();
    await closing;
    expect(done).toBe(true);
  });
});

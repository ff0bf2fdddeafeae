/**
 * Pacing of main-thread engine work (`src/graphql/work/engine-budget.ts`, `turns.ts`): a request
 * that has used its slice waits for a turn of the event loop, and a lazy piece of any request
 * waits too once the work of all of them since the loop last polled comes to a slice, so requests
 * that arrive together cannot run their first pieces back to back while the loop waits.
 */
import { describe, expect, it } from 'vitest';
import { EngineBudget, SLICE_MS } from '../../../src/graphql/work/engine-budget.js';

/** Work that takes at least `ms` of this thread. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

/** Resolves once the event loop has polled (a macrotask after everything queued now). */
const polled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('engine work pacing', () => {
  it('runs the first pieces of twenty requests only up to a slice before the loop polls', async () => {
    await polled(); // start on a fresh iteration
    const piece = SLICE_MS / 2;
    let ran = 0;
    let ranBeforeProbe: number | undefined;
    setImmediate(() => {
      ranBeforeProbe = ran;
    });
    const budgets = Array.from({ length: 20 }, () => new EngineBudget(0));
    const done = budgets.map((budget) =>
      budget.lazy(() => {
        busy(piece);
        return ++ran;
      }),
    );
    // Each budget's first piece would run at once without the shared count: all twenty here.
    expect(ran).toBeLessThanOrEqual(3);
    await Promise.all(done);
    expect(ran).toBe(20);
    expect(ranBeforeProbe).toBeLessThanOrEqual(3);
  });

  it("makes a lazy piece wait after the others' slice, and run at once again after the loop polled", async () => {
    await polled();
    const first = new EngineBudget(0);
    first.run(() => busy(SLICE_MS));
    const other = new EngineBudget(0);
    expect(other.sliceUsed).toBe(false); // its own loops keep to its own slices
    const waited = other.lazy(() => 41);
    expect(waited).toBeInstanceOf(Promise);
    expect(await waited).toBe(41);
    await polled();
    await polled();
    expect(other.lazy(() => 42)).toBe(42); // synchronous: nothing to wait for
  });

  it('charges each request its own time against its own budget', () => {
    const a = new EngineBudget(1000);
    const b = new EngineBudget(1000);
    a.run(() => busy(2));
    expect(a.spentMs).toBeGreaterThanOrEqual(2);
    expect(b.spentMs).toBe(0);
  });
});

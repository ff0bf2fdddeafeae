/**
 * Event-loop turns for work that yields, handed out one at a time across the whole process.
 *
 * Work that runs in slices (preparing long lists, building large answers, parsing large bodies)
 * pauses between slices. If every paused request simply waited for `setImmediate`, the slices of
 * twenty requests would all resume in the same check phase of the event loop, back to back, and
 * `/health` would wait for all twenty. Here each pause resumes on an event-loop iteration of its
 * own, in order of arrival, so between any two slices the loop polls for I/O.
 *
 * A request's first slice needs no pause, so forty requests that arrive together would each run
 * one before the loop polls again: forty FENs of a 256 x 256 board read in one stretch. So the
 * work of all requests in one iteration is counted too (`noteTurnWork`), and once it comes to a
 * slice (`turnUsed`), every request's next piece waits for a turn of its own.
 */

let last: Promise<void> = Promise.resolve();
/** Milliseconds of paced work done since the loop last reached its check phase. */
let usedThisTurn = 0;
/** Whether the reset at the next check phase is queued. */
let resetQueued = false;

const resetTurn = () => {
  usedThisTurn = 0;
  resetQueued = false;
};

/** Counts `ms` of paced work against the current event-loop iteration. */
export function noteTurnWork(ms: number): void {
  usedThisTurn += ms;
  if (!resetQueued) {
    resetQueued = true;
    setImmediate(resetTurn);
  }
}

/** True when the work of all requests since the loop last polled comes to `sliceMs`. */
export function turnUsed(sliceMs: number): boolean {
  return usedThisTurn >= sliceMs;
}

/** Resolves on an event-loop iteration no other caller resumes on. */
export function nextTurn(): Promise<void> {
  const mine = last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  last = mine;
  return mine;
}

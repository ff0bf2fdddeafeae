/**
 * Event-loop turns for work that yields, handed out one at a time across the whole process.
 *
 * Work that runs in slices (preparing long lists, building large answers, parsing large bodies)
 * pauses between slices. If every paused request simply waited for `setImmediate`, the slices of
 * twenty requests would all resume in the same check phase of the event loop, back to back, and
 * `/health` would wait for all twenty. Here each pause resumes on an event-loop iteration of its
 * own, in order of arrival, so between any two slices the loop polls for I/O.
 */

let last: Promise<void> = Promise.resolve();

/** Resolves on an event-loop iteration no other caller resumes on. */
export function nextTurn(): Promise<void> {
  const mine = last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  last = mine;
  return mine;
}

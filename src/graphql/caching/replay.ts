/**
 * The one rule for replaying a response from the response cache (`src/http/response-cache.ts`):
 * a response may be kept and sent again for the same request text when it answered a query, every
 * path result it served came ready from the hot results (`hot-results.ts`), it touched nothing else with
 * state (analyses, mutations) and it had no error. Such a response depends on nothing that can
 * change.
 *
 * It is opt-in: the verdict starts undecided, the resolvers report what they serve (`servedHot`,
 * `servedOther`), and the last word comes when the response is complete (`closeVerdict`), so a
 * request that served no hot path result (even `{ __typename }`) is never kept, and a new kind of
 * field is never replayed until it says it may be.
 */

/** The verdict of one request; an object, because Apollo hands resolvers a copy of the context. */
export interface ReplayVerdict {
  allowed: boolean | undefined;
}

/** A new, undecided verdict. */
export function newVerdict(): ReplayVerdict {
  return { allowed: undefined };
}

/** A path result came from the hot results: replayable unless something else says otherwise. */
export function servedHot(verdict: ReplayVerdict): void {
  verdict.allowed ??= true;
}

/** Something that depends on state was served (a loaded result, an analysis): never replayed. */
export function servedOther(verdict: ReplayVerdict): void {
  verdict.allowed = false;
}

/** The last word, once the response is complete: only error-free query responses. */
export function closeVerdict(verdict: ReplayVerdict, operation: string | undefined, hasErrors: boolean): void {
  if (operation !== 'query' || hasErrors) verdict.allowed = false;
}

/** True when the response may be kept and replayed. */
export function replayable(verdict: ReplayVerdict | undefined): boolean {
  return verdict?.allowed === true;
}

/**
 * Turning a path query argument into a prepared problem and loading its result: the service's
 * limits are checked first, then the engine normalises the query; an `InputError` is re-rooted
 * under the argument it came from (`query`, `queries[3]`, `input.queries[0]`), so the message
 * names the exact argument and value.
 */

import { InputError, type InputPath, isBetzaKept, type PathQuery, type PathResult } from '@chess-paths/engine';
import { checkQuery } from '../limits/limits.js';
import type { Prepared } from '../work/engine-api.js';
import { nextTurn } from '../work/turns.js';
import { type Context, resolveResult } from './context.js';
import { isRequestError } from './errors.js';

/** Rethrows an `InputError` under `path`; other errors pass unchanged. */
export function rethrowUnder(err: unknown, path: InputPath): never {
  if (err instanceof InputError) throw err.under(...path);
  throw err;
}

/** Checks limits (unless `checkLimits` is false) and prepares one query. */
export function prepareQuestion(ctx: Context, query: PathQuery, path: InputPath, checkLimits = true): Prepared {
  if (checkLimits) checkQuery(query, ctx.services.limits, path);
  const { engine, preparedQueries } = ctx.services;
  try {
    return preparedQueries.get(query, (q) => engine.prepareQuery(q));
  } catch (err) {
    rethrowUnder(err, path);
  }
}

/**
 * Prepares one query as `prepareQuestion` does, but a Betza text not read before is read on an
 * event-loop turn of its own (see `prepareQuestions`), on the request's budget: then the answer
 * is a promise.
 */
export function prepareOnItsTurn(ctx: Context, query: PathQuery, path: InputPath): Prepared | Promise<Prepared> {
  if (typeof query.betza !== 'string' || isBetzaKept(query.betza)) return prepareQuestion(ctx, query, path);
  return ctx.budget.pause().then(() => ctx.budget.run(() => prepareQuestion(ctx, query, path)));
}

/**
 * The result of one query (`prepareOnItsTurn`, then `resolveResult`). A question that waits for
 * its turn holds the request's loader batch meanwhile, so it still joins the request's one batch.
 */
export function loadQuestion(ctx: Context, query: PathQuery, path: InputPath): PathResult | Promise<PathResult> {
  const prepared = prepareOnItsTurn(ctx, query, path);
  if (!(prepared instanceof Promise)) return resolveResult(ctx, prepared);
  return ctx.preparing.hold(prepared, (ready) => resolveResult(ctx, ready));
}

/** Queries prepared between two looks at the clock. */
const PREPARE_GROUP = 16;

/** A prepared question, or why the question at that place cannot be asked. */
export type PreparedOrError = Prepared | Error;

/**
 * Prepares every query (limits, validation, canonical form, the SHA-256 key), in time slices
 * charged to the request's budget: synchronously when it fits in the current slice, else across
 * pauses of the event loop (a list of hundreds of large boards takes tens of milliseconds). A bad
 * query does not stop the others: its place holds its error (named under `path` and its index),
 * so a batch can answer every good question and fail the bad ones alone.
 */
export function prepareQuestions(
  ctx: Context,
  queries: readonly PathQuery[],
  path: InputPath,
  checkLimits = true,
): PreparedOrError[] | Promise<PreparedOrError[]> {
  const prepared: PreparedOrError[] = [];
  // The budget spent (or the request over) between two queries: every query left fails with it.
  const failTheRest = (err: unknown): void => {
    if (!isRequestError(err)) throw err;
    while (prepared.length < queries.length) prepared.push(err as Error);
  };
  /**
   * Reading a Betza text not read before takes up to tens of milliseconds in one piece. So such a
   * text is read only in a slice that began on an event-loop turn of its own (after a pause:
   * turns are handed out one at a time across the process), and one a slice: twenty requests
   * arriving together with new texts read them on twenty turns, with I/O polled between, not back
   * to back in the turn they arrived in.
   */
  const prepareNextSlice = (ownTurn: boolean): void => {
    let readNew = !ownTurn; // a slice not on its own turn reads no new text
    let yieldForText = false;
    while (prepared.length < queries.length && !ctx.budget.sliceUsed && !yieldForText) {
      runOrFail(ctx, failTheRest, () => {
        const end = Math.min(queries.length, prepared.length + PREPARE_GROUP);
        for (let i = prepared.length; i < end; i++) {
          const betza = queries[i]?.betza;
          if (typeof betza === 'string' && !isBetzaKept(betza)) {
            if (readNew) {
              yieldForText = true;
              break;
            }
            readNew = true;
          }
          try {
            const p = prepareQuestion(ctx, queries[i], [...path, i], checkLimits);
            void p.key; // hashed here, inside the timed slice
            prepared.push(p);
            // Reading a new rider's Betza text takes milliseconds, not microseconds: look at the
            // clock after each fairy question rather than after a group.
            if (queries[i]?.betza != null && i + 1 < end) break;
          } catch (err) {
            if (!isRequestError(err)) throw err;
            prepared.push(err as Error);
          }
        }
      });
    }
  };
  prepareNextSlice(false);
  if (prepared.length === queries.length) return prepared;
  return (async () => {
    while (prepared.length < queries.length) {
      try {
        await ctx.budget.pause();
      } catch (err) {
        failTheRest(err);
        break;
      }
      prepareNextSlice(true);
    }
    return prepared;
  })();
}

/** Runs `work` on the request's budget; a refusal of the budget goes to `fail`. */
function runOrFail(ctx: Context, fail: (err: unknown) => void, work: () => void): void {
  try {
    ctx.budget.run(work);
  } catch (err) {
    fail(err);
  }
}

/** The first error among prepared questions, thrown: for lists that are taken whole or not at all (a save). */
export function allPrepared(prepared: readonly PreparedOrError[]): Prepared[] {
  const error = prepared.find((p) => p instanceof Error);
  if (error) throw error;
  return prepared as Prepared[];
}

type PathResultOrError = PathResult | Error;
type ItemResults = PathResultOrError[] | Promise<PathResultOrError[]> | Promise<PathResultOrError>[];
/**
 * A list field's items as the resolver types know them. An item may in fact be an `Error`:
 * graphql-js completes such an item as that item's field error (null at its index, the error's
 * path ending in the index), so one bad item leaves the rest of the list answered; the generated
 * resolver types have no way to say so.
 */
export type ListResults = (PathResult | Promise<PathResult>)[];

/**
 * Prepares every query first (so the good ones can be solved together), then resolves them
 * together: synchronously when every one is in the memo, else through the loader in one batch.
 * While a long list is prepared across pauses, the request's loader batch is held back
 * (`PreparationGate`), so its questions still join that one batch.
 */
export function loadQuestions(
  ctx: Context,
  queries: readonly PathQuery[],
  path: InputPath,
  checkLimits = true,
): ListResults | Promise<ListResults> {
  const prepared = prepareQuestions(ctx, queries, path, checkLimits);
  if (!(prepared instanceof Promise)) return resolveAll(ctx, prepared) as ListResults | Promise<ListResults>;
  // Loaded before the gate opens: they join the held batch.
  return ctx.preparing.hold(prepared, (all) => resolveAll(ctx, all) as ListResults | Promise<ListResults>);
}

/** Items of a long loaded list handed to graphql-js per event-loop turn. */
const ITEMS_PER_TURN = 64;
/**
 * Board squares of a list below which it is handed over at once: the results of a list of small
 * boards are small (a batch of 500 8 x 8 results is completed in about a millisecond).
 */
const PACED_LIST_SQUARES = 64 * 1024;

/**
 * The results of prepared questions: at once when all are hot, else once loaded. A long loaded
 * list of large boards is handed over as one promise per item, released 64 per turn: graphql-js
 * completes every item it holds in one go (each item's fields, their resolvers, their lazy work),
 * so five hundred long results would otherwise be one long piece of work.
 */
function resolveAll(ctx: Context, prepared: readonly PreparedOrError[]): ItemResults {
  const results = prepared.map((p) => (p instanceof Error ? p : resolveResult(ctx, p)));
  if (!results.some((r) => r instanceof Promise)) return results as PathResultOrError[];
  const squares = prepared.reduce((sum, p) => sum + (p instanceof Error ? 0 : p.board.files * p.board.ranks), 0);
  if (results.length <= ITEMS_PER_TURN || squares <= PACED_LIST_SQUARES) {
    // Each item settles alone: a failed one is its own error, not the list's.
    return Promise.all(results.map((r) => (r instanceof Promise ? r.catch(asItemError) : r)));
  }
  let turn: Promise<void> = Promise.all(results).then(
    () => undefined,
    () => undefined, // each item below carries its own failure
  );
  const turns: Promise<void>[] = [];
  for (let g = 0; g * ITEMS_PER_TURN < results.length; g++) {
    turn = turn.then(nextTurn);
    turns.push(turn);
  }
  return results.map((r, i) => turns[Math.floor(i / ITEMS_PER_TURN)].then(() => r));
}

/** A failed item's reason as an `Error` (what graphql-js needs to fail the item alone). */
function asItemError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

/** A plain JSON copy of a query argument (graphql-js input objects may lack a prototype). */
export function plainQuery(query: PathQuery): PathQuery {
  return JSON.parse(JSON.stringify(query)) as PathQuery;
}

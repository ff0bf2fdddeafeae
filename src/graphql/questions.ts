/**
 * Turning a path query argument into a prepared problem and loading its result: the service's
 * limits are checked first, then the engine normalises the query; an `InputError` is re-rooted
 * under the argument it came from (`query`, `queries[3]`, `input.queries[0]`), so the message
 * names the exact argument and value.
 */
import { InputError, type InputPath } from '../engine/errors.js';
import type { PathQuery, PathResult } from '../engine/types.js';
import { type Context, resolveResult } from './context.js';
import type { Prepared } from './engine-api.js';
import { checkQuery } from './limits.js';
import { nextTurn } from './turns.js';

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

/** Queries prepared between two looks at the clock. */
const PREPARE_GROUP = 16;

/**
 * Prepares every query (limits, validation, canonical form, the SHA-256 key), in time slices
 * charged to the request's budget: synchronously when it fits in the current slice, else across
 * pauses of the event loop (a list of hundreds of large boards takes tens of milliseconds).
 */
export function prepareQuestions(
  ctx: Context,
  queries: readonly PathQuery[],
  path: InputPath,
  checkLimits = true,
): Prepared[] | Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  const prepareNextSlice = (): void => {
    while (prepared.length < queries.length && !ctx.budget.sliceUsed) {
      ctx.budget.run(() => {
        const end = Math.min(queries.length, prepared.length + PREPARE_GROUP);
        for (let i = prepared.length; i < end; i++) {
          const p = prepareQuestion(ctx, queries[i], [...path, i], checkLimits);
          void p.key; // hashed here, inside the timed slice
          prepared.push(p);
        }
      });
    }
  };
  prepareNextSlice();
  if (prepared.length === queries.length) return prepared;
  return (async () => {
    while (prepared.length < queries.length) {
      await ctx.budget.pause();
      prepareNextSlice();
    }
    return prepared;
  })();
}

/**
 * Prepares every query first (so a bad one fails before any work), then resolves them all
 * together: synchronously when every one is in the memo, else through the loader in one batch.
 * While a long list is prepared across pauses, the request's loader batch is held back
 * (`PreparationGate`), so its questions still join that one batch.
 */
export function loadQuestions(
  ctx: Context,
  queries: readonly PathQuery[],
  path: InputPath,
  checkLimits = true,
): PathResult[] | Promise<PathResult[]> | Promise<PathResult>[] | Promise<PathResult[] | Promise<PathResult>[]> {
  const prepared = prepareQuestions(ctx, queries, path, checkLimits);
  if (!(prepared instanceof Promise)) return resolveAll(ctx, prepared);
  ctx.preparing.enter();
  return prepared.then(
    (all) => {
      try {
        return resolveAll(ctx, all); // loaded before the gate opens: they join the held batch
      } finally {
        ctx.preparing.leave();
      }
    },
    (err: unknown) => {
      ctx.preparing.leave();
      throw err;
    },
  );
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
function resolveAll(
  ctx: Context,
  prepared: readonly Prepared[],
): PathResult[] | Promise<PathResult[]> | Promise<PathResult>[] {
  const results = prepared.map((p) => resolveResult(ctx, p));
  if (!results.some((r) => r instanceof Promise)) return results as PathResult[];
  const squares = prepared.reduce((sum, p) => sum + p.board.files * p.board.ranks, 0);
  if (results.length <= ITEMS_PER_TURN || squares <= PACED_LIST_SQUARES) return Promise.all(results);
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

/** A plain JSON copy of a query argument (graphql-js input objects may lack a prototype). */
export function plainQuery(query: PathQuery): PathQuery {
  return JSON.parse(JSON.stringify(query)) as PathQuery;
}

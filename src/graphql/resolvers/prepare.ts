/**
 * Turning a path query argument into a prepared problem and loading its result: the service's
 * limits are checked first, then the engine normalises the query; an `InputError` is re-rooted
 * under the argument it came from (`query`, `queries[3]`, `input.queries[0]`), so the message
 * names the exact argument and value.
 */
import { InputError, type InputPath } from '../../engine/errors.js';
import type { PathQuery, PathResult } from '../../engine/types.js';
import { resolveResult, type Context } from '../context.js';
import type { Prepared } from '../engine.js';
import { checkQuery } from '../limits.js';

/** Rethrows an `InputError` under `path`; other errors pass unchanged. */
export function rethrowUnder(err: unknown, path: InputPath): never {
  if (err instanceof InputError) throw err.under(...path);
  throw err;
}

/** Checks limits (unless `checkLimits` is false) and prepares one query. */
export function prepare(ctx: Context, query: PathQuery, path: InputPath, checkLimits = true): Prepared {
  if (checkLimits) checkQuery(query, ctx.services.limits, path);
  const { engine, memo } = ctx.services;
  try {
    return memo.prepare(query, (q) => engine.prepareQuery(q));
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
export function prepareAll(ctx: Context, queries: readonly PathQuery[], path: InputPath, checkLimits = true): Prepared[] | Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  const prepareSlice = (): void => {
    while (prepared.length < queries.length && !ctx.budget.sliceUsed) {
      ctx.budget.run(() => {
        const end = Math.min(queries.length, prepared.length + PREPARE_GROUP);
        for (let i = prepared.length; i < end; i++) {
          const p = prepare(ctx, queries[i], [...path, i], checkLimits);
          void p.key; // hashed here, inside the timed slice
          prepared.push(p);
        }
      });
    }
  };
  prepareSlice();
  if (prepared.length === queries.length) return prepared;
  return (async () => {
    while (prepared.length < queries.length) {
      await ctx.budget.pause();
      prepareSlice();
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
export function loadAll(
  ctx: Context,
  queries: readonly PathQuery[],
  path: InputPath,
  checkLimits = true,
): PathResult[] | Promise<PathResult[]> {
  const prepared = prepareAll(ctx, queries, path, checkLimits);
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

function resolveAll(ctx: Context, prepared: readonly Prepared[]): PathResult[] | Promise<PathResult[]> {
  const results = prepared.map((p) => resolveResult(ctx, p));
  return results.some((r) => r instanceof Promise) ? Promise.all(results) : (results as PathResult[]);
}

/** A plain JSON copy of a query argument (graphql-js input objects may lack a prototype). */
export function plainQuery(query: PathQuery): PathQuery {
  return JSON.parse(JSON.stringify(query)) as PathQuery;
}

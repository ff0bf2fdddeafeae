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
 * Prepares every query first (so a bad one fails before any work), then resolves them all
 * together: synchronously when every one is in the memo, else through the loader in one batch.
 * Preparing (validation, canonical form, the SHA-256 key) is engine work too: it is charged to the
 * request's budget, and a long list (hundreds of large boards) is prepared in time slices, with
 * the loader's batch held back meanwhile (`PreparationGate`).
 */
export function loadAll(
  ctx: Context,
  queries: readonly PathQuery[],
  path: InputPath,
  checkLimits = true,
): PathResult[] | Promise<PathResult[]> {
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
  if (prepared.length === queries.length) return resolveAll(ctx, prepared);
  // Hold the request's loader batch meanwhile, so these questions still join it.
  ctx.preparing.enter();
  return (async () => {
    try {
      while (prepared.length < queries.length) {
        await ctx.budget.pause();
        prepareSlice();
      }
      return resolveAll(ctx, prepared);
    } finally {
      ctx.preparing.leave();
    }
  })();
}

function resolveAll(ctx: Context, prepared: readonly Prepared[]): PathResult[] | Promise<PathResult[]> {
  const results = prepared.map((p) => resolveResult(ctx, p));
  return results.some((r) => r instanceof Promise) ? Promise.all(results) : (results as PathResult[]);
}

/** A plain JSON copy of a query argument (graphql-js input objects may lack a prototype). */
export function plainQuery(query: PathQuery): PathQuery {
  return JSON.parse(JSON.stringify(query)) as PathQuery;
}

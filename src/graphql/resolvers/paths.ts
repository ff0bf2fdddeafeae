/**
 * Resolvers of path questions: `shortestPaths`, `shortestPathsBatch`, and the `PathResult` fields
 * that are not plain properties of the engine's result. Cheap fields (key, distance, layers, ...)
 * are read by graphql-js's default resolver straight from the result object. The expensive ones
 * are lazy getters on it (a query that selects only `distance` never computes a path count or a
 * path list); their resolvers here run the getter through the request's engine budget, so
 * computing them is timed, counted against ENGINE_BUDGET_MS, and paced in time slices. Results
 * come from the memo of hot results when they are there (synchronously), else from the request's
 * loader.
 */
import type { PathResult } from '../../engine/types.js';
import type { OverlayResolvers, PathResultResolvers, QueryResolvers } from '../../generated/graphql.js';
import { resolveResult } from '../context.js';
import { checkBatch, checkFirst } from '../limits.js';
import { renderAscii, renderSvg } from '../overlay.js';
import { loadAll, prepare, rethrowUnder } from './prepare.js';

/** `Query.shortestPaths` and `Query.shortestPathsBatch`. */
export const pathQueries: Pick<QueryResolvers, 'shortestPaths' | 'shortestPathsBatch'> = {
  shortestPaths: (_root, { query }, ctx) => resolveResult(ctx, prepare(ctx, query, ['query'])),
  shortestPathsBatch: (_root, { queries }, ctx) => {
    checkBatch(queries.length, ctx.services.limits, ['queries']);
    return loadAll(ctx, queries, ['queries']);
  },
};

/** `PathResult` fields that need arguments checked, engine time counted, or a different parent. */
export const pathResult: PathResultResolvers = {
  pathCount: (result, _args, ctx) => ctx.budget.lazy(() => result.pathCount),
  path: (result, _args, ctx) => ctx.budget.lazy(() => result.path),
  distances: (result, _args, ctx) => ctx.budget.lazy(() => result.distances),
  paths: (result, args, ctx) => {
    checkFirst(args.first, ctx.services.limits, ['paths', 'first']);
    return ctx.budget.lazy(() => {
      try {
        return result.paths({ first: args.first, after: args.after });
      } catch (err) {
        rethrowUnder(err, ['paths']);
      }
    });
  },
  overlay: (result) => result,
};

const asciiDrawn = new WeakMap<PathResult, string>();
const svgDrawn = new WeakMap<PathResult, string>();

/** Draws a picture once per result object (memoised results are served many times). */
function drawOnce(drawn: WeakMap<PathResult, string>, result: PathResult, draw: (r: PathResult) => string): string {
  let picture = drawn.get(result);
  if (picture === undefined) {
    picture = draw(result);
    drawn.set(result, picture);
  }
  return picture;
}

/** `Overlay` pictures, drawn from the result's layers on demand (engine time: budgeted). */
export const overlay: OverlayResolvers = {
  ascii: (result: PathResult, _args, ctx) => {
    const drawn = asciiDrawn.get(result);
    return drawn ?? ctx.budget.lazy(() => drawOnce(asciiDrawn, result, renderAscii));
  },
  svg: (result: PathResult, _args, ctx) => {
    const drawn = svgDrawn.get(result);
    return drawn ?? ctx.budget.lazy(() => drawOnce(svgDrawn, result, renderSvg));
  },
};

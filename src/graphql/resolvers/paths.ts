/**
 * Resolvers of path questions: `shortestPaths`, `shortestPathsBatch`, and the `PathResult` fields
 * that are not plain properties of the engine's result. Cheap fields (key, distance, layers, ...)
 * are read by graphql-js's default resolver straight from the result object. The expensive ones
 * are lazy getters on it (a query that selects only `distance` never computes a path count or a
 * path list); their resolvers here run the getter through the request's engine budget, so
 * computing them is timed, counted against ENGINE_BUDGET_MS, and paced in time slices. Fields
 * that can be large (pictures, square sets, paths, cursors, distance maps, masks) charge their
 * size to the request's output account (MAX_RESPONSE_BYTES, `output.ts`). Results come from the
 * memo of hot results when they are there (synchronously), else from the request's loader.
 */
import type { PathResult } from '../../engine/types.js';
import type {
  OverlayResolvers,
  PathEdgeResolvers,
  PathResolvers,
  PathResultResolvers,
  QueryResolvers,
  SquareSetResolvers,
} from '../../generated/graphql.js';
import { resolveResult, type Context } from '../context.js';
import { squareListBytes } from '../output.js';
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

/** Charges `size(value)` to the output account once `value` (or its promise) is there. */
function charged<T>(ctx: Context, value: T | Promise<T>, size: (value: T) => number): T | Promise<T> {
  return value instanceof Promise ? value.then((v) => ctx.output.pass(v, size(v))) : ctx.output.pass(value, size(value));
}

/** `PathResult` fields that need arguments checked, engine time or output counted, or a different parent. */
export const pathResult: PathResultResolvers = {
  mask: (result, _args, ctx) => ctx.output.pass(result.mask, result.mask.length + 4),
  pathCount: (result, _args, ctx) => ctx.budget.lazy(() => result.pathCount),
  path: (result, _args, ctx) => ctx.budget.lazy(() => result.path),
  distances: (result, _args, ctx) => charged(ctx, ctx.budget.lazy(() => result.distances), (d) => d.length * 5),
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

/** Square sets: their lists and bitboards are output that can be large (long layer lists). */
export const squareSet: SquareSetResolvers = {
  bitboard: (set, _args, ctx) => ctx.output.pass(set.bitboard, set.bitboard.length + 4),
  squares: (set, _args, ctx) => ctx.output.pass(set.squares, squareListBytes(set.count)),
};

/** A path's squares (of `path` and of every edge of `paths`). */
export const path: PathResolvers = {
  squares: (p, _args, ctx) => ctx.output.pass(p.squares, squareListBytes(p.squares.length)),
};

/** A page edge's cursor (its length grows with the distance). */
export const pathEdge: PathEdgeResolvers = {
  cursor: (edge, _args, ctx) => ctx.output.pass(edge.cursor, edge.cursor.length + 4),
};

/** Longest picture kept with its result for the next time (longer ones are drawn every time). */
const MAX_KEPT_PICTURE = 64 * 1024;
const asciiDrawn = new WeakMap<PathResult, string>();
const svgDrawn = new WeakMap<PathResult, string>();

/** Draws a picture, keeping a small one with its result (memoised results are served many times). */
function drawOnce(drawn: WeakMap<PathResult, string>, result: PathResult, draw: (r: PathResult) => string): string {
  let picture = drawn.get(result);
  if (picture === undefined) {
    picture = draw(result);
    if (picture.length <= MAX_KEPT_PICTURE) drawn.set(result, picture);
  }
  return picture;
}

/** One picture: kept, or drawn on the engine budget; its size charged to the output account. */
function picture(ctx: Context, drawn: WeakMap<PathResult, string>, result: PathResult, draw: (r: PathResult) => string) {
  const kept = drawn.get(result);
  if (kept !== undefined) return ctx.output.pass(kept, kept.length + 4);
  ctx.output.check(); // draw nothing once the answer is already too large
  return charged(ctx, ctx.budget.lazy(() => drawOnce(drawn, result, draw)), (p) => p.length + 4);
}

/** `Overlay` pictures, drawn from the result's layers on demand (engine time: budgeted). */
export const overlay: OverlayResolvers = {
  ascii: (result: PathResult, _args, ctx) => picture(ctx, asciiDrawn, result, renderAscii),
  svg: (result: PathResult, _args, ctx) => picture(ctx, svgDrawn, result, renderSvg),
};

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
import type { GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import type { PathConnection, PathResult, SquareSet } from '../../engine/types.js';
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
import { INLINE_WEIGHT } from '../work/dispatch.js';
import { fieldWeight, lazyField } from '../work/fields.js';
import { loadAll, prepare, rethrowUnder } from './prepare.js';

/** `Query.shortestPaths` and `Query.shortestPathsBatch`. */
export const pathQueries: Pick<QueryResolvers, 'shortestPaths' | 'shortestPathsBatch'> = {
  shortestPaths: (_root, { query }, ctx) => resolveResult(ctx, prepare(ctx, query, ['query'])),
  shortestPathsBatch: (_root, { queries }, ctx) => {
    checkBatch(queries.length, ctx.services.limits, ['queries']);
    return loadAll(ctx, queries, ['queries']);
  },
};

/** Charges `size(value)` to the output account once `value` (or its promise) is there; paced. */
function charged<T>(ctx: Context, value: T | Promise<T>, size: (value: T) => number): T | Promise<T> {
  return value instanceof Promise ? value.then((v) => ctx.output.paced(v, size(v))) : ctx.output.paced(value, size(value));
}

/** A distance map as a worker sends it (-1: unreachable). */
const distancesFromWorker = (value: unknown) => Array.from(value as Int32Array, (d) => (d < 0 ? null : d));

/** `PathResult` fields that need arguments checked, engine time or output counted, or a different parent. */
export const pathResult: PathResultResolvers = {
  mask: (result, _args, ctx) => ctx.output.pass(result.mask, result.mask.length + 4),
  pathCount: (result, _args, ctx) => lazyField(ctx, { result, field: 'pathCount' }, () => result.pathCount),
  path: (result, _args, ctx) => lazyField(ctx, { result, field: 'path' }, () => result.path),
  distances: (result, _args, ctx) => {
    ctx.output.check(result.board.files * result.board.ranks * 5); // compute nothing that could not be sent
    return charged(ctx, lazyField(ctx, { result, field: 'distances' }, () => result.distances, distancesFromWorker), (d) => d.length * 5);
  },
  paths: (result, args, ctx) => {
    checkFirst(args.first, ctx.services.limits, ['paths', 'first']);
    const { first, after } = args;
    const underPaths = (err: unknown): never => rethrowUnder(err, ['paths']);
    const inline = () => {
      try {
        return result.paths({ first, after });
      } catch (err) {
        return underPaths(err);
      }
    };
    return lazyField(ctx, { result, field: 'paths', first, after }, inline, (page) => page as PathConnection, underPaths);
  },
  layers: (result, _args, ctx, info) => {
    const layers = result.layers;
    if (!selects(info, 'bitboard') || fieldWeight(result, 'layerBitboards') <= INLINE_WEIGHT) return layers;
    // Layer bitboards of a large result are formatted on the pool, all layers in one piece.
    ctx.output.check(layers.length * (result.board.files * result.board.ranks) / 4);
    return lazyField(ctx, { result, field: 'layerBitboards' }, () => layers, (texts) =>
      layers.map((layer, k) => withBitboard(layer, (texts as string[])[k])),
    );
  },
  overlay: (result) => result,
};

/** True when the field being resolved selects `name` directly (fragments included). */
function selects(info: GraphQLResolveInfo, name: string): boolean {
  const visit = (set: SelectionSetNode | undefined): boolean =>
    set?.selections.some((s) => (s.kind === 'Field' ? s.name.value === name : s.kind === 'InlineFragment' ? visit(s.selectionSet) : visit(info.fragments[s.name.value]?.selectionSet))) ?? false;
  return info.fieldNodes.some((node) => visit(node.selectionSet));
}

/** A layer whose bitboard was formatted elsewhere. */
function withBitboard(layer: SquareSet, bitboard: string): SquareSet {
  return {
    bitboard,
    get squares() {
      return layer.squares;
    },
    get indices() {
      return layer.indices;
    },
    get count() {
      return layer.count;
    },
  };
}

/** Square sets: their lists and bitboards are output that can be large (long layer lists). */
export const squareSet: SquareSetResolvers = {
  bitboard: (set, _args, ctx) => ctx.output.paced(set.bitboard, set.bitboard.length + 4),
  squares: (set, _args, ctx) => ctx.output.paced(set.squares, squareListBytes(set.count)),
};

/** A path's squares (of `path` and of every edge of `paths`). */
export const path: PathResolvers = {
  squares: (p, _args, ctx) => ctx.output.paced(p.squares, squareListBytes(p.squares.length)),
};

/** A page edge's cursor (its length grows with the distance). */
export const pathEdge: PathEdgeResolvers = {
  cursor: (edge, _args, ctx) => ctx.output.paced(edge.cursor, edge.cursor.length + 4),
};

/** Longest picture kept with its result for the next time (longer ones are drawn every time). */
const MAX_KEPT_PICTURE = 64 * 1024;
const asciiDrawn = new WeakMap<PathResult, string>();
const svgDrawn = new WeakMap<PathResult, string>();

/** Characters of the ASCII picture of a result, known before drawing it. */
function asciiLength(result: PathResult): number {
  const { files, ranks } = result.board;
  const layers = result.distance === null ? 0 : result.distance + 1;
  return layers === 0 ? 0 : ranks * (layers * (2 * files - 1) + 3 * (layers - 1) + 1);
}

/** One picture: kept, drawn here when small, on the pool when large; its size charged to the output account. */
function picture(ctx: Context, kind: 'ascii' | 'svg', drawn: WeakMap<PathResult, string>, result: PathResult, draw: (r: PathResult) => string) {
  const kept = drawn.get(result);
  if (kept !== undefined) return ctx.output.paced(kept, kept.length + 4);
  // Draw nothing that could not be sent.
  ctx.output.check(kind === 'ascii' ? asciiLength(result) : 0);
  const drawing = lazyField(ctx, { result, field: kind }, () => {
    const text = draw(result);
    if (text.length <= MAX_KEPT_PICTURE) drawn.set(result, text);
    return text;
  });
  return charged(ctx, drawing, (p: string) => p.length + 4);
}

/** `Overlay` pictures, drawn from the result's layers on demand (engine time: budgeted). */
export const overlay: OverlayResolvers = {
  ascii: (result: PathResult, _args, ctx) => picture(ctx, 'ascii', asciiDrawn, result, renderAscii),
  svg: (result: PathResult, _args, ctx) => picture(ctx, 'svg', svgDrawn, result, renderSvg),
};

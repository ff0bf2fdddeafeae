/**
 * Resolvers of path questions: `shortestPaths`, `shortestPathsBatch`, and the `PathResult` fields
 * that are not plain properties of the engine's result. Cheap fields (key, distance, layers, ...)
 * are read by graphql-js's default resolver straight from the result object. The expensive ones
 * are lazy getters on it (a query that selects only `distance` never computes a path count or a
 * path list); their resolvers here run the getter through the request's engine budget, so
 * computing them is timed, counted against ENGINE_BUDGET_MS, and paced in time slices. Fields
 * that can be large (pictures, square sets, paths, cursors, distance maps, masks) charge their
 * size to the request's output account (MAX_RESPONSE_BYTES, `limits/response-budget.ts`).
 * Results come from the memo of hot results when they are there (synchronously), else from the
 * request's loader.
 */

import type { PathConnection, PathResult, SquareSet } from '@chess-paths/engine';
import type { GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import { checkBatch, checkFirst } from '../../limits/limits.js';
import { squareListBytes } from '../../limits/response-budget.js';
import type { Context } from '../../request/context.js';
import { notePositionDiagram } from '../../request/position-diagrams.js';
import { loadQuestion, loadQuestions, rethrowUnder } from '../../request/questions.js';
import { INLINE_WEIGHT } from '../../work/dispatch.js';
import { fieldWeight, lazyField } from '../../work/fields.js';
import { knownPacked } from '../../work/handles.js';
import { type PageWire, pageFromWire } from '../../work/tasks.js';
import type {
  PathEdgeResolvers,
  PathResolvers,
  PathResultResolvers,
  QueryResolvers,
  SquareSetResolvers,
} from '../generated/resolvers.js';

/** `Query.shortestPaths` and `Query.shortestPathsBatch`. */
export const pathQueries: Pick<QueryResolvers, 'shortestPaths' | 'shortestPathsBatch'> = {
  shortestPaths: (_root, { query }, ctx, info) => {
    const result = loadQuestion(ctx, query, ['query']);
    noteFen(ctx, info, query);
    return result;
  },
  shortestPathsBatch: (_root, { queries }, ctx, info) => {
    checkBatch(queries.length, ctx.services.limits, ['queries']);
    const results = loadQuestions(ctx, queries, ['queries']);
    for (let i = 0; i < queries.length; i++) noteFen(ctx, info, queries[i], i);
    return results;
  },
};

/**
 * A distance map as a worker sends it (-1: unreachable), as a list. A loop, not
 * `Array.from(dist, map)`, which took 5 ms of the main thread on 256 x 256 (this: under 1).
 */
function distancesFromWorker(value: unknown): (number | null)[] {
  const dist = value as Int32Array;
  const list = new Array<number | null>(dist.length);
  for (let i = 0; i < dist.length; i++) list[i] = dist[i] < 0 ? null : dist[i];
  return list;
}

/** Hands a value (or its promise) over through the output account's pacing, built by `make`. */
export function paced<V, T>(
  ctx: Context,
  value: V | Promise<V>,
  bytes: (value: V) => number,
  make: (value: V) => T,
): T | Promise<T> {
  return value instanceof Promise
    ? value.then((v) => ctx.output.pace(bytes(v), () => make(v)))
    : ctx.output.pace(bytes(value), () => make(value));
}

/** About the bytes of a result's layer lists (square names), known before they are built. */
function layerListBytes(result: PathResult): number {
  const layers = (result.distance ?? -1) + 1;
  const packed = knownPacked(result);
  return (
    16 * layers +
    squareListBytes(packed ? packed.squares.length : Math.min(result.board.files * result.board.ranks, 64 * layers))
  );
}

/** About the bytes of a page of paths: each path's squares and its cursor. */
function pageBytes(page: PathConnection, result: PathResult): number {
  return page.edges.length * ((result.distance ?? 0) + 1) * 14;
}

/** `PathResult` fields that need arguments checked, engine time or output counted, or a different parent. */
export const pathResult: PathResultResolvers = {
  mask: (result, _args, ctx) => ctx.output.pass(result.mask, result.mask.length + 4),
  pathCount: (result, _args, ctx) => lazyField(ctx, { result, field: 'pathCount' }, () => result.pathCount),
  path: (result, _args, ctx) => lazyField(ctx, { result, field: 'path' }, () => result.path),
  distances: (result, _args, ctx) => {
    // Charged before it is computed: nothing is computed that could not be sent.
    const bytes = result.board.files * result.board.ranks * 5;
    ctx.output.pass(null, bytes);
    const map = lazyField<unknown>(ctx, { result, field: 'distances' }, () => result.distances);
    return paced(
      ctx,
      map,
      () => bytes,
      (d) => (Array.isArray(d) ? (d as (number | null)[]) : distancesFromWorker(d)),
    );
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
    const page = lazyField(
      ctx,
      { result, field: 'paths', first, after },
      inline,
      (wire) => pageFromWire(wire as PageWire, result.board),
      underPaths,
    );
    return paced(
      ctx,
      page,
      (p) => pageBytes(p, result),
      (p) => p,
    );
  },
  layers: (result, _args, ctx, info) => {
    if (fieldWeight(result, 'layerBitboards') <= INLINE_WEIGHT || !selects(info, 'bitboard')) {
      const bytes = layerListBytes(result);
      // Built on its turn, and not at all once the answer could not hold it.
      return ctx.output.pace(bytes, () => {
        ctx.output.check(bytes);
        return result.layers;
      });
    }
    // Layer bitboards of a large result are formatted on the pool, all layers in one piece.
    const bytes = (((result.distance ?? -1) + 1) * (result.board.files * result.board.ranks)) / 4;
    ctx.output.check(bytes);
    const texts = lazyField<unknown>(ctx, { result, field: 'layerBitboards' }, () =>
      result.layers.map((layer) => layer.bitboard),
    );
    return paced(
      ctx,
      texts,
      () => bytes + layerListBytes(result),
      (t) => result.layers.map((layer, k) => withBitboard(layer, (t as string[])[k])),
    );
  },
  overlay: (result) => result,
};

/** True when the field being resolved selects `name` directly (fragments included). */
function selects(info: GraphQLResolveInfo, name: string): boolean {
  const visit = (set: SelectionSetNode | undefined): boolean =>
    set?.selections.some((s) =>
      s.kind === 'Field'
        ? s.name.value === name
        : s.kind === 'InlineFragment'
          ? visit(s.selectionSet)
          : visit(info.fragments[s.name.value]?.selectionSet),
    ) ?? false;
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
  bitboard: (set, _args, ctx) => ctx.output.pass(set.bitboard, set.bitboard.length + 4),
  // A square set is an object of its own in the answer: `{"squares":[...]}` around the names.
  squares: (set, _args, ctx) => ctx.output.pass(set.squares, squareListBytes(set.count) + 16),
};

/** A path's squares (of `path` and of every edge of `paths`). */
export const path: PathResolvers = {
  squares: (p, _args, ctx) => ctx.output.pass(p.squares, squareListBytes(p.squares.length)),
};

/** A page edge's cursor (its length grows with the distance). */
export const pathEdge: PathEdgeResolvers = {
  cursor: (edge, _args, ctx) => ctx.output.pass(edge.cursor, edge.cursor.length + 4),
};

/** Notes the FEN of a question that gives one, for its picture (a bad one fails the question itself). */
function noteFen(ctx: Context, info: GraphQLResolveInfo, query: { fen?: string | null }, index?: number) {
  if (query.fen) notePositionDiagram(ctx.positionDiagrams, info, { fen: query.fen }, index);
}

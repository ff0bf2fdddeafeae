/**
 * The expensive lazy fields of a result (path count, path pages, distance maps, pictures, layer
 * bitboards), computed where their cost says: on the main thread when small, else on the worker
 * pool. The cost is estimated from the board and the distance before anything is computed, so a
 * large picture or a thousand long paths never start on the event loop.
 *
 * Field requests of one request that arrive in the same tick go to the pool together through a
 * DataLoader (graphql-js asks for the fields of a whole list at once): one dispatch, a few tasks,
 * instead of one message per field.
 */

import type { PathResult } from '@chess-paths/engine';
import DataLoader from 'dataloader';
import { INLINE_WEIGHT, type WorkDispatcher } from './dispatch.js';
import type { EngineBudget } from './engine-budget.js';
import { packedOf, problemWireOf } from './handles.js';
import { type SvgOptions, svgOptionsKey } from './pictures.js';
import type { LazyField } from './tasks.js';

/** One lazy field of one result, with its estimated cost. */
export interface FieldRequest {
  result: PathResult;
  field: LazyField;
  first?: number | null;
  after?: string | null;
  /** How an `svg` field is drawn. */
  svg?: SvgOptions;
  weight: number;
}

/** Loads lazy fields on the pool, batched per tick (its DataLoader made on first use). */
export interface FieldLoader {
  load(request: FieldRequest): Promise<unknown>;
}

/** What `lazyField` needs of a request. */
export interface FieldScope {
  budget: EngineBudget;
  fields: FieldLoader;
}

/** A loader of lazy fields for one request. */
export function createFieldLoader(work: WorkDispatcher): FieldLoader {
  let loader: DataLoader<FieldRequest, unknown, string> | undefined;
  return { load: (request) => (loader ??= fieldDataLoader(work)).load(request) };
}

function fieldDataLoader(work: WorkDispatcher): DataLoader<FieldRequest, unknown, string> {
  return new DataLoader<FieldRequest, unknown, string>(
    async (requests) => {
      const items = requests.map((r) => ({
        problem: problemWireOf(r.result),
        layers: packedOf(r.result),
        pathCount: r.result.knownPathCount,
        field: r.field,
        first: r.first,
        after: r.after,
        svg: r.svg,
      }));
      return work.run(
        'field',
        items,
        requests.map((r) => r.weight),
      );
    },
    {
      cacheKeyFn: (r) =>
        `${r.result.key} ${r.field} ${r.first ?? ''} ${r.after ?? ''} ${r.svg ? svgOptionsKey(r.svg) : ''}`,
    },
  );
}

/**
 * Estimated cost of a lazy field, in the dispatcher's units (about a board square of fill work):
 * building the layered graph touches every square once; a page of paths walks `first` paths of
 * D + 1 squares; an ASCII picture has a character per square per layer.
 */
export function fieldWeight(result: PathResult, field: LazyField, first?: number | null): number {
  const squares = result.board.files * result.board.ranks;
  const layers = (result.distance ?? -1) + 1;
  switch (field) {
    case 'pathCount':
      return 4 * squares;
    case 'path':
      return 2 * squares;
    case 'paths':
      return squares + 8 * (first ?? 10) * layers;
    case 'distances':
      return 4 * squares;
    case 'ascii':
      return squares * Math.max(1, layers);
    case 'svg':
      return 4 * squares;
    case 'layerBitboards':
      return (squares / 8) * layers;
  }
}

/**
 * A lazy field: `inline()` on this thread (paced and charged by the request's budget) when its
 * estimated cost is small, else computed on the pool and turned into the field's value by
 * `fromWorker`; an error from the pool goes through `onError` when given (to re-root it).
 */
export function lazyField<T>(
  scope: FieldScope,
  request: Omit<FieldRequest, 'weight'>,
  inline: () => T,
  fromWorker: (value: unknown) => T = (value) => value as T,
  onError?: (err: unknown) => never,
): T | Promise<T> {
  const weight = fieldWeight(request.result, request.field, request.first);
  if (weight <= INLINE_WEIGHT) return scope.budget.lazy(inline);
  scope.budget.check();
  const loaded = scope.fields.load({ ...request, weight }).then(fromWorker);
  return onError ? loaded.catch(onError) : loaded;
}

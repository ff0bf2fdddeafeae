/**
 * Which position a path result's picture belongs to. `Position.paths` answers with an ordinary
 * path result, shared by every question with the same canonical problem (the memo, the cache),
 * so the result cannot carry the position: its `Overlay.svg` would otherwise draw no pieces. The
 * same holds for a question that gives a FEN. Their resolvers note the position here, under the
 * field's response path, and the `Overlay.svg` below it finds it by its own path. Paths are unique within one execution of an
 * operation, and each execution has its own coerced variables object, which keys the notes (the
 * operations of a batch share one context).
 */
import type { GraphQLResolveInfo, ResponsePath } from 'graphql';
import { responsePathAsArray } from 'graphql';

/**
 * The position of an answer, as text (the picture is drawn where the work is, maybe on a worker,
 * which reads the FEN again), and with `avoidAttacked` the square of the piece that moved.
 */
export interface PositionDiagram {
  fen: string;
  /** The moving piece's square, when the question avoided the squares its opponents attack. */
  mover?: string;
}

/** Notes of one request: per execution (its variables object), per response path. */
export type PositionDiagrams = WeakMap<object, Map<string, PositionDiagram>>;

const keyOf = (path: ResponsePath | undefined) => (path ? responsePathAsArray(path).join('.') : '');

/**
 * Notes the position of the field being resolved (`Position.paths`, or a question with a FEN),
 * or of the item `index` of the list it resolves (`shortestPathsBatch`).
 */
export function notePositionDiagram(
  notes: PositionDiagrams,
  info: GraphQLResolveInfo,
  diagram: PositionDiagram,
  index?: number,
): void {
  let execution = notes.get(info.variableValues);
  if (!execution) notes.set(info.variableValues, (execution = new Map()));
  execution.set(index === undefined ? keyOf(info.path) : `${keyOf(info.path)}.${index}`, diagram);
}

/** The position noted for the result whose `Overlay.svg` is being resolved, if it came from `Position.paths`. */
export function positionDiagramOf(notes: PositionDiagrams, info: GraphQLResolveInfo): PositionDiagram | undefined {
  // svg <- overlay <- the path result's field (Position.paths, or any other).
  return notes.get(info.variableValues)?.get(keyOf(info.path.prev?.prev));
}

/**
 * What the service remembers of each result object it hands to graphql-js: the prepared problem
 * it answers (its words, for the workers) and its layers in packed form, once known. Kept beside
 * the result in a WeakMap rather than on it, so the engine's result type stays the library's
 * public shape and an entry goes when its result does.
 */
import { type PackedLayers, type PathResult, type Prepared, packLayers, prepareCanonical } from '@chess-paths/engine';
import { type ProblemWire, wireOf } from './tasks.js';

interface Handle {
  prepared: Prepared;
  packed?: PackedLayers;
}

const handles = new WeakMap<PathResult, Handle>();

/** Records the problem (and, when known, the packed layers) of a result. */
export function remember(result: PathResult, prepared: Prepared, packed?: PackedLayers): void {
  handles.set(result, { prepared, packed });
}

function handleOf(result: PathResult): Handle {
  let handle = handles.get(result);
  if (handle === undefined) {
    handle = { prepared: prepareCanonical(result.problem) };
    handles.set(result, handle);
  }
  return handle;
}

/** The packed layers of a result (packed here on first use for a result solved on this thread). */
export function packedOf(result: PathResult): PackedLayers {
  const handle = handleOf(result);
  return (handle.packed ??= packLayers(result));
}

/** The packed layers of a result when they are already known (never packs). */
export function knownPacked(result: PathResult): PackedLayers | undefined {
  return handles.get(result)?.packed;
}

/** The problem of a result, as a worker needs it. */
export function problemWireOf(result: PathResult): ProblemWire {
  return wireOf(handleOf(result).prepared);
}

/**
 * The resolver map, assembled from one small module per area and typed by the generated
 * `Resolvers` type (scripts/codegen.mjs), so a resolver that returns the wrong shape fails to
 * compile.
 */
import type { Resolvers } from '../generated/resolvers.js';
import { scalarResolvers } from '../scalars.js';
import { analysis, analysisMutations, analysisQueries } from './analyses.js';
import { game, gameQueries, journey, ply } from './games.js';
import { overlay } from './overlay.js';
import { path, pathEdge, pathQueries, pathResult, squareSet } from './paths.js';
import { position, positionQueries } from './position.js';

/** Every resolver of the schema. */
export const resolvers: Resolvers = {
  ...scalarResolvers,
  Query: { ...pathQueries, ...positionQueries, ...gameQueries, ...analysisQueries },
  Mutation: analysisMutations,
  PathResult: pathResult,
  SquareSet: squareSet,
  Path: path,
  PathEdge: pathEdge,
  Overlay: overlay,
  Position: position,
  Analysis: analysis,
  Game: game,
  Ply: ply,
  Journey: journey,
};

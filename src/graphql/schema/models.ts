/**
 * Shapes the resolvers hand to graphql-js for object types that have no engine or store model of
 * their own. Codegen maps the schema's types to these (see scripts/codegen.mjs), so the generated
 * `Resolvers` type checks every resolver against what it really returns.
 */
import type { Game, GameJourney } from '@chess-paths/engine';
import type { AnalysisRecord } from '../../store/index.js';

/** One page of analyses, newest first. */
export interface AnalysisConnectionModel {
  edges: { cursor: string; node: AnalysisRecord }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
}

/** A new analysis and its edit token (shown once). */
export interface SavedAnalysisModel {
  analysis: AnalysisRecord;
  editToken: string;
}

/** A piece's journey, with the game it belongs to (its routes are asked on that game's positions). */
export interface JourneyModel {
  journey: GameJourney;
  game: Game;
}

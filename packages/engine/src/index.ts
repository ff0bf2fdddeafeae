/**
 * chess-paths engine: all shortest paths of chess pieces by Westcott's bitboard flood fill.
 * Pure computation, no I/O; the package's one entry point (`@chess-paths/engine`), which the
 * service and its viewer import too.
 */

export {
  canonicalBetza,
  type FairyPiece,
  type FairyRay,
  type HopRay,
  isBetzaKept,
  MAX_CANONICAL_BETZA_LENGTH,
  ORTHODOX_BETZA,
  readBetza,
} from './betza/betza.js';
export { countBits, formatBitboard, parseBitboard, WordSquareSet } from './board/bitset.js';
export { describeBoard, MAX_BOARD_SIDE, resolveBoard, STANDARD_BOARD } from './board/board.js';
export { type ParsedPosition, type PlacedPiece, parseFen } from './board/fen.js';
export { fileName, parseSquare, squareIndexOrMinus1, squareName } from './board/squares.js';
export {
  checkPacked,
  decodeLayers,
  encodeLayers,
  layerCount,
  type PackedLayers,
  packedBytes,
  packLayers,
} from './core/packed.js';
export { encodePathCursor } from './core/paths.js';
export { Prepared, prepareCanonical, prepareQuery } from './core/query.js';
export { Solution } from './core/solution.js';
export {
  restoreResult,
  type SolveOptions,
  type SquareWords,
  solutionFromPacked,
  solve,
  solveBatch,
  solvePrepared,
  solveWords,
  type WordsQuery,
} from './core/solve.js';
export { formatInputPath, InputError, type InputPath, previewValue } from './errors.js';
export { forEachHop, hopHurdle } from './fairy/fairy-hops.js';
export {
  type BoardEnding,
  type Game,
  type GameJourney,
  type GamePly,
  type GameVariation,
  journeyRoute,
  type PlayGameOptions,
  playGame,
  readGame,
} from './games/game.js';
export {
  journeyManeuvers,
  type KingWalk,
  type Maneuver,
  type ManeuverLeg,
  type ManeuverVerdict,
} from './games/maneuvers.js';
export {
  countPgnMoves,
  PgnError,
  type PgnMove,
  type PgnTag,
  type PgnText,
  type PgnVariation,
  readPgn,
} from './games/pgn.js';
export { type WritePgnOptions, writePgn } from './games/pgn-write.js';
export { attackedSquares, positionQuery } from './games/position.js';
export {
  type DiagramSpec,
  diagramSpecOf,
  type OverlaySource,
  renderAscii,
  renderDiagram,
  renderSvg,
} from './pictures/diagram.js';
export { pathHurdles } from './pictures/diagram-path.js';
export { fairyMark, pieceGlyph } from './pictures/diagram-pieces.js';
export { type DiagramCounts, diagramLengthBound } from './pictures/diagram-size.js';
export {
  type DrawShape,
  overlayShapes,
  type ShapeBrush,
  type ShapeOptions,
  type ShapeSource,
  shapesToPgnComment,
} from './pictures/shapes.js';
export * from './types.js';
export {
  DEFAULT_ENGINE_CACHE_BYTES,
  type EngineCacheName,
  type EngineCacheSize,
  engineCacheSizes,
  setEngineCacheBytes,
} from './util/memory.js';
export { useSha256 } from './util/sha256.js';

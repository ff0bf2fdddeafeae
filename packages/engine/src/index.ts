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
} from './betza.js';
export { countBits, formatBitboard, parseBitboard, WordSquareSet } from './bitset.js';
export { describeBoard, MAX_BOARD_SIDE, resolveBoard, STANDARD_BOARD } from './board.js';
export {
  type DiagramSpec,
  diagramSpecOf,
  type OverlaySource,
  renderAscii,
  renderDiagram,
  renderSvg,
} from './diagram.js';
export { pathHurdles } from './diagram-path.js';
export { fairyMark, pieceGlyph } from './diagram-pieces.js';
export { type DiagramCounts, diagramLengthBound } from './diagram-size.js';
export { formatInputPath, InputError, type InputPath, previewValue } from './errors.js';
export { forEachHop, hopHurdle } from './fairy-hops.js';
export { type ParsedPosition, type PlacedPiece, parseFen } from './fen.js';
export {
  type BoardEnding,
  type Game,
  type GameJourney,
  type GamePly,
  type GameVariation,
  journeyRoute,
  playGame,
  readGame,
} from './game.js';
export {
  journeyManeuvers,
  type KingWalk,
  type Maneuver,
  type ManeuverLeg,
  type ManeuverVerdict,
} from './maneuvers.js';
export {
  DEFAULT_ENGINE_CACHE_BYTES,
  type EngineCacheName,
  type EngineCacheSize,
  engineCacheSizes,
  setEngineCacheBytes,
} from './memory.js';
export {
  checkPacked,
  decodeLayers,
  encodeLayers,
  layerCount,
  type PackedLayers,
  packedBytes,
  packLayers,
} from './packed.js';
export { encodePathCursor } from './paths.js';
export {
  countPgnMoves,
  PgnError,
  type PgnMove,
  type PgnTag,
  type PgnText,
  type PgnVariation,
  readPgn,
} from './pgn.js';
export { type WritePgnOptions, writePgn } from './pgn-write.js';
export { attackedSquares, positionQuery } from './position.js';
export { Prepared, prepareCanonical, prepareQuery } from './query.js';
export { useSha256 } from './sha256.js';
export {
  type DrawShape,
  overlayShapes,
  type ShapeBrush,
  type ShapeOptions,
  type ShapeSource,
  shapesToPgnComment,
} from './shapes.js';
export { Solution } from './solution.js';
export {
  restoreResult,
  type SolveOptions,
  solutionFromPacked,
  solve,
  solveBatch,
  solvePrepared,
} from './solve.js';
export { fileName, parseSquare, squareIndexOrMinus1, squareName } from './squares.js';
export * from './types.js';

/**
 * chess-paths engine: all shortest paths of chess pieces by Westcott's bitboard flood fill.
 * Pure computation, no I/O; importable on its own as the package's main export.
 */
export { solve, solveBatch, solvePrepared, restoreResult, solutionFromPacked, Solution, type SolveOptions } from './solve.js';
export { packLayers, encodeLayers, decodeLayers, checkPacked, layerCount, packedBytes, type PackedLayers } from './packed.js';
export { prepareQuery, prepareCanonical, Prepared } from './query.js';
export { parseSquare, squareName, fileName } from './squares.js';
export { encodePathCursor } from './paths.js';
export { parseBitboard, formatBitboard, WordSquareSet } from './bitset.js';
export { parseFen, type ParsedPosition, type PlacedPiece } from './fen.js';
export { positionQuery, attackedSquares } from './position.js';
export { resolveBoard, describeBoard, MAX_BOARD_SIDE, STANDARD_BOARD } from './board.js';
export { InputError, formatInputPath, type InputPath } from './errors.js';
export * from './types.js';

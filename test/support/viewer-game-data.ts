/**
 * A game read by the engine in the shape the viewer asks the API for (src/viewer/game-api.ts), for
 * the viewer's tests without a browser or a server.
 */
import { type GamePly, readGame } from '@chess-paths/engine';
import type { GameData, PlyData } from '../../src/viewer/game-api.js';

/** A ply read by the engine, in the shape the viewer asks the API for (its variations too). */
function plyData({ fen, variations, ...ply }: GamePly): PlyData {
  return {
    ...ply,
    position: { fen },
    variations: variations.map((v) => ({ stopped: v.stopped, plies: v.plies.map(plyData) })),
  };
}

/** A game read by the engine, in the shape the viewer asks the API for. */
export function gameData(pgn: string): GameData {
  const game = readGame(pgn);
  return {
    tags: game.tags,
    start: { fen: game.startFen },
    result: game.result,
    boardEnding: game.boardEnding,
    termination: game.termination,
    comments: game.comments,
    plies: game.plies.map(plyData),
    journeys: game.journeys.map(({ promotedAtMove: _, ...journey }) => journey),
  };
}

/**
 * The slice of the engine the GraphQL layer uses, as an interface. The server takes an
 * implementation as a dependency (the real engine by default), so tests can wrap it to count
 * solves or to watch which lazy fields a query reads, without any hook inside the engine.
 */

import { hash } from 'node:crypto';
import type { Board, ParsedPosition, PathQuery, PathResult, Prepared } from '@chess-paths/engine';
import * as realEngine from '@chess-paths/engine';

// Problem keys by Node's SHA-256: the same digest as the engine's portable one, in native code
// (a 256 x 256 problem's key took 15 to 20 ms of the event loop in JavaScript).
realEngine.useSha256((text) => hash('sha256', text, 'hex'));

export type { ParsedPosition, Prepared };

/** What the resolvers call; every method throws `InputError` on bad input. */
export interface EngineApi {
  /** Normalises and validates a query into its canonical key and problem. */
  prepareQuery(query: PathQuery): Prepared;
  /**
   * Solves prepared problems in one call, results in input order (identical problems are solved
   * once and share a result; lazy fields are computed when read).
   */
  solveBatch(items: readonly Prepared[]): PathResult[];
  /** Checks a board argument (absent: 8 x 8). */
  resolveBoard(board: Board | null | undefined): Board;
  /** Parses a FEN on the given (resolved) board. */
  parseFen(fen: string, board?: Board): ParsedPosition;
  /** The path question of `Position.paths` for the piece on `from`. */
  positionQuery(position: ParsedPosition, from: string, to: readonly string[], avoidAttacked: boolean): PathQuery;
}

/**
 * Builds what the engine makes on first use and keeps: the tables of Betza direction letters
 * (about 0.1 s, once), so that no request's first fairy piece pays for them on the event loop.
 */
export function warmUpEngine(): void {
  realEngine.readBetza('WFN');
}

/** The real engine. */
export const defaultEngine: EngineApi = {
  prepareQuery: realEngine.prepareQuery,
  solveBatch: (items) => realEngine.solveBatch(items),
  resolveBoard: realEngine.resolveBoard,
  parseFen: realEngine.parseFen,
  positionQuery: realEngine.positionQuery,
};

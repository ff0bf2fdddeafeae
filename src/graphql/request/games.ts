/**
 * Games read from PGN, for `game(pgn:)` and `Analysis.game`: once per text (`caching/game-cache.ts`), the
 * same PGN asked twice, or by two requests at once, is read once. Reading takes the road of all
 * engine work: the text's size is checked first (MAX_PGN_BYTES), its tokens are read on this
 * thread (one pass, bounded by that size) and counted (MAX_PLIES) before any move is played, and
 * the moves are played on the worker pool (a half-move costs more than the work kept inline),
 * on the request's engine budget.
 */
import { createHash } from 'node:crypto';
import { type Game, readPgn } from '@chess-paths/engine';
import { checkPgn, checkPlies } from '../limits/limits.js';
import { PLY_WEIGHT } from '../work/dispatch.js';
import type { Context } from './context.js';

/** The game of a PGN text, checked against the limits, read once per text (`path` names the argument). */
export function readGameFor(ctx: Context, pgn: string, path: (string | number)[] = ['pgn']): Promise<Game> {
  const { limits, games } = ctx.services;
  checkPgn(pgn, limits, path);
  const key = createHash('sha256').update(pgn, 'utf8').digest('hex');
  return games.get(key, async () => {
    const text = ctx.budget.run(() => readPgn(pgn));
    checkPlies(text.moves.length, limits, path);
    const [game] = await ctx.work.run('game', [text], [Math.max(1, text.moves.length) * PLY_WEIGHT]);
    if (game instanceof Error) throw game;
    return game as Game;
  });
}

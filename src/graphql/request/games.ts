/**
 * Games read from PGN, for `game(pgn:)`, `Analysis.game` and saves: once per text
 * (`caching/game-cache.ts`), the same PGN asked twice, or by two requests at once (or two aliases
 * of one request), is read once. The text's size is checked here (MAX_PGN_BYTES); everything else
 * happens on the worker pool, on the request's engine budget, like any heavy engine work: the
 * text is read, its half-moves counted (MAX_PLIES) before any is played, and the moves played. So
 * the event loop never reads a game, whatever its size or how many a request asks for, and a
 * full pool queue refuses the reading with OVERLOADED and a Retry-After. What a request was
 * charged for it was priced before it ran (`limits/cost.ts`, by the same tokenizer).
 */
import { createHash } from 'node:crypto';
import type { Game } from '@chess-paths/engine';
import { checkPgn, checkPlies } from '../limits/limits.js';
import { gameReadWeight } from '../work/dispatch.js';
import type { OverPlies } from '../work/tasks.js';
import type { Context } from './context.js';

/** The game of a PGN text, checked against the limits, read once per text (`path` names the argument). */
export async function readGameFor(ctx: Context, pgn: string, path: (string | number)[] = ['pgn']): Promise<Game> {
  const { limits, games } = ctx.services;
  // Measuring and hashing a text of MAX_PGN_BYTES takes about a millisecond: paced like engine
  // work, so that a page of fifty stored games (graphql-js resolves the whole list in one go)
  // lets the event loop run between slices instead of hashing them all at once.
  const key = await ctx.budget.lazy(() => {
    checkPgn(pgn, limits, path);
    return createHash('sha256').update(pgn, 'utf8').digest('hex');
  });
  return games.get(key, async () => {
    // The half-moves are counted on the worker: a text has at most a third of its length of them.
    const weight = gameReadWeight(Math.min(limits.maxPlies, Math.ceil(pgn.length / 3)), pgn.length);
    const [read] = await ctx.work.run('game', [{ pgn, maxPlies: limits.maxPlies }], [weight]);
    if (read instanceof Error) throw read;
    const over = (read as Partial<OverPlies>).overPlies;
    if (over !== undefined) checkPlies(over, limits, path);
    return read as Game;
  });
}

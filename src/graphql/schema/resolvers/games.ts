/**
 * Games: `Query.game` reads a PGN text (once per text, `request/games.ts`); its plies and start are
 * positions like `Query.position`'s, so their `paths` work as there; `Journey.route` asks the
 * path question of a piece's moves on the position before the first of them, through the
 * request's one loader, so every route and every ply's question of a request is solved in one
 * batch and found in the result cache. Errors are local: a bad game nulls `game` alone (the
 * message names the move, `3... Nf6 is not legal here`, or the place in the text), a bad route
 * its own `route`.
 */

import { journeyManeuvers, journeyRoute, type ParsedPosition, type PathQuery, writePgn } from '@chess-paths/engine';
import { type Context, resolveResult } from '../../request/context.js';
import { readGameFor } from '../../request/games.js';
import { notePositionDiagram } from '../../request/position-diagrams.js';
import { prepareQuestion, rethrowUnder } from '../../request/questions.js';
import type { GameResolvers, JourneyResolvers, PlyResolvers, QueryResolvers } from '../generated/resolvers.js';

/**
 * A position of the game (8 x 8) that reads its FEN only when a field needs the board. A game's
 * FENs are already in the engine's full form, so `fen` and `turn` are answered from the text: a
 * thousand-ply game asked for `plies { position { fen } }` costs no parsing at all, where parsing
 * every ply's FEN held the event loop for tens of milliseconds per request. The reading, when a
 * field needs it, is on the request's budget like any other.
 */
class GamePosition implements ParsedPosition {
  #parsed: ParsedPosition | undefined;
  constructor(
    readonly fen: string,
    private readonly ctx: Context,
  ) {}
  get turn() {
    return this.fen.split(' ', 2)[1] === 'b' ? ('BLACK' as const) : ('WHITE' as const);
  }
  get board() {
    return this.parsed().board;
  }
  get pieces() {
    return this.parsed().pieces;
  }
  get occupied() {
    return this.parsed().occupied;
  }
  get occupiedWords() {
    return this.parsed().occupiedWords;
  }
  private parsed(): ParsedPosition {
    this.#parsed ??= this.ctx.budget.run(() => this.ctx.services.engine.parseFen(this.fen));
    return this.#parsed;
  }
}

/** A position of the game, read when first needed. */
const positionOf = (ctx: Context, fen: string): ParsedPosition => new GamePosition(fen, ctx);

/** `Query.game`. */
export const gameQueries: Pick<QueryResolvers, 'game'> = {
  game: (_root, { pgn }, ctx) => readGameFor(ctx, pgn),
};

/** `Game`: the start position and the journeys (with their game) need resolving. */
export const game: GameResolvers = {
  start: (g, _args, ctx) => positionOf(ctx, g.startFen),
  journeys: (g) => g.journeys.map((journey) => ({ journey, game: g })),
  // The annotation compares every maneuver (a few 8 x 8 solves each), on the request's budget.
  pgn: (g, { annotate }, ctx) => {
    const text = ctx.budget.run(() => writePgn(g, { annotate: annotate ?? true }));
    return ctx.output.pass(text, text.length + 2);
  },
};

/** `Ply`: its position, read from the FEN after it. */
export const ply: PlyResolvers = {
  position: (p, _args, ctx) => positionOf(ctx, p.fen),
};

/** `Journey`: the piece's fields, and its routes. */
export const journey: JourneyResolvers = {
  role: (j) => j.journey.role,
  color: (j) => j.journey.color,
  squares: (j) => j.journey.squares,
  plies: (j) => j.journey.plies,
  capturedAt: (j) => j.journey.capturedAt,
  promotedTo: (j) => j.journey.promotedTo,
  // A few 8 x 8 solves per maneuver, on the request's budget.
  maneuvers: (j, _args, ctx) => ctx.budget.run(() => journeyManeuvers(j.game, j.journey)),
  route: (j, { first, last }, ctx, info) => {
    let query: PathQuery;
    try {
      query = ctx.budget.run(() => journeyRoute(j.game, j.journey, first, last));
    } catch (err) {
      rethrowUnder(err, []);
    }
    notePositionDiagram(ctx.positionDiagrams, info, { fen: query.fen as string });
    return resolveResult(ctx, prepareQuestion(ctx, query, [], false));
  },
};

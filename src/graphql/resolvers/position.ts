/**
 * FEN positions: `Query.position` parses the FEN once (board and FEN length checked against the
 * limits first) and `Position.paths` asks the engine for the path question of the piece on `from`
 * (its role and colour from the position, the other pieces blocking, and with `avoidAttacked` the
 * squares the other colour attacks removed), then loads it through the request's shared loader.
 */
import type { PositionResolvers, QueryResolvers } from '../../generated/graphql.js';
import { resolveResult } from '../context.js';
import { checkBoard, checkFen } from '../limits.js';
import { prepare, rethrowUnder } from './prepare.js';

/** `Query.position`. */
export const positionQueries: Pick<QueryResolvers, 'position'> = {
  position: (_root, { fen, board }, ctx) => {
    const { limits, engine } = ctx.services;
    checkFen(fen, limits, ['fen']);
    checkBoard(board, limits, ['board']);
    try {
      return { parsed: engine.parseFen(fen, engine.resolveBoard(board)) };
    } catch (err) {
      rethrowUnder(err, []);
    }
  },
};

/** `Position` fields. */
export const position: PositionResolvers = {
  fen: (model) => model.parsed.fen,
  board: (model) => model.parsed.board,
  turn: (model) => model.parsed.turn,
  occupied: (model) => model.parsed.occupied,
  pieces: (model) => model.parsed.pieces,
  paths: (model, { from, to, avoidAttacked }, ctx) => {
    let query;
    try {
      // With avoidAttacked the engine walks every attacker's moves: engine time, on the request's budget.
      query = ctx.budget.run(() => ctx.services.engine.positionQuery(model.parsed, from, to, avoidAttacked ?? false));
    } catch (err) {
      rethrowUnder(err, []);
    }
    return resolveResult(ctx, prepare(ctx, query, [], false));
  },
};

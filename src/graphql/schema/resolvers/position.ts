/**
 * FEN positions: `Query.position` parses the FEN once (board and FEN length checked against the
 * limits first) and `Position.paths` asks the engine for the path question of the piece on `from`
 * (its role and colour from the position, the other pieces blocking, and with `avoidAttacked` the
 * squares the other colour attacks removed), then loads it through the request's shared loader.
 */

import type { PathQuery } from '@chess-paths/engine';
import { checkBoard, checkFen } from '../../limits/limits.js';
import { resolveResult } from '../../request/context.js';
import { notePositionDiagram } from '../../request/position-diagrams.js';
import { prepareQuestion, rethrowUnder } from '../../request/questions.js';
import type { PositionResolvers, QueryResolvers } from '../generated/resolvers.js';

/** `Query.position`. */
export const positionQueries: Pick<QueryResolvers, 'position'> = {
  position: (_root, { fen, board }, ctx) => {
    const { limits, engine } = ctx.services;
    checkFen(fen, limits, ['fen']);
    checkBoard(board, limits, ['board']);
    try {
      return engine.parseFen(fen, engine.resolveBoard(board));
    } catch (err) {
      rethrowUnder(err, []);
    }
  },
};

/** `Position.paths`; the other fields are read straight from the engine's parsed position. */
export const position: PositionResolvers = {
  paths: (parsed, { from, to, avoidAttacked, blocked }, ctx, info) => {
    let query: PathQuery;
    try {
      // With avoidAttacked the engine walks every attacker's moves: engine time, on the request's budget.
      query = ctx.budget.run(() => ctx.services.engine.positionQuery(parsed, from, to, avoidAttacked ?? false));
      if (blocked) query.blocked = [...(query.blocked ?? []), ...blocked];
    } catch (err) {
      rethrowUnder(err, []);
    }
    notePositionDiagram(
      ctx.positionDiagrams,
      info,
      avoidAttacked ? { fen: parsed.fen, mover: from } : { fen: parsed.fen },
    );
    return resolveResult(ctx, prepareQuestion(ctx, query, [], false));
  },
};

/**
 * FEN positions: `Query.position` parses the FEN once (board and FEN length checked against the
 * limits first) and `Position.paths` asks the engine for the path question of the piece on `from`
 * (its role and colour from the position, the other pieces blocking, and with `avoidAttacked` the
 * squares the other colour attacks removed), then loads it through the request's shared loader.
 */

import { checkBoard, checkFen } from '../../limits/limits.js';
import { type Context, resolveResult } from '../../request/context.js';
import { notePositionDiagram } from '../../request/position-diagrams.js';
import { prepareQuestion, rethrowUnder } from '../../request/questions.js';
import type { PositionResolvers, QueryResolvers } from '../generated/resolvers.js';

/**
 * `value` handed to `then`: at once when it is ready (the resolver does not wait, and its
 * questions join the request's one loader batch as before), else once it is, with the request's
 * loader batch held back meanwhile (`PreparationGate`) so that what `then` loads still joins it.
 * The batch is let go right after `then` (it loaded what it had to), or with `untilTurn` one
 * event-loop turn later: for a parent whose children load (graphql-js resolves them only once the
 * parent's value is there). A failure goes through `rethrowUnder` either way.
 */
function whenReady<T, R>(
  ctx: Context,
  value: T | Promise<T>,
  then: (ready: T) => R,
  untilTurn = false,
): R | Promise<R> {
  if (!(value instanceof Promise)) return then(value);
  ctx.preparing.enter();
  const leave = () => (untilTurn ? setImmediate(() => ctx.preparing.leave()) : ctx.preparing.leave());
  return value.then(
    (ready) => {
      try {
        return then(ready);
      } finally {
        leave();
      }
    },
    (err: unknown) => {
      leave();
      return rethrowUnder(err, []);
    },
  );
}

/** `Query.position`. */
export const positionQueries: Pick<QueryResolvers, 'position'> = {
  position: (_root, { fen, board }, ctx) => {
    const { limits, engine } = ctx.services;
    checkFen(fen, limits, ['fen']);
    checkBoard(board, limits, ['board']);
    try {
      // Reading a large FEN is engine work: on the request's budget, and paced like the rest.
      const parsed = ctx.budget.lazy(() => engine.parseFen(fen, engine.resolveBoard(board)));
      return whenReady(ctx, parsed, (ready) => ready, true);
    } catch (err) {
      rethrowUnder(err, []);
    }
  },
};

/** `Position.paths`; the other fields are read straight from the engine's parsed position. */
export const position: PositionResolvers = {
  paths: (parsed, { from, to, avoidAttacked, blocked }, ctx, info) => {
    try {
      // With avoidAttacked the engine walks every attacker's moves; preparing the question reads
      // its board. Both are engine time on the request's budget, paced: once a slice is used, the
      // aliases of a request (graphql-js resolves them in one go) each wait for a turn.
      const prepared = ctx.budget.lazy(() => {
        const query = ctx.services.engine.positionQuery(parsed, from, to, avoidAttacked ?? false);
        if (blocked) query.blocked = [...(query.blocked ?? []), ...blocked];
        return prepareQuestion(ctx, query, [], false);
      });
      return whenReady(ctx, prepared, (ready) => {
        notePositionDiagram(
          ctx.positionDiagrams,
          info,
          avoidAttacked ? { fen: parsed.fen, mover: from } : { fen: parsed.fen },
        );
        return resolveResult(ctx, ready);
      });
    } catch (err) {
      rethrowUnder(err, []);
    }
  },
};

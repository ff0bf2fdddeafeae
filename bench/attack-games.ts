/**
 * The games door of `npm run bench:attack`: many large PGN texts at once. Every client sends
 * `game(pgn:)` for a game of MAX_PLIES (1,000) half-moves, each text its own (a distinct comment,
 * so the game cache never answers), asking its plies' positions, its journeys and every piece's
 * route of its first move (a piece that never moved answers that route with its own local
 * BAD_USER_INPUT, as the API does); then the same texts again, which the game cache answers. Reading a game
 * is chess.js work on the worker pool, bounded by MAX_PGN_BYTES, MAX_PLIES and the engine budget;
 * the probes show whether the event loop stays free meanwhile.
 */
import { Chess } from 'chess.js';
import { body, send } from './attack-queries.js';
import { phaseOf } from './attack-report.js';
import type { Attack, Ctx } from './attack-server.js';
import { seededRandom } from './rng.js';

/** A legal game of `plies` half-moves from seeded random moves that avoid ending the game early. */
function longGame(plies: number, seed: number): string {
  const rand = seededRandom(seed);
  const chess = new Chess();
  for (let i = 0; i < plies; i++) {
    const moves = chess.moves();
    // A move that would end the game (mate, stalemate, a draw by rule) is avoided while others exist.
    const lasting = moves.filter((m) => {
      chess.move(m);
      const over = chess.isGameOver();
      chess.undo();
      return !over;
    });
    const pool = lasting.length > 0 ? lasting : moves;
    if (pool.length === 0) break;
    chess.move(pool[Math.floor(rand() * pool.length)]);
  }
  return chess.pgn({ maxWidth: 80 });
}

const QUERY = `query($p: String!) { game(pgn: $p) {
  result plies { san position { fen } } journeys { squares plies capturedAt route(first: 1, last: 1) { distance } }
} }`;

/** Every client sends `rounds` requests one after another, each game text its own or the first round's again. */
async function games(ctx: Ctx, pgn: string, rounds: number, tag: string) {
  return Promise.all(
    ctx.agents.map(async (agent, client) => {
      const outcomes = [];
      for (let round = 0; round < rounds; round++) {
        const text = `{${tag} client ${client} round ${round}} ${pgn}`;
        outcomes.push(await send(ctx.server.url, agent, body(QUERY, { p: text }), { timeoutMs: ctx.timeoutMs }));
      }
      return outcomes;
    }),
  ).then((all) => all.flat());
}

/** The games attacks. */
export const GAMES: Record<string, Attack> = {
  games: {
    run: async (ctx) => {
      const pgn = longGame(1000, 11);
      const first = phaseOf(await games(ctx, pgn, 3, 'attack'));
      const again = phaseOf(await games(ctx, pgn, 3, 'attack'));
      return { main: first, cached: again };
    },
  },
};

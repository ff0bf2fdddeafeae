/**
 * The games door of `npm run bench:attack`: many large PGN texts at once (the texts are made in
 * bench/attack-games-texts.ts). Reading a game is the engine's work on the worker pool, bounded by
 * MAX_PGN_BYTES, MAX_PLIES and the engine budget; the probes show whether the event loop stays
 * free meanwhile, the RSS what the games kept cost.
 *
 * - games: every client sends `game(pgn:)` for a game of MAX_PLIES (1,000) half-moves, each text
 *   its own (a distinct comment, so the game cache never answers), asking its plies' positions,
 *   its journeys and every piece's route of its first move (a piece that never moved answers that
 *   route with its own local BAD_USER_INPUT, as the API does); then the same texts again, which
 *   the game cache answers.
 * - games-spellings: every client sends a game of 1,000 half-moves whose knight on b1 never moves,
 *   asking every ply's `position { paths(from: "b1", to) { distance overlay { svg } } }` (to: one
 *   square a client and spelling, so that no answer is another's), each text its own, written
 *   `g4{}c6{}h4{}` (compact), then `1.g4{}$1{}1...c6{}$2{}` with a variation every tenth move
 *   (mixed), then as usual (`1. g4 c6 2. h4`): the price must count the same plies in every
 *   spelling, and refuse them all alike (MAX_COST) if it refuses one.
 * - games-tag-heavy: 80 requests from 4 clients, one after another each, of 4 aliased
 *   `game(pgn:) { result }` of distinct texts of tag pairs filling MAX_PGN_BYTES (as nearly as 4
 *   fit one body) before a short game: 320 games of many tags, more than the game cache keeps.
 * - games-aliases-large: one request of 4 aliased distinct texts near MAX_PGN_BYTES (two of tag
 *   pairs, two of the long game padded with comments), asking `result`; then 4 clients at once,
 *   each 4 texts of its own.
 * - games-analyses-list: 43 saves, each with a long game padded with comments near MAX_PGN_BYTES
 *   (from 4 clients, under RATE_LIMIT_MUTATIONS); their games pushed out of the game cache by 320
 *   tag-heavy games; `analyses(first: 50) { edges { node { game { result } } } }` from one client;
 *   pushed out again; the same list from 8 clients at once, twice (the second finds in the game
 *   cache what the first read; a reading cut by the engine budget is not kept).
 */
import type { Agent } from 'node:http';
import { aliasedGames, commentHeavy, longGameOf, sizes, spelled, tagHeavy } from './attack-games-texts.js';
import { body, type Outcome, send } from './attack-queries.js';
import { type Phase, phaseOf } from './attack-report.js';
import type { Attack, Ctx } from './attack-server.js';

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

/** `agents` send `requests` bodies between them, each the next one when its last is answered. */
async function inTurn(ctx: Ctx, agents: Agent[], requests: number, make: (n: number) => string): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  await Promise.all(
    agents.map(async (agent) => {
      for (let n = next++; n < requests; n = next++)
        outcomes.push(await send(ctx.server.url, agent, make(n), { timeoutMs: ctx.timeoutMs }));
    }),
  );
  return outcomes;
}

/** `agents` each send their own body at once. */
const atOnce = (ctx: Ctx, agents: Agent[], make: (client: number) => string) =>
  Promise.all(agents.map((agent, client) => send(ctx.server.url, agent, make(client), { timeoutMs: ctx.timeoutMs })));

const PLIES = 1000;
const SEED = 11;
/** The square whose piece the spellings' game never moves (White's knight), asked of every ply. */
const KEEP = 'b1';

const PATHS_QUERY = `query($p: String!, $from: Square!, $to: [Square!]!) { game(pgn: $p) {
  result plies { san position { paths(from: $from, to: $to) { distance overlay { svg } } } }
} }`;

/** Tag-heavy requests: 4 aliased texts each, `result` asked. */
const TAG_ALIASES = 4;
const TAG_REQUESTS = 80;
const TAG_CLIENTS = 4;

/** `requests` requests of 4 aliased tag-heavy texts (`tag` and the request's number make them distinct). */
async function tagHeavyRequests(ctx: Ctx, tag: string, requests = TAG_REQUESTS, clients = TAG_CLIENTS) {
  const seen = { tags: [Infinity, 0], textBytes: [Infinity, 0], bodyBytesMax: 0 };
  const outcomes = await inTurn(ctx, ctx.agents.slice(0, clients), requests, (n) => {
    const texts = Array.from({ length: TAG_ALIASES }, (_, a) => tagHeavy(`${tag} request ${n} alias ${a}`));
    const text = aliasedGames(
      texts.map((t) => t.text),
      'result',
    );
    for (const t of texts) {
      const bytes = Buffer.byteLength(t.text);
      seen.tags = [Math.min(seen.tags[0], t.tags), Math.max(seen.tags[1], t.tags)];
      seen.textBytes = [Math.min(seen.textBytes[0], bytes), Math.max(seen.textBytes[1], bytes)];
    }
    seen.bodyBytesMax = Math.max(seen.bodyBytesMax, Buffer.byteLength(text));
    return text;
  });
  const note = {
    requests,
    clients: Math.min(clients, ctx.agents.length),
    aliases: TAG_ALIASES,
    distinctTexts: requests * TAG_ALIASES,
    tagPairsPerText: { min: seen.tags[0], max: seen.tags[1] },
    textBytes: { min: seen.textBytes[0], max: seen.textBytes[1] },
    bodyBytesMax: seen.bodyBytesMax,
  };
  return { outcomes, note };
}

/** Two tag-heavy and two comment-heavy texts near MAX_PGN_BYTES, distinct by `tag`. */
function mixedLarge(tag: string): string[] {
  const game = longGameOf(PLIES, SEED);
  return [0, 1, 2, 3].map((a) =>
    a % 2 === 0 ? tagHeavy(`${tag} alias ${a}`).text : commentHeavy(game, `${tag} alias ${a}`),
  );
}

const SAVES = 43;
const SAVE = 'mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { analysis { id } } }';
const LIST = body('{ analyses(first: 50) { edges { node { game { result } } } } }');

/** The games attacks. */
export const GAMES: Record<string, Attack> = {
  games: {
    run: async (ctx) => {
      const pgn = longGameOf(PLIES, SEED).pgn;
      const first = phaseOf(await games(ctx, pgn, 3, 'attack'));
      const again = phaseOf(await games(ctx, pgn, 3, 'attack'));
      return { main: first, cached: again };
    },
  },
  'games-spellings': {
    run: async (ctx) => {
      const game = longGameOf(PLIES, SEED, KEEP);
      const from = game.busiest.square;
      const targets = 'abcdefgh'
        .split('')
        .flatMap((f) => [1, 2, 3, 4, 5, 6, 7, 8].map((r) => `${f}${r}`))
        .filter((s) => s !== from);
      const phases: Record<string, Phase> = {};
      const sent: Record<string, unknown> = {};
      for (const [s, spelling] of (['compact', 'mixed', 'usual'] as const).entries()) {
        const texts = ctx.agents.map((_, client) => spelled(game, spelling, `spellings ${spelling} client ${client}`));
        const bodies = texts.map((p, client) =>
          body(PATHS_QUERY, { p, from, to: [targets[(s * ctx.agents.length + client) % targets.length]] }),
        );
        phases[spelling] = phaseOf(await atOnce(ctx, ctx.agents, (client) => bodies[client]));
        sent[spelling] = { ...sizes(texts, bodies), start: texts[0].slice(0, 80) };
      }
      Object.assign(ctx.notes, { plies: game.sans.length, from: game.busiest, sent });
      return phases;
    },
  },
  'games-tag-heavy': {
    run: async (ctx) => {
      const { outcomes, note } = await tagHeavyRequests(ctx, 'tag-heavy');
      ctx.notes.sent = note;
      return { main: phaseOf(outcomes) };
    },
  },
  'games-aliases-large': {
    run: async (ctx) => {
      const one = mixedLarge('large single');
      const single = phaseOf(await atOnce(ctx, ctx.agents.slice(0, 1), () => aliasedGames(one, 'result')));
      const own = ctx.agents.slice(0, 4).map((_, client) => mixedLarge(`large client ${client}`));
      const clients = phaseOf(
        await atOnce(ctx, ctx.agents.slice(0, 4), (client) => aliasedGames(own[client], 'result')),
      );
      ctx.notes.single = sizes(one, [aliasedGames(one, 'result')]);
      ctx.notes.clients = {
        clients: own.length,
        ...sizes(
          own.flat(),
          own.map((t) => aliasedGames(t, 'result')),
        ),
      };
      return { single, clients };
    },
  },
  'games-analyses-list': {
    run: async (ctx) => {
      const game = longGameOf(PLIES, SEED);
      const pgns = Array.from({ length: SAVES }, (_, a) => commentHeavy(game, `analysis ${a}`));
      const saveBody = (a: number) => body(SAVE, { i: { title: `attack game ${a}`, pgn: pgns[a], queries: [] } });
      const saves = phaseOf(await inTurn(ctx, ctx.agents.slice(0, 4), SAVES, saveBody));
      const push = await tagHeavyRequests(ctx, 'push');
      const listOne = phaseOf(await atOnce(ctx, ctx.agents.slice(0, 1), () => LIST));
      const pushAgain = await tagHeavyRequests(ctx, 'push again');
      const eight = ctx.agents.slice(0, 8);
      const listEight = phaseOf(await atOnce(ctx, eight, () => LIST));
      const listEightAgain = phaseOf(await atOnce(ctx, eight, () => LIST));
      Object.assign(ctx.notes, {
        saves: {
          ...sizes(
            pgns,
            Array.from({ length: SAVES }, (_, a) => saveBody(a)),
          ),
          clients: 4,
        },
        push: push.note,
        pushAgain: pushAgain.note,
        list: { query: JSON.parse(LIST).query, clients: [1, eight.length, eight.length] },
      });
      return {
        saves,
        push: phaseOf(push.outcomes),
        'list-one': listOne,
        'push-again': phaseOf(pushAgain.outcomes),
        'list-8': listEight,
        'list-8-again': listEightAgain,
      };
    },
  },
};

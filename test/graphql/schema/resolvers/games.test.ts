/**
 * `game(pgn:)` over real HTTP (src/graphql/schema/resolvers/games.ts, ../games.ts, ../game-cache.ts):
 * a game's tags, result, start, plies and journeys as the contract words them; `Ply.position.paths`
 * and `Journey.route` answer exactly what `Position.paths` answers on the position before the
 * move (distance, layers, pathCount), and every question of one request goes to the loader in
 * one batch (`chess_paths_loader_batch_size_count`); answers of GET are cacheable, a bad game's
 * are not; a bad game or a bad route is a local error; text over MAX_PGN_BYTES and games over
 * MAX_PLIES are refused early.
 *
 * "Read once per text" is observed honestly where the reading happens: `readPgn` (the tokens)
 * and `playGame` (the moves played) are counted through a `vi.mock` of the engine package on a
 * second server started without worker threads, where games are read in this process (with
 * threads they are read in a worker, which no mock reaches, and the main thread calls neither).
 * The main server keeps its worker pool, the road games take in service.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

const calls = vi.hoisted(() => ({ readPgn: 0, playGame: 0 }));
vi.mock('@chess-paths/engine', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@chess-paths/engine')>();
  type Text = Parameters<typeof actual.playGame>[0];
  const readPgn = (text: string) => {
    calls.readPgn++;
    return actual.readPgn(text);
  };
  const playGame = (text: Text) => {
    calls.playGame++;
    return actual.playGame(text);
  };
  return { ...actual, readPgn, playGame };
});

const OPERA =
  '[Event "Paris \\"Opera\\""]\n[White "Morphy"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 ' +
  '5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 ' +
  '13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0';
const PROMOTION = '1. h4 g5 2. hxg5 h6 3. gxh6 Bg7 4. hxg7 Nf6 5. gxh8Q Ng8 6. Qxg8# 1-0';
const GAME = 'query($pgn: String!) { game(pgn: $pgn) { result } }';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const PATH = 'distance layers { squares } pathCount';

let t: TestServer;
let inline: TestServer;
beforeAll(async () => {
  [t, inline] = await Promise.all([
    startTestServer({ database: false }),
    startTestServer({ database: false, deps: { workers: false }, env: { MAX_PLIES: '40' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), inline?.close()]);
});

/** A game text no other test asks (the game cache keeps texts for the server's life). */
let unique = 0;
const fresh = (pgn: string) => `[Event "${++unique} ${Date.now()}"]\n${pgn}`;

describe('a game', () => {
  it('answers its tags, result, start, plies and journeys', async () => {
    const { body } = await t.gql(
      `query($pgn: String!) { game(pgn: $pgn) {
        tags { name value } result start { fen turn }
        plies { number color san uci from to position { fen turn } }
        journeys { role color squares plies capturedAt promotedTo }
      } }`,
      { pgn: OPERA },
    );
    expect(body.errors).toBeUndefined();
    const game = body.data.game;
    expect(game.tags).toEqual([
      { name: 'Event', value: 'Paris "Opera"' },
      { name: 'White', value: 'Morphy' },
      { name: 'Result', value: '1-0' },
    ]);
    expect(game.result).toBe('1-0');
    expect(game.start).toEqual({ fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', turn: 'WHITE' });
    expect(game.plies).toHaveLength(33);
    expect(game.plies[0].position.fen).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1');
    expect(game.plies[22]).toMatchObject({
      number: 23,
      color: 'WHITE',
      san: 'O-O-O',
      uci: 'e1c1',
      from: 'e1',
      to: 'c1',
    });
    expect(game.plies[32]).toEqual({
      number: 33,
      color: 'WHITE',
      san: 'Rd8#',
      uci: 'd1d8',
      from: 'd1',
      to: 'd8',
      position: { fen: '1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17', turn: 'BLACK' },
    });
    expect(game.journeys).toHaveLength(32);
    expect(game.journeys[0]).toEqual({
      role: 'ROOK',
      color: 'WHITE',
      squares: ['a1', 'd1', 'd7'],
      plies: [23, 25],
      capturedAt: 26,
      promotedTo: null,
    });
    const promoted = await t.gql('query($pgn: String!) { game(pgn: $pgn) { journeys { squares role promotedTo } } }', {
      pgn: PROMOTION,
    });
    expect(promoted.body.data.game.journeys[15]).toEqual({
      squares: ['h2', 'h4', 'g5', 'h6', 'g7', 'h8', 'g8'],
      role: 'PAWN',
      promotedTo: 'QUEEN',
    });
  });

  it("answers every field of a ply's position as Query.position answers its FEN", async () => {
    const FIELDS = 'fen turn board { files ranks } occupied { bitboard squares count } pieces { square role color }';
    const { body } = await t.gql(
      `query($pgn: String!) { game(pgn: $pgn) { start { ${FIELDS} } plies { position { ${FIELDS} } } } }`,
      { pgn: fresh(OPERA) },
    );
    expect(body.errors).toBeUndefined();
    const positions = [body.data.game.start, ...body.data.game.plies.map((p: { position: unknown }) => p.position)];
    const fens = positions.map((p: { fen: string }) => p.fen);
    // One request per FEN (a request's aliases are limited).
    const direct = await Promise.all(
      fens.map((fen: string) => t.gql(`query($fen: String!) { position(fen: $fen) { ${FIELDS} } }`, { fen })),
    );
    expect(direct.flatMap((r) => r.body.errors ?? [])).toEqual([]);
    expect(positions).toEqual(direct.map((r) => r.body.data.position));
    expect(positions.filter((p: { turn: string }) => p.turn === 'BLACK')).toHaveLength(17);
  });

  it('answers Ply.position.paths and Journey.route as Position.paths on the position before the move, in one loader batch', async () => {
    const batches = await t.metric('chess_paths_loader_batch_size_count');
    const questions = await t.metric('chess_paths_loader_batch_size_sum');
    const { body } = await t.gql(
      `query($pgn: String!) { game(pgn: $pgn) {
        start { fen }
        plies { number position { fen paths(from: "e8", to: ["e1"]) { ${PATH} } } }
        journeys { squares plies one: route(first: 1, last: 1) { ${PATH} } two: route(first: 1, last: 2) { ${PATH} } }
      } }`,
      { pgn: fresh(OPERA) },
    );
    expect(await t.metric('chess_paths_loader_batch_size_count')).toBe(batches + 1);
    expect(await t.metric('chess_paths_loader_batch_size_sum')).toBeGreaterThan(questions + 40);
    const game = body.data.game;
    // Pieces that never moved (or moved once, for `two`) have no such route: local errors only.
    const moved = game.journeys.filter((j: { plies: number[] }) => j.plies.length > 0);
    const twice = game.journeys.filter((j: { plies: number[] }) => j.plies.length > 1);
    expect(body.errors).toHaveLength(32 - moved.length + (32 - twice.length));
    for (const error of body.errors ?? []) {
      expect(error.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        argument: expect.stringMatching(/^(first|last)$/),
      });
      expect(error.path).toEqual(['game', 'journeys', expect.any(Number), expect.stringMatching(/^(one|two)$/)]);
    }
    // The same questions asked of Position.paths, on the positions before each first move.
    const fenBefore = (ply: number) => (ply === 1 ? game.start.fen : game.plies[ply - 2].position.fen);
    const asked: { expected: unknown; fen: string; from: string; to: string }[] = [];
    for (const p of game.plies) asked.push({ expected: p.position.paths, fen: p.position.fen, from: 'e8', to: 'e1' });
    for (const j of moved)
      asked.push({ expected: j.one, fen: fenBefore(j.plies[0]), from: j.squares[0], to: j.squares[1] });
    for (const j of twice)
      asked.push({ expected: j.two, fen: fenBefore(j.plies[0]), from: j.squares[0], to: j.squares[2] });
    // At most 30 aliases an operation (MAX_ALIASES): a few requests.
    for (let start = 0; start < asked.length; start += 30) {
      const chunk = asked.slice(start, start + 30);
      const fields = chunk.map(
        (q, i) => `q${i}: position(fen: "${q.fen}") { paths(from: "${q.from}", to: ["${q.to}"]) { ${PATH} } }`,
      );
      const direct = await t.gql(`{ ${fields.join('\n')} }`);
      expect(direct.body.errors).toBeUndefined();
      for (const [i, q] of chunk.entries()) {
        expect(q.expected, `${q.from}-${q.to} on ${q.fen}`).toEqual(direct.body.data[`q${i}`].paths);
      }
    }
    // By hand: 17. Rd8#, the h1 rook's second move, went d1-d8 in one move on an open file.
    const mate = await t.gql(
      `query($pgn: String!) { game(pgn: $pgn) { journeys { route(first: 2, last: 2) { distance layers { squares } } } } }`,
      {
        pgn: OPERA,
      },
    );
    const h1 = mate.body.data.game.journeys[7];
    expect(h1.route).toEqual({ distance: 1, layers: [{ squares: ['d1'] }, { squares: ['d8'] }] });
  });

  it('reads the same text once, whether asked twice in turn or twice at once, and a bad text too', async () => {
    for (const server of [inline, t]) {
      for (const pgn of [fresh('1. e4 e5 2. Nf3 *'), fresh('1. e4 e5 2. Nf6 *')]) {
        const before = { ...calls };
        const first = await server.gql(GAME, { pgn });
        const again = await server.gql(GAME, { pgn });
        expect(again.body).toEqual(first.body);
        // Read and played in this process only without worker threads; never on the main thread with them.
        const once = server === inline ? 1 : 0;
        expect(calls.readPgn).toBe(before.readPgn + once);
        expect(calls.playGame).toBe(before.playGame + once);
      }
      const pgn = fresh('1. d4 d5 *');
      const before = { ...calls };
      const answers = await Promise.all([server.gql(GAME, { pgn }), server.gql(GAME, { pgn })]);
      expect(answers.map((a) => a.body)).toEqual([
        { data: { game: { result: '*' } } },
        { data: { game: { result: '*' } } },
      ]);
      expect(calls.readPgn).toBe(before.readPgn + (server === inline ? 1 : 0));
      expect(calls.playGame).toBe(before.playGame + (server === inline ? 1 : 0));
    }
  });
});

describe('errors and limits', () => {
  it('makes a bad game local: game null, BAD_USER_INPUT naming the move, the other fields answered', async () => {
    const { status, body } = await t.gql(
      `query($pgn: String!) { game(pgn: $pgn) { result } position(fen: "8/8/8/8/8/8/8/K7 w - - 0 1") { turn } }`,
      { pgn: '1. e4 e5\n2. Nf3 Nf6 3. Nc3 Nf6 *' },
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({ game: null, position: { turn: 'WHITE' } });
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: 'pgn: 3... Nf6 is not legal here (line 2, column 19)',
        path: ['game'],
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', argument: 'pgn' }),
      }),
    ]);
  });

  it('makes a route across a promotion a local error of that route alone', async () => {
    const { body } = await t.gql(
      `query($pgn: String!) { game(pgn: $pgn) { result journeys { squares ok: route(first: 4, last: 5) { distance } bad: route(first: 1, last: 6) { distance } } } }`,
      { pgn: PROMOTION },
    );
    expect(body.data.game.result).toBe('1-0');
    const pawn = body.data.game.journeys[15];
    expect(pawn).toEqual({ squares: ['h2', 'h4', 'g5', 'h6', 'g7', 'h8', 'g8'], ok: { distance: 2 }, bad: null });
    const bad = (body.errors ?? []).find((e) => e.path?.join('/') === 'game/journeys/15/bad');
    expect(bad?.message).toBe('last: 6 passes the promotion at move 5: ask up to it, or from move 6 on');
    expect(bad?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'last' });
  });

  it("prices a route of a piece's late moves as one route (first and last are move numbers, not a page)", async () => {
    const shuffle = Array.from({ length: 300 }, (_, i) => ['Nf3', 'Nf6', 'Ng1', 'Ng8'][i % 4]).join(' ');
    const { status, body } = await t.gql(
      `query($pgn: String!) { game(pgn: $pgn) { journeys { squares late: route(first: 150, last: 150) { distance } } } }`,
      { pgn: shuffle },
    );
    expect(status).toBe(200);
    const knight = body.data.game.journeys.find((j: { squares: string[] }) => j.squares[0] === 'g1');
    expect(knight.squares).toHaveLength(151);
    expect(knight.late).toEqual({ distance: 1 });
    // Pieces that never made 150 moves answer their own local error; nothing is refused by cost.
    expect(body.errors?.every((e) => e.extensions?.code === 'BAD_USER_INPUT' && e.path?.at(-1) === 'late')).toBe(true);
  });

  it('answers GET with an immutable, ETagged game, and never stores a bad one', async () => {
    const get = (pgn: string) =>
      fetch(`${t.url}/graphql?${new URLSearchParams({ query: GAME, variables: JSON.stringify({ pgn }) })}`);
    const good = await get(OPERA);
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({ data: { game: { result: '1-0' } } });
    expect(good.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(good.headers.get('etag')).toMatch(/^"[^"]+"$/);
    const bad = await get('1. e4 e4 *');
    expect((await bad.json()).data).toEqual({ game: null });
    expect(bad.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a text over MAX_PGN_BYTES (bytes of UTF-8) before reading it', async () => {
    const before = calls.readPgn;
    const over = `{${'€'.repeat(87_381)}} *`; // 87,381 x 3 bytes + 4 = 262,147 bytes, 87,385 characters
    const { body } = await t.gql(
      `query($pgn: String!) { game(pgn: $pgn) { result } position(fen: "8/8/8/8/8/8/8/K7 w - - 0 1") { turn } }`,
      {
        pgn: over,
      },
    );
    expect(body.data).toEqual({ game: null, position: { turn: 'WHITE' } });
    expect(body.errors?.[0]).toMatchObject({
      path: ['game'],
      extensions: { code: 'BAD_USER_INPUT', limit: 'MAX_PGN_BYTES', max: 262_144 },
    });
    expect(calls.readPgn).toBe(before);
    const under = await t.gql(GAME, { pgn: `{${'€'.repeat(87_380)}} *` }); // 262,144 bytes
    expect(under.body).toEqual({ data: { game: { result: '*' } } });
  });

  it('refuses a game over MAX_PLIES before any move is played, and reads one at the limit', async () => {
    const moves = (n: number) => Array.from({ length: n }, (_, i) => ['Nf3', 'Nf6', 'Ng1', 'Ng8'][i % 4]).join(' ');
    const before = { ...calls };
    const { body } = await inline.gql(GAME, { pgn: fresh(moves(41)) });
    expect(body.data).toEqual({ game: null });
    expect(body.errors?.[0]).toMatchObject({
      message: 'pgn: a game of 41 half-moves is over the limit of 40 (MAX_PLIES)',
      extensions: { code: 'BAD_USER_INPUT', limit: 'MAX_PLIES', max: 40 },
    });
    expect(calls.readPgn).toBe(before.readPgn + 1);
    expect(calls.playGame).toBe(before.playGame);
    const atLimit = await inline.gql('query($pgn: String!) { game(pgn: $pgn) { plies { number } } }', {
      pgn: moves(40),
    });
    expect(atLimit.body.data.game.plies).toHaveLength(40);
    expect(calls.playGame).toBe(before.playGame + 1);
  });
});

/**
 * Games workload of `npm run bench`: how fast a PGN game is read, with and without the routes of
 * its pieces, in the library and through the server, next to what a trivial request costs in the
 * same run (the machine is shared and noisy: only same-run ratios mean much).
 *
 * - Library: `readGame` on an 85-ply master game (Fischer-Spassky 1992, game 29) and a 300-ply
 *   game (seeded random legal moves), games a second; then the same with `journeyRoute` solved
 *   for every move of every piece (one route a move).
 * - Server: an in-process server (no database, workers on), `game(pgn:)` over HTTP with plies,
 *   journeys and (or not) every piece's route of its first move (an error for a piece that never
 *   moved, as the API answers it), each request a text never read
 *   before (a distinct comment), so the game cache never answers; the median time of one answer
 *   beside `{ __typename }`'s, and how much of it is reading the game.
 * - A file of 1,000 well-known games (five famous games and studies and the master game above,
 *   repeated), read one by one: games a second through `readGame`, beside chess.js's `loadPgn` of
 *   the same texts and pgn-extract (Debian; a whole process writing the games as UCI) on the same
 *   file when it is installed (ours and pgn-extract's the best of five alternating passes, chess.js's
 *   of three); the heap's growth while reading; and
 *   `chess-paths game` on the file (its maneuvers compared too), as a whole process, with its peak
 *   memory.
 * Writes bench/games-results.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Game, journeyRoute, readGame, solve } from '@chess-paths/engine';
import { Chess } from 'chess.js';
import * as famous from '../packages/engine/test/support/famous-games.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { seededRandom } from './rng.js';

const MASTER_GAME = `[Event "F/S Return Match"]
[Site "Belgrade, Serbia JUG"]
[Date "1992.11.04"]
[Round "29"]
[White "Fischer, Robert J."]
[Black "Spassky, Boris V."]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 {This opening is called the Ruy Lopez.} 3... a6
4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7
11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5
Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6
23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5
hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5
35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6
Nf2 42. g4 Bd3 43. Re6 1/2-1/2
`;

/** A legal game of `plies` half-moves from seeded random moves, as PGN with move numbers. */
function randomGame(plies: number, seed: number): string {
  const rand = seededRandom(seed);
  for (let attempt = 0; ; attempt++) {
    const chess = new Chess();
    for (let i = 0; i < plies; i++) {
      const moves = chess.moves();
      if (moves.length === 0) break;
      chess.move(moves[Math.floor(rand() * moves.length)]);
    }
    if (chess.history().length === plies) return `${chess.pgn({ maxWidth: 80 })}\n`;
    if (attempt > 200) throw new Error(`no random game of ${plies} plies`);
  }
}

/** Runs `work` repeatedly for about `ms`; calls a second. */
function perSecond(work: () => void, ms: number): number {
  for (let i = 0; i < 5; i++) work();
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    work();
    calls++;
  }
  return (calls * 1000) / (performance.now() - started);
}

/** Every piece's route of every one of its moves, solved. */
function solveEveryRoute(game: Game): number {
  let solved = 0;
  for (const journey of game.journeys) {
    for (let k = 1; k <= journey.plies.length; k++) {
      solve(journeyRoute(game, journey, k, k));
      solved++;
    }
  }
  return solved;
}

const seconds = Number(process.env.BENCH_SECONDS ?? 1);
const games = [
  { name: '85-ply master game', pgn: MASTER_GAME },
  { name: '300-ply game', pgn: randomGame(300, 7) },
];

const library = games.map(({ name, pgn }) => {
  const game = readGame(pgn);
  return {
    game: name,
    plies: game.plies.length,
    routes: solveEveryRoute(game),
    readPerSec: Math.round(perSecond(() => readGame(pgn), seconds * 1000)),
    readAndRoutesPerSec: Math.round(perSecond(() => solveEveryRoute(readGame(pgn)), seconds * 1000)),
  };
});

/** A file of 1,000 games read one by one: ours, chess.js's and pgn-extract's games a second. */
function thousandGames() {
  const texts = [...Object.values(famous), MASTER_GAME];
  const file = Array.from({ length: 1000 }, (_, i) => texts[i % texts.length]);
  const plies = file.reduce((n, text) => n + readGame(text).plies.length, 0);
  const heapBefore = process.memoryUsage().heapUsed;
  // Best of three passes each (chess.js), and of five alternating passes for ours and
  // pgn-extract's: on a shared machine the best pass is the one the least disturbed, and passes
  // that alternate meet the same disturbances.
  const bestOf3 = (pass: () => void) => {
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 3; run++) {
      const t = performance.now();
      pass();
      best = Math.min(best, performance.now() - t);
    }
    return best;
  };
  const oursPass = () => {
    for (const text of file) readGame(text);
  };
  const pgnExtract = '/usr/games/pgn-extract';
  const dir = mkdtempSync(join(tmpdir(), 'bench-games-'));
  writeFileSync(join(dir, 'games.pgn'), file.join('\n\n'));
  const extractPass = existsSync(pgnExtract)
    ? () => spawnSync(pgnExtract, ['-s', '-Wuci', '-o', join(dir, 'out.pgn'), join(dir, 'games.pgn')])
    : null;
  // Warmed up first, as a service that reads games all day is: V8 optimises the reader's
  // functions over the first passes (they can take twice as long), a C binary has no such phase.
  for (let run = 0; run < 8; run++) oursPass();
  let oursMs = Number.POSITIVE_INFINITY;
  let extractMs = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    let t = performance.now();
    oursPass();
    oursMs = Math.min(oursMs, performance.now() - t);
    if (extractPass) {
      t = performance.now();
      extractPass();
      extractMs = Math.min(extractMs, performance.now() - t);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const heapGrowthMb = Math.max(0, process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  const chessJsMs = bestOf3(() => {
    for (const text of file) new Chess().loadPgn(text);
  });
  const pgnExtractPerSec = extractPass ? Math.round(1000 / (extractMs / 1000)) : null;
  // The command line on the same file, as a whole process: a line a game, its peak memory.
  const cli = new URL('../dist/cli.js', import.meta.url).pathname;
  let cliPerSec: number | null = null;
  let cliPeakMb: number | null = null;
  if (existsSync(cli)) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-cli-'));
    const games = join(dir, 'games.pgn');
    const peak = join(dir, 'peak.cjs');
    writeFileSync(games, file.join('\n\n'));
    writeFileSync(
      peak,
      "process.on('exit', () => process.stderr.write('peak ' + process.resourceUsage().maxRSS + '\\n'));",
    );
    const t = performance.now();
    const run = spawnSync(process.execPath, ['--require', peak, cli, 'game', games], { encoding: 'utf8' });
    const ms = performance.now() - t;
    cliPerSec = run.status === 0 ? Math.round(1000 / (ms / 1000)) : null;
    const kb = Number(/peak (\d+)/.exec(run.stderr)?.[1]);
    cliPeakMb = Number.isFinite(kb) ? Math.round(kb / 1024) : null;
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    games: file.length,
    plies,
    oursPerSec: Math.round(1000 / (oursMs / 1000)),
    cliPerSec,
    cliPeakMb,
    chessJsPerSec: Math.round(1000 / (chessJsMs / 1000)),
    pgnExtractPerSec,
    heapGrowthMb: Number(heapGrowthMb.toFixed(1)),
  };
}

const file = thousandGames();

/** The server's answers: median ms of `requests` POSTs of `body(i)`. */
async function medianMs(url: string, requests: number, body: (i: number) => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body(i)),
    });
    const answer = (await res.json()) as { data?: unknown; errors?: { path?: unknown[] }[] };
    // The one error expected: the route of a piece that never moved.
    const unexpected = answer.errors?.filter((e) => e.path?.at(-1) !== 'route') ?? [];
    if (!answer.data || unexpected.length > 0) {
      throw new Error(`the server answered errors: ${JSON.stringify(answer.errors).slice(0, 300)}`);
    }
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return Number(times[Math.floor(times.length / 2)].toFixed(2));
}

const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', NODE_ENV: 'production' });
const server = await startServer(config, { openStore: null });
await server.ready;
const requests = Number(process.env.BENCH_GAME_REQUESTS ?? 60);
const FIELDS = 'result plies { san uci position { fen } } journeys { squares plies capturedAt }';
const ROUTES = 'journeys { route(first: 1, last: 1) { distance } }';
const typename = await medianMs(server.url, requests, () => ({ query: '{ __typename }' }));
const serverRows = [];
for (const { name, pgn } of games) {
  // A new comment each time: a text never read before, so the game is read on every request.
  const text = (i: number) => `{run ${Date.now()} ${i}} ${pgn}`;
  const plain = await medianMs(server.url, requests, (i) => ({
    query: `query($p: String!) { game(pgn: $p) { ${FIELDS} } }`,
    variables: { p: text(i) },
  }));
  const withRoutes = await medianMs(server.url, requests, (i) => ({
    query: `query($p: String!) { game(pgn: $p) { ${FIELDS} } g: game(pgn: $p) { ${ROUTES} } }`,
    variables: { p: text(i + requests) },
  }));
  const readMs = 1000 / (library.find((l) => l.game === name)?.readPerSec ?? 1);
  serverRows.push({
    game: name,
    typenameMs: typename,
    gameMs: plain,
    gameWithRoutesMs: withRoutes,
    readingMs: Number(readMs.toFixed(2)),
  });
}
await server.close();

console.log(`node ${process.version}, ${seconds}s per library measurement, ${requests} requests per server row`);
console.table(library);
console.table([file]);
console.table(serverRows);
writeFileSync(
  new URL('./games-results.json', import.meta.url),
  `${JSON.stringify({ node: process.version, date: new Date().toISOString(), library, thousandGames: file, server: serverRows }, null, 2)}\n`,
);

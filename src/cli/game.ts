/**
 * `chess-paths game FILE` (or `-` for standard input): the games of a PGN file, read with the
 * library one at a time (a file of many games in constant memory, `pgn-files.ts`). A file of one
 * game prints its moves and every piece's maneuvers (the library's `journeyManeuvers`: runs of
 * its moves while its side moved nothing else, each said to be the shortest way, a detour whose
 * shorter way stayed open, a way the opponent closed, or not comparable); a file of several prints
 * a line a game (its players, result, maneuvers and detours by piece kind) and the whole file's
 * count at the end. `--annotate` prints each game back as PGN with its detours as comments and
 * arrows (`writePgn`); `--json` prints the API's `Game` fields with each journey's maneuvers, a
 * line a game. Each game is bounded like the API's (MAX_PGN_BYTES, MAX_PLIES at their defaults);
 * a game that cannot be read is reported with its number and line, and the others are read.
 */
import { parseArgs } from 'node:util';
import {
  countPgnMoves,
  type Game,
  type GameJourney,
  InputError,
  journeyManeuvers,
  type Maneuver,
  readGame,
  writePgn,
} from '@chess-paths/engine';
import { DEFAULTS } from '../config.js';
import { UsageError } from './help.js';
import { type GameText, gamesOf } from './pgn-files.js';
import { Progress } from './progress.js';

/** What `game` was asked. */
export interface GameRequest {
  /** A path, or `-` for standard input. */
  file: string;
  json: boolean;
  annotate: boolean;
}

/** Parses `game`'s arguments; throws `UsageError` (exit 2). */
export function parseGameArgs(args: string[]): GameRequest {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, annotate: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0 ? 'missing FILE (or - for standard input)' : 'one FILE at a time',
      'game',
    );
  }
  if (values.json && values.annotate)
    throw new UsageError('--json and --annotate print different things: pick one', 'game');
  return { file: positionals[0], json: values.json === true, annotate: values.annotate === true };
}

/** Reads one game within the API's default limits (its bytes before it is read, its half-moves before they are played). */
export function gameOf({ text, bytes }: GameText): Game {
  const { MAX_PGN_BYTES: maxBytes, MAX_PLIES: maxPlies } = DEFAULTS;
  if (bytes > maxBytes) {
    throw new InputError(
      ['FILE'],
      undefined,
      `holds a game of ${bytes} bytes, over the limit of ${maxBytes} bytes of PGN`,
    );
  }
  const plies = countPgnMoves(text, maxPlies);
  if (plies > maxPlies) {
    throw new InputError(['FILE'], undefined, `holds a game of more than ${maxPlies} half-moves, over the limit`);
  }
  return readGame(text);
}

/** `white knight g1` and the like. */
function pieceName(journey: GameJourney): string {
  return `${journey.color.toLowerCase()} ${journey.role.toLowerCase()} ${journey.squares[0]}`;
}

/** A ply as a player names it: `13... Rxd7`. */
function moveName(game: Game, ply: number): string {
  const found = game.plies[ply - (game.plies[0]?.number ?? ply)];
  const full = Math.ceil(ply / 2);
  return found ? `${full}${ply % 2 === 1 ? '.' : '...'} ${found.san}` : `ply ${ply}`;
}

/** A maneuver in words: its moves, its verdict, what it took and what gave check. */
function maneuverLine(game: Game, m: Maneuver): string {
  const moves = m.plies.length;
  let verdict: string;
  const leg = m.legs.find((l) => l.verdict === m.verdict);
  if (m.verdict === 'SHORTEST') verdict = `the shortest way (${moves} moves)`;
  else if (m.verdict === 'DETOUR' && leg)
    verdict = `a detour: ${leg.plies.length} moves where ${leg.openDistance} stayed open (${(leg.openPath ?? []).join(' ')})`;
  else if (m.verdict === 'CLOSED' && leg)
    verdict = `${leg.plies.length} moves; ${leg.shortest} were possible until ${leg.closedBy ? moveName(game, leg.closedBy.ply) : 'the opponent'} closed the way`;
  else verdict = `not compared: ${m.legs.map((l) => l.notCompared).find(Boolean) ?? 'no path question'}`;
  const named = [
    m.captures.length > 0 ? `takes with ${m.captures.map((p) => moveName(game, p)).join(', ')}` : '',
    m.checks.length > 0 ? `checks with ${m.checks.map((p) => moveName(game, p)).join(', ')}` : '',
  ].filter(Boolean);
  return `    moves ${m.first}-${m.last} (${m.squares.join(' ')}): ${verdict}${named.length ? `; ${named.join('; ')}` : ''}`;
}

/** A game's maneuvers by journey (each a few 8 x 8 solves a move). */
function maneuversOf(game: Game, progress: Progress): Maneuver[][] {
  return game.journeys.map((journey, i) => {
    progress.update('comparing maneuvers, piece', i + 1, game.journeys.length);
    return journeyManeuvers(game, journey);
  });
}

/** One game as text: tags, plies two a line, how it ended, each journey and its maneuvers. */
function gameText(game: Game, maneuvers: Maneuver[][]): string {
  const lines: string[] = [];
  for (const tag of game.tags) lines.push(`[${tag.name} "${tag.value}"]`);
  if (game.tags.length > 0) lines.push('');
  const ending = game.boardEnding ? `, ${game.boardEnding.toLowerCase().replace('_', ' ')}` : '';
  lines.push(`${game.plies.length} plies, result ${game.result}${ending}`);
  let row = '';
  for (const ply of game.plies) {
    const full = Math.ceil(ply.number / 2);
    if (ply.color === 'WHITE') {
      if (row) lines.push(row);
      row = `  ${full}. ${ply.san}`;
    } else row = row ? `${row.padEnd(18)} ${ply.san}` : `  ${full}... ${ply.san}`;
  }
  if (row) lines.push(row);
  lines.push('', 'journeys and maneuvers:');
  for (const [i, journey] of game.journeys.entries()) {
    const fate = [
      journey.promotedTo ? `promoted to ${journey.promotedTo.toLowerCase()}` : '',
      journey.capturedAt !== null ? `captured by ${moveName(game, journey.capturedAt)}` : '',
    ].filter(Boolean);
    const path = journey.plies.length === 0 ? 'did not move' : journey.squares.join(' ');
    lines.push(`  ${pieceName(journey)}: ${path}${fate.length ? ` (${fate.join(', ')})` : ''}`);
    for (const m of maneuvers[i]) lines.push(maneuverLine(game, m));
  }
  return `${lines.join('\n')}\n`;
}

/** The game as the API's `Game` would serialize it, each journey with its maneuvers. */
function gameJson(game: Game, maneuvers: Maneuver[][]): Record<string, unknown> {
  return {
    tags: game.tags,
    start: { fen: game.startFen },
    plies: game.plies.map(({ fen, variations, ...ply }) => ({ ...ply, position: { fen }, variations })),
    result: game.result,
    boardEnding: game.boardEnding,
    termination: game.termination,
    comments: game.comments,
    journeys: game.journeys.map((journey, i) => ({
      role: journey.role,
      color: journey.color,
      squares: journey.squares,
      plies: journey.plies,
      capturedAt: journey.capturedAt,
      promotedTo: journey.promotedTo,
      maneuvers: maneuvers[i],
    })),
  };
}

/** Counts over a file: games read and refused, plies, maneuvers, and detours and closed ways by piece kind. */
interface Tally {
  games: number;
  refused: number;
  plies: number;
  maneuvers: number;
  detours: Map<string, number>;
  closed: number;
}

/** A game's summary line, and its counts added to the file's. */
function summaryLine(index: number, game: Game, maneuvers: Maneuver[][], tally: Tally): string {
  const all = maneuvers.flat();
  const detours = all.filter((m) => m.verdict === 'DETOUR');
  tally.games++;
  tally.plies += game.plies.length;
  tally.maneuvers += all.length;
  tally.closed += all.filter((m) => m.verdict === 'CLOSED').length;
  for (const m of detours) tally.detours.set(m.role, (tally.detours.get(m.role) ?? 0) + 1);
  const tag = (name: string) => game.tags.find((t) => t.name === name)?.value ?? '?';
  const kinds = countBy(detours.map((m) => m.role.toLowerCase()));
  return `game ${index}: ${tag('White')} - ${tag('Black')}, ${tag('Event')} ${tag('Date')}, ${game.result}, ${game.plies.length} plies: ${all.length} maneuvers, ${detours.length} detours${kinds ? ` (${kinds})` : ''}\n`;
}

/** `knight 2, king 1` from a list of names. */
function countBy(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${name} ${n}`).join(', ');
}

/**
 * Runs `game` on parsed arguments: what to print on stdout, a piece at a time (a game at a
 * time for a file of many); long work reports to `progress`.
 */
export function* gameCommand(request: GameRequest, progress = new Progress(undefined)): Generator<string> {
  const games = gamesOf(request.file, DEFAULTS.MAX_PGN_BYTES);
  const first = games.next();
  if (first.done) throw new InputError(['FILE'], request.file, 'holds no game');
  const second = games.next();
  if (second.done) {
    // One game: all of it, or refused as the whole command.
    const game = gameOf(first.value);
    if (request.annotate) yield writePgn(game, { annotate: true });
    else {
      const maneuvers = maneuversOf(game, progress);
      yield request.json ? `${JSON.stringify(gameJson(game, maneuvers), null, 2)}\n` : gameText(game, maneuvers);
    }
    return;
  }
  const tally: Tally = { games: 0, refused: 0, plies: 0, maneuvers: 0, detours: new Map(), closed: 0 };
  let index = 0;
  for (const text of chain([first.value, second.value], games)) {
    index++;
    progress.update('reading games', index);
    let game: Game;
    try {
      game = gameOf(text);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      tally.refused++;
      if (!request.json) yield `game ${index} (line ${text.line}): not read: ${err.message}\n`;
      continue;
    }
    if (request.annotate) {
      yield `${writePgn(game, { annotate: true })}\n`;
      continue;
    }
    const maneuvers = game.journeys.map((j) => journeyManeuvers(game, j));
    yield request.json ? `${JSON.stringify(gameJson(game, maneuvers))}\n` : summaryLine(index, game, maneuvers, tally);
  }
  if (!request.json && !request.annotate) {
    const kinds = [...tally.detours].map(([role, n]) => `${role.toLowerCase()} ${n}`).join(', ');
    const total = [...tally.detours.values()].reduce((a, b) => a + b, 0);
    yield `\n${tally.games} games read${tally.refused ? `, ${tally.refused} not read` : ''}, ${tally.plies} plies: ${tally.maneuvers} maneuvers, ${total} detours${kinds ? ` (${kinds})` : ''}, ${tally.closed} ways closed by the opponent\n`;
  }
}

/** The items already taken, then the rest of the generator, one at a time. */
function* chain<T>(taken: T[], rest: Generator<T>): Generator<T> {
  yield* taken;
  for (let next = rest.next(); !next.done; next = rest.next()) yield next.value;
}

/**
 * `chess-paths game FILE` (or `-` for standard input): one PGN game read with the library's
 * `readGame`, printed as its plies and the journey of every piece, each journey with its
 * detours: the stretches of its moves (`first` to `last`) that took more moves than the shortest
 * path on the position before the first of them (`journeyRoute`, solved by the engine). A detour
 * inside a longer one is not listed again. `--json` prints the API's `Game` fields, each journey
 * with its detours. The text is bounded like the API's (MAX_PGN_BYTES, MAX_PLIES at their
 * defaults), so no file makes the command work without end.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type Game, type GameJourney, InputError, journeyRoute, playGame, readPgn, solve } from '@chess-paths/engine';
import { DEFAULTS } from '../config.js';
import { UsageError } from './help.js';
import { Progress } from './progress.js';

/** A stretch of a journey that took more moves than it had to. */
export interface Detour {
  /** Moves of the journey, 1-based, first to last. */
  first: number;
  last: number;
  /** Moves the piece used (last - first + 1) and the shortest path's. */
  moves: number;
  distance: number;
}

/** What `game` was asked. */
export interface GameRequest {
  /** A path, or `-` for standard input. */
  file: string;
  json: boolean;
}

/** Parses `game`'s arguments; throws `UsageError` (exit 2). */
export function parseGameArgs(args: string[]): GameRequest {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0 ? 'missing FILE (or - for standard input)' : 'one FILE at a time',
      'game',
    );
  }
  return { file: positionals[0], json: values.json === true };
}

/** The bytes of FILE or of standard input; a file that cannot be read is the user's input error. */
function readBytes(file: string): Buffer {
  try {
    return readFileSync(file === '-' ? 0 : file);
  } catch (err) {
    const reason =
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read: ${(err as Error).message}`;
    throw new InputError(['FILE'], file, reason);
  }
}

/** Reads the game of a PGN file's bytes within the API's default limits (its size before it is decoded). */
export function gameOf(bytes: Buffer): Game {
  const { MAX_PGN_BYTES: maxBytes, MAX_PLIES: maxPlies } = DEFAULTS;
  if (bytes.length > maxBytes)
    throw new InputError(['FILE'], undefined, `is ${bytes.length} bytes, over the limit of ${maxBytes} bytes of PGN`);
  const read = readPgn(bytes.toString('utf8'));
  if (read.moves.length > maxPlies) {
    throw new InputError(
      ['FILE'],
      undefined,
      `holds ${read.moves.length} half-moves, over the limit of ${maxPlies} half-moves`,
    );
  }
  return playGame(read);
}

/** The detours of a journey, longest first among overlapping ones (a detour inside one listed is left out). */
export function detoursOf(game: Game, journey: GameJourney): Detour[] {
  const found: Detour[] = [];
  const moves = journey.plies.length;
  for (let first = 1; first <= moves; first++) {
    for (let last = moves; last > first; last--) {
      const promoted = journey.promotedAtMove;
      if (promoted !== null && first <= promoted && promoted < last) continue;
      if (found.some((d) => d.first <= first && last <= d.last)) break;
      const result = solve(journeyRoute(game, journey, first, last));
      if (result.distance !== null && result.distance < last - first + 1) {
        found.push({ first, last, moves: last - first + 1, distance: result.distance });
        break;
      }
    }
  }
  return found;
}

/** `white knight g1` and the like. */
function pieceName(journey: GameJourney): string {
  return `${journey.color.toLowerCase()} ${journey.role.toLowerCase()} ${journey.squares[0]}`;
}

/** The detours of every journey (each a few solves per move: the long part of a long game). */
function allDetours(game: Game, progress: Progress): Detour[][] {
  return game.journeys.map((journey, i) => {
    progress.update('finding detours, piece', i + 1, game.journeys.length);
    return detoursOf(game, journey);
  });
}

/** The game as text: tags, plies two a line, then each journey and its detours. */
function gameText(game: Game, detours: Detour[][]): string {
  const lines: string[] = [];
  for (const tag of game.tags) lines.push(`[${tag.name} "${tag.value}"]`);
  if (game.tags.length > 0) lines.push('');
  lines.push(`${game.plies.length} plies, result ${game.result}`);
  let row = '';
  for (const ply of game.plies) {
    const full = Math.ceil(ply.number / 2);
    if (ply.color === 'WHITE') {
      if (row) lines.push(row);
      row = `  ${full}. ${ply.san}`;
    } else row = row ? `${row.padEnd(18)} ${ply.san}` : `  ${full}... ${ply.san}`;
  }
  if (row) lines.push(row);
  lines.push('', 'journeys:');
  for (const [i, journey] of game.journeys.entries()) {
    const fate = [
      journey.promotedTo ? `promoted to ${journey.promotedTo.toLowerCase()}` : '',
      journey.capturedAt !== null ? `captured at ply ${journey.capturedAt}` : '',
    ].filter(Boolean);
    const path = journey.plies.length === 0 ? 'did not move' : journey.squares.join(' ');
    lines.push(`  ${pieceName(journey)}: ${path}${fate.length ? ` (${fate.join(', ')})` : ''}`);
    for (const d of detours[i]) {
      const stretch = journey.squares.slice(d.first - 1, d.last + 1).join(' ');
      lines.push(
        `    detour: moves ${d.first}-${d.last} (${stretch}) took ${d.moves}, the shortest path ${d.distance}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The game as the API's `Game` would serialize it, each journey with its detours. */
function gameJson(game: Game, detours: Detour[][]): Record<string, unknown> {
  return {
    tags: game.tags,
    start: { fen: game.startFen },
    plies: game.plies.map(({ fen, ...ply }) => ({ ...ply, position: { fen } })),
    result: game.result,
    journeys: game.journeys.map((journey, i) => ({
      role: journey.role,
      color: journey.color,
      squares: journey.squares,
      plies: journey.plies,
      capturedAt: journey.capturedAt,
      promotedTo: journey.promotedTo,
      detours: detours[i],
    })),
  };
}

/** Runs `game` on parsed arguments and returns what to print on stdout; a long game reports to `progress`. */
export function gameCommand(request: GameRequest, progress = new Progress(undefined)): string {
  const game = gameOf(readBytes(request.file));
  const detours = allDetours(game, progress);
  return request.json ? `${JSON.stringify(gameJson(game, detours), null, 2)}\n` : gameText(game, detours);
}

/**
 * The game mode's arithmetic, kept apart from the DOM so it can be read (and tested) on its own:
 * where the game on screen lives in the URL's hash (`#ply=21&piece=f1&route=1-3`, after
 * `analysis=<id>` for a saved game, with `line=12.0.3` inside a variation and `maneuver=0` for a
 * maneuver drawn; a pasted PGN never goes into the URL), which piece stands where after a given
 * ply, the names of moves, what a route's distance says of the moves a piece used, and what the
 * board shows.
 */
import { parseFen } from '@chess-paths/engine';
import type { Result } from './api.js';
import { type BoardView, pieceLetter, type Way } from './board.js';
import type { GameData, JourneyData, PlyData } from './game-api.js';
import { type Line, lineAt, lineKey, parseLine } from './game-lines.js';

/** Where the viewer stands in a game: plies played (0 = the start), the chosen piece, its route. */
export interface GameSpot {
  /** The saved analysis the game comes from, or null for a pasted PGN. */
  analysis: string | null;
  /** Main-line plies played; inside a variation, those before the move it replaces. */
  ply: number;
  /** The start square of the chosen piece's journey (which names it: one piece a square). */
  piece: string | null;
  /** The route asked: its first and last moves, 1-based. */
  route: [number, number] | null;
  /** The maneuver of the chosen piece drawn on the board (its index among the piece's), or null. */
  maneuver?: number | null;
  /** Inside an author's variation: where (game-lines.ts); null or absent on the main line. */
  line?: Line | null;
}

/** The spot a URL hash names, or null when it names no game (no `ply`). */
export function spotFromHash(hash: string): GameSpot | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const ply = Number(params.get('ply'));
  if (!params.has('ply') || !Number.isInteger(ply) || ply < 0) return null;
  const piece = params.get('piece');
  const route = /^(\d+)-(\d+)$/.exec(params.get('route') ?? '');
  const maneuver = /^\d+$/.test(params.get('maneuver') ?? '') ? Number(params.get('maneuver')) : null;
  const chosen = piece && /^[a-h][1-8]$/.test(piece) ? piece : null;
  return {
    analysis: params.get('analysis') || null,
    ply,
    piece: chosen,
    route: route ? [Number(route[1]), Number(route[2])] : null,
    maneuver: chosen ? maneuver : null,
    line: parseLine(params.get('line')),
  };
}

/** The URL hash of a spot (`#...`). */
export function hashFromSpot(spot: GameSpot): string {
  const params = new URLSearchParams();
  if (spot.analysis) params.set('analysis', spot.analysis);
  params.set('ply', String(spot.ply));
  if (spot.piece) params.set('piece', spot.piece);
  if (spot.piece && spot.route) params.set('route', `${spot.route[0]}-${spot.route[1]}`);
  if (spot.piece && spot.maneuver != null) params.set('maneuver', String(spot.maneuver));
  if (spot.line) params.set('line', lineKey(spot.line));
  return `#${params.toString()}`;
}

/** The number of the last ply played after `at` plies of the game (one less than the first ply's when 0). */
function lastPlayed(game: GameData, at: number): number {
  return (game.plies[0]?.number ?? 1) + at - 1;
}

/** How many of its moves a piece has made after `at` plies. */
export function movesMade(journey: JourneyData, game: GameData, at: number): number {
  const last = lastPlayed(game, at);
  return journey.plies.filter((n) => n <= last).length;
}

/** The square a piece stands on after `at` plies, or null once it has been captured. */
export function standing(journey: JourneyData, game: GameData, at: number): string | null {
  if (journey.capturedAt !== null && journey.capturedAt <= lastPlayed(game, at)) return null;
  return journey.squares[movesMade(journey, game, at)] ?? null;
}

/** The index of the journey of the piece on `square` after `at` plies, or -1 for an empty square. */
export function journeyOn(game: GameData, square: string, at: number): number {
  return game.journeys.findIndex((j) => standing(j, game, at) === square);
}

/** The index in `game.plies` of the ply with this number. */
export function plyIndex(game: GameData, number: number): number {
  return number - (game.plies[0]?.number ?? 1);
}

/** A ply's move in the usual notation: `6. Bc4`, `11... Nbd7`. */
export function moveLabel(ply: PlyData): string {
  const move = Math.ceil(ply.number / 2);
  return ply.color === 'WHITE' ? `${move}. ${ply.san}` : `${move}... ${ply.san}`;
}

/** A piece in words: `White bishop from f1`. */
export function pieceName(journey: JourneyData): string {
  const color = journey.color === 'WHITE' ? 'White' : 'Black';
  return `${color} ${journey.role.toLowerCase()} from ${journey.squares[0]}`;
}

/** `n move` or `n moves`. */
function moves(n: number): string {
  return `${n} move${n === 1 ? '' : 's'}`;
}

/** The game's ply that is a piece's `k`-th move (1-based). */
export function moveOf(game: GameData, journey: JourneyData, k: number): PlyData {
  return game.plies[plyIndex(game, journey.plies[k - 1])];
}

/**
 * The first of a piece's moves `first` to `last` that no shortest path of that piece makes, in
 * words, or null: a pawn's capture (it changes file; paths of pawns go straight ahead) and
 * castling (the king moves two files; paths of kings step one square).
 */
export function unmatchedMove(game: GameData, journey: JourneyData, first: number, last: number): string | null {
  // After its promotion a pawn moves as the new piece (its journey keeps the role it started with).
  const promotion = promotionMove(journey) ?? Number.POSITIVE_INFINITY;
  for (let k = first; k <= last; k++) {
    const ply = moveOf(game, journey, k);
    const files = Math.abs(ply.from.charCodeAt(0) - ply.to.charCodeAt(0));
    if (journey.role === 'PAWN' && k <= promotion && files !== 0)
      return `a capture (${moveLabel(ply)}), which no pawn path makes`;
    if (journey.role === 'KING' && files === 2) return `castling (${moveLabel(ply)}), which no king path makes`;
  }
  return null;
}

/** The pawn's move that promoted it (1-based), or null: a route ends there or starts after it. */
export function promotionMove(journey: JourneyData): number | null {
  if (journey.role !== 'PAWN' || journey.promotedTo === null) return null;
  const last = journey.color === 'WHITE' ? '8' : '1';
  const k = journey.squares.findIndex((square, i) => i > 0 && square.endsWith(last));
  return k > 0 ? k : null;
}

/**
 * What a route's distance says of the moves used: `used 3 moves; the shortest path on the
 * position before them was 2`. It only counts moves: whether a shorter way stayed open while the
 * piece travelled is the maneuvers' question (the opponent moves meanwhile), so no detour is
 * called here. When one of the moves is one no path makes (`unmatchedMove`), the two are not
 * compared.
 */
export function verdict(used: number, distance: number | null, unmatched: string | null = null): string {
  if (unmatched !== null) {
    const which = used === 1 ? unmatched : `one of them ${unmatched}`;
    return `used ${moves(used)}, ${which}: not compared with the shortest path`;
  }
  if (distance === null) return `used ${moves(used)}; no path led there on the position before: the way opened later`;
  if (distance === used) return `used ${moves(used)}, as many as the shortest path`;
  const way = distance < used ? '' : ': the way opened later';
  return `used ${moves(used)}; the shortest path on the position before them was ${distance}${way}`;
}

/** A tag's value, or '' when the game has no such tag (or only PGN's `?` for unknown). */
export function tag(game: GameData, name: string): string {
  const value = game.tags.find((t) => t.name === name)?.value ?? '';
  return value === '?' ? '' : value;
}

/** A title for the game: `White – Black, Event`, else its length. */
export function gameTitle(game: GameData): string {
  const players = [tag(game, 'White'), tag(game, 'Black')].filter(Boolean).join(' – ');
  const event = tag(game, 'Event');
  const title = [players, event].filter(Boolean).join(', ');
  return title || `Game of ${game.plies.length} plies`;
}

/** The FEN after `ply` plies of the main line (0: the start), or at a variation's move. */
export function fenAfter(game: GameData, ply: number, line: Line | null = null): string {
  const inLine = line ? lineAt(game, line) : null;
  if (inLine) return inLine.ply.position.fen;
  return ply === 0 ? game.start.fen : game.plies[ply - 1].position.fen;
}

/** What the board shows besides the position: a variation's move, a maneuver's ways. */
export interface BoardExtras {
  line?: Line | null;
  ways?: Way[];
}

/**
 * The board after `ply` plies (or at a variation's move): its pieces, the last move and, on the
 * main line, the chosen piece's journey, a route's layers and a maneuver's ways. A variation
 * shows its position alone: journeys and routes are of the main line.
 */
export function gameBoard(
  game: GameData,
  ply: number,
  chosen: JourneyData | null,
  route: Result | null,
  extras: BoardExtras = {},
): BoardView {
  const inLine = extras.line ? lineAt(game, extras.line) : null;
  const last = inLine ? inLine.ply : game.plies[ply - 1];
  const shown = inLine ? null : route;
  const fen = fenAfter(game, ply, inLine ? extras.line : null);
  const view: BoardView = {
    files: 8,
    ranks: 8,
    sources: shown?.sources.squares ?? [],
    targets: shown?.targets.squares ?? [],
    obstacles: [],
    steps: new Map(),
    path: shown?.path?.squares ?? [],
    pieces: new Map(parseFen(fen).pieces.map((p) => [p.square, pieceLetter(p.role, p.color)])),
    moved: last ? [last.from, last.to] : [],
    ways: inLine ? [] : (extras.ways ?? []),
  };
  shown?.layers.forEach((layer, step) => {
    for (const square of layer.squares) view.steps.set(square, step);
  });
  if (chosen && !inLine) {
    const visits = new Map<string, number[]>();
    chosen.squares.forEach((square, k) => {
      visits.set(square, [...(visits.get(square) ?? []), k]);
    });
    view.visits = visits;
    view.selected = standing(chosen, game, ply) ?? undefined;
  }
  return view;
}

/**
 * How a game's annotations read: NAGs as the marks players write (`$1` as `!`, `$16` as `±`),
 * a move named by its ply number (a maneuver's captures and the move that closed a way come as
 * plies), how a game ended, and a maneuver's verdict as a player says it ("a detour: 4 moves
 * where 2 stayed open"). Kept apart from the DOM so it can be tested on its own.
 */
import type { GameData, LegData, ManeuverData } from './game-api.js';
import { tag } from './game-state.js';

/** A NAG as shown: its mark, what it means (the mark's tooltip), and its kind (its colour). */
export interface NagMark {
  symbol: string;
  title: string;
  kind: 'good' | 'bad' | 'interesting' | 'dubious' | 'position';
}

/**
 * The NAGs with a common mark: the six move marks, then the position and situation marks as
 * lichess and ChessBase print them. Others are written `$n`.
 */
const MARKS: Record<number, [string, string]> = {
  1: ['!', 'Good move'],
  2: ['?', 'Mistake'],
  3: ['!!', 'Brilliant move'],
  4: ['??', 'Blunder'],
  5: ['!?', 'Interesting move'],
  6: ['?!', 'Dubious move'],
  7: ['□', 'Only move'],
  10: ['=', 'Equal position'],
  13: ['∞', 'Unclear position'],
  // ⩲ and ⩱ are missing from common fonts (DejaVu among them): their typewriter forms read everywhere.
  14: ['+=', 'White is slightly better'],
  15: ['=+', 'Black is slightly better'],
  16: ['±', 'White is better'],
  17: ['∓', 'Black is better'],
  18: ['+−', 'White is winning'],
  19: ['−+', 'Black is winning'],
  22: ['⨀', 'Zugzwang'],
  23: ['⨀', 'Zugzwang'],
  32: ['⟳', 'Development'],
  33: ['⟳', 'Development'],
  36: ['→', 'Initiative'],
  37: ['→', 'Initiative'],
  40: ['↑', 'Attack'],
  41: ['↑', 'Attack'],
  132: ['⇆', 'Counterplay'],
  133: ['⇆', 'Counterplay'],
  138: ['⊕', 'Time trouble'],
  139: ['⊕', 'Time trouble'],
  146: ['N', 'Novelty'],
};

/** The colour of each move mark; every other NAG speaks of the position. */
const KINDS: Record<number, NagMark['kind']> = {
  1: 'good',
  3: 'good',
  2: 'bad',
  4: 'bad',
  5: 'interesting',
  6: 'dubious',
};

/** A NAG as a mark: `!`, `±`, or `$n` for one without a common mark. */
export function nagMark(nag: number): NagMark {
  const [symbol, title] = MARKS[nag] ?? [`$${nag}`, `NAG ${nag}`];
  return { symbol, title, kind: KINDS[nag] ?? 'position' };
}

/** A move by its ply number and SAN: `13... Rxd7` (ply 1 is White's first move). */
export function plyLabel(ply: number, san: string): string {
  const move = Math.ceil(ply / 2);
  return ply % 2 === 1 ? `${move}. ${san}` : `${move}... ${san}`;
}

/** A result in words. */
export function resultWords(result: string): string {
  if (result === '1-0') return 'White won';
  if (result === '0-1') return 'Black won';
  if (result === '1/2-1/2') return 'Drawn';
  return 'No result: the game is unfinished or its result unknown';
}

/**
 * How the game ended: on the board (checkmate, stalemate, insufficient material), else as its
 * Termination tag says (`Termination: Time forfeit`), else '' (a resignation or an agreed draw
 * leaves nothing on the board, and the result says the rest).
 */
export function endingWords(game: GameData): string {
  switch (game.boardEnding) {
    case 'CHECKMATE':
      return 'Checkmate';
    case 'STALEMATE':
      return 'Stalemate';
    case 'INSUFFICIENT_MATERIAL':
      return 'Insufficient material: neither side can mate';
    default:
      return game.termination ? `Termination: ${game.termination}` : '';
  }
}

/** `n move` or `n moves`. */
function count(n: number | null): string {
  return `${n ?? '?'} move${n === 1 ? '' : 's'}`;
}

/** A main-line move of the game by its ply number: `13... Rxd7` (`ply n` for one the game lacks). */
export function moveByPly(game: GameData, number: number): string {
  const ply = game.plies[number - (game.plies[0]?.number ?? 1)];
  return ply ? plyLabel(number, ply.san) : `ply ${number}`;
}

/** A leg's verdict in a player's words. */
export function legWords(leg: LegData): string {
  const took = leg.plies.length;
  switch (leg.verdict) {
    case 'SHORTEST':
      return `took the shortest way (${count(took)})`;
    case 'DETOUR':
      return `a detour: ${count(took)} where ${leg.openDistance} stayed open`;
    case 'CLOSED': {
      const by = leg.closedBy ? plyLabel(leg.closedBy.ply, leg.closedBy.san) : "the opponent's move";
      return `the shorter way was closed by ${by} (${count(took)} where ${leg.shortest} would have done at its start)`;
    }
    default:
      return `not compared: ${leg.notCompared ?? 'no path question'}`;
  }
}

/**
 * A maneuver's verdict in words: its one leg's, or, when a capture cut it into legs, the leg that
 * decides it (the detour, else the closed way), named by its squares.
 */
export function maneuverWords(m: ManeuverData): string {
  const key = m.legs.find((leg) => leg.verdict === m.verdict) ?? m.legs[0];
  if (!key) return 'not compared';
  if (m.legs.length === 1) return legWords(key);
  if (m.verdict === 'SHORTEST') return 'took the shortest way';
  return `${legWords(key)}, from ${key.squares[0]} to ${key.squares[key.squares.length - 1]}`;
}

/** A king's walk against the squares the other side attacked at its start, in words. */
export function kingWalkWords(walk: NonNullable<ManeuverData['kingWalk']>): string {
  const onto = walk.attackedOnWalk.length
    ? `; it walked onto ${walk.attackedOnWalk.join(', ')}, attacked then (the attack had moved on)`
    : '; it stepped on none of them';
  if (walk.safeDistance === null) return `The squares attacked at its start walled its target off${onto}.`;
  const path = walk.safePath ? ` (${walk.safePath.join(' → ')})` : '';
  return `Around the squares attacked at its start: ${count(walk.safeDistance)}${path}${onto}.`;
}

/** A sentence's first letter in capitals. */
export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A file name for a game's PGN from its tags: `Paul_Morphy_vs_Duke_Karl_Paris_1858.pgn`. */
export function pgnFileName(game: GameData): string {
  const players = [tag(game, 'White'), tag(game, 'Black')].filter(Boolean).join(' vs ');
  // A date's unknown parts (`1858.??.??`) say nothing in a name.
  const date = tag(game, 'Date').replace(/\.?\?+/g, '');
  const words = [players, tag(game, 'Event'), date].filter(Boolean).join(' ');
  const name = words
    .replace(/[^\p{L}\p{N}.-]+/gu, '_')
    .replace(/^[_.]+|_+$/g, '')
    .slice(0, 100);
  return `${name || 'game'}.pgn`;
}

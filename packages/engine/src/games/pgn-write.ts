/**
 * A game written back as PGN (the export format: tags, then numbered movetext in lines of at most
 * 80 characters), keeping what its author wrote (comments before and after moves, NAGs, nested
 * variations, the result) and, when asked, the analysis added as comments a player's tools read:
 * after the last move of each maneuver that took a longer way than it had (a DETOUR or CLOSED
 * maneuver), a sentence saying so and the drawing in the `[%cal ...]`/`[%csl ...]` convention
 * (the moves it made as red arrows, the shorter way as green ones, its ends marked).
 *
 * Reading the text back gives the same game: the same moves and positions, the same comments
 * (the analysis's are added after the author's), NAGs and variations. A comment holding a `}`
 * cannot be a brace comment, so it is written as a `;` comment running to the end of its line.
 */
import type { Game, GamePly } from './game.js';
import { journeyManeuvers, type Maneuver } from './maneuvers.js';

/** How `writePgn` writes a game. */
export interface WritePgnOptions {
  /** Add the maneuvers that took a longer way, as comments with arrows (default false). */
  annotate?: boolean;
}

/** The game as PGN text, ending with a newline. */
export function writePgn(game: Game, options: WritePgnOptions = {}): string {
  const added = options.annotate ? analysisComments(game) : new Map<number, string[]>();
  const tags = game.tags.map((t) => `[${t.name} "${t.value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`);
  const tokens: string[] = [];
  writeLine(game.plies, tokens, added, true);
  for (const comment of game.comments) tokens.push(commentToken(comment));
  tokens.push(game.result);
  return `${tags.join('\n')}${tags.length > 0 ? '\n\n' : ''}${wrap(tokens)}\n`;
}

/** Writes a line of plies (the main line or a variation) as tokens. */
function writeLine(plies: readonly GamePly[], tokens: string[], added: ReadonlyMap<number, string[]>, main: boolean) {
  let numberNext = true; // the first move, and a black move after a comment or variation, take a number
  for (const ply of plies) {
    // A comment before a move goes between its number and its SAN: before the number it would
    // follow the previous move when read again.
    const full = Math.ceil(ply.number / 2);
    if (ply.color === 'WHITE') tokens.push(`${full}.`);
    else if (numberNext || ply.commentsBefore.length > 0) tokens.push(`${full}...`);
    for (const comment of ply.commentsBefore) tokens.push(commentToken(comment));
    tokens.push(ply.san);
    for (const nag of ply.nags) tokens.push(`$${nag}`);
    numberNext = false;
    const comments = [...ply.comments, ...(main ? (added.get(ply.number) ?? []) : [])];
    for (const comment of comments) tokens.push(commentToken(comment));
    if (comments.length > 0) numberNext = true;
    for (const variation of ply.variations) {
      const inner: string[] = [];
      writeLine(variation.plies, inner, added, false);
      if (inner.length === 0) continue;
      // Parentheses on its first and last tokens, so that lines break inside a long variation too.
      inner[0] = `(${inner[0]}`;
      if (inner[inner.length - 1].endsWith('\n')) inner.push(')');
      else inner[inner.length - 1] += ')';
      tokens.push(...inner);
      numberNext = true;
    }
  }
}

/** A comment as a token: in braces, or after `;` to the end of its line when it holds a `}`. */
function commentToken(comment: string): string {
  if (!comment.includes('}')) return `{${comment}}`;
  return `;${comment.replace(/[\r\n]+/g, ' ')}\n`;
}

/** Tokens in lines of at most 80 characters (a longer token alone on its line). */
function wrap(tokens: readonly string[]): string {
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    if (line !== '' && line.length + 1 + token.length > 80) {
      lines.push(line);
      line = '';
    }
    line = line === '' ? token : `${line} ${token}`;
    // A `;` comment ends its line.
    if (token.endsWith('\n')) {
      lines.push(line.slice(0, -1));
      line = '';
    }
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

/** The analysis's comments by the ply they follow: each maneuver that took a longer way than it had. */
function analysisComments(game: Game): Map<number, string[]> {
  const added = new Map<number, string[]>();
  for (const journey of game.journeys) {
    for (const maneuver of journeyManeuvers(game, journey)) {
      const text = maneuverComment(maneuver);
      if (text === null) continue;
      const ply = maneuver.plies[maneuver.plies.length - 1];
      added.set(ply, [...(added.get(ply) ?? []), text]);
    }
  }
  return added;
}

/** The comment on a maneuver that took a longer way (DETOUR or CLOSED), or null. */
function maneuverComment(m: Maneuver): string | null {
  if (m.verdict !== 'DETOUR' && m.verdict !== 'CLOSED') return null;
  const leg = m.legs.find((l) => l.verdict === m.verdict);
  if (!leg) return null;
  const took = leg.plies.length;
  const route = leg.squares.join('-');
  const sentence =
    m.verdict === 'DETOUR'
      ? `${route}: ${took} moves where ${leg.openDistance} stayed open (${(leg.openPath ?? []).join('-')})`
      : `${route}: ${took} moves; ${leg.shortest} were possible until ${leg.closedBy?.san ?? 'the opponent'} closed the way`;
  const way = (m.verdict === 'DETOUR' ? leg.openPath : leg.shortestPath) ?? [];
  const arrows = [
    ...leg.squares.slice(1).map((s, i) => `R${leg.squares[i]}${s}`),
    ...way.slice(1).map((s, i) => `G${way[i]}${s}`),
  ];
  const ends = `Y${leg.squares[0]},Y${leg.squares[leg.squares.length - 1]}`;
  return `${sentence} [%csl ${ends}][%cal ${arrows.join(',')}]`;
}

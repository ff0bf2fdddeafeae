/**
 * Where the viewer stands inside an author's variations, kept apart from the DOM so it can be
 * tested on its own. A line is a path through the tree of variations: pairs of (a ply of the line
 * above, 1-based; which of its variations) and, last, how many plies of the innermost variation
 * are played: `[12, 0, 3]` is the third move of the first variation of the main line's 12th ply;
 * `[12, 0, 2, 1, 1]` the first move of the second variation of that line's second ply. In the URL
 * it is written with dots (`line=12.0.3`). A variation is played from the position before the move
 * it replaces, so its branch on the main line is the position after ply `path[0] - 1`.
 */
import type { GameData, PlyData } from './game-api.js';

/** A path in the variations (see above); null for the main line. */
export type Line = number[];

/** Where a line stands: the variation's plies, and the ply on the board (the last played). */
export interface LineSpot {
  plies: PlyData[];
  ply: PlyData;
  /** Plies of the variation played, 1-based. */
  index: number;
}

/** The variation a path's pairs lead to (the plies of that line), or null when there is none. */
function variationAt(game: GameData, pairs: readonly number[]): PlyData[] | null {
  let plies: PlyData[] = game.plies;
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const next = plies[pairs[i] - 1]?.variations[pairs[i + 1]]?.plies;
    if (!next) return null;
    plies = next;
  }
  return plies;
}

/** What a line leads to, or null when the game has no such line (a URL from another game). */
export function lineAt(game: GameData, line: Line): LineSpot | null {
  if (line.length < 3 || line.length % 2 === 0) return null;
  const plies = variationAt(game, line.slice(0, -1));
  const index = line[line.length - 1];
  const ply = plies?.[index - 1];
  return plies && ply ? { plies, ply, index } : null;
}

/** The move a line's innermost variation is played instead of, or null when the game has no such line. */
export function replacedMove(game: GameData, line: Line): PlyData | null {
  if (!lineAt(game, line)) return null;
  return variationAt(game, line.slice(0, -3))?.[line[line.length - 3] - 1] ?? null;
}

/** A line read from the URL (`12.0.3`), or null when the text is not one. */
export function parseLine(text: string | null): Line | null {
  if (!text || !/^\d+(\.\d+)*$/.test(text)) return null;
  const line = text.split('.').map(Number);
  return line.length >= 3 && line.length % 2 === 1 && line.every(Number.isSafeInteger) ? line : null;
}

/** A line as the URL writes it, and as the move list marks its buttons. */
export function lineKey(line: Line): string {
  return line.join('.');
}

/** Where a step forward along a line leads: its next move, or the line itself at its end. */
export function lineForward(game: GameData, line: Line): Line {
  const spot = lineAt(game, line);
  if (!spot || spot.index >= spot.plies.length) return line;
  return [...line.slice(0, -1), spot.index + 1];
}

/**
 * Where a step back along a line leads: its previous move; before its first, the position it
 * starts from, which is the line above's before the move it replaces (the main line's ply
 * `{ ply }`, or a line one level up).
 */
export function lineBack(line: Line): { line: Line } | { ply: number } {
  let at = [...line.slice(0, -1), line[line.length - 1] - 1];
  // Zero plies of a variation: its start, the position before the move it replaces.
  while (at[at.length - 1] === 0) {
    const replaced = at[at.length - 3];
    at = at.slice(0, -3);
    if (at.length === 0) return { ply: replaced - 1 };
    at.push(replaced - 1);
  }
  return { line: at };
}

/** The main-line ply a line branches from: the position before the move its first pair replaces. */
export function branchPly(line: Line): number {
  return line[0] - 1;
}

/**
 * The path drawn over the SVG diagram (`renderDiagram`, diagram.ts): its arrow, and for a hopper
 * (a Betza text with `p` cannon or `g` grasshopper parts) the hurdles its moves jump.
 *
 * `pathHurdles` finds those hurdles: for each move of the path, the square `hopHurdle` says it
 * hops over in the question's passable set (every square outside it is a hurdle: blocked, outside
 * the mask, a FEN's piece other than the sources and targets). A move no hop makes (an ordinary
 * part's move of a compound such as `RpR`) jumps nothing. Each hurdle is listed once, in the
 * path's order, so there is at most one a move. `drawPath` writes the arrow, `drawHurdles` a ring
 * on each hurdle (gold within a dark edge, so it reads on light and dark squares, on a hatched
 * obstacle, on a piece and across the orange arrow), `hurdleMark` one ring (also the legend's
 * swatch, and what `diagram-size.ts` bounds). Pure: no Node APIs (bundled into a browser page).
 */

import { readBetza } from '../betza/betza.js';
import { hopHurdle } from '../fairy/fairy-hops.js';
import type { Board } from '../types.js';

/** Where the picture puts squares and how it prints numbers, as diagram.ts lays the board out. */
export interface PathLayout {
  /** Side of a square, in the picture's units. */
  readonly square: number;
  /** Centre of a square (by index) on the picture. */
  centre(index: number): readonly [number, number];
  /** A number as the picture prints it (diagram.ts's `round`). */
  n(value: number): string;
}

/** Colours of a hurdle's ring: its edge and its core. */
const HURDLE_EDGE = '#1a1a1a';
const HURDLE_CORE = '#f6c744';

/**
 * The hurdles a hopper's path jumps, each once in the path's order (at most one a move); none for
 * a piece with no hopper part. `betza` is the piece's Betza text, `passable` the question's
 * passable set as words (bit `i` of word `i >>> 5` for square `i`), `path` square indices.
 */
export function pathHurdles(
  betza: string,
  board: Board,
  passable: ArrayLike<number>,
  path: readonly number[],
): number[] {
  // Only `p` and `g` make a hopper: a text without them is not read at all.
  if (path.length < 2 || !/[pg]/.test(betza)) return [];
  const hops = readBetza(betza).hops;
  if (hops.length === 0) return [];
  const hurdles: number[] = [];
  for (let i = 1; i < path.length; i++) {
    const hurdle = hopHurdle(hops, board.files, board.ranks, passable, path[i - 1], path[i]);
    if (hurdle >= 0 && !hurdles.includes(hurdle)) hurdles.push(hurdle);
  }
  return hurdles;
}

/**
 * One hurdle's ring of radius `r` centred on (cx, cy): a dark circle of stroke `width` under a
 * gold one of stroke `core`, unfilled (its group says `fill="none"`); the numbers are given
 * already rounded by the caller.
 */
export function hurdleMark(cx: string, cy: string, r: string, width: string, core: string): string {
  const circle = `<circle cx="${cx}" cy="${cy}" r="${r}"`;
  return `${circle} stroke="${HURDLE_EDGE}" stroke-width="${width}"/>${circle} stroke="${HURDLE_CORE}" stroke-width="${core}"/>`;
}

/** The ring's radius and stroke widths on a square of side `s`. */
function ring(s: number): [number, number, number] {
  return [s * 0.4, s * 0.13, s * 0.07];
}

/** The group of the hurdles' rings (none when there are no hurdles). */
export function drawHurdles(hurdles: readonly number[], layout: PathLayout): string[] {
  if (hurdles.length === 0) return [];
  const { n } = layout;
  const [r, width, core] = ring(layout.square).map(n);
  const out = ['<g class="hurdles" fill="none">'];
  for (const index of hurdles) {
    const [cx, cy] = layout.centre(index);
    out.push(hurdleMark(n(cx), n(cy), r, width, core));
  }
  out.push('</g>');
  return out;
}

/**
 * The group of the path's arrow, source first (none for a path of fewer than two squares): a line
 * through the squares' centres and a head on the last move. `onPiece` tells whether a square
 * holds a piece: the head points at its middle there, and elsewhere stops at the edge of the last
 * step's disc (drawn after the path, so the step numbers stay readable).
 */
export function drawPath(
  path: readonly number[],
  onPiece: (index: number) => boolean,
  color: string,
  layout: PathLayout,
): string[] {
  if (path.length < 2) return [];
  const { square: S, n } = layout;
  const points = path.map((i) => layout.centre(i).map(n).join(',')).join(' ');
  const [a, b] = [layout.centre(path[path.length - 2]), layout.centre(path[path.length - 1])];
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / len, dy / len];
  const reach = onPiece(path[path.length - 1]) ? S * 0.3 : -S * 0.3;
  const tip = [b[0] + ux * reach, b[1] + uy * reach];
  const base = [tip[0] - ux * S * 0.35, tip[1] - uy * S * 0.35];
  const side = S * 0.17;
  const head = `${n(tip[0])},${n(tip[1])} ${n(base[0] - uy * side)},${n(base[1] + ux * side)} ${n(base[0] + uy * side)},${n(base[1] - ux * side)}`;
  return [
    `<g class="path" stroke="${color}" fill="${color}" stroke-opacity="0.8" fill-opacity="0.9">`,
    `<polyline points="${points}" fill="none" stroke-width="${n(S * 0.12)}" stroke-linecap="round" stroke-linejoin="round"/>`,
    `<polygon points="${head}" stroke="none"/>`,
    '</g>',
  ];
}

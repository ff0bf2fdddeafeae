/**
 * A result as the shapes chess front ends draw, rather than as a picture: chessground's
 * `DrawShape` (lichess's board, and most boards built on it; `orig`, `dest`, `brush`, `label`),
 * and the same drawing as a PGN comment in the `[%cal ...]` / `[%csl ...]` convention that
 * lichess studies, ChessBase, ChessTempo and PGN viewers read and write.
 *
 * The drawing: the lexicographically smallest shortest path as green arrows, one a move; the
 * other squares of the layers as blue circles, each labelled with its step; the sources as yellow
 * circles (step 0) and the targets as red ones (labelled with the distance when reached). A
 * square is drawn once, in the first of: source, target, layer. The brushes are chessground's
 * default brush names, and the PGN comment writes them as the convention's colour letters
 * (`G`, `B`, `Y`, `R`); the comment has no labels (the convention has none). Square names are
 * the API's (`aa12` past the 26th file), which readers of the convention understand on 8 x 8.
 * Pure: no Node APIs.
 */
import type { PathResult } from '../types.js';

/** chessground's default brushes used here. */
export type ShapeBrush = 'green' | 'blue' | 'yellow' | 'red';

/** A shape to draw: an arrow from `orig` to `dest`, or a circle on `orig` (no `dest`). */
export interface DrawShape {
  orig: string;
  dest?: string;
  brush: ShapeBrush;
  /** A short text on the square (chessground draws it in a corner). */
  label?: { text: string };
}

/** What to draw beside the path's arrows. */
export interface ShapeOptions {
  /** The squares of the layers between the sources and the targets (default true). */
  layers?: boolean;
  /** Step labels on the circles (default true). */
  labels?: boolean;
}

/** What the shapes need of a result. */
export type ShapeSource = Pick<PathResult, 'sources' | 'targets' | 'layers' | 'distance' | 'path'>;

/** The convention's colour letter of each brush. */
const LETTER: Record<ShapeBrush, string> = { green: 'G', blue: 'B', yellow: 'Y', red: 'R' };

/** The shapes of a result: the path's arrows first, then the circles (sources, targets, layers). */
export function overlayShapes(result: ShapeSource, options: ShapeOptions = {}): DrawShape[] {
  const layers = options.layers ?? true;
  const labels = options.labels ?? true;
  const shapes: DrawShape[] = [];
  const path = result.path?.squares ?? [];
  for (let i = 0; i + 1 < path.length; i++) shapes.push({ orig: path[i], dest: path[i + 1], brush: 'green' });
  const drawn = new Set<string>();
  const circle = (square: string, brush: ShapeBrush, step: number | null) => {
    if (drawn.has(square)) return;
    drawn.add(square);
    shapes.push(
      labels && step !== null ? { orig: square, brush, label: { text: String(step) } } : { orig: square, brush },
    );
  };
  for (const square of result.sources.squares) circle(square, 'yellow', 0);
  const reached = new Set(result.distance === null ? [] : (result.layers.at(-1)?.squares ?? []));
  for (const square of result.targets.squares) circle(square, 'red', reached.has(square) ? result.distance : null);
  if (layers) {
    for (let step = 1; step < result.layers.length - 1; step++) {
      for (const square of result.layers[step].squares) circle(square, 'blue', step);
    }
  }
  return shapes;
}

/**
 * Shapes as a PGN comment's commands: `[%csl Ya1,Rh8][%cal Ga1b2,Gb2c3]` (circles, then arrows;
 * an empty string when there is nothing to draw). Put it inside a comment's braces.
 */
export function shapesToPgnComment(shapes: readonly DrawShape[]): string {
  const circles: string[] = [];
  const arrows: string[] = [];
  for (const shape of shapes) {
    const letter = LETTER[shape.brush];
    if (shape.dest === undefined) circles.push(`${letter}${shape.orig}`);
    else arrows.push(`${letter}${shape.orig}${shape.dest}`);
  }
  return `${circles.length > 0 ? `[%csl ${circles.join(',')}]` : ''}${arrows.length > 0 ? `[%cal ${arrows.join(',')}]` : ''}`;
}

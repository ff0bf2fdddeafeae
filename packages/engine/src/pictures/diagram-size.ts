/**
 * How long an SVG diagram can be, known before it is drawn. A service must refuse a picture that
 * would be over its answer limit before spending the time and memory to draw it (a 256 x 256
 * diagram is megabytes), so this bounds `renderDiagram`'s length from counts alone: the board,
 * and how many squares each kind of mark covers. Each element's text is bounded with the widest
 * number the board can print (coordinates of at most `digits` characters, two decimals), so the
 * bound is never below the drawing and, on large boards, within about twice of it. A fairy piece's
 * text is bounded by its own length (the canonical text the result has, which may be longer than
 * the text asked): it is printed twice (title and legend), each character escaped at most to six.
 * A fairy piece's path may ring a hurdle for each of its moves (a hopper's), and a legend row.
 */

import { fileName } from '../board/squares.js';
import type { Board, Color, Role } from '../types.js';
import { DIAGRAM_GEOMETRY } from './diagram.js';
import { hurdleMark } from './diagram-path.js';
import { fairyMark, pieceGlyph } from './diagram-pieces.js';

const ROLES: readonly Role[] = ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'KNIGHT', 'PAWN'];

/** What a diagram will show, as counts (the squares of each mark, possibly overlapping). */
export interface DiagramCounts {
  board: Board;
  /** Squares over every layer (each layer square gets a numbered step). */
  layerSquares: number;
  sources: number;
  targets: number;
  /** Impassable squares. */
  obstacles: number;
  pieces: number;
  attacked: number;
  /** Squares of the drawn path (0 for none). */
  path: number;
  /**
   * With a fairy piece: the length of its Betza text (`DiagramSpec.fairy`); its sources get a
   * mark, its text goes into the title and the legend. Absent for every other piece.
   */
  fairy?: number;
  /**
   * With a fairy piece and a path: the hurdles ringed (`DiagramSpec.hurdles`, at most one a move
   * of the path). Absent: one a move, the most a path can jump.
   */
  hurdles?: number;
}

/** Characters of everything whose length does not grow with the board: header, title, banner, legend. */
const FIXED = 8192;

/** The widest piece glyph, with the widest numbers the board prints. */
function widestGlyph(coordinate: string): number {
  let widest = 0;
  for (const role of ROLES) {
    for (const color of ['WHITE', 'BLACK'] as Color[]) {
      widest = Math.max(widest, pieceGlyph(role, color, coordinate, coordinate, '0.48').length);
    }
  }
  return widest;
}

/**
 * What a fairy piece adds besides its text and its marks on the board: the title's words, the
 * legend's row (its mark, the text element, its squeeze attributes) and the marks' group.
 */
const FAIRY_FIXED = 1024;

/** What hurdle marks add besides their rings: their group and the legend's row. */
const HURDLES_FIXED = 512;

/** An upper bound of `renderDiagram(spec).length` for a spec with these counts. */
export function diagramLengthBound(counts: DiagramCounts): number {
  const { files, ranks } = counts.board;
  const { square, margin, pad, legendItem } = DIAGRAM_GEOMETRY;
  // Widest coordinate: the board's far edge (or the legend's width), with two decimals.
  const far = Math.max(margin + files * square + pad, 2 * legendItem + pad, pad + ranks * square + margin) + square;
  const digits = String(Math.ceil(far)).length + 3;
  // `<rect x="" y="" width="48" height="48"/>` and its line break (a square's side never needs
  // more than two digits); an attacked square's tint adds an attribute.
  const rect = 40 + 2 * digits;
  const tint = 20;
  const circle = 60 + 3 * digits; // with fill and fill-opacity
  const step = circle + 36 + 3 * digits + String(counts.layerSquares).length; // the number's circle and text
  const hatch = 5 * (6 + 4 * digits); // five strokes `M.. .. L.. ..` a square
  const label = 32 + 2 * digits + Math.max(fileName(files - 1).length, String(ranks).length);
  const wide = '9'.repeat(digits);
  const fairy =
    counts.fairy === undefined
      ? 0
      : FAIRY_FIXED + 2 * 6 * counts.fairy + counts.sources * (fairyMark(wide, wide, '0.17').length + 1);
  const moves = counts.fairy === undefined ? 0 : Math.max(0, counts.path - 1);
  const rings = Math.min(moves, counts.hurdles ?? moves);
  const hurdles =
    rings === 0 ? 0 : HURDLES_FIXED + rings * (hurdleMark(wide, wide, '99.99', '99.99', '99.99').length + 1);
  return (
    fairy +
    hurdles +
    FIXED +
    Math.ceil((files * ranks) / 2) * rect + // the dark squares
    counts.attacked * (rect + tint + circle) +
    counts.obstacles * (rect + hatch) +
    (counts.sources + counts.targets) * rect +
    counts.pieces * (widestGlyph(wide) + 1) +
    counts.path * (2 * digits + 2) +
    counts.layerSquares * step +
    (files + ranks) * label
  );
}

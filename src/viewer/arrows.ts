/**
 * A path drawn over the viewer's board as arrows, one a move, in an `<svg>` laid over the squares
 * whose units are squares (`viewBox="0 0 files ranks"`), so the board may be any size on screen.
 * Each arrow's shaft starts a little off its square's centre and its head ends a little short of
 * the next square's centre, so arrows of a path meet without covering each other; a knight's move
 * is one straight arrow, as the diagrams draw moves. The arrows take no pointer events: the
 * squares under them are still clicked.
 */

export const SVG = 'http://www.w3.org/2000/svg';

/** A square's place on the board as drawn: column and row from the top left, in squares. */
export interface Cell {
  col: number;
  row: number;
}

/** One move's arrow, in square units: the shaft from (x1, y1) to (x2, y2), the head a triangle, tip first. */
export interface ArrowShape {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  head: [number, number][];
}

/** How far from a square's centre a shaft starts and a head's tip ends. */
const OFF = 0.18;
/** The head's length and half width. */
const HEAD = 0.34;
const HALF = 0.2;

/** The arrow of a move from one cell to another. */
export function arrowShape(from: Cell, to: Cell): ArrowShape {
  const [ax, ay] = [from.col + 0.5, from.row + 0.5];
  const [bx, by] = [to.col + 0.5, to.row + 0.5];
  const length = Math.hypot(bx - ax, by - ay) || 1;
  const [ux, uy] = [(bx - ax) / length, (by - ay) / length];
  const tip: [number, number] = [bx - ux * OFF, by - uy * OFF];
  const [baseX, baseY] = [tip[0] - ux * HEAD, tip[1] - uy * HEAD];
  return {
    x1: ax + ux * OFF,
    y1: ay + uy * OFF,
    x2: baseX,
    y2: baseY,
    head: [tip, [baseX - uy * HALF, baseY + ux * HALF], [baseX + uy * HALF, baseY - ux * HALF]],
  };
}

/** A number as an attribute: at most three decimals. */
const n = (value: number) => String(Math.round(value * 1000) / 1000);

/** The overlay of a board of `files` x `ranks` squares, empty. */
export function arrowLayer(files: number, ranks: number): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'arrows');
  svg.setAttribute('viewBox', `0 0 ${files} ${ranks}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  return svg;
}

/** Draws a path (its squares' names and cells, in order) as arrows on `layer` (an `<svg>` or a group), replacing what it held. */
export function drawArrows(layer: SVGElement, names: readonly string[], cells: readonly Cell[]): void {
  const arrows: SVGGElement[] = [];
  for (let i = 1; i < cells.length; i++) {
    const shape = arrowShape(cells[i - 1], cells[i]);
    const arrow = document.createElementNS(SVG, 'g');
    arrow.setAttribute('class', 'arrow');
    arrow.dataset.from = names[i - 1];
    arrow.dataset.to = names[i];
    const line = document.createElementNS(SVG, 'line');
    line.setAttribute('x1', n(shape.x1));
    line.setAttribute('y1', n(shape.y1));
    line.setAttribute('x2', n(shape.x2));
    line.setAttribute('y2', n(shape.y2));
    const head = document.createElementNS(SVG, 'polygon');
    head.setAttribute('points', shape.head.map(([x, y]) => `${n(x)},${n(y)}`).join(' '));
    arrow.append(line, head);
    arrows.push(arrow);
  }
  layer.dataset.path = names.join(' ');
  layer.replaceChildren(...arrows);
}

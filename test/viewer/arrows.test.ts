/**
 * The arrows' geometry (src/viewer/arrows.ts), without a browser: a move's shaft starts in its
 * square, its head ends in the next one, short of the centre, pointing along the move, whatever
 * the move's length and direction (a king's step, a knight's leap, a rider's long move).
 */
import { describe, expect, it } from 'vitest';
import { arrowShape, type Cell } from '../../src/viewer/arrows.js';

/** True when a point lies inside a cell, off its edges. */
const inside = ([x, y]: [number, number], { col, row }: Cell) => col < x && x < col + 1 && row < y && y < row + 1;

describe('arrowShape', () => {
  const from: Cell = { col: 4, row: 4 };
  const moves: Cell[] = [
    { col: 5, row: 4 },
    { col: 3, row: 3 },
    { col: 5, row: 2 },
    { col: 2, row: 5 },
    { col: 4, row: 0 },
    { col: 0, row: 7 },
  ];

  it('starts in the square moved from and ends in the square moved to, short of the centres', () => {
    for (const to of moves) {
      const shape = arrowShape(from, to);
      expect(inside([shape.x1, shape.y1], from), JSON.stringify(to)).toBe(true);
      expect(inside(shape.head[0], to), JSON.stringify(to)).toBe(true);
      expect(Math.hypot(shape.head[0][0] - (to.col + 0.5), shape.head[0][1] - (to.row + 0.5))).toBeCloseTo(0.18);
      expect(Math.hypot(shape.x1 - (from.col + 0.5), shape.y1 - (from.row + 0.5))).toBeCloseTo(0.18);
    }
  });

  it('points its head along the move, the shaft meeting the middle of its base', () => {
    for (const to of moves) {
      const { x2, y2, head } = arrowShape(from, to);
      const [tip, left, right] = head;
      expect((left[0] + right[0]) / 2).toBeCloseTo(x2);
      expect((left[1] + right[1]) / 2).toBeCloseTo(y2);
      const move = [to.col - from.col, to.row - from.row];
      const along = [tip[0] - x2, tip[1] - y2];
      expect(move[0] * along[1] - move[1] * along[0]).toBeCloseTo(0);
      expect(move[0] * along[0] + move[1] * along[1]).toBeGreaterThan(0);
      expect(Math.hypot(left[0] - right[0], left[1] - right[1])).toBeCloseTo(0.4);
    }
  });
});

/**
 * The picture `chess-paths solve` prints, tested as the pure functions it is made of: the labelled
 * boards (coordinates, files past z, impassable squares, sources and targets, wrapping to a
 * width), their size known before drawing, and the rule that decides whether they are drawn on a
 * terminal or elsewhere. The end-to-end runs are in cli.terminal.test.ts.
 */
import { type PathQuery, solve } from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import { drawBoards, legendLines, measureBoards, measurePlain } from '../src/cli/boards.js';
import { choosePicture, formatBytes, layoutWidth, PIPE_PICTURE_BYTES, SCREENS } from '../src/cli/picture.js';

/** The whole drawing of a question laid out in `width` columns, and its lines. */
function draw(query: PathQuery, width = 80) {
  const result = solve(query);
  const text = [...drawBoards(result, width)].join('');
  return { result, text, lines: text.split('\n').slice(0, -1) };
}

/**
 * The board of `step` in a drawing, as rank label -> cells: found by its title's column (boards
 * of a row are three spaces apart, and no board has three spaces inside).
 */
function boardOf(lines: string[], step: number): Map<string, string[]> {
  const title = new RegExp(`(^|   )step ${step}( |$)`);
  const start = lines.findIndex((line) => title.test(line));
  expect(start).toBeGreaterThanOrEqual(0);
  const match = title.exec(lines[start])!;
  const column = match.index + match[1].length;
  const rows = new Map<string, string[]>();
  for (let i = start + 1; /^\s*\d+ /.test(lines[i].slice(column)); i++) {
    const [label, ...cells] = lines[i].slice(column).split('   ')[0].trim().split(/\s+/);
    rows.set(label, cells);
  }
  return rows;
}

describe('the labelled boards', () => {
  it('draw one board per step, the step above, ranks on the left, files under, obstacles as #', () => {
    const { result, lines } = draw({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'], blocked: ['d4', 'e5', 'f3'] });
    expect(result.distance).toBe(4);
    // 80 columns: four boards of 17 columns (and gaps of 3) in the first row, the fifth below.
    expect(lines[0]).toBe(
      ['step 0', 'step 1', 'step 2', 'step 3']
        .map((t) => t.padEnd(17))
        .join('   ')
        .trimEnd(),
    );
    expect(lines[1]).toBe('8 . . . . . . . t   8 . . . . . . . t   8 . . . . . . . t   8 . . . . . . . t');
    expect(lines[4]).toBe('5 . . . . # . . .   5 . . . . # * . .   5 . . . . # . . .   5 . . . . # . . .');
    expect(lines[5]).toBe('4 . . . # S . . .   4 . . . # s . . .   4 . . . # s . . .   4 . . . # s . . .');
    expect(lines[9]).toBe(Array(4).fill('  a b c d e f g h').join('   '));
    expect(lines[10]).toBe('');
    expect(lines[11]).toBe('step 4');
    // The last step: the targets reached there in capitals.
    expect(lines[12]).toBe('8 . . . . . . . T');
    expect(lines[19]).toBe('1 T . . . . . . .');
    expect(lines.slice(-2)).toEqual([
      '',
      '* this step   S/T source/target at this step   s/t source/target   # impassable',
    ]);
    // On a narrow terminal the legend takes more lines rather than running past its width.
    expect(legendLines(40)).toEqual([
      '* this step',
      'S/T source/target at this step',
      's/t source/target   # impassable',
    ]);
    // Every layer square, and only those, is marked on its step's board (S, T or *).
    result.layers.forEach((layer, step) => {
      const board = boardOf(lines, step);
      const marked: string[] = [];
      for (const [rank, cells] of board) {
        cells.forEach((cell, file) => {
          if (/[*ST]/.test(cell)) marked.push(`${'abcdefgh'[file]}${rank}`);
        });
      }
      expect(marked.sort()).toEqual([...layer.squares].sort());
    });
  });

  it('name files past z as the engine does (aa, ab, ...) in columns of two, and rank numbers right-aligned', () => {
    const { result, lines } = draw({ piece: 'ROOK', board: { files: 28, ranks: 10 }, from: ['a1'], to: ['ab10'] }, 200);
    expect(result.distance).toBe(2);
    const files = lines.find((line) => line.includes(' a  b'))!;
    expect(files.trim().split(/\s+/).slice(0, 28)).toEqual([...'abcdefghijklmnopqrstuvwxyz'.split(''), 'aa', 'ab']);
    // Rank 10 is two characters wide, so rank 1 is written " 1".
    const board = boardOf(lines, 0);
    expect([...board.keys()][0]).toBe('10');
    expect(lines.some((line) => line.startsWith(' 1  S'))).toBe(true);
    expect(board.get('10')![27]).toBe('t');
    expect(boardOf(lines, 2).get('10')![27]).toBe('T');
    // Three boards of 3 + 28 * 3 - 1 = 86 columns fit 200 side by side? Two do (86 + 3 + 86 = 175).
    expect(lines[0]).toBe(`${'step 0'.padEnd(86)}   step 1`);
  });

  it('show the squares a FEN occupies as impassable', () => {
    const fen = '8/8/8/8/8/8/1P6/RNBQKBNR w - - 0 1';
    const { lines } = draw({ piece: 'ROOK', from: ['a1'], to: ['h8'], fen });
    const board = boardOf(lines, 1);
    expect(board.get('1')).toEqual(['s', '#', '#', '#', '#', '#', '#', '#']);
    expect(board.get('2')![1]).toBe('#');
    expect(board.get('8')![0]).toBe('*');
  });

  it('are measured exactly before they are drawn', () => {
    for (const [query, width] of [
      [{ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] }, 80],
      [{ piece: 'KNIGHT', board: { files: 30, ranks: 12 }, from: ['a1'], to: ['ad12'] }, 100],
      [{ piece: 'QUEEN', from: ['a1'], to: ['a1'] }, 10],
    ] as const) {
      const { result, text, lines } = draw(query, width);
      const size = measureBoards(result.board, result.layers.length, width);
      expect(lines.length).toBe(size.height);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(size.bytes);
      const boards = lines.slice(0, lines.length - legendLines(width).length - 1);
      expect(Math.max(...boards.map((line) => line.length))).toBeLessThanOrEqual(Math.max(width, size.boardWidth));
    }
    // The plain picture: every board in one row.
    expect(measurePlain({ files: 8, ranks: 8 }, 5)).toEqual({ boardWidth: 87, height: 8, bytes: 8 * 88 });
  });
});

describe('the picture rule', () => {
  const board8 = measureBoards({ files: 8, ranks: 8 }, 5, 80);
  const big = measureBoards({ files: 256, ranks: 256 }, 171, 80);

  it('on a terminal: drawn when a board fits its width and the picture its height', () => {
    expect(choosePicture('auto', board8, { columns: 80, rows: 24 }, 80)).toEqual({ draw: true });
    // 17 columns a board: a terminal of 16 is too narrow.
    expect(choosePicture('auto', measureBoards({ files: 8, ranks: 8 }, 5, 16), { columns: 16, rows: 24 }, 16)).toEqual({
      draw: false,
      note: 'picture left out: 17 columns wide, more than 16 (--picture to draw, --svg FILE for an image)',
    });
    expect(choosePicture('auto', big, { columns: 300, rows: 50 }, 300)).toMatchObject({
      draw: false,
      note: expect.stringContaining('771 columns wide, more than 300'),
    });
    // 30 boards of 30 x 30 on a 100-column terminal: one a row, 991 lines.
    const tall = measureBoards({ files: 30, ranks: 30 }, 30, 100);
    expect(tall.height).toBe(991);
    expect(choosePicture('auto', tall, { columns: 100, rows: 40 }, 100)).toMatchObject({
      draw: false,
      note: `picture left out: 991 lines, over ${SCREENS} screens (--picture to draw, --svg FILE for an image)`,
    });
    expect(choosePicture('auto', tall, { columns: 100, rows: 250 }, 100)).toEqual({ draw: true });
  });

  it('elsewhere: drawn up to the byte bound, whatever the width', () => {
    expect(choosePicture('auto', board8, undefined, 80)).toEqual({ draw: true });
    expect(choosePicture('auto', measureBoards({ files: 40, ranks: 40 }, 40, 80), undefined, 80)).toEqual({
      draw: true,
    });
    expect(big.bytes).toBeGreaterThan(PIPE_PICTURE_BYTES);
    expect(choosePicture('auto', big, undefined, 80)).toEqual({
      draw: false,
      note: `picture left out: about ${formatBytes(big.bytes)}, over 256 KiB for a file or a pipe (--picture to draw, --svg FILE for an image)`,
    });
  });

  it('--picture always draws, --no-picture never, without a note', () => {
    expect(choosePicture('always', big, { columns: 80, rows: 24 }, 80)).toEqual({ draw: true });
    expect(choosePicture('always', big, undefined, 80)).toEqual({ draw: true });
    expect(choosePicture('never', board8, { columns: 80, rows: 24 }, 80)).toEqual({ draw: false });
  });

  it('lays out in --width, else the terminal width, else 80 columns', () => {
    expect(layoutWidth(120, { columns: 60, rows: 20 })).toBe(120);
    expect(layoutWidth(undefined, { columns: 60, rows: 20 })).toBe(60);
    expect(layoutWidth(undefined, undefined)).toBe(80);
  });
});

/**
 * The layer boards as `chess-paths solve` prints them for a person: one board per step with its
 * step written above, rank numbers on the left and file letters under it (past z: aa, ab, ... as
 * the engine names squares), wrapped into rows of as many boards as fit a width. Each board marks
 * the step's squares and shows what the seed's plain picture (the engine's `renderAscii`, the
 * API's `Overlay.ascii`) cannot: where the pieces started and were going, and which squares are
 * impassable. The plain picture stays available (`--plain`); this one is presentation for a
 * terminal, so it lives with the command rather than in the engine.
 *
 * The size of a picture is known from the board and the number of steps alone (`measureBoards`,
 * `measurePlain`), so the command decides whether to draw it before drawing anything.
 */
import { type Board, diagramSpecOf, fileName, type OverlaySource } from '@chess-paths/engine';

/** Spaces between two boards of a row (as in the seed's picture). */
const GAP = 3;

/** What the marks mean, printed under the boards: its parts on one line, or as many as a narrow width needs. */
const LEGEND_PARTS = ['* this step', 'S/T source/target at this step', 's/t source/target', '# impassable'];

/** The legend's lines for `width` columns. */
export function legendLines(width: number): string[] {
  const lines = [LEGEND_PARTS[0]];
  for (const part of LEGEND_PARTS.slice(1)) {
    const joined = `${lines[lines.length - 1]}${' '.repeat(GAP)}${part}`;
    if (joined.length <= width) lines[lines.length - 1] = joined;
    else lines.push(part);
  }
  return lines;
}

/** How big a picture is, before it is drawn. */
export interface PictureSize {
  /** Columns of one board with its labels: the narrowest a row of the picture can be. */
  boardWidth: number;
  /** Lines in all, and an upper bound of the bytes written (newlines included). */
  height: number;
  bytes: number;
}

/** Columns of one square: the longest file name (2 past z, as on a 256-file board). */
function cellWidth(board: Board): number {
  return fileName(board.files - 1).length;
}

/** Columns of one labelled board: rank numbers, a space, the squares one space apart; at least its title. */
function boardColumns(board: Board, boards: number): number {
  const squares = board.files * cellWidth(board) + board.files - 1;
  return Math.max(String(board.ranks).length + 1 + squares, `step ${boards - 1}`.length);
}

/** Boards side by side in a row of at most `width` columns; at least one, however narrow the width. */
function perRow(board: Board, boards: number, width: number): number {
  const one = boardColumns(board, boards);
  return Math.max(1, Math.min(boards, Math.floor((width + GAP) / (one + GAP))));
}

/** The size of the labelled boards of `boards` steps laid out in `width` columns. */
export function measureBoards(board: Board, boards: number, width: number): PictureSize {
  const boardWidth = boardColumns(board, boards);
  const across = perRow(board, boards, width);
  const rows = Math.ceil(boards / across);
  const lineWidth = across * boardWidth + (across - 1) * GAP;
  const legend = legendLines(width);
  // Each row: its titles, the ranks, the file letters; a blank line between rows, then one before the legend.
  const height = rows * (board.ranks + 2) + (rows - 1) + 1 + legend.length;
  const widest = Math.max(lineWidth, ...legend.map((line) => line.length));
  return { boardWidth, height, bytes: height * (widest + 1) };
}

/** The size of the seed's plain picture: every board in one row, no labels. */
export function measurePlain(board: Board, boards: number): PictureSize {
  const boardWidth = 2 * board.files - 1;
  const width = boards * boardWidth + (boards - 1) * GAP;
  return { boardWidth: width, height: board.ranks, bytes: board.ranks * (width + 1) };
}

/** Kinds of square, the same on every board (0: any other), and their marks off and on the step. */
const WALL = 1;
const SOURCE = 2;
const TARGET = 3;
const STILL = ['.', '#', 's', 't'];
const ON_STEP = ['*', '*', 'S', 'T'];

/**
 * The labelled boards of a reachable result, one row of boards at a time (each ending in a
 * newline, rows separated by a blank line), then the legend; nothing when it has no layers.
 * `onRow` is told how many rows are done, so a long drawing can report its progress.
 */
export function* drawBoards(
  result: OverlaySource,
  width: number,
  onRow: (done: number, rows: number) => void = () => {},
): Generator<string> {
  const { board } = result;
  const { files, ranks } = board;
  const boards = result.layers.length;
  if (boards === 0) return;
  const spec = diagramSpecOf(result);
  const kind = new Uint8Array(files * ranks);
  for (const index of spec.obstacles) kind[index] = WALL;
  for (const index of spec.targets) kind[index] = TARGET;
  for (const index of spec.sources) kind[index] = SOURCE;
  // A square is on at most one layer: layer k holds squares at distance k from the sources.
  const stepOf = new Int32Array(files * ranks).fill(-1);
  spec.layers.forEach((layer, step) => {
    for (const index of layer) stepOf[index] = step;
  });
  const cell = cellWidth(board);
  const labelWidth = String(ranks).length;
  const columns = boardColumns(board, boards);
  const across = perRow(board, boards, width);
  const rows = Math.ceil(boards / across);
  const gap = ' '.repeat(GAP);
  const fileLine = `${' '.repeat(labelWidth + 1)}${Array.from({ length: files }, (_, f) => fileName(f).padStart(cell)).join(' ')}`;
  const pads = [STILL, ON_STEP].map((marks) => marks.map((mark) => mark.padStart(cell)));
  const cells: string[] = new Array(files);
  for (let row = 0; row < rows; row++) {
    const first = row * across;
    const steps = Array.from({ length: Math.min(across, boards - first) }, (_, i) => first + i);
    const lines = [
      steps
        .map((step) => `step ${step}`.padEnd(columns))
        .join(gap)
        .trimEnd(),
    ];
    for (let rank = ranks - 1; rank >= 0; rank--) {
      const label = String(rank + 1).padStart(labelWidth);
      const parts = steps.map((step) => {
        for (let file = 0; file < files; file++) {
          const index = rank * files + file;
          cells[file] = pads[stepOf[index] === step ? 1 : 0][kind[index]];
        }
        return `${label} ${cells.join(' ')}`.padEnd(columns);
      });
      lines.push(parts.join(gap).trimEnd());
    }
    lines.push(
      steps
        .map(() => fileLine.padEnd(columns))
        .join(gap)
        .trimEnd(),
    );
    onRow(row + 1, rows);
    yield `${row > 0 ? '\n' : ''}${lines.join('\n')}\n`;
  }
  yield `\n${legendLines(width).join('\n')}\n`;
}

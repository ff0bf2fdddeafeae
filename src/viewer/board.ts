/**
 * The clickable board, drawn as a chess player reads one: one `<button>` per square (aria-label =
 * its name, e.g. "e4"), file letters under it and rank numbers beside it (past `z` the files go
 * on `aa`, `ab`, ...), White or Black at the bottom (`orient`). The pieces of a position are the
 * SVG diagrams' glyphs (glyphs.ts); a path is drawn as arrows over the squares (arrows.ts): the
 * view's own (the smallest path) unless another is shown for a while (`showPath`, e.g. the path
 * under the pointer in the list). The buttons also show each square's step, sources, targets and
 * obstacles; in a game, the last move's squares, the chosen piece's journey (its squares
 * numbered in the order it stood on them) and a maneuver's ways (its moves, the shorter way it
 * had), each as arrows of their own colour in a layer apart from the path's.
 *
 * One square at a time is in the tab order (a roving tabindex); the arrow keys move focus across
 * the board as it is drawn (up is up on the screen whichever side is at the bottom), PageUp and
 * PageDown eight rows, Home/End to the ends of a row, and Enter or Space toggles the square as the
 * native button does. Squares shrink to fit the board's box down to a floor, past which the box
 * scrolls (style.css): a new board scrolls to its first source, and a focused square is scrolled
 * into view.
 */
import { fileName, squareIndexOrMinus1, squareName } from '@chess-paths/engine';
import { arrowLayer, type Cell, drawArrows, SVG } from './arrows.js';
import { glyph, pieceWords } from './glyphs.js';

/**
 * A way drawn on a game's board: a maneuver's moves (`made`), the shorter way that stayed open
 * (`open`), or the one the opponent closed (`closed`).
 */
export interface Way {
  kind: 'made' | 'open' | 'closed';
  squares: string[];
}

/** Which side is at the bottom of the board. */
export type Orientation = 'WHITE' | 'BLACK';

/** What the board shows; square names throughout. */
export interface BoardView {
  files: number;
  ranks: number;
  sources: string[];
  targets: string[];
  obstacles: string[];
  /** Squares a piece of the other side attacks, left out of a position's question ("avoid attacked squares"). */
  attacked?: string[];
  /** Step k of every square on a shortest path (layer k). */
  steps: Map<string, number>;
  /** The path drawn as arrows (the smallest path), in order; empty for none. */
  path: readonly string[];
  /** Pieces of a position: letter (upper case white, lower case black). */
  pieces: Map<string, string>;
  /** The piece that moves, drawn on the sources that hold no piece (a letter, `*` for a fairy piece). */
  mover?: string;
  /** A game's last move: its from and to squares. */
  moved?: string[];
  /** A journey: the times (0 = the start, k = after its move k) the piece stood on each square. */
  visits?: Map<string, number[]>;
  /** The square of the chosen piece. */
  selected?: string;
  /** Ways drawn as arrows besides the path (a maneuver's). */
  ways?: Way[];
}

/** The letter of a piece: upper case white, lower case black (N for a knight). */
export function pieceLetter(role: string, color: string): string {
  const l = role === 'KNIGHT' ? 'N' : role.charAt(0);
  return color === 'WHITE' ? l : l.toLowerCase();
}

/** How many rows PageUp and PageDown move on the board. */
const PAGE_ROWS = 8;

/** Boards with more files than this widen the board's column (style.css, `data-wide`). */
const WIDE = 16;

/** Boards with more squares than this lay out and paint only their rows on screen (style.css, `data-big`). */
const BIG = 1024;

/** The board element, which keeps focus on the same square across redraws. */
export class BoardGrid {
  private focusName = '';
  private view: BoardView | null = null;
  private side: Orientation = 'WHITE';
  private arrows: SVGSVGElement | null = null;
  private shown: readonly string[] = [];
  /** The board's shape and side at the bottom, as last drawn: a new one scrolls to its focus square. */
  private shape = '';

  /** Binds to `root` (an empty element); `onToggle` runs on a click or Enter/Space on a square. */
  constructor(
    private readonly root: HTMLElement,
    private readonly onToggle: (name: string) => void,
  ) {
    root.setAttribute('role', 'grid');
    root.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest('button');
      if (!button?.dataset.square) return;
      this.focusName = button.dataset.square;
      this.onToggle(button.dataset.square);
    });
    root.addEventListener('keydown', (event) => this.keydown(event));
  }

  /** The side at the bottom. */
  get orientation(): Orientation {
    return this.side;
  }

  /** Puts `side` at the bottom, redrawing what is on the board. */
  orient(side: Orientation): void {
    if (side === this.side) return;
    this.side = side;
    if (this.view) this.draw(this.view);
  }

  /** Where a square is drawn: its column and row from the top left. */
  private cell(name: string): Cell | null {
    const view = this.view;
    if (!view) return null;
    const index = squareIndexOrMinus1(name, view.files, view.ranks);
    if (index < 0) return null;
    const file = index % view.files;
    const rank = (index - file) / view.files;
    return this.side === 'BLACK'
      ? { col: view.files - 1 - file, row: rank }
      : { col: file, row: view.ranks - 1 - rank };
  }

  /** Redraws every square from `view`. */
  draw(view: BoardView): void {
    this.view = view;
    const { files, ranks } = view;
    const board = { files, ranks };
    const black = this.side === 'BLACK';
    const hadFocus = this.root.contains(document.activeElement);
    const sources = new Set(view.sources);
    const targets = new Set(view.targets);
    const obstacles = new Set(view.obstacles);
    const attacked = new Set(view.attacked ?? []);
    const moved = new Set(view.moved ?? []);
    const names = new Set<string>();
    this.root.style.setProperty('--files', String(files));
    this.root.style.setProperty('--ranks', String(ranks));
    this.root.toggleAttribute('data-wide', files > WIDE);
    this.root.toggleAttribute('data-big', files * ranks > BIG);
    this.root.dataset.orientation = this.side;
    this.root.setAttribute(
      'aria-label',
      `Board, ${files} files by ${ranks} ranks, ${black ? 'Black' : 'White'} at the bottom`,
    );
    const rows: HTMLElement[] = [];
    for (let row = 0; row < ranks; row++) {
      const rank = black ? row : ranks - 1 - row;
      const line = document.createElement('div');
      line.setAttribute('role', 'row');
      line.className = 'rank';
      line.append(coordinate('rank-label', String(rank + 1)));
      for (let col = 0; col < files; col++) {
        const file = black ? files - 1 - col : col;
        const name = squareName(rank * files + file, board);
        names.add(name);
        const cell = document.createElement('button');
        cell.type = 'button';
        cell.setAttribute('role', 'gridcell');
        cell.setAttribute('aria-label', name);
        cell.dataset.square = name;
        cell.tabIndex = -1;
        const classes = ['sq', (rank + file) % 2 === 0 ? 'dark' : 'light'];
        const states = [
          sources.has(name) ? 'source' : '',
          targets.has(name) ? 'target' : '',
          obstacles.has(name) ? 'obstacle' : '',
          attacked.has(name) ? 'attacked' : '',
          view.selected === name ? 'selected' : '',
        ].filter(Boolean);
        classes.push(...states);
        if (moved.has(name)) classes.push('moved');
        const visits = view.visits?.get(name);
        if (visits) classes.push('journey');
        cell.setAttribute('aria-pressed', String(states.length > 0));
        const step = view.steps.get(name);
        const piece = view.pieces.get(name);
        const mover = !piece && sources.has(name) ? view.mover : undefined;
        if (piece || mover) classes.push('has-piece');
        cell.className = classes.join(' ');
        if (piece) cell.append(pieceMark('glyph', piece));
        else if (mover) cell.append(pieceMark('glyph mover', mover));
        if (step !== undefined) {
          cell.dataset.step = String(step);
          cell.append(span('step', String(step)));
        }
        if (visits) {
          cell.dataset.visits = visits.join(',');
          cell.append(span('visit', visits.join('·')));
        }
        const about = [
          ...states,
          moved.has(name) ? 'last move' : '',
          piece ? pieceWords(piece) : '',
          mover ? `the ${pieceWords(mover)} that moves` : '',
          step !== undefined ? `step ${step}` : '',
          visits ? `journey ${visits.join(', ')}` : '',
        ].filter(Boolean);
        cell.title = [name, ...about].join(', ');
        if (about.length) cell.setAttribute('aria-description', about.join(', '));
        line.append(cell);
      }
      rows.push(line);
    }
    const fileRow = document.createElement('div');
    fileRow.className = 'file-labels';
    fileRow.setAttribute('aria-hidden', 'true');
    fileRow.append(coordinate('corner', ''));
    for (let col = 0; col < files; col++)
      fileRow.append(coordinate('file-label', fileName(black ? files - 1 - col : col)));
    this.arrows = arrowLayer(files, ranks);
    const frame = document.createElement('div');
    frame.className = 'frame';
    frame.setAttribute('aria-hidden', 'true');
    this.root.replaceChildren(...rows, fileRow, this.wayLayer(view.ways ?? []), this.arrows, frame);
    this.shown = [];
    this.showPath(null);
    const shape = `${files}x${ranks} ${this.side}`;
    const fresh = shape !== this.shape;
    this.shape = shape;
    if (!names.has(this.focusName) || (fresh && view.sources.length > 0 && !hadFocus)) {
      this.focusName = view.sources[0] ?? squareName(0, board);
    }
    const current = this.button(this.focusName);
    if (current) {
      current.tabIndex = 0;
      if (hadFocus) current.focus();
      else if (fresh) this.reveal(current);
    }
  }

  /** The layer of a view's ways: one group of arrows a way, its kind as its class (style.css colours them). */
  private wayLayer(ways: readonly Way[]): SVGSVGElement {
    const layer = arrowLayer(this.view?.files ?? 8, this.view?.ranks ?? 8);
    layer.setAttribute('class', 'ways');
    for (const way of ways) {
      const group = document.createElementNS(SVG, 'g');
      group.setAttribute('class', `way ${way.kind}`);
      const names = way.squares.filter((name) => this.cell(name) !== null);
      drawArrows(
        group,
        names,
        names.map((name) => this.cell(name) as Cell),
      );
      layer.append(group);
    }
    return layer;
  }

  /** Scrolls the board's box (never the page) to put a square in its middle, when it scrolls at all. */
  private reveal(square: HTMLElement): void {
    const box = this.root.parentElement;
    if (!box || (box.scrollWidth <= box.clientWidth && box.scrollHeight <= box.clientHeight)) return;
    const at = square.getBoundingClientRect();
    const frame = box.getBoundingClientRect();
    box.scrollLeft += at.left + at.width / 2 - (frame.left + frame.width / 2);
    box.scrollTop += at.top + at.height / 2 - (frame.top + frame.height / 2);
  }

  /** Draws `path` (square names in order) as the arrows, or the view's own path for null. */
  showPath(path: readonly string[] | null): void {
    const view = this.view;
    const layer = this.arrows;
    if (!view || !layer) return;
    const next = path ?? view.path;
    const kind = path === null ? 'smallest' : 'shown';
    const same = next.length === this.shown.length && next.every((name, i) => name === this.shown[i]);
    if (same && layer.dataset.kind === kind) return;
    for (const name of this.shown) this.button(name)?.classList.remove('on-path');
    const cells: Cell[] = [];
    const names: string[] = [];
    for (const name of next) {
      const cell = this.cell(name);
      if (!cell) continue;
      cells.push(cell);
      names.push(name);
      this.button(name)?.classList.add('on-path');
    }
    drawArrows(layer, names, cells);
    layer.dataset.kind = kind;
    this.shown = names;
  }

  /** The button of a square. */
  private button(name: string): HTMLButtonElement | null {
    return this.root.querySelector(`button[data-square="${CSS.escape(name)}"]`);
  }

  /** Moves focus with the arrow keys, PageUp/PageDown, Home and End. */
  private keydown(event: KeyboardEvent): void {
    const buttons = [...this.root.querySelectorAll<HTMLButtonElement>('button[data-square]')];
    const at = buttons.indexOf(event.target as HTMLButtonElement);
    if (at < 0) return;
    const files = Number(this.root.style.getPropertyValue('--files')) || 8;
    const column = at % files;
    const row = (at - column) / files;
    const rows = buttons.length / files;
    const toRow = (r: number) => Math.min(Math.max(r, 0), rows - 1) * files + column;
    const moves: Record<string, number> = {
      ArrowLeft: column > 0 ? at - 1 : at,
      ArrowRight: column < files - 1 ? at + 1 : at,
      ArrowUp: toRow(row - 1),
      ArrowDown: toRow(row + 1),
      PageUp: toRow(row - PAGE_ROWS),
      PageDown: toRow(row + PAGE_ROWS),
      Home: at - column,
      End: at - column + files - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    buttons[at].tabIndex = -1;
    buttons[next].tabIndex = 0;
    buttons[next].focus();
    this.focusName = buttons[next].dataset.square ?? '';
  }
}

/** A `<span>` with a class and text. */
function span(className: string, text: string): HTMLSpanElement {
  const el = document.createElement('span');
  el.className = className;
  el.textContent = text;
  return el;
}

/** A coordinate on the board's edge (read by sight; each square's button says its own name). */
function coordinate(className: string, text: string): HTMLSpanElement {
  const el = span(`coord ${className}`, text);
  el.setAttribute('aria-hidden', 'true');
  return el;
}

/** A piece's glyph on a square, its letter in `data-piece`. */
function pieceMark(className: string, letter: string): HTMLSpanElement {
  const el = document.createElement('span');
  el.className = className;
  el.dataset.piece = letter;
  el.append(glyph(letter));
  return el;
}

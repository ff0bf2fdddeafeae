/**
 * The clickable board: one `<button>` per square (aria-label = its name, e.g. "e4"), rank 8 on
 * top. One square at a time is in the tab order (a roving tabindex); the arrow keys move focus
 * across the board, Home/End to the ends of a rank, and Enter or Space toggles the square as the
 * native button does. The buttons also show what the answer says of each square: its step, the
 * smallest path, the position's pieces; in a game, the last move's squares and the chosen piece's
 * journey (its squares numbered in the order it stood on them).
 */
import { squareName } from '../engine/squares.js';

/** What the board shows; square names throughout. */
export interface BoardView {
  files: number;
  ranks: number;
  sources: string[];
  targets: string[];
  obstacles: string[];
  /** Step k of every square on a shortest path (layer k). */
  steps: Map<string, number>;
  /** Squares of the smallest path. */
  path: Set<string>;
  /** Pieces of a position: letter (upper case white, lower case black). */
  pieces: Map<string, string>;
  /** A game's last move: its from and to squares. */
  moved?: string[];
  /** A journey: the times (0 = the start, k = after its move k) the piece stood on each square. */
  visits?: Map<string, number[]>;
  /** The square of the chosen piece. */
  selected?: string;
}

/** The letter of a piece: upper case white, lower case black (N for a knight). */
export function pieceLetter(role: string, color: string): string {
  const l = role === 'KNIGHT' ? 'N' : role.charAt(0);
  return color === 'WHITE' ? l : l.toLowerCase();
}

/** The board element, which keeps focus on the same square across redraws. */
export class BoardGrid {
  private focusName = '';

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

  /** Redraws every square from `view`. */
  draw(view: BoardView): void {
    const { files, ranks } = view;
    const board = { files, ranks };
    const hadFocus = this.root.contains(document.activeElement);
    const sources = new Set(view.sources);
    const targets = new Set(view.targets);
    const obstacles = new Set(view.obstacles);
    const moved = new Set(view.moved ?? []);
    const names = new Set<string>();
    this.root.style.setProperty('--files', String(files));
    this.root.setAttribute('aria-label', `Board, ${files} files by ${ranks} ranks`);
    const rows: HTMLElement[] = [];
    for (let rank = ranks - 1; rank >= 0; rank--) {
      const row = document.createElement('div');
      row.setAttribute('role', 'row');
      row.className = 'rank';
      for (let file = 0; file < files; file++) {
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
          view.selected === name ? 'selected' : '',
        ].filter(Boolean);
        classes.push(...states);
        if (view.path.has(name)) classes.push('on-path');
        if (moved.has(name)) classes.push('moved');
        const visits = view.visits?.get(name);
        if (visits) classes.push('journey');
        cell.className = classes.join(' ');
        cell.setAttribute('aria-pressed', String(states.length > 0));
        const step = view.steps.get(name);
        const piece = view.pieces.get(name);
        if (piece) cell.append(span('piece', piece));
        if (step !== undefined) {
          cell.dataset.step = String(step);
          cell.append(span('step', String(step)));
        }
        if (visits) {
          cell.dataset.visits = visits.join(',');
          cell.append(span('visit', visits.join('·')));
        }
        const title = [
          name,
          ...states,
          moved.has(name) ? 'last move' : '',
          step !== undefined ? `step ${step}` : '',
          piece ? `piece ${piece}` : '',
          visits ? `journey ${visits.join(', ')}` : '',
        ];
        cell.title = title.filter(Boolean).join(', ');
        row.append(cell);
      }
      rows.push(row);
    }
    this.root.replaceChildren(...rows);
    if (!names.has(this.focusName)) this.focusName = view.sources[0] ?? squareName(0, board);
    const current = this.button(this.focusName);
    if (current) {
      current.tabIndex = 0;
      if (hadFocus) current.focus();
    }
  }

  /** The button of a square. */
  private button(name: string): HTMLButtonElement | null {
    return this.root.querySelector(`button[data-square="${CSS.escape(name)}"]`);
  }

  /** Moves focus with the arrow keys, Home and End. */
  private keydown(event: KeyboardEvent): void {
    const buttons = [...this.root.querySelectorAll<HTMLButtonElement>('button[data-square]')];
    const at = buttons.indexOf(event.target as HTMLButtonElement);
    if (at < 0) return;
    const files = Number(this.root.style.getPropertyValue('--files')) || 8;
    const column = at % files;
    const moves: Record<string, number> = {
      ArrowLeft: column > 0 ? at - 1 : at,
      ArrowRight: column < files - 1 ? at + 1 : at,
      ArrowUp: at - files >= 0 ? at - files : at,
      ArrowDown: at + files < buttons.length ? at + files : at,
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

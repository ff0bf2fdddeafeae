/**
 * A game's moves as its author wrote them, laid out as lichess lays them out: the main line in
 * rows of a move number, White's move and Black's, each move with its marks (`!?`, `±`); a
 * comment or a variation breaks the rows (the side to move goes on after `…`); comments written
 * before a move come before it. Variations are indented, nested ones further, their moves
 * numbered as in a book and each one a button to its position. The result closes the list with
 * how the game ended. Comments' lichess commands (`[%clk 0:03:00]`, `[%cal Ge2e4]`) are data for
 * programs, not words, and are left out.
 *
 * The main line's moves are `button.ply` (`data-ply`: plies played), a variation's
 * `button.var-ply` (`data-line`: its path, game-lines.ts). One move is in the tab order, the
 * current one (a roving tabindex, as on the board).
 */
import type { GameData, PlyData, VariationData } from './game-api.js';
import { type Line, lineKey } from './game-lines.js';
import { moveLabel } from './game-state.js';
import { endingWords, nagMark, resultWords } from './notation.js';
import { el } from './render.js';

/** What the list needs of the game mode. */
export interface MoveListHost {
  /** A main-line move was clicked: the position after `ply` plies. */
  go(ply: number): void;
  /** A variation's move was clicked. */
  goLine(line: Line): void;
}

/** A comment as read: without the commands programs write into comments. */
function words(comment: string): string {
  return comment
    .replace(/\[%[^\]]*\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Comments as elements of `tag` (empty ones, commands only, left out). */
function comments(list: readonly string[], tag: string, className: string): HTMLElement[] {
  return list
    .map(words)
    .filter(Boolean)
    .map((text) => el(tag, className, text));
}

/** A move's SAN and its marks, for inside its button: a move's mark on it (`Na3?!`), a position's apart (`Nd5 +=`). */
function moveText(ply: PlyData): (Node | string)[] {
  const marks = ply.nags.flatMap((nag) => {
    const mark = nagMark(nag);
    const span = el('span', `nag ${mark.kind}`, mark.symbol);
    span.title = mark.title;
    return mark.kind === 'position' ? [' ', span] : [span];
  });
  return [el('span', 'san', ply.san), ...marks];
}

/** A move's name for a screen reader: `2. Na3, dubious move`. */
function moveName(ply: PlyData, prefix = ''): string {
  const marks = ply.nags.map((nag) => nagMark(nag).title.toLowerCase());
  return [`${prefix}${moveLabel(ply)}`, ...marks].join(', ');
}

/** The game's move list. */
export class MoveList {
  /** The list's element (it scrolls by itself, never the page). */
  readonly root = el('div', 'move-list');
  /** The main line's plies. */
  private total = 0;

  /** Binds to the game mode. */
  constructor(private readonly host: MoveListHost) {
    this.root.setAttribute('aria-label', 'Moves');
    this.root.setAttribute('role', 'group');
  }

  /** Shows a new game's moves, comments, variations and result. */
  fill(game: GameData): void {
    this.total = game.plies.length;
    const parts: HTMLElement[] = [];
    let row: HTMLElement | null = null;
    // A row left with White's move alone gets `…` in Black's column, when Black's move follows.
    const close = (more = true) => {
      if (row && row.childElementCount === 2 && more) row.append(el('span', 'ellipsis', '…'));
      row = null;
    };
    game.plies.forEach((ply, i) => {
      const before = comments(ply.commentsBefore, 'p', 'comment');
      if (before.length) {
        close();
        parts.push(el('div', 'interrupt before', ...before));
      }
      if (ply.color === 'WHITE' || !row) {
        close();
        row = el('div', 'move-row', el('span', 'move-no', `${Math.ceil(ply.number / 2)}.`));
        if (ply.color === 'BLACK') row.append(el('span', 'ellipsis', '…'));
        parts.push(row);
      }
      row.append(this.mainButton(ply, i + 1));
      const after = comments(ply.comments, 'p', 'comment');
      if (after.length || ply.variations.length) {
        close(i + 1 < game.plies.length);
        const lines = ply.variations.map((v, k) => this.variation(v, [i + 1, k]));
        parts.push(el('div', 'interrupt', ...after, ...lines));
      } else if (ply.color === 'BLACK') row = null;
    });
    close(false);
    const end = comments(game.comments, 'p', 'comment');
    if (end.length) parts.push(el('div', 'interrupt', ...end));
    parts.push(this.result(game));
    this.root.replaceChildren(...parts);
  }

  /** The result line: the score, who won, and how the game ended. */
  private result(game: GameData): HTMLElement {
    const ending = endingWords(game);
    const line = el(
      'p',
      'game-result',
      el('strong', 'score', game.result),
      ' ',
      el('span', 'result-words', [ending, resultWords(game.result)].filter(Boolean).join(' · ')),
    );
    if (game.boardEnding) line.dataset.ending = game.boardEnding;
    return line;
  }

  /** A main-line move's button. */
  private mainButton(ply: PlyData, played: number): HTMLButtonElement {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'ply';
    b.dataset.ply = String(played);
    b.tabIndex = -1;
    b.setAttribute('aria-label', moveName(ply));
    b.append(...moveText(ply));
    b.addEventListener('click', () => this.host.go(played));
    return b;
  }

  /**
   * A variation: its moves (numbered where a book numbers them: White's, and Black's that opens
   * the line or follows a comment or a line), comments, and nested variations; `pairs` is its
   * path so far (game-lines.ts).
   */
  private variation(variation: VariationData, pairs: Line): HTMLElement {
    const box = el('div', 'variation');
    if (!variation.plies) {
      box.append(el('span', 'deeper', 'A deeper line, not read here (the downloaded PGN has it).'));
      return box;
    }
    // Words apart as in a book, for a screen reader and a copy as much as for the eye.
    const parts: HTMLElement[] = [];
    let numbered = true;
    variation.plies.forEach((ply, k) => {
      const before = comments(ply.commentsBefore, 'span', 'comment');
      parts.push(...before);
      const move = Math.ceil(ply.number / 2);
      if (ply.color === 'WHITE') parts.push(el('span', 'var-no', `${move}.`));
      else if (numbered || before.length) parts.push(el('span', 'var-no', `${move}...`));
      const line = [...pairs, k + 1];
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'var-ply';
      b.dataset.line = lineKey(line);
      b.tabIndex = -1;
      b.setAttribute('aria-label', moveName(ply, 'variation: '));
      b.append(...moveText(ply));
      b.addEventListener('click', () => this.host.goLine(line));
      parts.push(b);
      const after = comments(ply.comments, 'span', 'comment');
      parts.push(...after);
      parts.push(...ply.variations.map((v, j) => this.variation(v, [...line.slice(0, -1), k + 1, j])));
      numbered = after.length > 0 || ply.variations.length > 0;
    });
    if (variation.stopped) parts.push(el('span', 'stopped', `(the line stops: ${variation.stopped})`));
    box.append(...parts.flatMap((part, i) => (i === 0 ? [part] : [' ', part])));
    return box;
  }

  /** Marks the current move (and the chosen piece's, `journey` by ply number) and puts it in the tab order. */
  show(ply: number, line: Line | null, journey: ReadonlySet<number>, plyNumber: (played: number) => number): void {
    const key = line ? lineKey(line) : null;
    let current: HTMLButtonElement | null = null;
    for (const b of this.root.querySelectorAll<HTMLButtonElement>('button.ply, button.var-ply')) {
      const main = b.classList.contains('ply');
      const at = Number(b.dataset.ply);
      const here = main ? key === null && at === ply : b.dataset.line === key;
      b.classList.toggle('current', here);
      if (main) b.classList.toggle('journey-ply', journey.has(plyNumber(at)));
      if (here) {
        b.setAttribute('aria-current', 'step');
        current = b;
      } else b.removeAttribute('aria-current');
      b.tabIndex = -1;
    }
    const focusable = current ?? this.root.querySelector<HTMLButtonElement>('button.ply');
    if (focusable) focusable.tabIndex = 0;
    // At the last move, what follows it (its comments, the result) comes into view too.
    const end = this.root.querySelector<HTMLElement>('.game-result');
    if (key === null && ply === this.total && end) this.reveal(end);
    if (current) this.reveal(current);
  }

  /** Focuses the move in the tab order (after a key moved it). */
  focusCurrent(): void {
    this.root.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
  }

  /** Scrolls the list (only it, never the page) to show a move. */
  private reveal(b: HTMLElement): void {
    const list = this.root.getBoundingClientRect();
    const at = b.getBoundingClientRect();
    if (at.top < list.top) this.root.scrollTop += at.top - list.top;
    else if (at.bottom > list.bottom) this.root.scrollTop += at.bottom - list.bottom;
  }
}

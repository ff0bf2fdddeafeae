/**
 * The viewer's game mode, so the path question's page (main.ts) stays about paths: a pasted PGN,
 * or a saved analysis's game, asked as `game(pgn:)`; its tags and plies (a move list); stepping
 * through them with buttons, and with Left/Right and Home/End anywhere but the board and the form
 * fields (the board keeps its arrows for moving between squares); the position after the current
 * ply on the board with the move's squares marked. A piece clicked (or Enter on it) shows its
 * journey (journey.ts), whose routes are compared with the moves it used. The spot lives in the
 * URL's hash; a pasted PGN is kept in sessionStorage for a reload, never in the URL.
 */
import type { Saveable } from './analyses.js';
import { askGame, type GameData, type GameSource } from './api.js';
import type { BoardGrid } from './board.js';
import {
  fenAfter,
  type GameSpot,
  gameBoard,
  gameTitle,
  hashFromSpot,
  journeyOn,
  moveLabel,
  pgnOf,
  pieceName,
  spotFromHash,
  tag,
} from './game-state.js';
import { JourneyPanel } from './journey.js';
import { el } from './render.js';

/** Where a pasted PGN waits for a reload of the page. */
const STORED_PGN = 'chess-paths.pgn';

/** What the game mode needs of the page. */
export interface GameHost {
  grid: BoardGrid;
  /** The line above the board that says what to do. */
  hint: HTMLElement;
  /** The page's error area. */
  error: HTMLElement;
  /** The game mode starts (true) or ends (false): the page shows the path question again. */
  onMode(active: boolean): void;
  /** What can be saved has changed. */
  onChange(): void;
  /** Asks path questions on a position (the page leaves the game for them). */
  askPaths(fen: string): void;
}

/** A plain button. */
function button(text: string, id = '', label = ''): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (id) b.id = id;
  if (label) b.setAttribute('aria-label', label);
  return b;
}

/** The game mode: its panel, its navigation under the board, and what it draws on the board. */
export class GameMode {
  private game: GameData | null = null;
  private source: GameSource | null = null;
  private spot: GameSpot = { analysis: null, ply: 0, piece: null, route: null };
  private serial = 0;
  private readonly pgnInput: HTMLTextAreaElement;
  private readonly leaveButton: HTMLButtonElement;
  private readonly nav = {
    first: button('« Start', 'game-first', 'First: the start position'),
    prev: button('‹ Back', 'game-prev', 'Previous move'),
    next: button('Next ›', 'game-next', 'Next move'),
    last: button('End »', 'game-last', 'Last move'),
    status: el('p', 'ply-status'),
    fen: el('code', 'ply-fen'),
    paths: button('Paths on this position', 'game-paths'),
  };
  private readonly tags = el('dl', 'facts game-tags');
  private readonly moves = el('ol', 'move-list');
  private readonly journey: JourneyPanel;

  /** Binds to the page: the PGN field and its buttons, `navRoot` under the board, `panelRoot` beside it. */
  constructor(
    private readonly host: GameHost,
    navRoot: HTMLElement,
    private readonly panelRoot: HTMLElement,
  ) {
    this.pgnInput = document.getElementById('pgn') as HTMLTextAreaElement;
    this.leaveButton = document.getElementById('leave-game') as HTMLButtonElement;
    document.getElementById('show-game')?.addEventListener('click', () => void this.show());
    this.pgnInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void this.show();
    });
    this.leaveButton.addEventListener('click', () => this.leave(true));
    const { first, prev, next, last, status, fen, paths } = this.nav;
    first.addEventListener('click', () => this.go(0));
    prev.addEventListener('click', () => this.go(this.spot.ply - 1));
    next.addEventListener('click', () => this.go(this.spot.ply + 1));
    last.addEventListener('click', () => this.go(this.game?.plies.length ?? 0));
    paths.addEventListener('click', () => host.askPaths(this.fen()));
    status.setAttribute('role', 'status');
    navRoot.replaceChildren(
      el('div', 'game-buttons', first, prev, next, last),
      status,
      el('p', 'fen-line', el('span', 'fen-label', 'FEN '), fen, ' ', paths),
    );
    this.journey = new JourneyPanel({
      go: (ply) => this.go(ply),
      moveTo: (spot) => this.move(spot),
      changed: () => this.render(),
    });
    panelRoot.replaceChildren(this.tags, el('h3', '', 'Moves'), this.moves, this.journey.root);
    document.addEventListener('keydown', (event) => this.keydown(event));
  }

  /** True while a game is on screen. */
  get active(): boolean {
    return this.game !== null;
  }

  /** Reads the pasted PGN and shows its game, or the server's message in the page's error area. */
  private async show(): Promise<void> {
    const pgn = this.pgnInput.value.trim();
    if (!pgn) {
      this.host.error.textContent = 'Paste a game in PGN first.';
      return;
    }
    const problem = await this.load({ pgn }, { analysis: null, ply: 0, piece: null, route: null }, 'push');
    // A game already on screen stays there: the message says it is not the text just pasted.
    if (problem)
      this.host.error.textContent = this.active ? `${problem} (the board still shows the game before)` : problem;
    else if (problem === null) {
      try {
        sessionStorage.setItem(STORED_PGN, pgn);
      } catch {
        // No storage (a private window): a reload forgets the game, nothing else is lost.
      }
    }
  }

  /** Opens a saved analysis's game at the spot its notes name (`viewer#ply=...`), else at the start. */
  async openSaved(id: string, notes: string | null): Promise<void> {
    const saved = notes?.startsWith('viewer#') ? spotFromHash(notes.slice(6)) : null;
    const spot = { ...(saved ?? { ply: 0, piece: null, route: null }), analysis: id };
    const problem = await this.load({ analysis: id }, spot, 'push');
    if (problem !== null) this.host.error.textContent = problem;
  }

  /**
   * Follows the URL's hash (a load, back or forward): true when it names a game, which is shown
   * (asked again when it is not the one on screen); false when not, leaving any game on screen.
   */
  follow(hash: string): boolean {
    const spot = spotFromHash(hash);
    if (!spot) {
      if (this.active) this.leave(false);
      return false;
    }
    const same =
      this.source && ('pgn' in this.source ? spot.analysis === null : this.source.analysis === spot.analysis);
    if (this.game && same) {
      this.move(spot);
      return true;
    }
    let stored: string | null = null;
    try {
      stored = sessionStorage.getItem(STORED_PGN);
    } catch {
      stored = null;
    }
    if (!spot.analysis && !stored) {
      history.replaceState(null, '', location.pathname + location.search);
      return false;
    }
    if (stored && !spot.analysis) this.pgnInput.value = stored;
    void this.load(spot.analysis ? { analysis: spot.analysis } : { pgn: stored ?? '' }, spot, 'replace').then(
      (problem) => {
        if (!problem || this.active) return;
        this.host.onMode(false);
        this.host.error.textContent = problem;
      },
    );
    return true;
  }

  /** Asks for a game and shows it at `spot`; else answers what went wrong ('' when overtaken). */
  private async load(source: GameSource, spot: GameSpot, entry: 'push' | 'replace'): Promise<string | null> {
    const mine = ++this.serial;
    this.host.error.textContent = '';
    const answer = await askGame(source);
    if (mine !== this.serial) return '';
    if (!answer.ok) return answer.problem.message;
    if (!answer.data) return 'That analysis has no game.';
    this.game = answer.data;
    this.source = source;
    if ('analysis' in source) this.pgnInput.value = pgnOf(answer.data);
    this.fill(answer.data);
    this.leaveButton.hidden = false;
    this.panelRoot.hidden = false;
    this.host.onMode(true);
    this.journey.reset(answer.data, source);
    this.move(spot, entry);
    return null;
  }

  /** Leaves the game mode; `push` makes that a history entry (the path question's URL). */
  leave(push: boolean): void {
    this.serial++;
    this.game = null;
    this.source = null;
    this.journey.reset(null, null);
    this.leaveButton.hidden = true;
    this.panelRoot.hidden = true;
    if (push) history.pushState(null, '', location.pathname + location.search);
    this.host.onMode(false);
  }

  /** Goes to a spot: its ply, piece and route (asked again when it changed). */
  private move(spot: GameSpot, entry: 'push' | 'replace' = 'replace'): void {
    const game = this.game;
    if (!game) return;
    const ply = Math.max(0, Math.min(spot.ply, game.plies.length));
    this.spot = { ...spot, ply, analysis: this.source && 'analysis' in this.source ? this.source.analysis : null };
    this.journey.follow(this.spot);
    this.render(entry);
  }

  /** Steps to the position after `ply` plies. */
  go(ply: number): void {
    if (this.game) this.move({ ...this.spot, ply });
  }

  /** The FEN on the board. */
  private fen(): string {
    return this.game ? fenAfter(this.game, this.spot.ply) : '';
  }

  /** Shows a new game's tags and moves. */
  private fill(game: GameData): void {
    const rows = ['White', 'Black', 'Event', 'Site', 'Date'].map((name) => [name, tag(game, name)]);
    rows.push(['Result', tag(game, 'Result') || game.result]);
    this.tags.replaceChildren(
      ...rows.filter(([, value]) => value).flatMap(([name, value]) => [el('dt', '', name), el('dd', '', value)]),
    );
    this.tags.setAttribute('aria-label', gameTitle(game));
    let item: HTMLLIElement | null = null;
    const items: HTMLLIElement[] = [];
    game.plies.forEach((ply, i) => {
      if (ply.color === 'WHITE' || !item) {
        item = document.createElement('li');
        item.value = Math.ceil(ply.number / 2);
        if (ply.color === 'BLACK') item.append(el('span', 'ellipsis', '…'));
        items.push(item);
      }
      const b = button(ply.san, '', moveLabel(ply));
      b.className = 'ply';
      b.dataset.ply = String(i + 1);
      b.tabIndex = -1;
      b.addEventListener('click', () => this.go(i + 1));
      item.append(b);
    });
    this.moves.replaceChildren(...items);
  }

  /** Redraws the board, the navigation and the marks of the current ply. */
  private render(entry: 'push' | 'replace' = 'replace'): void {
    const game = this.game;
    if (!game) return;
    const url = location.pathname + location.search + hashFromSpot(this.spot);
    if (entry === 'push') history.pushState(null, '', url);
    else if (location.href !== new URL(url, location.href).href) history.replaceState(null, '', url);
    const { ply } = this.spot;
    const last = game.plies[ply - 1];
    this.nav.status.textContent = last
      ? `After ${moveLabel(last)} (ply ${ply} of ${game.plies.length})`
      : `Start position (${game.plies.length} plies)`;
    this.nav.fen.textContent = this.fen();
    this.nav.first.disabled = this.nav.prev.disabled = ply === 0;
    this.nav.next.disabled = this.nav.last.disabled = ply === game.plies.length;
    const journeyPlies = new Set(this.journey.chosen()?.plies ?? []);
    for (const b of this.moves.querySelectorAll<HTMLButtonElement>('button.ply')) {
      const at = Number(b.dataset.ply);
      const current = at === ply;
      b.classList.toggle('current', current);
      b.classList.toggle('journey-ply', journeyPlies.has(game.plies[at - 1].number));
      if (current) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
      b.tabIndex = current || (ply === 0 && at === 1) ? 0 : -1;
      if (current) this.reveal(b);
    }
    const chosen = this.journey.chosen();
    this.host.hint.textContent = chosen
      ? `${pieceName(chosen)}: its squares are numbered in the order it stood on them.`
      : 'Click a piece (or press Enter on it) to follow its journey.';
    const view = gameBoard(game, ply, chosen, this.journey.route());
    this.host.grid.draw(view);
    this.host.onChange();
  }

  /** Scrolls the move list (only it, never the page) to show a move. */
  private reveal(b: HTMLElement): void {
    const list = this.moves;
    if (b.offsetTop < list.scrollTop) list.scrollTop = b.offsetTop;
    else if (b.offsetTop + b.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = b.offsetTop + b.offsetHeight - list.clientHeight;
    }
  }

  /** A click (or Enter) on a square: chooses the piece standing there, or lets it go. */
  pick(square: string): void {
    const game = this.game;
    if (!game) return;
    const index = journeyOn(game, square, this.spot.ply);
    if (index < 0) {
      this.host.hint.textContent = `No piece stands on ${square} now: click a piece.`;
      return;
    }
    const start = game.journeys[index].squares[0];
    this.move({ ...this.spot, piece: this.spot.piece === start ? null : start, route: null });
  }

  /** Left/Right and Home/End step through the plies, except on the board and in form fields. */
  private keydown(event: KeyboardEvent): void {
    const game = this.game;
    if (!game || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target as HTMLElement;
    if (target.closest?.('#board, input, textarea, select, [contenteditable="true"]')) return;
    const { ply } = this.spot;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: game.plies.length }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    this.go(to);
    if (target.closest?.('.move-list')) {
      this.moves.querySelector<HTMLButtonElement>('button.ply[tabindex="0"]')?.focus();
    }
  }

  /** The game as an analysis to save: its PGN, the spot in the notes, and the route asked, if any. */
  saveable(): Saveable | null {
    const game = this.game;
    if (!game || !this.source) return null;
    const pgn = 'pgn' in this.source ? this.source.pgn : pgnOf(game);
    const route = this.journey.routeQuery();
    const notes = `viewer${hashFromSpot({ ...this.spot, analysis: null })}`;
    return { title: gameTitle(game), notes, fen: '', queries: route ? [route] : [], pgn };
  }
}

/**
 * The viewer's game mode, so the path question's page (main.ts) stays about paths: a pasted PGN,
 * or a saved analysis's game, asked as `game(pgn:)`; its tags and the annotated PGN's download
 * (game-header.ts), its moves as the author wrote them with comments, marks, variations and the
 * result (move-list.ts); stepping through them with buttons, and with Left/Right and Home/End
 * anywhere but the board and the form fields (the board keeps its arrows for moving between
 * squares). Left and Right step along the line on the board, a variation's too; Home and End go
 * to the main line's ends. The position on the board has the move's squares marked. A piece
 * clicked (or Enter on it) shows its journey and maneuvers (journey.ts), drawn on the board. The
 * spot lives in the URL's hash; a pasted PGN is kept in sessionStorage for a reload, never in the
 * URL.
 */
import type { Saveable } from './analyses.js';
import type { BoardGrid } from './board.js';
import { askGame, type GameData, type GameSource } from './game-api.js';
import { GameHeader } from './game-header.js';
import { branchPly, type Line, lineAt, lineBack, lineForward, replacedMove } from './game-lines.js';
import {
  fenAfter,
  type GameSpot,
  gameBoard,
  gameTitle,
  hashFromSpot,
  journeyOn,
  moveLabel,
  pieceName,
  spotFromHash,
} from './game-state.js';
import { JourneyPanel } from './journey.js';
import { MoveList } from './move-list.js';
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
  private readonly header: GameHeader;
  private readonly moves: MoveList;
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
    prev.addEventListener('click', () => this.step(-1));
    next.addEventListener('click', () => this.step(1));
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
    this.header = new GameHeader(host.error);
    this.moves = new MoveList({ go: (ply) => this.go(ply), goLine: (line) => this.goLine(line) });
    panelRoot.replaceChildren(...this.header.parts, el('h3', '', 'Moves'), this.moves.root, this.journey.root);
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
    if ('analysis' in source) this.pgnInput.value = answer.data.text ?? '';
    this.header.fill(answer.data, source);
    this.moves.fill(answer.data);
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

  /** Goes to a spot: its ply (or variation's move), piece, maneuver and route (asked again when it changed). */
  private move(spot: GameSpot, entry: 'push' | 'replace' = 'replace'): void {
    const game = this.game;
    if (!game) return;
    // A line the game lacks (a URL from another game) is the main line.
    const line = spot.line && lineAt(game, spot.line) ? spot.line : null;
    const ply = line ? branchPly(line) : Math.max(0, Math.min(spot.ply, game.plies.length));
    const analysis = this.source && 'analysis' in this.source ? this.source.analysis : null;
    this.spot = { ...spot, ply, line, analysis };
    this.journey.follow(this.spot);
    this.render(entry);
  }

  /** Steps to the position after `ply` plies of the main line. */
  go(ply: number): void {
    if (this.game) this.move({ ...this.spot, ply, line: null });
  }

  /** Shows a variation's move. */
  private goLine(line: Line): void {
    if (this.game) this.move({ ...this.spot, line });
  }

  /** One move forward (1) or back (-1) along the line on the board: the main line, or a variation. */
  private step(by: 1 | -1): void {
    const game = this.game;
    const line = this.spot.line;
    if (!game) return;
    if (!line) this.go(this.spot.ply + by);
    else if (by === 1) this.goLine(lineForward(game, line));
    else {
      const back = lineBack(line);
      if ('ply' in back) this.go(back.ply);
      else this.goLine(back.line);
    }
  }

  /** The FEN on the board. */
  private fen(): string {
    return this.game ? fenAfter(this.game, this.spot.ply, this.spot.line ?? null) : '';
  }

  /** Redraws the board, the navigation and the marks of the current move. */
  private render(entry: 'push' | 'replace' = 'replace'): void {
    const game = this.game;
    if (!game) return;
    const url = location.pathname + location.search + hashFromSpot(this.spot);
    if (entry === 'push') history.pushState(null, '', url);
    else if (location.href !== new URL(url, location.href).href) history.replaceState(null, '', url);
    const { ply } = this.spot;
    const line = this.spot.line ?? null;
    const inLine = line ? lineAt(game, line) : null;
    const last = game.plies[ply - 1];
    const replaced = line ? replacedMove(game, line) : null;
    if (inLine && replaced) {
      this.nav.status.textContent = `In a variation: after ${moveLabel(inLine.ply)} (instead of ${moveLabel(replaced)})`;
    } else {
      this.nav.status.textContent = last
        ? `After ${moveLabel(last)} (ply ${ply} of ${game.plies.length})`
        : `Start position (${game.plies.length} plies)`;
    }
    this.nav.fen.textContent = this.fen();
    this.nav.first.disabled = this.nav.prev.disabled = ply === 0 && !line;
    this.nav.last.disabled = ply === game.plies.length && !line;
    this.nav.next.disabled = inLine ? inLine.index === inLine.plies.length : ply === game.plies.length;
    const chosen = this.journey.chosen();
    const number = (played: number) => game.plies[played - 1]?.number ?? 0;
    this.moves.show(ply, line, new Set(chosen?.plies ?? []), number);
    if (inLine) this.host.hint.textContent = 'A variation: journeys and maneuvers are of the main line.';
    else if (chosen)
      this.host.hint.textContent = `${pieceName(chosen)}: its squares are numbered in the order it stood on them.`;
    else this.host.hint.textContent = 'Click a piece (or press Enter on it) to follow its journey.';
    const view = gameBoard(game, ply, chosen, this.journey.route(), { line, ways: this.journey.ways() });
    this.host.grid.draw(view);
    this.host.onChange();
  }

  /** A click (or Enter) on a square: chooses the piece standing there, or lets it go. */
  pick(square: string): void {
    const game = this.game;
    if (!game) return;
    if (this.spot.line) {
      this.host.hint.textContent = 'Journeys follow the main line: click one of its moves, then a piece.';
      return;
    }
    const index = journeyOn(game, square, this.spot.ply);
    if (index < 0) {
      this.host.hint.textContent = `No piece stands on ${square} now: click a piece.`;
      return;
    }
    const start = game.journeys[index].squares[0];
    this.move({ ...this.spot, piece: this.spot.piece === start ? null : start, route: null, maneuver: null });
  }

  /**
   * Left/Right step along the line on the board, Home/End to the main line's ends; not on the
   * board (its arrows move between squares) nor in form fields. A key pressed in the move list
   * keeps the focus on the current move.
   */
  private keydown(event: KeyboardEvent): void {
    const game = this.game;
    if (!game || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target as HTMLElement;
    if (target.closest?.('#board, input, textarea, select, [contenteditable="true"]')) return;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => this.step(-1),
      ArrowRight: () => this.step(1),
      Home: () => this.go(0),
      End: () => this.go(game.plies.length),
    };
    const act = keys[event.key];
    if (!act) return;
    event.preventDefault();
    act();
    if (target.closest?.('.move-list')) this.moves.focusCurrent();
  }

  /** The game as an analysis to save: its PGN, the spot in the notes, and the route asked, if any. */
  saveable(): Saveable | null {
    const game = this.game;
    if (!game || !this.source) return null;
    const pgn = 'pgn' in this.source ? this.source.pgn : (game.text ?? '');
    const route = this.journey.routeQuery();
    const notes = `viewer${hashFromSpot({ ...this.spot, analysis: null })}`;
    return { title: gameTitle(game), notes, fen: '', queries: route ? [route] : [], pgn };
  }
}

/**
 * The chosen piece's journey, beside a game (game.ts): its moves listed (each one a button to its
 * ply), how it ended (captured, promoted), and its routes: two of its moves, first and last
 * (1-based), asked as `Journey.route` and compared with the moves it used, "used 3 moves, the
 * shortest path was 2: a detour". The game mode draws the route's layers on the board.
 */
import { askRoute, type GameData, type GameSource, type JourneyData, type Result } from './api.js';
import {
  fenAfter,
  type GameSpot,
  moveLabel,
  moveOf,
  pieceName,
  plyIndex,
  promotionMove,
  unmatchedMove,
  verdict,
} from './game-state.js';
import { el, summary } from './render.js';

/** What the panel needs of the game mode. */
export interface JourneyHost {
  /** Shows the position after `ply` plies. */
  go(ply: number): void;
  /** Goes to a spot: a route asked moves to the position it is asked on. */
  moveTo(spot: GameSpot): void;
  /** A route's answer (or problem) arrived: redraw. */
  changed(): void;
}

/** A `<select>` with an id. */
function select(id: string): HTMLSelectElement {
  const s = document.createElement('select');
  s.id = id;
  return s;
}

/** The journey panel of the game mode. */
export class JourneyPanel {
  /** The panel's element. */
  readonly root = el('section', 'journey-panel');
  private game: GameData | null = null;
  private source: GameSource | null = null;
  private index = -1;
  /** The route the answer is (or will be) for. */
  private asked: [number, number] | null = null;
  private answer: Result | null = null;
  private problem = '';
  private serial = 0;
  private readonly title = el('h3', '', 'Piece');
  private readonly body = el('div', 'journey-body');
  private readonly first = select('route-first');
  private readonly last = select('route-last');
  private readonly form = document.createElement('form');
  private readonly result = el('div', 'route-answer');

  /** Builds the panel; `host` is the game mode. */
  constructor(private readonly host: JourneyHost) {
    const ask = document.createElement('button');
    ask.type = 'submit';
    ask.id = 'ask-route';
    ask.textContent = 'Compare with the shortest path';
    this.form.className = 'route-form';
    this.form.setAttribute('aria-label', 'Route between two moves');
    this.form.append(el('label', '', 'From move ', this.first), el('label', '', 'to move ', this.last), ask);
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.ask();
    });
    this.first.addEventListener('change', () => this.keepRange('first'));
    this.last.addEventListener('change', () => this.keepRange('last'));
    this.result.setAttribute('aria-live', 'polite');
    this.root.replaceChildren(this.title, this.body, this.form, this.result);
    this.show();
  }

  /** Starts again on a game (null: none). */
  reset(game: GameData | null, source: GameSource | null): void {
    this.game = game;
    this.source = source;
    this.index = -1;
    this.forget();
    this.show();
  }

  /** Follows a spot: its piece, and its route (asked when it is not the one on screen). */
  follow(spot: GameSpot): void {
    const game = this.game;
    if (!game) return;
    const index = spot.piece ? game.journeys.findIndex((j) => j.squares[0] === spot.piece) : -1;
    if (index !== this.index) {
      this.index = index;
      this.forget();
      this.show();
    }
    const route = index >= 0 ? spot.route : null;
    if (route === null) {
      if (this.asked) this.forget();
      return;
    }
    if (this.asked && this.asked[0] === route[0] && this.asked[1] === route[1]) return;
    this.asked = route;
    this.answer = null;
    this.problem = '';
    this.first.value = String(route[0]);
    this.last.value = String(route[1]);
    void this.fetch(index, route);
  }

  /**
   * Keeps the form's two moves a route the API answers, moving the one not just `changed`: the
   * first no later than the last, and both on one side of a pawn's promotion (a route ends at the
   * promoting move, or starts after it as the new piece).
   */
  private keepRange(changed: 'first' | 'last'): void {
    const journey = this.chosen();
    const promotion = journey ? promotionMove(journey) : null;
    let first = Number(this.first.value);
    let last = Number(this.last.value);
    if (changed === 'first') {
      last = Math.max(last, first);
      if (promotion !== null && first <= promotion && last > promotion) last = promotion;
    } else {
      first = Math.min(first, last);
      if (promotion !== null && last > promotion && first <= promotion) first = promotion + 1;
    }
    this.first.value = String(first);
    this.last.value = String(last);
  }

  /** Drops the route on screen (and any answer still on its way). */
  private forget(): void {
    this.serial++;
    this.asked = null;
    this.answer = null;
    this.problem = '';
    this.result.replaceChildren();
    this.result.removeAttribute('aria-busy');
  }

  /** The chosen piece's journey, or null. */
  chosen(): JourneyData | null {
    return this.game?.journeys[this.index] ?? null;
  }

  /** The route on screen, or null. */
  route(): Result | null {
    return this.asked ? this.answer : null;
  }

  /** The route on screen as a path query (as the viewer saves a position's question), or null. */
  routeQuery(): object | null {
    const journey = this.chosen();
    const answer = this.route();
    if (!journey || !answer || !this.asked) return null;
    const { piece, board, mask, sources, targets } = answer;
    const fen = fenAfter(this.game as GameData, plyIndex(this.game as GameData, journey.plies[this.asked[0] - 1]));
    // Plain values only: the answer's objects carry urql's __typename.
    const size = { files: board.files, ranks: board.ranks };
    return { piece, board: size, from: [...sources.squares], to: [...targets.squares], blocked: [], fen, mask };
  }

  /** Asks the route the form names: the board goes to the position it is asked on. */
  private ask(): void {
    const game = this.game;
    const journey = this.chosen();
    if (!game || !journey) return;
    const first = Number(this.first.value);
    const last = Number(this.last.value);
    const ply = plyIndex(game, journey.plies[first - 1]);
    this.host.moveTo({ analysis: null, ply, piece: journey.squares[0], route: [first, last] });
  }

  /** Asks the server for a route and shows it. */
  private async fetch(index: number, [first, last]: [number, number]): Promise<void> {
    if (!this.source) return;
    const mine = ++this.serial;
    this.result.setAttribute('aria-busy', 'true');
    const answer = await askRoute(this.source, index, first, last);
    if (mine !== this.serial) return;
    this.result.removeAttribute('aria-busy');
    this.answer = answer.ok ? answer.data : null;
    this.problem = answer.ok ? (answer.data ? '' : 'No route came back.') : answer.problem.message;
    this.showAnswer(first, last);
    this.host.changed();
  }

  /** Shows a route's verdict and its answer, or its problem. */
  private showAnswer(first: number, last: number): void {
    const journey = this.chosen();
    const game = this.game;
    if (!journey || !game) return;
    if (!this.answer) {
      this.result.replaceChildren(el('p', 'error', this.problem));
      return;
    }
    const used = last - first + 1;
    const before = moveOf(game, journey, first);
    const line = el(
      'p',
      'route-verdict',
      `Moves ${first} to ${last} (${journey.squares[first - 1]} to ${journey.squares[last]}) `,
      `on the position before ${moveLabel(before)}: ${verdict(used, this.answer.distance, unmatchedMove(game, journey, first, last))}.`,
    );
    line.dataset.used = String(used);
    line.dataset.distance = String(this.answer.distance ?? '');
    this.result.replaceChildren(line, summary(this.answer));
  }

  /** Shows the chosen piece's moves and the route form (or what to do when none is chosen). */
  private show(): void {
    const journey = this.chosen();
    const game = this.game;
    this.form.hidden = true;
    if (!journey || !game) {
      this.title.textContent = 'Piece';
      this.body.replaceChildren(el('p', 'journey-hint', 'Click a piece on the board to follow its journey.'));
      return;
    }
    this.title.textContent = pieceName(journey);
    const list = el('ol', 'journey-moves');
    list.setAttribute('start', '0');
    list.append(el('li', '', `on ${journey.squares[0]} at the start`));
    const options: HTMLOptionElement[] = [];
    journey.plies.forEach((number, k) => {
      const at = plyIndex(game, number);
      const ply = game.plies[at];
      const go = document.createElement('button');
      go.type = 'button';
      go.className = 'journey-move';
      go.textContent = moveLabel(ply);
      go.addEventListener('click', () => this.host.go(at + 1));
      list.append(el('li', '', go, ` to ${journey.squares[k + 1]}`));
      options.push(new Option(`${k + 1}: ${moveLabel(ply)}`, String(k + 1)));
    });
    const end: (string | Node)[] = [];
    if (journey.promotedTo) end.push(`Promoted to a ${journey.promotedTo.toLowerCase()}. `);
    if (journey.capturedAt !== null) {
      const at = plyIndex(game, journey.capturedAt);
      const by = document.createElement('button');
      by.type = 'button';
      by.className = 'journey-move';
      by.textContent = moveLabel(game.plies[at]);
      by.addEventListener('click', () => this.host.go(at + 1));
      end.push('Captured by ', by, '.');
    } else if (journey.plies.length === 0) end.push('It never moved.');
    this.body.replaceChildren(list, ...(end.length ? [el('p', 'journey-end', ...end)] : []));
    if (options.length === 0) return;
    this.first.replaceChildren(...options);
    this.last.replaceChildren(...options.map((o) => new Option(o.text, o.value)));
    this.first.value = '1';
    this.last.value = String(promotionMove(journey) ?? options.length);
    this.form.hidden = false;
  }
}

/**
 * Any span of a piece's moves against the shortest path (journey.ts holds it under the piece's
 * maneuvers): two of its moves, first and last (1-based), asked as `Journey.route` on the
 * position before the first, and the moves it used counted against the route's distance. The
 * game mode draws the route's layers on the board.
 */
import type { Result } from './api.js';
import { askRoute, type GameData, type GameSource, type JourneyData } from './game-api.js';
import {
  fenAfter,
  type GameSpot,
  moveLabel,
  moveOf,
  plyIndex,
  promotionMove,
  unmatchedMove,
  verdict,
} from './game-state.js';
import { el, summary } from './render.js';

/** What the form needs of the journey panel. */
export interface RouteHost {
  /** The game and where it comes from, and the chosen piece (its journey and index), if any. */
  context(): { game: GameData; source: GameSource; journey: JourneyData; index: number } | null;
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

/** The route form and its answer. */
export class RouteForm {
  /** The form and the answer, in order. */
  readonly parts: HTMLElement[];
  /** The route the answer is (or will be) for. */
  private asked: [number, number] | null = null;
  private answer: Result | null = null;
  private problem = '';
  private serial = 0;
  private readonly first = select('route-first');
  private readonly last = select('route-last');
  private readonly form = document.createElement('form');
  private readonly result = el('div', 'route-answer');
  private readonly heading = el('h4', 'route-heading', 'Any of its moves against the shortest path');

  /** Builds the form; `host` is the journey panel. */
  constructor(private readonly host: RouteHost) {
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
    this.parts = [this.heading, this.form, this.result];
    this.offer(null);
  }

  /** Offers a piece's moves (null: none chosen, the form hides), by default up to a promotion. */
  offer(game: { game: GameData; journey: JourneyData } | null): void {
    const options = (game?.journey.plies ?? []).map((number, k) => {
      const ply = game?.game.plies[plyIndex(game.game, number)] as GameData['plies'][0];
      return new Option(`${k + 1}: ${moveLabel(ply)}`, String(k + 1));
    });
    this.form.hidden = this.heading.hidden = options.length === 0;
    if (!game || options.length === 0) return;
    this.first.replaceChildren(...options);
    this.last.replaceChildren(...options.map((o) => new Option(o.text, o.value)));
    this.first.value = '1';
    this.last.value = String(promotionMove(game.journey) ?? options.length);
  }

  /** Follows a spot's route: asked when it is not the one on screen, dropped when there is none. */
  follow(route: [number, number] | null): void {
    const context = this.host.context();
    if (route === null || !context) {
      if (this.asked) this.forget();
      return;
    }
    if (this.asked && this.asked[0] === route[0] && this.asked[1] === route[1]) return;
    this.asked = route;
    this.answer = null;
    this.problem = '';
    this.first.value = String(route[0]);
    this.last.value = String(route[1]);
    void this.fetch(context.source, context.index, route);
  }

  /**
   * Keeps the form's two moves a route the API answers, moving the one not just `changed`: the
   * first no later than the last, and both on one side of a pawn's promotion (a route ends at the
   * promoting move, or starts after it as the new piece).
   */
  private keepRange(changed: 'first' | 'last'): void {
    const journey = this.host.context()?.journey;
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
  forget(): void {
    this.serial++;
    this.asked = null;
    this.answer = null;
    this.problem = '';
    this.result.replaceChildren();
    this.result.removeAttribute('aria-busy');
  }

  /** The route on screen, or null. */
  route(): Result | null {
    return this.asked ? this.answer : null;
  }

  /** The route on screen as a path query (as the viewer saves a position's question), or null. */
  routeQuery(): object | null {
    const context = this.host.context();
    const answer = this.route();
    if (!context || !answer || !this.asked) return null;
    const { game, journey } = context;
    const { piece, board, mask, sources, targets } = answer;
    const fen = fenAfter(game, plyIndex(game, journey.plies[this.asked[0] - 1]));
    // Plain values only: the answer's objects carry urql's __typename.
    const size = { files: board.files, ranks: board.ranks };
    return { piece, board: size, from: [...sources.squares], to: [...targets.squares], blocked: [], fen, mask };
  }

  /** Asks the route the form names: the board goes to the position it is asked on. */
  private ask(): void {
    const context = this.host.context();
    if (!context) return;
    const { game, journey } = context;
    const first = Number(this.first.value);
    const last = Number(this.last.value);
    const ply = plyIndex(game, journey.plies[first - 1]);
    this.host.moveTo({ analysis: null, ply, piece: journey.squares[0], route: [first, last], maneuver: null });
  }

  /** Asks the server for a route and shows it. */
  private async fetch(source: GameSource, index: number, [first, last]: [number, number]): Promise<void> {
    const mine = ++this.serial;
    this.result.setAttribute('aria-busy', 'true');
    const answer = await askRoute(source, index, first, last);
    if (mine !== this.serial) return;
    this.result.removeAttribute('aria-busy');
    this.answer = answer.ok ? answer.data : null;
    this.problem = answer.ok ? (answer.data ? '' : 'No route came back.') : answer.problem.message;
    this.showAnswer(first, last);
    this.host.changed();
  }

  /** Shows a route's verdict and its answer, or its problem. */
  private showAnswer(first: number, last: number): void {
    const context = this.host.context();
    if (!context) return;
    const { game, journey } = context;
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
}

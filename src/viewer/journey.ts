/**
 * The chosen piece beside a game (game.ts): its moves listed (each one a button to its ply), how
 * it ended (promoted, or captured by a move named as players name it), its maneuvers (the trips
 * it made while its side moved nothing else, each with its verdict: maneuver-list.ts), and the
 * route form for any span of its moves (route-form.ts). A maneuver pressed is drawn on the board.
 *
 * The maneuvers are asked once a game, when a piece is first chosen: apart from the game, so a
 * game shows at once and a problem with them leaves it on screen.
 */
import type { Result } from './api.js';
import type { Way } from './board.js';
import { askManeuvers, type GameData, type GameSource, type JourneyData, type ManeuverData } from './game-api.js';
import { type GameSpot, moveLabel, pieceName, plyIndex } from './game-state.js';
import { maneuverList, waysOf } from './maneuver-list.js';
import { el } from './render.js';
import { RouteForm } from './route-form.js';

/** What the panel needs of the game mode. */
export interface JourneyHost {
  /** Shows the position after `ply` plies. */
  go(ply: number): void;
  /** Goes to a spot: a route asked, or a maneuver pressed, moves to the position it starts from. */
  moveTo(spot: GameSpot): void;
  /** A route's answer, the maneuvers, or a problem arrived: redraw. */
  changed(): void;
}

/** A button to a move of the game. */
function moveButton(text: string, go: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'journey-move';
  b.textContent = text;
  b.addEventListener('click', go);
  return b;
}

/** The journey panel of the game mode. */
export class JourneyPanel {
  /** The panel's element. */
  readonly root = el('section', 'journey-panel');
  private game: GameData | null = null;
  private source: GameSource | null = null;
  private index = -1;
  private spot: GameSpot | null = null;
  /** Every piece's maneuvers (by journey), once asked and answered; the problem if not. */
  private maneuvers: ManeuverData[][] | null = null;
  private maneuversProblem = '';
  private maneuversAsked = false;
  private serial = 0;
  private readonly title = el('h3', '', 'Piece');
  private readonly body = el('div', 'journey-body');
  private readonly movesHeading = el('h4', '', 'Its moves');
  private readonly trips = el('div', 'maneuvers-box');
  private readonly tripsHeading = el('h4', '', 'Maneuvers');
  private readonly routes: RouteForm;

  /** Builds the panel; `host` is the game mode. */
  constructor(private readonly host: JourneyHost) {
    this.routes = new RouteForm({
      context: () => {
        const journey = this.chosen();
        return this.game && this.source && journey
          ? { game: this.game, source: this.source, journey, index: this.index }
          : null;
      },
      moveTo: (spot) => host.moveTo(spot),
      changed: () => host.changed(),
    });
    this.trips.setAttribute('aria-live', 'polite');
    // Its maneuvers first: the trips a player means, before the moves one by one.
    this.root.replaceChildren(
      this.title,
      this.tripsHeading,
      this.trips,
      this.movesHeading,
      this.body,
      ...this.routes.parts,
    );
    this.show();
  }

  /** Starts again on a game (null: none). */
  reset(game: GameData | null, source: GameSource | null): void {
    this.serial++;
    this.game = game;
    this.source = source;
    this.index = -1;
    this.spot = null;
    this.maneuvers = null;
    this.maneuversProblem = '';
    this.maneuversAsked = false;
    this.routes.forget();
    this.show();
  }

  /** Follows a spot: its piece, its maneuver drawn, and its route (asked when it is not the one on screen). */
  follow(spot: GameSpot): void {
    const game = this.game;
    if (!game) return;
    const index = spot.piece ? game.journeys.findIndex((j) => j.squares[0] === spot.piece) : -1;
    const before = this.spot;
    this.spot = spot;
    if (index !== this.index) {
      this.index = index;
      this.routes.forget();
      this.show();
    } else if ((before?.maneuver ?? null) !== (spot.maneuver ?? null)) this.showManeuvers();
    if (index >= 0) this.askManeuvers();
    this.routes.follow(index >= 0 ? spot.route : null);
  }

  /** The chosen piece's journey, or null. */
  chosen(): JourneyData | null {
    return this.game?.journeys[this.index] ?? null;
  }

  /** The route on screen, or null. */
  route(): Result | null {
    return this.routes.route();
  }

  /** The route on screen as a path query, or null. */
  routeQuery(): object | null {
    return this.routes.routeQuery();
  }

  /** The pressed maneuver's ways to draw on the board (none when no maneuver is pressed). */
  ways(): Way[] {
    const m = this.pressed();
    return m ? waysOf(m) : [];
  }

  /** The chosen piece's maneuver the spot presses, once the maneuvers are here, or null. */
  private pressed(): ManeuverData | null {
    const at = this.spot?.maneuver;
    if (at == null || this.index < 0) return null;
    return this.maneuvers?.[this.index]?.[at] ?? null;
  }

  /** Asks every piece's maneuvers, once a game. */
  private askManeuvers(): void {
    if (this.maneuversAsked || !this.source) return;
    this.maneuversAsked = true;
    const mine = this.serial;
    void askManeuvers(this.source).then((answer) => {
      if (mine !== this.serial) return;
      if (answer.ok) this.maneuvers = answer.data;
      else this.maneuversProblem = answer.problem.message;
      this.showManeuvers();
      this.host.changed();
    });
  }

  /** Presses a maneuver (the board goes to the position before its first move), or lets it go. */
  private toggle(at: number): void {
    const game = this.game;
    const journey = this.chosen();
    const m = this.maneuvers?.[this.index]?.[at];
    if (!game || !journey || !m || !this.spot) return;
    if (this.spot.maneuver === at) {
      this.host.moveTo({ ...this.spot, maneuver: null });
      return;
    }
    const ply = plyIndex(game, m.plies[0]);
    this.host.moveTo({ ...this.spot, ply, line: null, piece: journey.squares[0], route: null, maneuver: at });
  }

  /** Shows the chosen piece's maneuvers: waiting for them, their problem, or the list. */
  private showManeuvers(): void {
    const game = this.game;
    const journey = this.chosen();
    this.tripsHeading.hidden = this.trips.hidden = !journey;
    if (!game || !journey) return;
    const mine = this.maneuvers?.[this.index];
    if (this.maneuversProblem) this.trips.replaceChildren(el('p', 'error', this.maneuversProblem));
    else if (!mine) this.trips.replaceChildren(el('p', 'journey-hint', 'Reading its maneuvers…'));
    else {
      const selected = this.spot?.maneuver ?? null;
      this.trips.replaceChildren(maneuverList(game, journey, mine, selected, (at) => this.toggle(at)));
    }
  }

  /** Shows the chosen piece's moves, maneuvers and route form (or what to do when none is chosen). */
  private show(): void {
    const journey = this.chosen();
    const game = this.game;
    this.routes.offer(journey && game ? { game, journey } : null);
    this.showManeuvers();
    this.movesHeading.hidden = !journey;
    if (!journey || !game) {
      this.title.textContent = 'Piece';
      this.body.replaceChildren(el('p', 'journey-hint', 'Click a piece on the board to follow its journey.'));
      return;
    }
    this.title.textContent = pieceName(journey);
    const list = el('ol', 'journey-moves');
    list.setAttribute('start', '0');
    list.append(el('li', '', `from ${journey.squares[0]}`));
    journey.plies.forEach((number, k) => {
      const at = plyIndex(game, number);
      const go = moveButton(moveLabel(game.plies[at]), () => this.host.go(at + 1));
      list.append(el('li', '', go, ` to ${journey.squares[k + 1]}`));
    });
    const end: (string | Node)[] = [];
    if (journey.promotedTo) end.push(`Promoted to a ${journey.promotedTo.toLowerCase()}. `);
    if (journey.capturedAt !== null) {
      const at = plyIndex(game, journey.capturedAt);
      end.push(
        'Captured by ',
        moveButton(moveLabel(game.plies[at]), () => this.host.go(at + 1)),
        '.',
      );
    } else if (journey.plies.length === 0) end.push('It never moved.');
    this.body.replaceChildren(list, ...(end.length ? [el('p', 'journey-end', ...end)] : []));
  }
}

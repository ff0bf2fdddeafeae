/**
 * A piece's maneuvers in the journey panel (journey.ts): each trip it made while its side moved
 * nothing else, with its moves, its squares, its verdict in words ("a detour: 3 moves where 1
 * stayed open"), the moves of it that captured or gave check, and a king's walk against the
 * squares attacked at its start. Each maneuver is a toggle button: pressed, the game mode draws
 * its moves and the shorter way on the board (`waysOf`), and the legend under it says which
 * colour is which.
 */
import type { Way } from './board.js';
import type { GameData, JourneyData, ManeuverData } from './game-api.js';
import { moveLabel, plyIndex } from './game-state.js';
import { capital, kingWalkWords, maneuverWords, moveByPly } from './notation.js';
import { el } from './render.js';

/** The ways a maneuver draws: its moves, then each shorter way that stayed open, or was closed. */
export function waysOf(m: ManeuverData): Way[] {
  const ways: Way[] = [{ kind: 'made', squares: m.squares }];
  for (const leg of m.legs) {
    if (leg.verdict === 'DETOUR' && leg.openPath) ways.push({ kind: 'open', squares: leg.openPath });
    if (leg.verdict === 'CLOSED' && leg.shortestPath) ways.push({ kind: 'closed', squares: leg.shortestPath });
  }
  return ways;
}

/** A swatch and its words, for the legend of the ways drawn. */
function key(kind: Way['kind'], words: string): HTMLElement {
  const swatch = el('span', `way-swatch ${kind}`);
  swatch.setAttribute('aria-hidden', 'true');
  return el('span', 'way-key', swatch, words);
}

/** The legend of a maneuver's ways on the board. */
function legend(m: ManeuverData): HTMLElement {
  const keys = [key('made', 'its moves')];
  if (m.legs.some((l) => l.verdict === 'DETOUR')) keys.push(key('open', 'the shorter way that stayed open'));
  if (m.legs.some((l) => l.verdict === 'CLOSED')) keys.push(key('closed', 'the shorter way, until it was closed'));
  return el('p', 'ways-legend', 'On the board: ', ...keys);
}

/** What a maneuver's moves did besides travelling: `Captures: 7. Qxf7#. Checks: 7. Qxf7#.` */
function notes(game: GameData, m: ManeuverData): string {
  const named = (plies: number[]) => plies.map((n) => moveByPly(game, n)).join(', ');
  const parts: string[] = [];
  if (m.captures.length) parts.push(`Captures: ${named(m.captures)}.`);
  if (m.checks.length) parts.push(`Checks: ${named(m.checks)}.`);
  return parts.join(' ');
}

/**
 * The list of a piece's maneuvers: `selected` is pressed (its legend shown); `toggle` runs on a
 * click with the maneuver's index.
 */
export function maneuverList(
  game: GameData,
  journey: JourneyData,
  maneuvers: readonly ManeuverData[],
  selected: number | null,
  toggle: (index: number) => void,
): HTMLElement {
  if (maneuvers.length === 0) {
    return el(
      'p',
      'maneuvers-none',
      'No maneuvers: it never made two moves in a row while its side moved nothing else.',
    );
  }
  const list = el('ol', 'maneuvers');
  maneuvers.forEach((m, i) => {
    const first = game.plies[plyIndex(game, m.plies[0])];
    const last = game.plies[plyIndex(game, m.plies[m.plies.length - 1])];
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'maneuver';
    button.dataset.index = String(i);
    button.setAttribute('aria-pressed', String(i === selected));
    // A promoted pawn's maneuvers after the promotion are the new piece's.
    const as = m.role !== journey.role ? ` (as a ${m.role.toLowerCase()})` : '';
    button.append(
      el('span', 'maneuver-moves', `${moveLabel(first)} to ${moveLabel(last)}${as}`),
      el('span', 'maneuver-squares', m.squares.join(' → ')),
    );
    button.title = 'Draw it on the board, from the position before its first move';
    button.addEventListener('click', () => toggle(i));
    const verdict = el('p', 'maneuver-verdict', `${capital(maneuverWords(m))}.`);
    verdict.dataset.verdict = m.verdict;
    const item = el('li', 'maneuver-item', button, verdict);
    if (m.legs.length > 1) {
      const legs = el('ul', 'maneuver-legs');
      for (const leg of m.legs) {
        const words = maneuverWords({ ...m, legs: [leg], verdict: leg.verdict });
        legs.append(el('li', '', `${leg.squares.join(' → ')}: ${words}`));
      }
      item.append(legs);
    }
    const said = notes(game, m);
    if (said) item.append(el('p', 'maneuver-notes', said));
    if (m.kingWalk) item.append(el('p', 'maneuver-notes king-walk', kingWalkWords(m.kingWalk)));
    if (i === selected) item.append(legend(m));
    item.classList.toggle('selected', i === selected);
    list.append(item);
  });
  return list;
}

/**
 * The answer in words and numbers: distance, path count, the layers with their steps, the
 * smallest path, one page of shortest paths at a time, and the picture drawn by the engine's
 * shared renderer (in the board's orientation; a fairy piece named in its legend, a hopper's
 * hurdles on the smallest path ringed). Unreachable is said plainly,
 * and so are the squares a position's question avoids because they are attacked.
 */

import {
  type Color,
  type DiagramSpec,
  parseBitboard,
  pathHurdles,
  type Role,
  renderDiagram,
  squareIndexOrMinus1,
  squareName,
} from '@chess-paths/engine';
import type { PathsPage, Placed, Result } from './api.js';
import { pieceName } from './fairy.js';

/** Creates an element with a class and children. */
export function el(tag: string, className = '', ...children: (Node | string)[]): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.append(...children);
  return node;
}

/** Squares as indices on the result's board. */
function indices(squares: string[], result: Result): number[] {
  return squares.map((s) => squareIndexOrMinus1(s, result.board.files, result.board.ranks)).filter((i) => i >= 0);
}

/** A number with thin grouping (path counts grow past 2^53: they arrive as decimal strings). */
function groupDigits(text: string): string {
  return text.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The summary: distance, count, layers and smallest path, or "unreachable". */
export function summary(result: Result): HTMLElement {
  const box = el('div', 'summary');
  if (!result.reachable) {
    box.append(
      el(
        'p',
        'unreachable',
        `Unreachable: no ${pieceName(result.piece, result.betza)} path leads from ${result.sources.squares.join(', ') || 'the sources'} to ${result.targets.squares.join(', ') || 'the targets'}.`,
      ),
    );
    return box;
  }
  const facts = el('dl', 'facts');
  facts.append(el('dt', '', 'Distance'), el('dd', 'distance', String(result.distance)));
  facts.append(el('dt', '', 'Shortest paths'), el('dd', 'path-count', groupDigits(result.pathCount)));
  box.append(facts);
  const layers = el('ol', 'layers');
  layers.setAttribute('start', '0');
  result.layers.forEach((layer, step) => {
    const item = el('li', '', el('span', 'layer-step', `step ${step}: `), layer.squares.join(' '));
    item.dataset.step = String(step);
    layers.append(item);
  });
  box.append(el('h3', '', 'Layers'), layers);
  if (result.path) box.append(el('h3', '', 'Smallest path'), el('p', 'smallest-path', result.path.squares.join(' → ')));
  return box;
}

/**
 * One page of paths, numbered from `offset + 1`: each item holds its squares (`data-squares`) for
 * the board to draw, and the first is in the tab order (the pager moves focus through the rest).
 */
export function pathList(page: PathsPage, offset: number): HTMLElement {
  const list = el('ol', 'path-list');
  list.setAttribute('start', String(offset + 1));
  list.setAttribute('aria-label', 'Shortest paths: point at one, or focus it, to draw it on the board');
  page.edges.forEach((edge, i) => {
    const item = el('li', 'path', edge.node.squares.join(' → '));
    item.dataset.squares = edge.node.squares.join(' ');
    item.tabIndex = i === 0 ? 0 : -1;
    list.append(item);
  });
  return list;
}

/**
 * The picture of a result as an `<img>` holding a standalone SVG, drawn by the engine's shared
 * renderer: RENDERER CALL SITE, the one place the viewer calls `renderDiagram`.
 */
export function picture(result: Result, pieces: readonly Placed[], orientation: Color = 'WHITE'): HTMLElement {
  const board = result.board;
  const at = (squares: string[]) => indices(squares, result);
  const words = parseBitboard(result.mask, board);
  const obstacles: number[] = [];
  for (let i = 0; i < board.files * board.ranks; i++) if (((words[i >>> 5] >>> (i & 31)) & 1) === 0) obstacles.push(i);
  const spec: DiagramSpec = {
    board,
    layers: result.layers.map((layer) => at(layer.squares)),
    sources: at(result.sources.squares),
    targets: at(result.targets.squares),
    obstacles,
    pieces: pieces.map((p) => ({ index: at([p.square])[0], role: p.role as Role, color: p.color })),
    path: result.path ? at(result.path.squares) : undefined,
    reachable: result.reachable,
    orientation,
  };
  if (result.piece === 'FAIRY' && result.betza) {
    spec.fairy = result.betza;
    // A hopper's smallest path rings the squares it jumps (outside the answer's passable set).
    const hurdles = pathHurdles(result.betza, board, words, spec.path ?? []);
    if (hurdles.length > 0) spec.hurdles = hurdles;
  }
  const img = document.createElement('img');
  img.className = 'diagram';
  img.alt = result.reachable
    ? `Diagram: ${result.distance} moves, ${result.layers.length} layers`
    : 'Diagram: the targets are unreachable';
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderDiagram(spec))}`;
  return img;
}

/** Squares of a result's board outside its passable set (the obstacles it saw). */
export function outsideMask(result: Result, name: (index: number) => string): string[] {
  const words = parseBitboard(result.mask, result.board);
  const out: string[] = [];
  const total = result.board.files * result.board.ranks;
  for (let i = 0; i < total; i++) if (((words[i >>> 5] >>> (i & 31)) & 1) === 0) out.push(name(i));
  return out;
}

/**
 * The squares a position's question avoids as attacked: outside the answer's mask, and empty or
 * one of `targets` (a position's other pieces are out of the mask because they block).
 */
export function avoidedSquares(result: Result, occupied: ReadonlySet<string>, targets: readonly string[]): string[] {
  const board = result.board;
  return outsideMask(result, (i) => squareName(i, board)).filter((s) => !occupied.has(s) || targets.includes(s));
}

/** The line under an answer that avoids attacked squares: they are hatched, and which targets they dropped. */
export function attackedNote(targets: readonly string[], attacked: readonly string[]): HTMLElement | null {
  if (attacked.length === 0) return null;
  const dropped = targets.filter((square) => attacked.includes(square));
  const which = dropped.length === 1 ? `the target ${dropped[0]} is` : `the targets ${dropped.join(', ')} are`;
  return el(
    'p',
    'attacked-note',
    'Squares the other side attacks are hatched in red and avoided',
    dropped.length > 0 ? `; ${which} attacked, so left out.` : '.',
  );
}

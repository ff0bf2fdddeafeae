/**
 * SVG pictures of a result as the service draws them, wherever they are drawn (the main thread for
 * small boards, a worker for large ones: `tasks.ts` calls `drawSvg` too), and their size known
 * before drawing. A picture may show a position (the FEN's pieces; with a mover, the squares its
 * opponents attack), face either way and draw the smallest path. All of that travels as plain
 * data (`SvgOptions`): the worker re-reads the FEN, which the limits keep short, rather than
 * receiving an object graph. A fairy piece's picture names it by its canonical Betza text (the
 * result's, rebuilt on a worker from the problem's text), so its bound counts that text.
 */
import {
  attackedSquares,
  type Color,
  countBits,
  diagramLengthBound,
  diagramSpecOf,
  type PathResult,
  parseBitboard,
  parseFen,
  parseSquare,
  renderDiagram,
} from '@chess-paths/engine';

/** How to draw a result's SVG picture; every field optional, `{}` is the plain picture. */
export interface SvgOptions {
  /** A position whose pieces are drawn (on the result's board). */
  fen?: string;
  /** With `fen`: the square of the piece that moves; the squares the other colour attacks are marked. */
  mover?: string;
  /** Which side is at the bottom (default WHITE). */
  orientation?: Color;
  /** Draw the lexicographically smallest shortest path. */
  path?: boolean;
}

/** True for the plain picture (no position, White at the bottom, no path): the one kept per result. */
export function isPlainSvg(options: SvgOptions): boolean {
  return options.fen === undefined && options.orientation !== 'BLACK' && !options.path;
}

/** A key of the options, for loaders and caches. */
export function svgOptionsKey(options: SvgOptions): string {
  return isPlainSvg(options) ? '' : JSON.stringify([options.fen, options.mover, options.orientation, options.path]);
}

/** The SVG picture of `result` drawn as `options` say. */
export function drawSvg(result: PathResult, options: SvgOptions = {}): string {
  const board = result.board;
  const position = options.fen === undefined ? undefined : parseFen(options.fen, board);
  let attacked: number[] | undefined;
  if (position && options.mover !== undefined) {
    const index = parseSquare(options.mover, board);
    const mover = position.pieces.find((p) => p.index === index);
    if (mover) {
      const words = attackedSquares(position, mover.color === 'WHITE' ? 'BLACK' : 'WHITE', mover.index);
      attacked = [];
      for (let i = 0; i < board.files * board.ranks; i++) if ((words[i >>> 5] >>> (i & 31)) & 1) attacked.push(i);
    }
  }
  const path = options.path && result.path ? result.path.squares.map((name) => parseSquare(name, board)) : undefined;
  return renderDiagram(diagramSpecOf(result, { position, attacked, orientation: options.orientation, path }));
}

/** Pieces a FEN places (letters of its first field), counted without reading the position. */
function piecesIn(fen: string): number {
  const placement = fen.trimStart().split(/\s/, 1)[0] ?? '';
  let pieces = 0;
  for (let i = 0; i < placement.length; i++) {
    const c = placement.charCodeAt(i) | 0x20;
    if (c >= 0x61 && c <= 0x7a) pieces++;
  }
  return pieces;
}

/**
 * An upper bound of `drawSvg(result, options).length`, from counts the result already has. Every
 * impassable square is drawn as an obstacle, a piece or an attacked square: with a mover, each is
 * bounded as both an obstacle and an attacked square (a mover's picture avoids what is attacked).
 */
export function svgLengthBound(result: PathResult, options: SvgOptions = {}): number {
  const { board } = result;
  const squares = board.files * board.ranks;
  const passable = parseBitboard(result.mask, board);
  const impassable = squares - countBits(passable, 0, passable.length);
  let layerSquares = 0;
  for (const layer of result.layers) layerSquares += layer.count;
  return diagramLengthBound({
    board,
    layerSquares,
    sources: result.sources.count,
    targets: result.targets.count,
    obstacles: impassable,
    pieces: options.fen === undefined ? 0 : Math.min(squares, piecesIn(options.fen)),
    // The attacked squares are impassable (the mover avoids them), all but the mover's own.
    attacked: options.mover === undefined ? 0 : impassable + 1,
    path: options.path ? (result.distance ?? 0) + 1 : 0,
    // A fairy piece's canonical text (not the one asked, which may be shorter) is drawn.
    ...(result.piece === 'FAIRY' && result.betza !== null ? { fairy: result.betza.length } : {}),
  });
}

/**
 * Pictures of a result (the API's `Overlay.ascii` and `Overlay.svg`, and the library's), drawn
 * from the layers' square indices only, so asking for a picture never pays for path counts or
 * path lists.
 *
 * ASCII follows the diagram of the seed (Westcott's all-shortest-paths example): one board per
 * layer side by side, the top rank first, `1` on a layer square and `.` elsewhere, squares
 * separated by one space and boards by three; lines end without trailing spaces and are joined by
 * `\n` (no final newline). An unreachable result has no layers and draws as the empty string.
 *
 * SVG (`renderDiagram`, of a `DiagramSpec`) is a standalone, well-formed XML document (the `svg`
 * element with its namespace and a `viewBox`, no ids, no external references): light and dark
 * squares, file letters and rank numbers (rank 1 at the top when seen from Black), pieces, squares
 * attacked by the other colour tinted red with a red dot, impassable squares dark and hatched,
 * sources outlined green, targets outlined purple and dashed, each layer square numbered with its
 * step k, an optional path drawn as an arrow, an "unreachable" banner across the board when there
 * is no path, and a legend of the marks used under the board. A fairy piece (a Betza text) marks
 * its sources with a star, and the title and the legend's first row name it by its text; nothing
 * else changes, and a picture of any other piece is drawn as before, except that a hopper's path
 * (`p`, `g`) rings each hurdle its moves jump (`DiagramSpec.hurdles`; diagram-path.ts draws the
 * path and the rings). Every number goes through `round` (at most two decimals). Pure: no Node
 * APIs (it is also bundled into a browser page).
 */

import { parseBitboard } from '../board/bitset.js';
import { aBoard } from '../board/board.js';
import type { ParsedPosition } from '../board/fen.js';
import { fileName, squareName } from '../board/squares.js';
import type { Board, Color, PathResult, Piece, Role } from '../types.js';
import { drawHurdles, drawPath, hurdleMark, type PathLayout, pathHurdles } from './diagram-path.js';
import { fairyMark, pieceGlyph } from './diagram-pieces.js';

/** What the pictures need of a result. */
export type OverlaySource = Pick<PathResult, 'board' | 'layers' | 'sources' | 'targets' | 'mask'>;

/** The layers as side-by-side ASCII boards, exactly in the seed's layout. */
export function renderAscii(result: OverlaySource): string {
  const { files, ranks } = result.board;
  const layers = result.layers;
  if (layers.length === 0) return '';
  const marks = layers.map((layer) => {
    const on = new Uint8Array(files * ranks);
    for (const index of layer.indices) on[index] = 1;
    return on;
  });
  const lines: string[] = [];
  const cells: string[] = new Array(files);
  const boards: string[] = new Array(marks.length);
  for (let rank = ranks - 1; rank >= 0; rank--) {
    for (let k = 0; k < marks.length; k++) {
      const on = marks[k];
      for (let file = 0; file < files; file++) cells[file] = on[rank * files + file] ? '1' : '.';
      boards[k] = cells.join(' ');
    }
    lines.push(boards.join('   '));
  }
  return lines.join('\n');
}

/** What a diagram shows; every square is an index (`rank * files + file`, a1 = 0). */
export interface DiagramSpec {
  board: Board;
  /** Square indices of each layer, step 0 (the sources) first; empty when unreachable. */
  layers: readonly (readonly number[])[];
  sources: readonly number[];
  targets: readonly number[];
  /** Impassable squares (outside the mask, blocked, occupied). */
  obstacles: readonly number[];
  /** Pieces standing on the board (FEN and Position answers), drawn as pieces. */
  pieces?: readonly { index: number; role: Role; color: Color }[];
  /** Squares attacked by the other colour (Position.paths with avoidAttacked). */
  attacked?: readonly number[];
  /** One path to draw over the board (e.g. the lexicographically smallest), source first. */
  path?: readonly number[];
  reachable: boolean;
  /** Which colour's side is at the bottom; default WHITE. */
  orientation?: Color;
  /**
   * The canonical Betza text of a fairy mover (a FAIRY result's `betza`): its sources get the
   * fairy mark, and the title and legend name it. Absent for every other piece.
   */
  fairy?: string;
  /**
   * With `fairy` and `path`: the squares the path's hops jump (`pathHurdles`), each ringed; at
   * most one a move of the path is drawn (repeats and the rest are left out).
   */
  hurdles?: readonly number[];
}

/** The spec of a path result (and, for FEN answers, of its position's pieces). */
export function diagramSpecOf(
  result: OverlaySource & { readonly reachable?: boolean; readonly piece?: Piece; readonly betza?: string | null },
  options: {
    position?: Pick<ParsedPosition, 'pieces'>;
    attacked?: readonly number[];
    orientation?: Color;
    path?: readonly number[];
  } = {},
): DiagramSpec {
  const { files, ranks } = result.board;
  const passable = parseBitboard(result.mask, result.board);
  const pieces = options.position?.pieces.map(({ index, role, color }) => ({ index, role, color }));
  const obstacles: number[] = [];
  for (let index = 0; index < files * ranks; index++) {
    if (((passable[index >>> 5] >>> (index & 31)) & 1) === 0) obstacles.push(index);
  }
  const spec: DiagramSpec = {
    board: result.board,
    layers: result.layers.map((layer) => layer.indices),
    sources: result.sources.indices,
    targets: result.targets.indices,
    obstacles,
    reachable: result.reachable ?? result.layers.length > 0,
  };
  if (pieces !== undefined) spec.pieces = pieces;
  if (options.attacked !== undefined) spec.attacked = options.attacked;
  if (options.path !== undefined) spec.path = options.path;
  if (options.orientation !== undefined) spec.orientation = options.orientation;
  if (result.piece === 'FAIRY' && typeof result.betza === 'string') {
    spec.fairy = result.betza;
    // A hopper's hurdles are the squares outside the result's passable set that its path jumps.
    const hurdles = pathHurdles(result.betza, result.board, passable, options.path ?? []);
    if (hurdles.length > 0) spec.hurdles = hurdles;
  }
  return spec;
}

/** A number as the SVG prints it: at most two decimals, no `-0`. */
export function round(value: number): string {
  const r = Math.round(value * 100) / 100;
  return String(r === 0 ? 0 : r);
}

/** Text made safe for XML content and attribute values. */
function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );
}

/** Geometry of the SVG diagram, in its user units (`diagram-size.ts` bounds its length from them). */
export const DIAGRAM_GEOMETRY = { square: 48, margin: 24, pad: 8, legendItem: 150, legendRow: 24 } as const;
const { square: S, margin: MARGIN, pad: PAD, legendItem: LEGEND_ITEM, legendRow: LEGEND_ROW } = DIAGRAM_GEOMETRY;
const COLORS = {
  light: '#f0d9b5',
  dark: '#b58863',
  obstacle: '#3a3a3a',
  hatch: '#9a9a9a',
  attacked: '#e53e3e',
  source: '#2f855a',
  target: '#6b46c1',
  step: '#2b6cb0',
  path: '#dd6b20',
  banner: '#c53030',
  text: '#333333',
};

/** A standalone SVG document of the diagram. */
export function renderDiagram(spec: DiagramSpec): string {
  const { files, ranks } = spec.board;
  const black = spec.orientation === 'BLACK';
  const boardW = files * S;
  const boardH = ranks * S;
  const width = Math.max(MARGIN + boardW + PAD, 2 * LEGEND_ITEM + PAD);
  const perRow = Math.max(1, Math.floor((width - PAD) / LEGEND_ITEM));
  const col = (index: number) => {
    const file = index % files;
    return black ? files - 1 - file : file;
  };
  const row = (index: number) => {
    const rank = Math.floor(index / files);
    return black ? rank : ranks - 1 - rank;
  };
  const x = (index: number) => MARGIN + col(index) * S;
  const y = (index: number) => PAD + row(index) * S;
  const n = (v: number) => round(v);
  const rect = (index: number, inset = 0, extra = '') =>
    `<rect x="${n(x(index) + inset)}" y="${n(y(index) + inset)}" width="${n(S - 2 * inset)}" height="${n(S - 2 * inset)}"${extra}/>`;

  const pieces = spec.pieces ?? [];
  const attacked = spec.attacked ?? [];
  const occupied = new Set(pieces.map((p) => p.index));
  const attackedSet = new Set(attacked);
  const obstacles = spec.obstacles.filter((i) => !occupied.has(i) && !attackedSet.has(i));
  const path = spec.path ?? [];
  // A hopper's hurdles, only with its path: each once, at most one a move.
  const hurdles =
    spec.fairy === undefined || path.length < 2 ? [] : [...new Set(spec.hurdles ?? [])].slice(0, path.length - 1);
  const steps = spec.layers.reduce((sum, layer) => sum + layer.length, 0);

  const legend: [string, string][] = [];
  const swatch = (lx: number, ly: number, kind: string): string => {
    const box = `x="${n(lx)}" y="${n(ly)}" width="16" height="16"`;
    switch (kind) {
      case 'piece':
        return `<rect ${box} fill="${COLORS.light}"/>${pieceGlyph('PAWN', 'WHITE', n(lx), n(ly), '0.16')}`;
      case 'attacked':
        return `<rect ${box} fill="${COLORS.light}"/><rect ${box} fill="${COLORS.attacked}" fill-opacity="0.35"/><circle cx="${n(lx + 8)}" cy="${n(ly + 8)}" r="3" fill="${COLORS.attacked}"/>`;
      case 'obstacle':
        return `<rect ${box} fill="${COLORS.obstacle}"/><path d="M${n(lx)} ${n(ly + 16)} L${n(lx + 16)} ${n(ly)}" stroke="${COLORS.hatch}" stroke-width="2"/>`;
      case 'source':
        return `<rect ${box} fill="none" stroke="${COLORS.source}" stroke-width="3"/>`;
      case 'target':
        return `<rect ${box} fill="none" stroke="${COLORS.target}" stroke-width="3" stroke-dasharray="4 2"/>`;
      case 'step':
        return `<circle cx="${n(lx + 8)}" cy="${n(ly + 8)}" r="8" fill="${COLORS.step}"/><text x="${n(lx + 8)}" y="${n(ly + 8)}" fill="#ffffff" font-size="11" text-anchor="middle" dominant-baseline="central">k</text>`;
      case 'hurdle':
        return `<rect ${box} fill="${COLORS.obstacle}"/><g fill="none">${hurdleMark(n(lx + 8), n(ly + 8), '6.5', '3', '1.5')}</g>`;
      default:
        return `<path d="M${n(lx)} ${n(ly + 8)} H${n(lx + 16)}" stroke="${COLORS.path}" stroke-width="4" stroke-linecap="round"/>`;
    }
  };
  if (pieces.length > 0) legend.push(['piece', 'piece']);
  if (attacked.length > 0) legend.push(['attacked', 'attacked']);
  if (obstacles.length > 0) legend.push(['obstacle', 'obstacle']);
  if (spec.sources.length > 0) legend.push(['source', 'source']);
  if (spec.targets.length > 0) legend.push(['target', 'target']);
  if (steps > 0) legend.push(['step', 'step k (k moves in)']);
  if (path.length > 1) legend.push(['path', 'one shortest path']);
  if (hurdles.length > 0) legend.push(['hurdle', 'hurdle jumped']);
  // A fairy piece's text may be long: it has the legend's first row to itself.
  const fairy = spec.fairy;
  const fairyRows = fairy === undefined ? 0 : 1;
  const legendRows = fairyRows + Math.ceil(legend.length / perRow);
  const legendTop = PAD + boardH + MARGIN;
  const height = legendTop + legendRows * LEGEND_ROW + PAD;

  const name = (i: number) => squareName(i, spec.board);
  const list = (indices: readonly number[]) =>
    indices.length <= 8 ? indices.map(name).join(', ') : `${indices.slice(0, 8).map(name).join(', ')}, ...`;
  const moves = spec.layers.length - 1;
  const verdict = spec.reachable ? `${moves} move${moves === 1 ? '' : 's'}` : 'unreachable';
  const of = fairy === undefined ? '' : ` of fairy piece ${fairy}`;
  const title = `Shortest paths${of} on ${aBoard(spec.board)} from ${list(spec.sources) || 'nowhere'} to ${list(spec.targets) || 'nowhere'}: ${verdict}`;

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${n(width)}" height="${n(height)}" viewBox="0 0 ${n(width)} ${n(height)}" font-family="sans-serif">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect x="${n(MARGIN)}" y="${n(PAD)}" width="${n(boardW)}" height="${n(boardH)}" fill="${COLORS.light}"/>`,
    `<g class="dark" fill="${COLORS.dark}">`,
  ];
  for (let index = 0; index < files * ranks; index++) {
    const file = index % files;
    if (((file + (index - file) / files) & 1) === 0) out.push(rect(index));
  }
  out.push('</g>', `<g class="attacked" fill="${COLORS.attacked}">`);
  for (const index of attacked) out.push(rect(index, 0, ' fill-opacity="0.35"'));
  for (const index of attacked) {
    out.push(`<circle cx="${n(x(index) + S * 0.16)}" cy="${n(y(index) + S * 0.84)}" r="${n(S * 0.09)}"/>`);
  }
  out.push('</g>', `<g class="obstacles" fill="${COLORS.obstacle}">`);
  for (const index of obstacles) out.push(rect(index));
  const hatch = obstacles.map((index) => {
    const [left, top] = [x(index), y(index)];
    const third = S / 3;
    return `M${n(left)} ${n(top + third)} L${n(left + third)} ${n(top)} M${n(left)} ${n(top + 2 * third)} L${n(left + 2 * third)} ${n(top)} M${n(left)} ${n(top + S)} L${n(left + S)} ${n(top)} M${n(left + third)} ${n(top + S)} L${n(left + S)} ${n(top + third)} M${n(left + 2 * third)} ${n(top + S)} L${n(left + S)} ${n(top + 2 * third)}`;
  });
  if (hatch.length > 0) out.push(`<path d="${hatch.join(' ')}" stroke="${COLORS.hatch}" stroke-width="2"/>`);
  out.push('</g>');
  const outline = (cls: string, color: string, indices: readonly number[], inset: number, dash: string) => {
    out.push(`<g class="${cls}" fill="none" stroke="${color}" stroke-width="4"${dash}>`);
    for (const index of indices) out.push(rect(index, inset));
    out.push('</g>');
  };
  outline('sources', COLORS.source, spec.sources, 2, '');
  outline('targets', COLORS.target, spec.targets, 7, ' stroke-dasharray="8 4"');
  out.push('<g class="pieces">');
  for (const p of pieces) out.push(pieceGlyph(p.role, p.color, n(x(p.index)), n(y(p.index)), n(S / 100)));
  out.push('</g>');
  const layout: PathLayout = { square: S, centre: (i) => [x(i) + S / 2, y(i) + S / 2], n };
  out.push(...drawPath(path, (i) => occupied.has(i), COLORS.path, layout));
  for (const line of drawHurdles(hurdles, layout)) out.push(line);
  out.push(`<g class="steps" text-anchor="middle" dominant-baseline="central" fill="#ffffff">`);
  spec.layers.forEach((layer, step) => {
    for (const index of layer) {
      // On a piece's square the number sits in the corner, so the piece stays visible.
      const corner = occupied.has(index);
      const cx = corner ? x(index) + S * 0.8 : x(index) + S / 2;
      const cy = corner ? y(index) + S * 0.2 : y(index) + S / 2;
      const r = corner ? S * 0.19 : S * 0.3;
      out.push(
        `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${COLORS.step}" fill-opacity="0.9"/>`,
        `<text x="${n(cx)}" y="${n(cy)}" font-size="${n(r * 1.1)}">${step}</text>`,
      );
    }
  });
  out.push('</g>');
  if (fairy !== undefined) {
    out.push('<g class="fairy">');
    for (const index of spec.sources) out.push(fairyMark(n(x(index) + S * 0.1), n(y(index) + S * 0.1), n(S * 0.0036)));
    out.push('</g>');
  }
  if (!spec.reachable) {
    const h = Math.min(boardH, S * 1.2);
    const top = PAD + (boardH - h) / 2;
    const size = Math.min(h * 0.55, boardW / 7);
    out.push(
      '<g class="unreachable">',
      `<rect x="${n(MARGIN)}" y="${n(top)}" width="${n(boardW)}" height="${n(h)}" fill="${COLORS.banner}" fill-opacity="0.88"/>`,
      `<text x="${n(MARGIN + boardW / 2)}" y="${n(top + h / 2)}" fill="#ffffff" font-size="${n(size)}" font-weight="bold" text-anchor="middle" dominant-baseline="central">unreachable</text>`,
      '</g>',
    );
  }
  out.push(`<g class="labels" font-size="12" fill="${COLORS.text}" text-anchor="middle" dominant-baseline="central">`);
  for (let c = 0; c < files; c++) {
    const file = black ? files - 1 - c : c;
    out.push(`<text x="${n(MARGIN + c * S + S / 2)}" y="${n(PAD + boardH + MARGIN / 2)}">${fileName(file)}</text>`);
  }
  for (let r = 0; r < ranks; r++) {
    const rank = black ? r : ranks - 1 - r;
    out.push(`<text x="${n(MARGIN / 2)}" y="${n(PAD + r * S + S / 2)}">${rank + 1}</text>`);
  }
  out.push('</g>', `<g class="legend" font-size="12" fill="${COLORS.text}">`);
  if (fairy !== undefined) out.push(...fairyLegend(fairy, legendTop, width));
  legend.forEach(([kind, label], i) => {
    const lx = PAD + (i % perRow) * LEGEND_ITEM;
    const ly = legendTop + (fairyRows + Math.floor(i / perRow)) * LEGEND_ROW;
    out.push(
      swatch(lx, ly, kind),
      `<text x="${n(lx + 22)}" y="${n(ly + 8)}" dominant-baseline="central">${escapeXml(label)}</text>`,
    );
  });
  out.push('</g>', '</svg>');
  return out.join('\n');
}

/**
 * The legend's row of a fairy piece: its mark and `fairy piece <text>`, squeezed into the row's
 * width when an estimate of its width (wide capitals) is over it.
 */
function fairyLegend(text: string, top: number, width: number): string[] {
  const label = `fairy piece ${text}`;
  const room = width - 2 * PAD - 22;
  const fit = 6 * 12 + 9 * text.length > room ? ` textLength="${round(room)}" lengthAdjust="spacingAndGlyphs"` : '';
  return [
    fairyMark(round(PAD), round(top), '0.16'),
    `<text x="${round(PAD + 22)}" y="${round(top + 8)}" dominant-baseline="central"${fit}>${escapeXml(label)}</text>`,
  ];
}

/** A standalone SVG board of a result: `renderDiagram(diagramSpecOf(result))`. */
export function renderSvg(result: OverlaySource): string {
  return renderDiagram(diagramSpecOf(result));
}

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
 * SVG is a standalone, well-formed XML document (the `svg` element with its namespace, no external
 * references): light and dark squares, file letters and rank numbers, each path square labelled
 * with its step k, sources and targets outlined, squares outside the passable set shaded.
 */

import { parseBitboard } from './bitset.js';
import { fileName } from './squares.js';
import type { PathResult } from './types.js';

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

const SQUARE = 40;
const MARGIN = 24;
const LIGHT = '#f0d9b5';
const DARK = '#b58863';

/** A standalone SVG board showing the layers, sources, targets and obstacles. */
export function renderSvg(result: OverlaySource): string {
  const { files, ranks } = result.board;
  const width = MARGIN + files * SQUARE + 8;
  const height = ranks * SQUARE + MARGIN + 8;
  const x = (file: number) => MARGIN + file * SQUARE;
  const y = (rank: number) => 8 + (ranks - 1 - rank) * SQUARE;
  const passable = parseBitboard(result.mask, result.board);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<title>Shortest paths on a ${files} x ${ranks} board: ${result.layers.length === 0 ? 'unreachable' : `${result.layers.length - 1} moves`}</title>`,
    `<rect x="${x(0)}" y="8" width="${files * SQUARE}" height="${ranks * SQUARE}" fill="${LIGHT}"/>`,
    '<g class="dark">',
  );
  for (let rank = 0; rank < ranks; rank++) {
    for (let file = (rank & 1) === 0 ? 0 : 1; file < files; file += 2) {
      out.push(`<rect x="${x(file)}" y="${y(rank)}" width="${SQUARE}" height="${SQUARE}" fill="${DARK}"/>`);
    }
  }
  out.push('</g>', '<g class="obstacles" fill="#333333" fill-opacity="0.65">');
  for (let index = 0; index < files * ranks; index++) {
    if (((passable[index >>> 5] >>> (index & 31)) & 1) === 1) continue;
    const file = index % files;
    const rank = (index - file) / files;
    out.push(`<rect x="${x(file)}" y="${y(rank)}" width="${SQUARE}" height="${SQUARE}"/>`);
  }
  out.push('</g>', '<g class="steps" text-anchor="middle" dominant-baseline="central" font-size="16">');
  result.layers.forEach((layer, step) => {
    for (const index of layer.indices) {
      const file = index % files;
      const rank = (index - file) / files;
      const cx = x(file) + SQUARE / 2;
      const cy = y(rank) + SQUARE / 2;
      out.push(
        `<circle cx="${cx}" cy="${cy}" r="${SQUARE * 0.34}" fill="#2b6cb0" fill-opacity="0.85"/>`,
        `<text x="${cx}" y="${cy}" fill="#ffffff">${step}</text>`,
      );
    }
  });
  out.push('</g>');
  const outline = (name: string, color: string, indices: number[], inset: number) => {
    out.push(`<g class="${name}" fill="none" stroke="${color}" stroke-width="3">`);
    for (const index of indices) {
      const file = index % files;
      const rank = (index - file) / files;
      out.push(
        `<rect x="${x(file) + inset}" y="${y(rank) + inset}" width="${SQUARE - 2 * inset}" height="${SQUARE - 2 * inset}"/>`,
      );
    }
    out.push('</g>');
  };
  outline('sources', '#2f855a', result.sources.indices, 2);
  outline('targets', '#c53030', result.targets.indices, 5);
  out.push('<g class="labels" font-size="12" fill="#333333" text-anchor="middle" dominant-baseline="central">');
  for (let file = 0; file < files; file++) {
    out.push(`<text x="${x(file) + SQUARE / 2}" y="${8 + ranks * SQUARE + MARGIN / 2}">${fileName(file)}</text>`);
  }
  for (let rank = 0; rank < ranks; rank++) {
    out.push(`<text x="${MARGIN / 2}" y="${y(rank) + SQUARE / 2}">${rank + 1}</text>`);
  }
  out.push('</g>', '</svg>');
  return out.join('\n');
}

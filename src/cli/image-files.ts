/**
 * `solve --svg FILE` and `--png FILE`: the result's picture written to a file, drawn as the API
 * draws it (`drawSvg`, the picture of `GET /diagram.svg?...&path=true`): the board with its
 * coordinates, impassable squares hatched, sources and targets outlined, every layer square
 * numbered with its step, the smallest path as an arrow, and the FEN's pieces when there is one.
 * The PNG is that SVG through the service's rasteriser (`svgToPng`, as `GET /diagram.png`
 * makes it), `--png-width` pixels wide. An image has no terminal to fit, so it is how a large
 * board is seen whole.
 */
import { writeFileSync } from 'node:fs';
import { InputError, type PathResult } from '@chess-paths/engine';
import { drawSvg } from '../graphql/work/pictures.js';
import { RasterSizeError, svgToPng } from '../graphql/work/raster.js';
import { formatBytes } from './picture.js';
import type { Progress } from './progress.js';

/** Width of a PNG without `--png-width`, pixels: the API's default for `/diagram.png`. */
export const PNG_DEFAULT_WIDTH = 1200;
/** Narrowest and widest PNG, pixels. */
export const PNG_MIN_WIDTH = 16;
export const PNG_MAX_WIDTH = 8192;
/** Most pixels of a PNG: 8192 x 8192, 256 MiB while it is drawn (4 bytes a pixel). */
const PNG_MAX_PIXELS = 8192 * 8192;

/**
 * SVG text from which rasterising takes about a second (a 256 x 256 board's 2.5 MB take several):
 * past it the progress line is shown before the call, which cannot report from inside.
 */
const SLOW_RASTER_CHARS = 256 * 1024;

/** Files asked for on the command line, by option. */
export interface ImageRequest {
  svg?: string;
  png?: string;
  pngWidth?: number;
  fen?: string | null;
}

/** `--png-width 2000` -> 2000 pixels. */
export function parsePngWidth(text: string): number {
  const width = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!(width >= PNG_MIN_WIDTH && width <= PNG_MAX_WIDTH)) {
    throw new InputError(['--png-width'], text, `is not a width in pixels from ${PNG_MIN_WIDTH} to ${PNG_MAX_WIDTH}`);
  }
  return width;
}

/** Writes `data` to `file`; a file that cannot be written is bad input naming the option. */
function writeImage(option: string, file: string, data: string | Uint8Array): number {
  try {
    writeFileSync(file, data);
  } catch (err) {
    const { code, message } = err as NodeJS.ErrnoException;
    throw new InputError([option], file, `cannot be written: ${code ?? message}`);
  }
  return typeof data === 'string' ? Buffer.byteLength(data) : data.length;
}

/** The PNG of `svg`; a width that makes too many pixels is bad input naming `--png-width`. */
function rasterise(svg: string, width: number, progress: Progress): Uint8Array {
  if (svg.length > SLOW_RASTER_CHARS) progress.begin(`drawing the PNG (${width} pixels wide)`);
  try {
    return svgToPng(svg, { width, maxPixels: PNG_MAX_PIXELS });
  } catch (err) {
    if (!(err instanceof RasterSizeError)) throw err;
    throw new InputError(
      ['--png-width'],
      width,
      `makes this picture ${err.height} pixels tall, over the limit of ${PNG_MAX_PIXELS} pixels`,
    );
  }
}

/** Draws and writes the asked pictures; returns a line per file written (`svg: out.svg (2.4 MiB)`). */
export function writeImages(request: ImageRequest, result: PathResult, progress: Progress): string[] {
  if (request.svg === undefined && request.png === undefined) return [];
  progress.update('drawing the picture');
  const svg = drawSvg(result, { path: true, ...(request.fen != null ? { fen: request.fen } : {}) });
  const lines: string[] = [];
  if (request.svg !== undefined) {
    lines.push(`svg: ${request.svg} (${formatBytes(writeImage('--svg', request.svg, svg))})`);
  }
  if (request.png !== undefined) {
    const width = request.pngWidth ?? PNG_DEFAULT_WIDTH;
    const png = rasterise(svg, width, progress);
    lines.push(`png: ${request.png} (${width} pixels wide, ${formatBytes(writeImage('--png', request.png, png))})`);
  }
  return lines;
}

/**
 * Whether `chess-paths solve` draws its layer boards, decided from their size before any is drawn,
 * so a 256 x 256 question does not flood a terminal or fill a disk by default:
 *
 * - on a terminal, the boards are drawn when one board fits its width (the rows wrap to as many
 *   boards as fit) and the whole picture is at most SCREENS screens tall: past that nobody reads
 *   it there, and it pushes the answer's first lines out of sight;
 * - elsewhere (a pipe, a file), when the picture is at most PIPE_PICTURE_BYTES: small boards are
 *   drawn as they always were, and no default writes megabytes;
 * - `--picture` draws whatever the size, `--no-picture` never draws.
 *
 * A picture left out by the rule is replaced by one line saying why and how to ask for it.
 * Pure, so the rule is tested without a terminal.
 */
import type { PictureSize } from './boards.js';

/** `--picture` (always), `--no-picture` (never), or neither (auto: the rule above). */
export type PictureMode = 'auto' | 'always' | 'never';

/** A terminal's size in characters. */
export interface Screen {
  columns: number;
  rows: number;
}

/** Screens a picture drawn on a terminal may fill. */
export const SCREENS = 4;

/** Most bytes of picture written by default to a pipe or a file. */
export const PIPE_PICTURE_BYTES = 256 * 1024;

/** Columns the boards are laid out in when the output is not a terminal and `--width` is not given. */
export const DEFAULT_WIDTH = 80;

/** Columns to lay the boards out in: `--width`, else the terminal's, else DEFAULT_WIDTH. */
export function layoutWidth(width: number | undefined, screen: Screen | undefined): number {
  return width ?? screen?.columns ?? DEFAULT_WIDTH;
}

/** Draw the picture, or leave it out with a note (none when the user asked for no picture). */
export type PictureVerdict = { draw: true } | { draw: false; note?: string };

/** `1.5 MiB`, `300 KiB`, `120 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * The rule: `size` is the picture's (`measureBoards` or `measurePlain`), `screen` standard
 * output's size when it is a terminal, `width` the columns it is laid out in.
 */
export function choosePicture(
  mode: PictureMode,
  size: PictureSize,
  screen: Screen | undefined,
  width: number,
): PictureVerdict {
  if (mode === 'always') return { draw: true };
  if (mode === 'never') return { draw: false };
  let why: string | undefined;
  if (screen) {
    const lines = SCREENS * screen.rows;
    if (size.boardWidth > width) why = `${size.boardWidth} columns wide, more than ${width}`;
    else if (size.height > lines) why = `${size.height} lines, over ${SCREENS} screens`;
  } else if (size.bytes > PIPE_PICTURE_BYTES) {
    why = `about ${formatBytes(size.bytes)}, over ${formatBytes(PIPE_PICTURE_BYTES)} for a file or a pipe`;
  }
  if (why === undefined) return { draw: true };
  return {
    draw: false,
    note: `picture left out: ${why} (--picture to draw, --svg FILE for an image)`,
  };
}

/**
 * Square names: file letters (a..z, then spreadsheet-style aa, ab, ...) followed by the 1-based
 * rank. Parsing walks char codes instead of using a regular expression: it runs for every square
 * of every query, and is a measurable part of an 8 x 8 solve.
 */

import { InputError, type InputPath } from '../errors.js';
import type { Board } from '../types.js';
import { aBoard } from './board.js';

/** Index of a square name on a board, or -1 when it is malformed or off the board. */
export function squareIndexOrMinus1(name: string, files: number, ranks: number): number {
  const len = name.length;
  let i = 0;
  let file = 0;
  for (; i < len; i++) {
    const c = name.charCodeAt(i) | 0x20; // lower-case letters; digits stay outside a..z
    if (c < 97 || c > 122) break;
    file = file * 26 + (c - 96);
    if (file > 1000) return -1;
  }
  if (i === 0 || i === len) return -1;
  file -= 1;
  const first = name.charCodeAt(i);
  if (first === 48) return -1; // a leading zero (`a01`, `a0`) is never a rank
  let rank = 0;
  for (; i < len; i++) {
    const d = name.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    rank = rank * 10 + d;
    if (rank > 1000) return -1;
  }
  rank -= 1;
  if (file >= files || rank >= ranks) return -1;
  return rank * files + file;
}

/** Index of a square name; throws `InputError` naming the value and the board. */
export function parseSquare(name: string, board: Board, path: InputPath = ['square']): number {
  const index = typeof name === 'string' ? squareIndexOrMinus1(name, board.files, board.ranks) : -1;
  if (index < 0) throw new InputError(path, name, squareProblem(name, board));
  return index;
}

/** Why a name is not a square: whitespace (`"e 4"`, `"e4 "`) is named, as the eye misses it. */
function squareProblem(name: unknown, board: Board): string {
  if (typeof name === 'string' && /\s/.test(name)) {
    return `is not a square name: it contains whitespace (write a square as file letters then rank, e.g. "e4")`;
  }
  return `is not a square on ${aBoard(board)}`;
}

/** Letters of a 0-based file: 0 -> a, 25 -> z, 26 -> aa. */
export function fileName(file: number): string {
  let out = '';
  let f = file + 1;
  while (f > 0) {
    const r = (f - 1) % 26;
    out = String.fromCharCode(97 + r) + out;
    f = (f - 1 - r) / 26;
  }
  return out;
}

const STANDARD_NAMES: readonly string[] = Array.from({ length: 64 }, (_, i) => fileName(i & 7) + String((i >>> 3) + 1));

/** Name of a square index on a board, lower-case. */
export function squareName(index: number, board: Board): string {
  if (board.files === 8 && board.ranks === 8) return STANDARD_NAMES[index];
  const file = index % board.files;
  return fileName(file) + String((index - file) / board.files + 1);
}

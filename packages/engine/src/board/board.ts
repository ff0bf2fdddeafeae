/**
 * Board sizes. A board is `files` x `ranks`, each 1..256; square index = rank * files + file.
 * Boards are compared by value, and the common 8 x 8 board is one shared frozen object.
 */
import { InputError, type InputPath } from '../errors.js';
import type { Board } from '../types.js';

/** Largest board side the engine accepts. */
export const MAX_BOARD_SIDE = 256;

/** The standard board. */
export const STANDARD_BOARD: Board = Object.freeze({ files: 8, ranks: 8 });

/** Where a query's board comes from (a constant: a default array would be allocated per call). */
const BOARD_PATH: InputPath = ['board'];

/** Checks a board given by a user; absent means 8 x 8. Throws `InputError` naming the side. */
export function resolveBoard(input: Board | null | undefined, path: InputPath = BOARD_PATH): Board {
  if (input == null) return STANDARD_BOARD;
  const { files, ranks } = input;
  checkSide(files, [...path, 'files']);
  checkSide(ranks, [...path, 'ranks']);
  return files === 8 && ranks === 8 ? STANDARD_BOARD : { files, ranks };
}

function checkSide(value: number, path: InputPath): void {
  if (!Number.isInteger(value) || value < 1 || value > MAX_BOARD_SIDE) {
    throw new InputError(path, value, `is not a board side from 1 to ${MAX_BOARD_SIDE}`);
  }
}

/** `8 x 8`, as error messages print a board. */
export function describeBoard(board: Board): string {
  return `${board.files} x ${board.ranks}`;
}

/** `an 8 x 8 board`, `a 10 x 10 board`: the article follows how the number is read aloud. */
export function aBoard(board: Board): string {
  const side = board.files;
  const vowel = side === 8 || side === 11 || side === 18 || (side >= 80 && side <= 89);
  return `${vowel ? 'an' : 'a'} ${describeBoard(board)} board`;
}

/**
 * The largest board, in words, that fairy pieces solve on dense words (`fairy-small.ts`) and
 * whose problems are plain arrays of numbers (`allocateWords`).
 */
export const SMALL_WORDS = 8;

/** 32-bit words that hold one bit per square of `squares` squares. */
export function wordsFor(squares: number): number {
  return (squares + 31) >>> 5;
}

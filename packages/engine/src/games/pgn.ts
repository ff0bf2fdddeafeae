/**
 * Reading the text of one PGN game as its author wrote it: its tag pairs, its main line's moves,
 * and what annotates them (comments, NAGs and marks, variations), before any chess is played
 * (`game.ts` plays them). PGN as sites and databases write it is lenient, and the contract says
 * what is read: tag values with the standard's `\"` and `\\` escapes; comments in braces and
 * after `;` (kept, after the move they follow, or before the move when written between its number
 * and its SAN or at a line's start); `%` escape lines (skipped); variations in parentheses,
 * nested (kept, each an alternative to the move before it); NAGs (`$1`) and annotation marks
 * (`!` is `$1`, `?` `$2`, `!!` `$3`, `??` `$4`, `!?` `$5`, `?!` `$6`); move numbers with one dot
 * or three, attached or not (and `17. ... Kd7`, as some libraries write a move of Black's); CR
 * LF line ends; the result.
 *
 * What cannot be read in the main line is refused with its place (line and column), never
 * skipped: an unclosed comment or variation, a stray `)`, a token that is no move, a second
 * game; and a text with no game in it at all. A variation is the author's commentary, and the
 * contract once skipped it whole: one that holds a token that is no move stops there (its
 * `stopped` says why) rather than refusing the game. Reading is one pass over the text with no
 * backtracking, so its cost is its length.
 */
import { PgnError } from '../errors.js';
import { scanPgn } from './pgn-scan.js';

export { PgnError };

/** A tag pair, its value unescaped. */
export interface PgnTag {
  name: string;
  value: string;
}

/** A move as written (annotations and check signs removed), where, and what annotates it. */
export interface PgnMove {
  san: string;
  line: number;
  column: number;
  /** Comments written before it (between its number and its SAN, or opening its line). */
  commentsBefore: string[];
  /** Comments written after it, in order. */
  comments: string[];
  /** Its NAGs, in order, the marks on it (`!?`) as their NAG numbers. */
  nags: number[];
  /** Alternatives to it, each a line of moves from the position before it. */
  variations: PgnVariation[];
}

/** A variation: its moves, and why it stops early when a token in it is no move. */
export interface PgnVariation {
  moves: PgnMove[];
  /** Why the variation was not read to its end, or null. */
  stopped: string | null;
}

/** One game's text, read. */
export interface PgnText {
  tags: PgnTag[];
  /** The main line. */
  moves: PgnMove[];
  /** Moves of the main line and of every variation. */
  moveCount: number;
  /** Comments after the last move of the main line that no move follows, and of a game with none. */
  comments: string[];
  /** The result token of the movetext, or null when it has none. */
  result: string | null;
}

/**
 * The one empty list a move's comments, NAGs and variations start as, until something is added
 * (the first addition makes the list its own): most moves have none, and four new arrays a move
 * were a large share of reading a game. Frozen, so that adding to it in place fails loudly
 * rather than adding to every move.
 */
const NONE: never[] = Object.freeze([]) as never[];

/** Reads the text of one game in PGN; throws `PgnError` naming what is wrong and where. */
export function readPgn(text: string): PgnText {
  const tags: PgnTag[] = [];
  const main: PgnVariation = { moves: [], stopped: null };
  /** The lines being read, the main line first; a variation line is dropped when it has no move to follow. */
  const lines: (PgnVariation | null)[] = [main];
  let pending: string[] = NONE;
  let moveCount = 0;
  const current = () => lines[lines.length - 1];
  const last = () => current()?.moves.at(-1);
  const result = scanPgn(text, {
    tag: (name, raw) => tags.push({ name, value: raw.includes('\\') ? raw.replace(/\\(["\\])/g, '$1') : raw }),
    move: (san, line, column) => {
      const into = current();
      if (into === null || into.stopped !== null) return true;
      into.moves.push({ san, line, column, commentsBefore: pending, comments: NONE, nags: NONE, variations: NONE });
      pending = NONE;
      moveCount++;
      return true;
    },
    comment: (written, beforeMove) => {
      const comment = written.includes('\r') ? written.replace(/\r\n?/g, '\n') : written;
      const move = last();
      if (current() === null) return;
      if (beforeMove || move === undefined) {
        if (pending === NONE) pending = [comment];
        else pending.push(comment);
      } else if (move.comments === NONE) move.comments = [comment];
      else move.comments.push(comment);
    },
    nag: (nag) => {
      const move = last();
      if (move === undefined) return;
      if (move.nags === NONE) move.nags = [nag];
      else move.nags.push(nag);
    },
    open: () => {
      const anchor = last();
      const variation: PgnVariation | null = anchor ? { moves: [], stopped: null } : null;
      if (anchor && variation) {
        if (anchor.variations === NONE) anchor.variations = [variation];
        else anchor.variations.push(variation);
      }
      // Comments written before the parenthesis stay with the move they followed.
      lines.push(variation);
      pending = NONE;
    },
    close: () => {
      const closed = lines.pop();
      // A comment closing a variation follows its last move.
      const end = closed?.moves.at(-1);
      if (end && pending.length > 0) end.comments = end.comments === NONE ? pending : end.comments.concat(pending);
      pending = NONE;
    },
    stop: (why) => {
      const into = current();
      if (into && into.stopped === null) into.stopped = why;
    },
  });
  return { tags, moves: main.moves, moveCount, comments: pending, result };
}

/**
 * How many moves `readPgn` reads in `text`, counted by the same scanner without keeping anything:
 * what a game costs before it is played. Stops once past `max` (answering `max + 1`); a text
 * that `readPgn` refuses counts the moves before the refusal (the reader stops there too).
 */
export function countPgnMoves(text: string, max = Number.POSITIVE_INFINITY): number {
  let count = 0;
  try {
    scanPgn(text, { tag: () => {}, move: () => ++count <= max, stop: () => {} });
  } catch (err) {
    if (!(err instanceof PgnError)) throw err;
  }
  return count;
}

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
import { InputError } from './errors.js';

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

const RESULTS = new Set(['1-0', '0-1', '1/2-1/2', '*']);

/** A SAN move, castling (with letters or zeros), with optional check sign and annotation marks. */
const SAN = /^(?:[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](?:x[a-h])?[1-8](?:=?[QRBNKqrbnk])?|[O0]-[O0](?:-[O0])?)/;
const TRAILER = /^[+#]?(?:[!?]{1,2})?$/;
const MOVE_NUMBER = /^(\d+)(\.+|…)/;
const MARKS = /^[!?]{1,2}$/;
/** The NAG of each annotation mark. */
const MARK_NAGS: Record<string, number> = { '!': 1, '?': 2, '!!': 3, '??': 4, '!?': 5, '?!': 6 };
const TAG = /\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]/y;

/**
 * Characters that end a token, below 128: white space and `{};()[]`. Above 127 a character ends
 * one when it is white space to a regular expression's `\s` (a no-break space, U+3000, ...).
 */
const ENDS_TOKEN = new Uint8Array(128);
for (const c of ' \t\n\r\f\v{};()[]') ENDS_TOKEN[c.charCodeAt(0)] = 1;
const SPACE = /\s/;

function endsToken(code: number): boolean {
  return code < 128 ? ENDS_TOKEN[code] === 1 : SPACE.test(String.fromCharCode(code));
}

/**
 * About how many games a text holds, for the refusal of a second one: its sections of tag pairs
 * (a tag line after anything but another tag line starts one), and a first game written without
 * tags.
 */
function gamesIn(text: string): number {
  let games = 0;
  let previous: 'none' | 'tag' | 'moves' = 'none';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const tag = /^\[[A-Za-z0-9_]+\s*"/.test(line);
    if (tag && previous !== 'tag') games++;
    else if (!tag && previous === 'none') games++;
    previous = tag ? 'tag' : 'moves';
  }
  return games;
}

/** A refusal of the text at a place: `pgn: <what> at line L, column C`. */
function refuse(what: string, line: number, column: number): never {
  throw new PgnError(`${what} at line ${line}, column ${column}`);
}

/** The text of a game could not be read; the message says what and where. */
export class PgnError extends InputError {
  constructor(reason: string) {
    super(['pgn'], '', reason);
    this.message = `pgn: ${reason}`;
  }
}

/** What the scanner hands on; `move` answers false to stop. `depth` 0 is the main line. */
interface PgnSink {
  tag(name: string, rawValue: string): void;
  move(san: string, line: number, column: number, depth: number): boolean;
  comment?(text: string, beforeMove: boolean): void;
  nag?(nag: number): void;
  open?(): void;
  close?(): void;
  /** A token in the current variation is no move: the variation stops there. */
  stop?(why: string): void;
}

/** Reads the text of one game in PGN; throws `PgnError` naming what is wrong and where. */
export function readPgn(text: string): PgnText {
  const tags: PgnTag[] = [];
  const main: PgnVariation = { moves: [], stopped: null };
  /** The lines being read, the main line first; a variation line is dropped when it has no move to follow. */
  const lines: (PgnVariation | null)[] = [main];
  let pending: string[] = [];
  let moveCount = 0;
  const current = () => lines[lines.length - 1];
  const last = () => current()?.moves.at(-1);
  const result = scanPgn(text, {
    tag: (name, raw) => tags.push({ name, value: raw.replace(/\\(["\\])/g, '$1') }),
    move: (san, line, column) => {
      const into = current();
      if (into === null || into.stopped !== null) return true;
      into.moves.push({ san, line, column, commentsBefore: pending, comments: [], nags: [], variations: [] });
      pending = [];
      moveCount++;
      return true;
    },
    comment: (written, beforeMove) => {
      const comment = written.includes('\r') ? written.replace(/\r\n?/g, '\n') : written;
      const move = last();
      if (current() === null) return;
      if (beforeMove || move === undefined) pending.push(comment);
      else move.comments.push(comment);
    },
    nag: (nag) => last()?.nags.push(nag),
    open: () => {
      const anchor = last();
      const variation: PgnVariation | null = anchor ? { moves: [], stopped: null } : null;
      if (anchor && variation) anchor.variations.push(variation);
      // Comments written before the parenthesis stay with the move they followed.
      lines.push(variation);
      pending = [];
    },
    close: () => {
      const closed = lines.pop();
      // A comment closing a variation follows its last move.
      if (closed && pending.length > 0) closed.moves.at(-1)?.comments.push(...pending);
      pending = [];
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

/**
 * The one pass over a game's text behind `readPgn` and `countPgnMoves`: hands its tag pairs,
 * moves (of the main line and of variations, with their depth), comments, NAGs and variations'
 * bounds to `sink`, and answers the result token (null when there is none).
 */
function scanPgn(text: string, sink: PgnSink): string | null {
  let result: string | null = null;
  let sawTag = false;
  let sawMove = false;
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let inMovetext = false;
  let depth = 0; // variation nesting
  let variationLine = 0;
  let variationColumn = 0;
  /** Whether each open line (by depth) has a move yet: a variation is an alternative to one. */
  const hasMove: boolean[] = [false];
  /** The depth of the variation that stopped (its tokens and those of variations in it are skipped). */
  let stoppedAt = Number.POSITIVE_INFINITY;
  /** A move number was read and its move not yet: a comment here comes before that move. */
  let afterNumber = false;
  const n = text.length;
  const column = (at: number) => at - lineStart + 1;
  const newline = (at: number) => {
    line++;
    lineStart = at + 1;
  };
  const stop = (why: string) => {
    stoppedAt = depth;
    sink.stop?.(why);
  };

  while (i < n) {
    const code = text.charCodeAt(i);
    if (code === 0x0a) {
      newline(i);
      i++;
      continue;
    }
    // space, tab, CR, form feed, vertical tab, byte order mark
    if (code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0c || code === 0x0b || code === 0xfeff) {
      i++;
      continue;
    }
    if (code === 0x25 /* % */ && i === lineStart) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (code === 0x7b /* { */) {
      const [startLine, startColumn] = [line, column(i)];
      const end = text.indexOf('}', i + 1);
      if (end < 0) refuse('an unclosed comment (a "{" with no "}")', startLine, startColumn);
      for (let at = text.indexOf('\n', i + 1); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) newline(at);
      if (sink.comment && depth < stoppedAt) sink.comment(text.slice(i + 1, end).trim(), afterNumber);
      i = end + 1;
      continue;
    }
    if (code === 0x3b /* ; */) {
      let end = text.indexOf('\n', i);
      if (end < 0) end = n;
      if (sink.comment && depth < stoppedAt) sink.comment(text.slice(i + 1, end).trim(), afterNumber);
      i = end;
      continue;
    }
    if (code === 0x28 /* ( */) {
      if (depth === 0) [variationLine, variationColumn] = [line, column(i)];
      const anchored = hasMove[depth];
      depth++;
      hasMove[depth] = false;
      afterNumber = false;
      if (depth < stoppedAt) {
        sink.open?.();
        if (!anchored) stop(`a variation at line ${line}, column ${column(i)} follows no move it could replace`);
      }
      i++;
      continue;
    }
    if (code === 0x29 /* ) */) {
      if (depth === 0) refuse('a ")" that closes no variation', line, column(i));
      if (depth < stoppedAt || depth === stoppedAt) sink.close?.();
      depth--;
      if (depth < stoppedAt) stoppedAt = Number.POSITIVE_INFINITY;
      afterNumber = false;
      i++;
      continue;
    }
    if (code === 0x5b /* [ */ && depth === 0) {
      if (inMovetext) {
        throw new PgnError(
          `a second game (a tag pair after the moves) at line ${line}, column ${column(i)}: the text holds ${gamesIn(text)} games, and one is read at a time`,
        );
      }
      TAG.lastIndex = i;
      const match = TAG.exec(text);
      if (!match) refuse('a tag pair that is not [Name "value"]', line, column(i));
      sink.tag(match[1], match[2]);
      sawTag = true;
      i = TAG.lastIndex;
      continue;
    }
    // A token: up to white space or a character that starts something else.
    const start = i;
    while (i < n && !endsToken(text.charCodeAt(i))) i++;
    if (i === start) {
      if (depth === 0) refuse(`an unexpected "${text[i]}"`, line, column(i));
      if (depth < stoppedAt) stop(`an unexpected "${text[i]}" at line ${line}, column ${column(i)}`);
      i++;
      continue;
    }
    if (depth >= stoppedAt) continue; // a variation that stopped: the rest of it skipped
    inMovetext = true;
    if (!readToken(start, i, line, column(start))) return result;
  }
  if (depth > 0) refuse('an unclosed variation (a "(" with no ")")', variationLine, variationColumn);
  if (!sawTag && !sawMove && result === null) {
    throw new PgnError(
      'holds no game: no tag pair, no move and no result (a game with no moves is at least its result, e.g. *)',
    );
  }
  return result;

  /** Reads the token text[from, to); false when the sink wants no more. */
  function readToken(from: number, to: number, at: number, col: number): boolean {
    const first = text.charCodeAt(from);
    // The common tokens that are no move, told by their first character without a copy.
    if (first === 0x24 /* $ */ && to - from > 1 && allDigits(from + 1, to)) {
      sink.nag?.(Number(text.slice(from + 1, to)));
      return true;
    }
    if ((first === 0x21 || first === 0x3f) /* ! ? */ && to - from <= 2 && MARKS.test(text.slice(from, to))) {
      sink.nag?.(MARK_NAGS[text.slice(from, to)]);
      return true;
    }
    let rest = text.slice(from, to);
    // A move without its number (`e4`, `Nf3`, `O-O`): a letter first is never a number, a
    // result, a NAG, a mark or dots, so it goes straight to the SAN.
    if ((first | 0x20) >= 0x61 && (first | 0x20) <= 0x7a) return readMove(rest, at, col);
    let offset = 0;
    if (first >= 0x30 && first <= 0x39) {
      const number = MOVE_NUMBER.exec(rest);
      if (number) {
        if (RESULTS.has(rest)) return endWith(rest, at, col);
        rest = rest.slice(number[0].length);
        offset = number[0].length;
        afterNumber = true;
        if (rest === '') return true;
      }
    }
    if (RESULTS.has(rest)) return endWith(rest, at, col + offset);
    if (offset === 0 && allDigits(from, to)) {
      afterNumber = true;
      return true; // a move number written without its dot
    }
    if (rest.charCodeAt(0) === 0x24 && allDigits(from + offset + 1, to) && rest.length > 1) {
      sink.nag?.(Number(rest.slice(1)));
      return true;
    }
    if (MARKS.test(rest)) {
      sink.nag?.(MARK_NAGS[rest]);
      return true;
    }
    if (/^(\.+|…)$/.test(rest)) {
      if (depth === 0 && result !== null) refuse(`a second game (moves after the result ${result})`, at, col + offset);
      return true; // the dots of `17. ... Kd7`, apart from their number
    }
    return readMove(rest, at, col + offset);
  }

  /** Reads a token that should be a move (with its check sign and marks); false when the sink wants no more. */
  function readMove(token: string, at: number, col: number): boolean {
    if (depth === 0 && result !== null) refuse(`a second game (moves after the result ${result})`, at, col);
    const san = SAN.exec(token);
    const length = san === null ? 0 : san[0].length;
    const trailer = length === token.length ? '' : token.slice(length);
    if (san === null || (trailer !== '' && !TRAILER.test(trailer))) {
      const why = `an unreadable token ${JSON.stringify(token.slice(0, 40))}`;
      if (depth === 0) refuse(why, at, col);
      stop(`${why} at line ${at}, column ${col}`);
      return true;
    }
    sawMove = true;
    hasMove[depth] = true;
    afterNumber = false;
    const more = sink.move(san[0], at, col, depth);
    if (trailer !== '') {
      const mark = trailer.replace(/^[+#]/, '');
      if (mark !== '') sink.nag?.(MARK_NAGS[mark]);
    }
    return more;
  }

  function allDigits(from: number, to: number): boolean {
    if (from >= to) return false;
    for (let k = from; k < to; k++) {
      const c = text.charCodeAt(k);
      if (c < 0x30 || c > 0x39) return false;
    }
    return true;
  }

  /** The result token: the game's in the main line, skipped in a variation (authors end lines with one). */
  function endWith(token: string, at: number, col: number): true {
    if (depth > 0) return true;
    if (result !== null) refuse(`a second result (${token} after ${result})`, at, col);
    result = token;
    return true;
  }
}

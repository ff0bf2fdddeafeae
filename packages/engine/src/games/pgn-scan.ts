/**
 * The one pass over a game's PGN text, shared by reading it (`readPgn`) and counting its moves
 * before it is played (`countPgnMoves`): characters to tokens (tags, comments, `%` lines,
 * variations' brackets, move numbers, NAGs and marks, results, SANs), handed to a sink as they
 * come. No backtracking, so its cost is the text's length; what cannot be read in the main line is
 * refused here with its line and column, and a token that is no move stops only the variation it
 * is in.
 */
import { PgnError } from '../errors.js';

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

/** What the scanner hands on; `move` answers false to stop. `depth` 0 is the main line. */
export interface PgnSink {
  tag(name: string, rawValue: string): void;
  move(san: string, line: number, column: number, depth: number): boolean;
  comment?(text: string, beforeMove: boolean): void;
  nag?(nag: number): void;
  open?(): void;
  close?(): void;
  /** A token in the current variation is no move: the variation stops there. */
  stop?(why: string): void;
}

/**
 * The one pass over a game's text behind `readPgn` and `countPgnMoves`: hands its tag pairs,
 * moves (of the main line and of variations, with their depth), comments, NAGs and variations'
 * bounds to `sink`, and answers the result token (null when there is none).
 */
export function scanPgn(text: string, sink: PgnSink): string | null {
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

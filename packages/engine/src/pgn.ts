/**
 * Reading the text of one PGN game: its tag pairs and the tokens of its main line, before any
 * chess is played (`game.ts` plays them). PGN as sites and databases write it is lenient, and the
 * contract says what is read: tag values with the standard's `\"` and `\\` escapes; comments in
 * braces and after `;`; `%` escape lines; variations in parentheses, nested, skipped whole; NAGs
 * (`$1`) and annotation marks (`!`, `?!`); move numbers with one dot or three, attached or not
 * (and `17. ... Kd7`, as some libraries write a move of Black's); CR LF line ends; the result.
 * What cannot be read is refused with its place (line and column), never skipped: an unclosed
 * comment or variation, a stray `)`, a token that is no move, a second game; and a text with no
 * game in it at all. Reading is one pass over the text with no backtracking, so its cost is its
 * length.
 */
import { InputError } from './errors.js';

/** A tag pair, its value unescaped. */
export interface PgnTag {
  name: string;
  value: string;
}

/** A move of the main line as written (annotations and check signs removed), and where. */
export interface PgnMove {
  san: string;
  line: number;
  column: number;
}

/** One game's text, read. */
export interface PgnText {
  tags: PgnTag[];
  moves: PgnMove[];
  /** The result token of the movetext, or null when it has none. */
  result: string | null;
}

const RESULTS = new Set(['1-0', '0-1', '1/2-1/2', '*']);

/** A SAN move, castling (with letters or zeros), with optional check sign and annotation marks. */
const SAN = /^(?:[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](?:x[a-h])?[1-8](?:=?[QRBNKqrbnk])?|[O0]-[O0](?:-[O0])?)/;
const TRAILER = /^[+#]?(?:[!?]{1,2})?$/;
const MOVE_NUMBER = /^(\d+)(\.+|…)/;
const NAG = /^\$\d+$/;
const MARKS = /^[!?]{1,2}$/;

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

/** Reads the text of one game in PGN; throws `PgnError` naming what is wrong and where. */
export function readPgn(text: string): PgnText {
  const tags: PgnTag[] = [];
  const moves: PgnMove[] = [];
  let result: string | null = null;
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let inMovetext = false;
  let depth = 0; // variation nesting
  let variationLine = 0;
  let variationColumn = 0;
  const n = text.length;
  const column = (at: number) => at - lineStart + 1;
  const newline = (at: number) => {
    line++;
    lineStart = at + 1;
  };

  while (i < n) {
    const c = text[i];
    if (c === '\n') {
      newline(i);
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\ufeff') {
      i++;
      continue;
    }
    if (c === '%' && i === lineStart) {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '{') {
      const [startLine, startColumn] = [line, column(i)];
      i++;
      while (i < n && text[i] !== '}') {
        if (text[i] === '\n') newline(i);
        i++;
      }
      if (i >= n) refuse('an unclosed comment (a "{" with no "}")', startLine, startColumn);
      i++;
      continue;
    }
    if (c === ';') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '(') {
      if (depth === 0) [variationLine, variationColumn] = [line, column(i)];
      depth++;
      i++;
      continue;
    }
    if (c === ')') {
      if (depth === 0) refuse('a ")" that closes no variation', line, column(i));
      depth--;
      i++;
      continue;
    }
    if (c === '[' && depth === 0) {
      if (inMovetext) refuse('a second game (a tag pair after the moves)', line, column(i));
      i = readTag(text, i, tags, line, column(i));
      continue;
    }
    // A token: up to whitespace or a character that starts something else.
    const start = i;
    while (i < n && !/[\s{};()[\]]/.test(text[i])) i++;
    if (i === start) refuse(`an unexpected "${c}"`, line, column(i));
    if (depth > 0) continue; // inside a variation: skipped whole
    inMovetext = true;
    readToken(text.slice(start, i), line, column(start));
  }
  if (depth > 0) refuse('an unclosed variation (a "(" with no ")")', variationLine, variationColumn);
  if (tags.length === 0 && moves.length === 0 && result === null) {
    throw new PgnError(
      'holds no game: no tag pair, no move and no result (a game with no moves is at least its result, e.g. *)',
    );
  }
  return { tags, moves, result };

  function readToken(token: string, at: number, col: number): void {
    let rest = token;
    let offset = 0;
    const number = MOVE_NUMBER.exec(rest);
    if (number) {
      if (RESULTS.has(rest)) {
        endWith(rest, at, col);
        return;
      }
      rest = rest.slice(number[0].length);
      offset = number[0].length;
      if (rest === '') return;
    }
    if (RESULTS.has(rest)) {
      endWith(rest, at, col + offset);
      return;
    }
    if (/^\d+$/.test(rest) && offset === 0) return; // a move number written without its dot
    if (NAG.test(rest) || MARKS.test(rest)) return;
    if (result !== null) refuse(`a second game (moves after the result ${result})`, at, col + offset);
    if (/^(\.+|…)$/.test(rest)) return; // the dots of `17. ... Kd7`, apart from their number
    const san = SAN.exec(rest);
    if (!san || !TRAILER.test(rest.slice(san[0].length))) {
      refuse(`an unreadable token ${JSON.stringify(rest.slice(0, 40))}`, at, col + offset);
    }
    moves.push({ san: san[0], line: at, column: col + offset });
  }

  function endWith(token: string, at: number, col: number): void {
    if (result !== null) refuse(`a second result (${token} after ${result})`, at, col);
    result = token;
  }

  /** Reads `[Name "value"]` at `at`; returns the index after it. */
  function readTag(src: string, at: number, into: PgnTag[], tagLine: number, tagColumn: number): number {
    const match = /^\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]/.exec(src.slice(at, at + 65_536));
    if (!match) refuse('a tag pair that is not [Name "value"]', tagLine, tagColumn);
    into.push({ name: match[1], value: match[2].replace(/\\(["\\])/g, '$1') });
    return at + match[0].length;
  }
}

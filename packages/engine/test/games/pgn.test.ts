/**
 * Reading the text of one PGN game (`readPgn`, src/games/pgn.ts), before any chess is played:
 * every style of PGN the contract lists (path-semantics.md, Games) read the way a person reads
 * it, and every refusal worded with its place. The contract asks that nothing be guessed or
 * skipped silently: a tokeniser that drops a token, miscounts a line or column, or lets a second
 * game through would hand the wrong moves (or wrong error places) to the player. The expected
 * tags, moves and places are written by hand from the texts below (lines and columns 1-based).
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { PgnError, type PgnMove, readPgn } from '../../src/games/pgn.js';

/** The moves of a read text, as written (annotations and check signs dropped). */
const sans = (text: string) => readPgn(text).moves.map((m) => m.san);
/** Where each move of the main line stands. */
const placed = (moves: PgnMove[]) => moves.map(({ san, line, column }) => ({ san, line, column }));

/** The message readPgn refuses `text` with (fails when it reads it). */
function refusal(text: string): string {
  try {
    readPgn(text);
  } catch (err) {
    expect(err).toBeInstanceOf(PgnError);
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error(`read without complaint: ${JSON.stringify(text)}`);
}

describe('tag pairs', () => {
  it('keeps them in order, with the standard escapes \\" and \\\\ undone and other backslashes kept', () => {
    const text = [
      '[Event "F/S Return Match"]',
      '[Site "Belgrade, Serbia JUG"]',
      '[White "Fischer, Robert J."]',
      '[Annotator "The \\"Ed\\" of C:\\\\games"]',
      '[Source "C:\\games\\1992.pgn"]',
      '[Empty ""]',
      '[Result "1/2-1/2"]',
      '',
      '1. e4 1/2-1/2',
    ].join('\n');
    const read = readPgn(text);
    expect(read.tags).toEqual([
      { name: 'Event', value: 'F/S Return Match' },
      { name: 'Site', value: 'Belgrade, Serbia JUG' },
      { name: 'White', value: 'Fischer, Robert J.' },
      { name: 'Annotator', value: 'The "Ed" of C:\\games' },
      { name: 'Source', value: 'C:\\games\\1992.pgn' },
      { name: 'Empty', value: '' },
      { name: 'Result', value: '1/2-1/2' },
    ]);
    expect(placed(read.moves)).toEqual([{ san: 'e4', line: 9, column: 4 }]);
    expect(read.result).toBe('1/2-1/2');
  });

  it('reads a value holding brackets, semicolons and braces as text', () => {
    expect(readPgn('[Event "a ] b ; c { d ( e"]\n*').tags).toEqual([{ name: 'Event', value: 'a ] b ; c { d ( e' }]);
  });
});

describe('movetext as sites and databases write it', () => {
  it('reads a lichess export: clock and eval comments, NAGs, the result', () => {
    const text = [
      '[Event "Rated Blitz game"]',
      '[Site "https://lichess.org/abcdefgh"]',
      '',
      '1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Nf3 $1 { [%clk 0:02:58] }',
      '2... Nc6 3. Bb5 a6 0-1',
    ].join('\n');
    const read = readPgn(text);
    expect(placed(read.moves)).toEqual([
      { san: 'e4', line: 4, column: 4 },
      { san: 'e5', line: 4, column: 44 },
      { san: 'Nf3', line: 4, column: 69 },
      { san: 'Nc6', line: 5, column: 6 },
      { san: 'Bb5', line: 5, column: 13 },
      { san: 'a6', line: 5, column: 17 },
    ]);
    expect(read.result).toBe('0-1');
  });

  it('skips brace comments spanning lines and semicolon comments, counting the lines they hold', () => {
    const text =
      '1. e4 {a comment\nover two lines ; not a line comment}\ne5 ; to the end of the line { not a brace\n2. Nf3 *';
    expect(placed(readPgn(text).moves)).toEqual([
      { san: 'e4', line: 1, column: 4 },
      { san: 'e5', line: 3, column: 1 },
      { san: 'Nf3', line: 4, column: 4 },
    ]);
  });

  it('skips % escape lines (only at the start of a line)', () => {
    expect(sans('%ChessBase export\n1. d4 d5\n% another\n2. c4 *')).toEqual(['d4', 'd5', 'c4']);
    expect(refusal('1. d4 % d5 *')).toBe('pgn: an unreadable token "%" at line 1, column 7');
  });

  it('skips nested variations whole, with comments in them holding parentheses and results', () => {
    const text =
      '1. e4 (1. d4 {a (strange) comment :)} d5 (1... Nf6 {1-0} 2. c4 (2. Bg5 ; a ) in here\n)) 1-0) e5 ' +
      '(1... c5 {(}) 2. Nf3 *';
    expect(sans(text)).toEqual(['e4', 'e5', 'Nf3']);
    expect(readPgn(text).result).toBe('*');
  });

  it('drops NAGs, annotation marks and check signs, attached or standing alone', () => {
    const text =
      '1. e4! $1 e5?! 2. Nf3!? $14 Nc6?? 3. Bb5!! a6? 4. Bxc6+! dxc6 $2 5. Nxe5 Qd4 6. Nf3 Qxe4+ 7. Be2 Qxg2 *';
    expect(sans(text)).toEqual([
      'e4',
      'e5',
      'Nf3',
      'Nc6',
      'Bb5',
      'a6',
      'Bxc6',
      'dxc6',
      'Nxe5',
      'Qd4',
      'Nf3',
      'Qxe4',
      'Be2',
      'Qxg2',
    ]);
    expect(sans('1. f3 e5 2. g4 Qh4# 0-1')).toEqual(['f3', 'e5', 'g4', 'Qh4']);
  });

  it('reads move numbers attached or apart, with one dot or three, and numbers without a dot', () => {
    const forms = [
      '1.e4 e5 2.Nf3 Nc6',
      '1. e4 e5 2. Nf3 Nc6',
      '1. e4 1... e5 2. Nf3 2... Nc6',
      '1.e4 1...e5 2.Nf3 2...Nc6',
      '1.e4 {c} 1...e5 {c} 2.Nf3 {c} 2....Nc6',
      'e4 e5 Nf3 Nc6',
      '1 e4 e5 2 Nf3 Nc6',
      // Black's move after dots standing apart, as chess.js exports a game from a FEN.
      '1. e4 1. ... e5 2. Nf3 2. … Nc6',
      '1. e4 1… e5 2. Nf3 2…Nc6',
    ];
    for (const form of forms) expect(sans(`${form} *`), form).toEqual(['e4', 'e5', 'Nf3', 'Nc6']);
    // The place of a move after an attached number is the move's own first character.
    expect(placed(readPgn('12...Nf6').moves)).toEqual([{ san: 'Nf6', line: 1, column: 6 }]);
  });

  it('reads castling with letters or zeros, and promotions with or without =', () => {
    expect(sans('1. O-O O-O-O 2. 0-0 0-0-0+ 3. e8=Q e1Q+ 4. exd8=N# bxa1r *')).toEqual([
      'O-O',
      'O-O-O',
      '0-0',
      '0-0-0',
      'e8=Q',
      'e1Q',
      'exd8=N',
      'bxa1r',
    ]);
  });

  it('reads CR LF line ends with the same lines and columns as LF', () => {
    const lf = '[Event "x"]\n\n1. e4 {multi\nline} e5\n2. Nf3 *\n';
    const crlf = lf.replace(/\n/g, '\r\n');
    expect(readPgn(crlf)).toEqual(readPgn(lf));
    expect(readPgn(crlf).moves.map(({ line, column }) => [line, column])).toEqual([
      [3, 4],
      [4, 7],
      [5, 4],
    ]);
    expect(readPgn(crlf).tags).toEqual([{ name: 'Event', value: 'x' }]);
  });

  it('reads a game with no moves (a FEN and a result), and moves with no result', () => {
    const fen = '8/8/8/4k3/8/8/8/4K3 w - - 0 60';
    expect(readPgn(`[SetUp "1"]\n[FEN "${fen}"]\n\n1/2-1/2\n`)).toEqual({
      tags: [
        { name: 'SetUp', value: '1' },
        { name: 'FEN', value: fen },
      ],
      moves: [],
      moveCount: 0,
      comments: [],
      result: '1/2-1/2',
    });
    expect(readPgn('1. e4 e5')).toMatchObject({ result: null });
  });

  it('reads each result', () => {
    for (const result of ['1-0', '0-1', '1/2-1/2', '*']) expect(readPgn(`1. e4 ${result}`).result).toBe(result);
  });
});

describe('refusals, with what and where', () => {
  it('a text with no game in it: empty, blank, or comments alone', () => {
    for (const text of ['', '  \n\t', '{ just a comment }\n; and another'])
      expect(refusal(text), JSON.stringify(text)).toBe(
        'pgn: holds no game: no tag pair, no move and no result (a game with no moves is at least its result, e.g. *)',
      );
    expect(readPgn('*')).toEqual({ tags: [], moves: [], moveCount: 0, comments: [], result: '*' });
  });

  it('an unclosed comment, at its brace', () => {
    expect(refusal('1. e4 e5\n2. Nf3 {never closed\n2... Nc6 *')).toBe(
      'pgn: an unclosed comment (a "{" with no "}") at line 2, column 8',
    );
  });

  it('an unclosed variation, at its outermost parenthesis', () => {
    expect(refusal('1. e4 e5 (1... c5 (1... e6) 2. Nf3 *')).toBe(
      'pgn: an unclosed variation (a "(" with no ")") at line 1, column 10',
    );
  });

  it('a stray closing parenthesis', () => {
    expect(refusal('1. e4 (1. d4) e5)\n*')).toBe('pgn: a ")" that closes no variation at line 1, column 17');
  });

  it('an unreadable token, after a move number or alone', () => {
    expect(refusal('1. e4 e5\n2.Zf3 *')).toBe('pgn: an unreadable token "Zf3" at line 2, column 3');
    expect(refusal('1. e4 e9 *')).toBe('pgn: an unreadable token "e9" at line 1, column 7');
    expect(refusal('1. e2e4 *')).toBe('pgn: an unreadable token "e2e4" at line 1, column 4');
    expect(refusal('1. e4 --')).toBe('pgn: an unreadable token "--" at line 1, column 7');
    expect(refusal('1. Nf3!+ *')).toBe('pgn: an unreadable token "Nf3!+" at line 1, column 4');
    expect(refusal('1. e4 ]')).toBe('pgn: an unexpected "]" at line 1, column 7');
  });

  it('dots after the result', () => {
    expect(refusal('1. e4 1-0 ...')).toBe('pgn: a second game (moves after the result 1-0) at line 1, column 11');
  });

  it('a second game: moves or a second result after the result, or a tag pair after the moves (saying how many)', () => {
    expect(refusal('[Event "a"]\n\n1. e4 e5 1-0\n\n1. d4 d5 *')).toBe(
      'pgn: a second game (moves after the result 1-0) at line 5, column 4',
    );
    expect(refusal('1. e4 e5 1-0\n\n[Event "b"]\n\n1. d4 *')).toBe(
      'pgn: a second game (a tag pair after the moves) at line 3, column 1: the text holds 2 games, and one is read at a time',
    );
    expect(refusal('1. e4 e5\n\n[Event "b"]\n1. d4 *')).toBe(
      'pgn: a second game (a tag pair after the moves) at line 3, column 1: the text holds 2 games, and one is read at a time',
    );
    expect(refusal('[FEN "8/8/8/4k3/8/8/8/4K3 w - - 0 1"]\n*\n[Event "b"]\n*')).toBe(
      'pgn: a second game (a tag pair after the moves) at line 3, column 1: the text holds 2 games, and one is read at a time',
    );
    expect(refusal('1. e4 * 1-0')).toBe('pgn: a second result (1-0 after *) at line 1, column 9');
    const month = Array.from({ length: 30 }, (_, i) => `[Event "game ${i}"]\n[Site "?"]\n\n1. e4 e5 *\n`).join('\n');
    expect(refusal(month)).toBe(
      'pgn: a second game (a tag pair after the moves) at line 6, column 1: the text holds 30 games, and one is read at a time',
    );
  });

  it('a tag that is not [Name "value"]', () => {
    for (const [text, line, column] of [
      ['[Event x]\n*', 1, 1],
      ['[Event "x"]\n  [Site "unclosed]\n*', 2, 3],
      ['[Event "no bracket"\n*', 1, 1],
      ['[ "no name"]\n*', 1, 1],
      ['[Event "a\nb"]\n*', 1, 1],
    ] as const) {
      expect(refusal(text), text).toBe(`pgn: a tag pair that is not [Name "value"] at line ${line}, column ${column}`);
    }
  });
});

describe('the game as its author wrote it', () => {
  it('keeps comments after a move, before it (after its number, or opening a line), and after the last', () => {
    const read = readPgn('{The Opera} 1. e4 {best by test} e5 ; a line comment\n2. {now} Nf3 d6 {and then} *');
    expect(read.moves.map((m) => [m.san, m.commentsBefore, m.comments])).toEqual([
      ['e4', ['The Opera'], ['best by test']],
      ['e5', [], ['a line comment']],
      ['Nf3', ['now'], []],
      ['d6', [], ['and then']],
    ]);
    expect(readPgn('1. e4 e5 {resigns} *').comments).toEqual([]);
    expect(readPgn('{only a comment} *').comments).toEqual(['only a comment']);
  });

  it('keeps NAGs and marks as NAG numbers, in order', () => {
    const read = readPgn('1. e4! $14 e5?! 2. Nf3!? $1 $18 Nc6?? 3. Bb5!! a6? *');
    expect(read.moves.map((m) => m.nags)).toEqual([[1, 14], [6], [5, 1, 18], [4], [3], [2]]);
  });

  it('keeps variations, nested, each the alternatives of the move before it', () => {
    const read = readPgn('1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) (1. c4) e5 2. Nf3 *');
    const [e4] = read.moves;
    expect(e4.variations.map((v) => v.moves.map((m) => m.san))).toEqual([['d4', 'd5', 'c4'], ['c4']]);
    expect(e4.variations[0].moves[1].variations[0].moves.map((m) => m.san)).toEqual(['Nf6', 'c4']);
    expect(read.moves.map((m) => m.san)).toEqual(['e4', 'e5', 'Nf3']);
    expect(read.moveCount).toBe(9);
  });

  it('stops a variation at a token that is no move, saying where, and reads the game on', () => {
    const read = readPgn('1. e4 (1. d4 zz9 d5) e5 *');
    expect(read.moves[0].variations).toEqual([
      expect.objectContaining({ stopped: 'an unreadable token "zz9" at line 1, column 14' }),
    ]);
    expect(read.moves[0].variations[0].moves.map((m) => m.san)).toEqual(['d4']);
    expect(sans('1. e4 (1. d4 zz9 d5) e5 *')).toEqual(['e4', 'e5']);
  });
});

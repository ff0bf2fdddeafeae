/**
 * FEN positions on any board: `ranks` rank fields from the top rank down, each a run of piece
 * letters and run-lengths of empty squares (which may exceed 8 on a wide board), then the
 * optional side to move, castling, en-passant, half-move and full-move fields. Only placement
 * and side to move matter for paths; the other fields are checked so that a typo is reported
 * rather than ignored.
 */

import { InputError, type InputPath } from '../errors.js';
import type { Board, Color, Role, SquareSet } from '../types.js';
import { WordSquareSet } from './bitset.js';
import { describeBoard, STANDARD_BOARD, wordsFor } from './board.js';
import { squareIndexOrMinus1, squareName } from './squares.js';

/** A piece standing on a square. */
export interface PlacedPiece {
  index: number;
  square: string;
  role: Role;
  color: Color;
}

/** A parsed FEN. */
export interface ParsedPosition {
  /** The FEN in full (absent fields given their defaults, `w - - 0 1`), its fields one space apart. */
  fen: string;
  board: Board;
  turn: Color;
  /** Pieces in increasing square order. */
  pieces: PlacedPiece[];
  occupied: SquareSet;
  /** Occupied squares as words (bit i = square i). */
  occupiedWords: Int32Array;
}

const ROLES: Record<string, Role> = { k: 'KING', q: 'QUEEN', r: 'ROOK', b: 'BISHOP', n: 'KNIGHT', p: 'PAWN' };

/** Parses a FEN for a board (default 8 x 8); throws `InputError` saying what is wrong. */
export function parseFen(fen: string, board: Board = STANDARD_BOARD, path: InputPath = ['fen']): ParsedPosition {
  if (typeof fen !== 'string') throw new InputError(path, fen, 'is not a FEN string');
  const text = fen.trim();
  const fail = (reason: string): never => {
    throw new InputError(path, fen, reason);
  };
  if (text === '') fail('is empty: expected a FEN such as "8/8/8/8/4K3/8/8/8 w - - 0 1"');
  const fields = text.split(/\s+/);
  if (fields.length > 6) fail(`has ${fields.length} fields; a FEN has at most 6`);
  const rows = fields[0].split('/');
  if (rows.length !== board.ranks) {
    fail(
      `has ${rows.length} rank${rows.length === 1 ? '' : 's'}, but the ${describeBoard(board)} board has ${board.ranks}`,
    );
  }
  const { files, ranks } = board;
  const words = new Int32Array(wordsFor(files * ranks));
  const pieces: PlacedPiece[] = [];
  rows.forEach((row, r) => {
    const rank = ranks - 1 - r;
    let file = 0;
    for (let i = 0; i < row.length; ) {
      const c = row[i];
      if (c >= '0' && c <= '9') {
        let j = i;
        while (j < row.length && row[j] >= '0' && row[j] <= '9') j++;
        const run = row.slice(i, j);
        if (run[0] === '0') fail(`has an empty-square count "${run}" in rank ${rank + 1}; counts start from 1`);
        file += Number(run);
        i = j;
        continue;
      }
      const role = ROLES[c.toLowerCase()];
      if (role === undefined) fail(`has an unknown piece letter "${c}" in rank ${rank + 1}`);
      if (file < files) {
        const index = rank * files + file;
        words[index >>> 5] |= 1 << (index & 31);
        pieces.push({
          index,
          square: squareName(index, board),
          role,
          color: c === c.toUpperCase() ? 'WHITE' : 'BLACK',
        });
      }
      file++;
      i++;
    }
    if (file !== files)
      fail(`has ${file} squares in rank ${rank + 1}, but the ${describeBoard(board)} board has ${files} files`);
  });
  const [, turnField = 'w', castling = '-', enPassant = '-', halfmove = '0', fullmove = '1'] = fields;
  if (turnField !== 'w' && turnField !== 'b') fail(`has side to move "${turnField}"; expected w or b`);
  if (castling !== '-' && !/^[KQkqA-Za-z]{1,8}$/.test(castling))
    fail(`has castling rights "${castling}"; expected - or letters such as KQkq`);
  if (enPassant !== '-' && squareIndexOrMinus1(enPassant, files, ranks) < 0)
    fail(`has en-passant square "${enPassant}", which is not - or a square of the board`);
  if (!/^\d{1,9}$/.test(halfmove)) fail(`has half-move clock "${halfmove}"; expected a non-negative integer`);
  if (!/^\d{1,9}$/.test(fullmove)) fail(`has full-move number "${fullmove}"; expected a positive integer`);
  pieces.sort((a, b) => a.index - b.index);
  return {
    // Written in full, one space apart: `8/8/8/8/4K3/8/8/8` reads as the position it stands for.
    fen: [fields[0], turnField, castling, enPassant, halfmove, fullmove].join(' '),
    board,
    turn: turnField === 'w' ? 'WHITE' : 'BLACK',
    pieces,
    occupied: new WordSquareSet(board, words, 0),
    occupiedWords: words,
  };
}

/**
 * The plies of a game's main line, each writing its FEN when first read. Writing every ply's FEN
 * was a third of reading a game, and most readers (the moves, the journeys, a route, a list of
 * the SAN) read few FENs or none: a caller pays for what it reads, as with a path result's fields.
 * A `FenTrail` walks a position of its own along the main line's moves (from their UCI) up to the
 * ply asked and keeps what it wrote, so reading the FENs in order costs one move and one FEN each;
 * reading one before the last written starts the walk again from the start.
 */

import type { Color } from '../types.js';
import { type ChessMove, ChessPosition, nameOf, squareOf } from './chess-rules.js';

/** One half-move of the main line (or of a variation). */

export interface GamePly {
  /** 1 = White's first move of the whole game (a game from a FEN starts later). */
  number: number;
  color: Color;
  san: string;
  uci: string;
  from: string;
  to: string;
  /**
   * The position after the move. A main line's ply writes it when first read (a getter, kept
   * once written): `{ ...ply }` and `structuredClone` copy own fields only, so copy it by name.
   */
  readonly fen: string;
  /** The author's comments written before the move, and after it. */
  commentsBefore: string[];
  comments: string[];
  /** Its NAGs (`$1`, and marks such as `!?` as their numbers). */
  nags: number[];
  /** The author's alternatives to this move, each played from the position before it. */
  variations: GameVariation[];
}

/** A variation: its plies, played as far as they are legal, and why it stops early (or null). */
export interface GameVariation {
  plies: GamePly[];
  stopped: string | null;
}

/** Where the plies of one main line find their FENs. */
export class FenTrail {
  /** The main line's moves as UCI, pushed as they are played. */
  readonly moves: string[] = [];
  readonly #fens: string[] = [];
  #position: ChessPosition | null = null;
  /** The index of the ply the walking position stands after (-1: the start). */
  #at = -1;

  constructor(readonly startFen: string) {}

  /** The FEN after ply `index` (0-based) of the main line. */
  after(index: number): string {
    let fen = this.#fens[index];
    if (fen !== undefined) return fen;
    let position = this.#position;
    if (position === null || this.#at > index) {
      position = this.#position = ChessPosition.fromFen(this.startFen);
      this.#at = -1;
    }
    while (this.#at < index) position.play(uciMove(position, this.moves[++this.#at]));
    fen = position.fen();
    this.#fens[index] = fen;
    return fen;
  }

  /** The FEN before ply `index` of the main line. */
  before(index: number): string {
    return index === 0 ? this.startFen : this.after(index - 1);
  }
}

/** Promotion kinds by their UCI letter. */
const PROMOTION_OF: Record<string, number> = { n: 2, b: 3, r: 4, q: 5 };

/** The legal move of `position` that a UCI text names (one the reader played there). */
function uciMove(position: ChessPosition, uci: string): ChessMove {
  const from = squareOf(uci.slice(0, 2));
  const to = squareOf(uci.slice(2, 4));
  const promotion = uci.length > 4 ? PROMOTION_OF[uci[4]] : 0;
  const moves = position.legalMoves(Math.abs(position.board[from]), to);
  const move = moves.find((m) => m.from === from && m.promotion === promotion);
  if (move === undefined) throw new Error(`a ply's own move ${uci} is not legal when played again`);
  return move;
}

/** What the author wrote of a move, as `readPgn` keeps it. */
interface WrittenNotes {
  commentsBefore: string[];
  comments: string[];
  nags: number[];
}

/** A move as `playGame` played it: its SAN with its check sign, its UCI, its squares. */
interface PlayedMove {
  san: string;
  uci: string;
  move: { from: number; to: number };
}

/** A ply of the main line: plain fields, and its FEN from the trail on first read. */
export class MainLinePly implements GamePly {
  san: string;
  uci: string;
  from: string;
  to: string;
  commentsBefore: string[];
  comments: string[];
  nags: number[];
  readonly #trail: FenTrail;
  readonly #index: number;

  constructor(
    public number: number,
    public color: Color,
    played: PlayedMove,
    written: WrittenNotes,
    public variations: GameVariation[],
    trail: FenTrail,
    index: number,
  ) {
    this.san = played.san;
    this.uci = played.uci;
    this.from = nameOf(played.move.from);
    this.to = nameOf(played.move.to);
    this.commentsBefore = written.commentsBefore;
    this.comments = written.comments;
    this.nags = written.nags;
    this.#trail = trail;
    this.#index = index;
  }

  /** The position after the move, written on first read. */
  get fen(): string {
    return this.#trail.after(this.#index);
  }

  /** The ply as plain data, its FEN included (what `JSON.stringify` writes). */
  toJSON(): GamePly {
    const { number, color, san, uci, from, to, fen, commentsBefore, comments, nags, variations } = this;
    return { number, color, san, uci, from, to, fen, commentsBefore, comments, nags, variations };
  }
}

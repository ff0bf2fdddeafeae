/**
 * A game of chess from its PGN: the moves of its main line played from its start position, each
 * with its normalised SAN, its UCI form and the position after it, and the journey of every piece
 * of the start position. The legality of moves is chess.js's (a maintained library; BSD-2-Clause):
 * every move is played through it. What the contract reads differently from chess.js is decided
 * here: castling with zeros and promotions without `=` are read; a move that is ambiguous, or a
 * pawn reaching the last rank without a promotion piece, is refused rather than guessed; an
 * over-disambiguated move (`Ngf3` with one knight able to go) is read, as PGN's import format
 * allows. The en passant field of every FEN names the square behind a pawn that just made a
 * double step, whether or not a capture is possible, as the PGN standard writes it. What the
 * author wrote of a move (comments, NAGs) stays with its ply, and each variation is played from
 * the position before the move it replaces, as far as its moves are legal: a variation is
 * commentary, so an illegal move in one ends it (saying why) instead of refusing the game.
 */
import { Chess, type Move } from 'chess.js';
import { InputError } from './errors.js';
import { parseFen } from './fen.js';
import { startFenOf } from './game-start.js';
import { PgnError, type PgnMove, type PgnTag, type PgnText, type PgnVariation, readPgn } from './pgn.js';
import { positionQuery } from './position.js';
import type { Color, PathQuery, Role } from './types.js';

/** One half-move of the main line (or of a variation). */
export interface GamePly {
  /** 1 = White's first move of the whole game (a game from a FEN starts later). */
  number: number;
  color: Color;
  san: string;
  uci: string;
  from: string;
  to: string;
  /** The position after the move. */
  fen: string;
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

/** How the last position of the main line ends the game on the board. */
export type BoardEnding = 'CHECKMATE' | 'STALEMATE' | 'INSUFFICIENT_MATERIAL';

/** What happened to one piece of the start position. */
export interface GameJourney {
  role: Role;
  color: Color;
  /** Where it stood at the start, then after each of its moves. */
  squares: string[];
  /** The ply number of each of its moves. */
  plies: number[];
  capturedAt: number | null;
  promotedTo: Role | null;
  /** Which of its moves (1-based) promoted it, or null. */
  promotedAtMove: number | null;
}

/** A game read from PGN. */
export interface Game {
  tags: PgnTag[];
  /** The position before the first move. */
  startFen: string;
  plies: GamePly[];
  /** `1-0`, `0-1`, `1/2-1/2` or `*`. */
  result: string;
  /** One per piece of the start position, in order of its square index there. */
  journeys: GameJourney[];
  /** The author's comments after the last move (or of a game with no moves). */
  comments: string[];
  /** Checkmate, stalemate or a draw by material on the board after the last move, or null. */
  boardEnding: BoardEnding | null;
  /** The `Termination` tag's text (`Normal`, `Time forfeit`, ...), or null. */
  termination: string | null;
}

const ROLE: Record<string, Role> = { k: 'KING', q: 'QUEEN', r: 'ROOK', b: 'BISHOP', n: 'KNIGHT', p: 'PAWN' };
const SAN_PARTS = /^([KQRBN])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([QRBNKqrbnk]))?$/;
const FILES = 'abcdefgh';

/** Reads and plays one game in PGN; throws `PgnError` naming the move (`3... Nf6`) or the place. */
export function readGame(pgn: string): Game {
  return playGame(readPgn(pgn));
}

/** The index of a square name on 8 x 8 (a1 = 0). */
function indexOf(square: string): number {
  return (Number(square[1]) - 1) * 8 + FILES.indexOf(square[0]);
}

/** Plays a read game from its start position. */
export function playGame(text: PgnText): Game {
  const startFen = startFenOf(text.tags);
  const chess = new Chess(startFen);
  const [, turn, , , , fullmove] = startFen.split(/\s+/);
  let number = (Number(fullmove ?? 1) - 1) * 2 + (turn === 'b' ? 2 : 1);

  // Journeys by square: each piece of the start position, followed as it moves.
  const journeys: GameJourney[] = [];
  const onSquare = new Map<string, GameJourney>();
  for (const row of chess.board()) {
    for (const cell of row) {
      if (!cell) continue;
      const journey: GameJourney = {
        role: ROLE[cell.type],
        color: cell.color === 'w' ? 'WHITE' : 'BLACK',
        squares: [cell.square],
        plies: [],
        capturedAt: null,
        promotedTo: null,
        promotedAtMove: null,
      };
      journeys.push(journey);
      onSquare.set(cell.square, journey);
    }
  }
  journeys.sort((a, b) => indexOf(a.squares[0]) - indexOf(b.squares[0]));

  const plies: GamePly[] = [];
  let before = startFen;
  for (const written of text.moves) {
    const move = play(chess, written, number);
    const ply = plyOf(move, written, number, before);
    plies.push(ply);
    follow(onSquare, move, number);
    before = ply.fen;
    number++;
  }
  const result = text.result ?? text.tags.find((t) => t.name === 'Result')?.value.trim() ?? '*';
  const boardEnding: BoardEnding | null = chess.isCheckmate()
    ? 'CHECKMATE'
    : chess.isStalemate()
      ? 'STALEMATE'
      : chess.isInsufficientMaterial()
        ? 'INSUFFICIENT_MATERIAL'
        : null;
  const termination = text.tags.find((t) => t.name === 'Termination')?.value.trim() || null;
  return { tags: text.tags, startFen, plies, result, journeys, comments: text.comments, boardEnding, termination };
}

/** A ply of a move played on the position `before`, with what the author wrote of it and its variations. */
function plyOf(move: Move, written: PgnMove, number: number, before: string): GamePly {
  const fen = move.isBigPawn() ? withEnPassant(move.after, move) : move.after;
  if (countersOverflow(fen)) {
    throw new PgnError(
      `${moveName(number, written)} takes the FEN's move counters past nine digits (line ${written.line}, column ${written.column}): the FEN tag starts too late`,
    );
  }
  return {
    number,
    color: move.color === 'w' ? 'WHITE' : 'BLACK',
    san: move.san,
    uci: move.lan,
    from: move.from,
    to: move.to,
    fen,
    commentsBefore: written.commentsBefore,
    comments: written.comments,
    nags: written.nags,
    variations: written.variations.map((v) => playVariation(v, before, number)),
  };
}

/**
 * Plays a variation from the position `before` its first move (ply `number`): as far as its
 * moves are legal, the first that is not (or one the reader could not read) ending it.
 */
function playVariation(variation: PgnVariation, before: string, number: number): GameVariation {
  const chess = new Chess(before);
  const plies: GamePly[] = [];
  let at = before;
  for (const written of variation.moves) {
    try {
      const ply = plyOf(play(chess, written, number), written, number, at);
      plies.push(ply);
      at = ply.fen;
      number++;
    } catch (err) {
      if (!(err instanceof PgnError)) throw err;
      return { plies, stopped: err.message.replace(/^pgn: /, '') };
    }
  }
  return { plies, stopped: variation.stopped };
}

/** True when a FEN's half-move clock or full-move number has grown past the nine digits a FEN may have. */
function countersOverflow(fen: string): boolean {
  const last = fen.lastIndexOf(' ');
  const before = fen.lastIndexOf(' ', last - 1);
  return fen.length - last - 1 > 9 || last - before - 1 > 9;
}

/** The FEN after a double step, its en passant field naming the square passed over. */
function withEnPassant(fen: string, move: Move): string {
  const fields = fen.split(' ');
  fields[3] = `${move.from[0]}${(Number(move.from[1]) + Number(move.to[1])) / 2}`;
  return fields.join(' ');
}

/** Moves the journeys of the pieces a move moves or captures. */
function follow(onSquare: Map<string, GameJourney>, move: Move, ply: number): void {
  const step = (from: string, to: string) => {
    const journey = onSquare.get(from);
    if (!journey) return;
    onSquare.delete(from);
    journey.squares.push(to);
    journey.plies.push(ply);
    onSquare.set(to, journey);
  };
  if (move.isCapture() || move.isEnPassant()) {
    // chess.js flags an en passant capture `e`, not `c`: its victim stands behind the target.
    const taken = move.isEnPassant() ? `${move.to[0]}${move.from[1]}` : move.to;
    const victim = onSquare.get(taken);
    if (victim) {
      victim.capturedAt = ply;
      onSquare.delete(taken);
    }
  }
  step(move.from, move.to);
  if (move.isKingsideCastle() || move.isQueensideCastle()) {
    const rank = move.from[1];
    const [rookFrom, rookTo] = move.isKingsideCastle() ? [`h${rank}`, `f${rank}`] : [`a${rank}`, `d${rank}`];
    step(rookFrom, rookTo);
  }
  if (move.promotion) {
    const journey = onSquare.get(move.to);
    if (journey) {
      journey.promotedTo = ROLE[move.promotion];
      journey.promotedAtMove = journey.plies.length;
    }
  }
}

/** `3. Nf3` or `3... Nf6`: a move as a player names it. */
function moveName(number: number, written: PgnMove): string {
  const full = Math.ceil(number / 2);
  return `${full}${number % 2 === 1 ? '.' : '...'} ${written.san}`;
}

/**
 * Plays the written move: first as chess.js reads standard SAN, then, when that fails, by
 * matching the move's parts (piece, from-file or rank, target, promotion) against the legal moves,
 * which tells an illegal move from an ambiguous one and reads over-disambiguated SAN.
 */
function play(chess: Chess, written: PgnMove, number: number): Move {
  const name = moveName(number, written);
  const refuse = (why: string): never => {
    throw new PgnError(`${name} ${why} (line ${written.line}, column ${written.column})`);
  };
  const san = written.san.replace(/0/g, 'O');
  if (/^O-O(-O)?$/.test(san)) {
    try {
      return chess.move(san, { strict: true });
    } catch {
      return refuse('is not legal here');
    }
  }
  const parts = SAN_PARTS.exec(san);
  if (!parts) return refuse('is not a move');
  const [, piece, fromFile, fromRank, to, promotion] = parts;
  if (promotion?.toUpperCase() === 'K') return refuse('promotes to a king, which is not a move');
  const canonical = `${piece ?? ''}${fromFile ?? ''}${fromRank ?? ''}${san.includes('x') ? 'x' : ''}${to}${promotion ? `=${promotion.toUpperCase()}` : ''}`;
  try {
    return chess.move(canonical, { strict: true });
  } catch {
    // Not standard SAN as written: look at the legal moves themselves.
  }
  const type = (piece ?? 'P').toLowerCase() as 'p' | 'n' | 'b' | 'r' | 'q' | 'k';
  // Only that piece's moves: chess.js writes each verbose move's SAN and FEN, a cost a move.
  const candidates = chess
    .moves({ piece: type, verbose: true })
    .filter(
      (m) =>
        m.to === to &&
        (fromFile === undefined || m.from[0] === fromFile) &&
        (fromRank === undefined || m.from[1] === fromRank),
    );
  if (candidates.length === 0) return refuse('is not legal here');
  if (candidates.some((m) => m.isPromotion()) && promotion === undefined) {
    return refuse('reaches the last rank without saying what it promotes to');
  }
  const chosen = candidates.filter((m) => (m.promotion ?? '') === (promotion?.toLowerCase() ?? ''));
  if (chosen.length === 0) return refuse('is not legal here');
  if (chosen.length > 1) {
    return refuse(`is ambiguous here: ${chosen.map((m) => m.san.replace(/[+#]$/, '')).join(' or ')}`);
  }
  // Castling is written as castling: a king's two-square step written as a king move is not read.
  if (chosen[0].isKingsideCastle() || chosen[0].isQueensideCastle())
    return refuse('is not legal here (castling is written O-O or O-O-O)');
  return chess.move({ from: chosen[0].from, to: chosen[0].to, promotion: chosen[0].promotion });
}

/**
 * The path question of `journey`'s moves `first` to `last` (1-based, within the journey): from
 * where the piece stood before move `first` to where it stood after move `last`, on the position
 * just before move `first` (the other pieces block; the piece moves as the role it has then).
 * Throws `InputError` on `first` or `last` for moves it does not have, or across a promotion.
 */
export function journeyRoute(game: Game, journey: GameJourney, first: number, last: number): PathQuery {
  const moves = journey.plies.length;
  if (moves === 0) throw new InputError(['first'], first, 'is not a move of this piece: it never moved');
  if (!Number.isInteger(first) || first < 1 || first > moves) {
    throw new InputError(['first'], first, `is not one of this piece's moves (1 to ${moves})`);
  }
  if (!Number.isInteger(last) || last < first || last > moves) {
    throw new InputError(['last'], last, `is not one of this piece's moves from first on (${first} to ${moves})`);
  }
  const promoted = journey.promotedAtMove;
  if (promoted !== null && first <= promoted && promoted < last) {
    throw new InputError(
      ['last'],
      last,
      `passes the promotion at move ${promoted}: ask up to it, or from move ${promoted + 1} on`,
    );
  }
  const ply = journey.plies[first - 1];
  const index = ply - (game.plies[0]?.number ?? ply);
  const before = index === 0 ? game.startFen : game.plies[index - 1].fen;
  return positionQuery(parseFen(before), journey.squares[first - 1], [journey.squares[last]], false);
}

/**
 * A game of chess from its PGN: the moves of its main line played from its start position, each
 * with its normalised SAN, its UCI form and the position after it (a main line's written when first
 * read, `game-plies.ts`), and the journey of every piece of the start position. Moves are played on the project's own board (`chess-rules.ts`: the legal
 * moves of the piece kind a SAN names, to its square), tested against chess.js, which played them
 * before and stays the tests' oracle. What is read beyond standard SAN is decided here: castling
 * with zeros and promotions without `=` are read; a move that is ambiguous, or a
 * pawn reaching the last rank without a promotion piece, is refused rather than guessed; an
 * over-disambiguated move (`Ngf3` with one knight able to go) is read, as PGN's import format
 * allows. The en passant field of every FEN names the square behind a pawn that just made a
 * double step, whether or not a capture is possible, as the PGN standard writes it. What the
 * author wrote of a move (comments, NAGs) stays with its ply, and each variation is played from
 * the position before the move it replaces, as far as its moves are legal: a variation is
 * commentary, so an illegal move in one ends it (saying why) instead of refusing the game.
 */

import { parseFen } from '../board/fen.js';
import { InputError } from '../errors.js';
import type { Color, PathQuery, Role } from '../types.js';
import { type ChessMove, ChessPosition, kindLetter, nameOf } from './chess-rules.js';
import { readSan, writeSan } from './chess-san.js';
import { FenTrail, type GamePly, type GameVariation, MainLinePly } from './game-plies.js';
import { startFenOf } from './game-start.js';
import { PgnError, type PgnMove, type PgnTag, type PgnText, type PgnVariation, readPgn } from './pgn.js';
import { positionQuery } from './position.js';

export type { GamePly, GameVariation } from './game-plies.js';

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

/** Each piece kind's role (1 pawn .. 6 king). */
const ROLE: Record<number, Role> = { 1: 'PAWN', 2: 'KNIGHT', 3: 'BISHOP', 4: 'ROOK', 5: 'QUEEN', 6: 'KING' };
/** The variations of a ply without any, one frozen list shared by every such ply (see `readPgn`'s). */
const NO_VARIATIONS: GameVariation[] = Object.freeze([]) as never[];
/** The largest move counter a FEN may have (nine digits). */
const MAX_COUNTER = 999_999_999;

/** Reads and plays one game in PGN; throws `PgnError` naming the move (`3... Nf6`) or the place. */
export function readGame(pgn: string): Game {
  return playGame(readPgn(pgn));
}

/** How `playGame` writes a main line's FENs. */
export interface PlayGameOptions {
  /**
   * `'when-read'` (default): a ply writes its FEN when first read. `'at-once'`: plain plies, FENs
   * written as played, for callers that read them all or send the game to another thread.
   */
  fens?: 'when-read' | 'at-once';
}

/** Plays a read game from its start position. */
export function playGame(text: PgnText, options: PlayGameOptions = {}): Game {
  const atOnce = options.fens === 'at-once';
  const startFen = startFenOf(text.tags);
  const position = ChessPosition.fromFen(startFen);
  let number = (position.fullmove - 1) * 2 + (position.turn < 0 ? 2 : 1);

  // Journeys by square: each piece of the start position, in order of its square, followed as it moves.
  const journeys: GameJourney[] = [];
  const onSquare: (GameJourney | undefined)[] = new Array(64);
  for (let square = 0; square < 64; square++) {
    const v = position.board[square];
    if (v === 0) continue;
    const journey: GameJourney = {
      role: ROLE[Math.abs(v)],
      color: v > 0 ? 'WHITE' : 'BLACK',
      squares: [nameOf(square)],
      plies: [],
      capturedAt: null,
      promotedTo: null,
      promotedAtMove: null,
    };
    journeys.push(journey);
    onSquare[square] = journey;
  }

  const plies: GamePly[] = [];
  const trail = new FenTrail(startFen);
  let before = startFen;
  for (const written of text.moves) {
    const played = play(position, written, number);
    let ply: GamePly;
    if (atOnce) {
      ply = plyOf(played, position, written, number, before);
      before = ply.fen;
    } else {
      checkCounters(position, written, number);
      const index = trail.moves.push(played.uci) - 1;
      const variations =
        written.variations.length === 0
          ? NO_VARIATIONS
          : written.variations.map((v) => playVariation(v, trail.before(index), number));
      const color = position.turn < 0 ? 'WHITE' : 'BLACK';
      ply = new MainLinePly(number, color, played, written, variations, trail, index);
    }
    plies.push(ply);
    follow(onSquare, played.move, number);
    number++;
  }
  const result = text.result ?? text.tags.find((t) => t.name === 'Result')?.value.trim() ?? '*';
  const stuck = !position.hasLegalMove();
  const boardEnding: BoardEnding | null = stuck
    ? position.inCheck()
      ? 'CHECKMATE'
      : 'STALEMATE'
    : position.insufficientMaterial()
      ? 'INSUFFICIENT_MATERIAL'
      : null;
  const termination = text.tags.find((t) => t.name === 'Termination')?.value.trim() || null;
  return { tags: text.tags, startFen, plies, result, journeys, comments: text.comments, boardEnding, termination };
}

/** UCI texts (`e2e4`) by `from * 64 + to`, written on first use: a game writes one a move. */
const UCI_TEXTS: (string | undefined)[] = new Array(64 * 64).fill(undefined);

/** The UCI text of a move without promotion. */
function uciOf(from: number, to: number): string {
  const at = from * 64 + to;
  let text = UCI_TEXTS[at];
  if (text === undefined) UCI_TEXTS[at] = text = `${nameOf(from)}${nameOf(to)}`;
  return text;
}

/** A move played: the move, its SAN with its check sign, its UCI. */
interface Played {
  move: ChessMove;
  san: string;
  uci: string;
}

/** Refuses a move that takes the FEN's move counters past nine digits. */
function checkCounters(position: ChessPosition, written: PgnMove, number: number): void {
  if (position.halfmove > MAX_COUNTER || position.fullmove > MAX_COUNTER) {
    throw new PgnError(
      `${moveName(number, written)} takes the FEN's move counters past nine digits (line ${written.line}, column ${written.column}): the FEN tag starts too late`,
    );
  }
}

/**
 * A ply just played on `position` (from `before`), with what the author wrote of it and its
 * variations: plain data, its FEN written at once (a variation's plies, which are few and short,
 * and a main line's with `fens: 'at-once'`).
 */
function plyOf(played: Played, position: ChessPosition, written: PgnMove, number: number, before: string): GamePly {
  const fen = position.fen();
  checkCounters(position, written, number);
  return {
    number,
    color: position.turn < 0 ? 'WHITE' : 'BLACK',
    san: played.san,
    uci: played.uci,
    from: nameOf(played.move.from),
    to: nameOf(played.move.to),
    fen,
    commentsBefore: written.commentsBefore,
    comments: written.comments,
    nags: written.nags,
    variations:
      written.variations.length === 0 ? NO_VARIATIONS : written.variations.map((v) => playVariation(v, before, number)),
  };
}

/**
 * Plays a variation from the position `before` its first move (ply `number`): as far as its
 * moves are legal, the first that is not (or one the reader could not read) ending it.
 */
function playVariation(variation: PgnVariation, before: string, number: number): GameVariation {
  const position = ChessPosition.fromFen(before);
  const plies: GamePly[] = [];
  let at = before;
  for (const written of variation.moves) {
    try {
      const ply = plyOf(play(position, written, number), position, written, number, at);
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

/** Moves the journeys of the pieces a move moves or captures. */
function follow(onSquare: (GameJourney | undefined)[], move: ChessMove, ply: number): void {
  const step = (from: number, to: number) => {
    const journey = onSquare[from];
    if (!journey) return;
    onSquare[from] = undefined;
    journey.squares.push(nameOf(to));
    journey.plies.push(ply);
    onSquare[to] = journey;
  };
  if (move.captured) {
    // An en passant capture's victim stands behind the target, on the mover's rank.
    const taken = move.enPassant ? (move.from & 0x38) | (move.to & 7) : move.to;
    const victim = onSquare[taken];
    if (victim) {
      victim.capturedAt = ply;
      onSquare[taken] = undefined;
    }
  }
  step(move.from, move.to);
  if (move.castle)
    step(move.castle === 'K' ? move.from + 3 : move.from - 4, move.castle === 'K' ? move.from + 1 : move.from - 1);
  if (move.promotion) {
    const journey = onSquare[move.to];
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

/** Throws the `PgnError` of a written move that cannot be played, saying why and where. */
function refuseMove(written: PgnMove, number: number, why: string): never {
  throw new PgnError(`${moveName(number, written)} ${why} (line ${written.line}, column ${written.column})`);
}

/**
 * Plays the written move by matching its parts (piece, from-file or rank, target, promotion)
 * against the legal moves of that piece to that square, which tells an illegal move from an
 * ambiguous one and reads over-disambiguated SAN; the capture and check signs written are not
 * required to be right (the SAN answered is).
 */
function play(position: ChessPosition, written: PgnMove, number: number): Played {
  const first = written.san.charCodeAt(0);
  const san = first === 0x30 || first === 0x4f ? written.san.replace(/0/g, 'O') : written.san; // castling with zeros
  let move: ChessMove;
  /** The legal moves of the kind the SAN names to its square (what the SAN answered is disambiguated against). */
  let sameTo: ChessMove[] | undefined;
  if (san === 'O-O' || san === 'O-O-O') {
    const side = san === 'O-O' ? 'K' : 'Q';
    move = position.legalMoves(6).find((m) => m.castle === side) ?? refuseMove(written, number, 'is not legal here');
  } else {
    const parts = readSan(san);
    if (parts === null) return refuseMove(written, number, 'is not a move');
    const { fromFile, fromRank, promotion } = parts;
    if (promotion === 6) return refuseMove(written, number, 'promotes to a king, which is not a move');
    const moves = position.legalMoves(parts.kind, parts.to);
    sameTo = moves;
    const candidates =
      fromFile < 0 && fromRank < 0
        ? moves
        : moves.filter(
            (m) => (fromFile < 0 || (m.from & 7) === fromFile) && (fromRank < 0 || m.from >> 3 === fromRank),
          );
    if (candidates.length === 0) return refuseMove(written, number, 'is not legal here');
    if (promotion === 0 && candidates.some((m) => m.promotion)) {
      return refuseMove(written, number, 'reaches the last rank without saying what it promotes to');
    }
    const wanted = promotion;
    const chosen =
      candidates.length === 1 && candidates[0].promotion === wanted
        ? candidates
        : candidates.filter((m) => m.promotion === wanted);
    if (chosen.length === 0) return refuseMove(written, number, 'is not legal here');
    if (chosen.length > 1)
      return refuseMove(written, number, `is ambiguous here: ${chosen.map((m) => writeSan(position, m)).join(' or ')}`);
    // Castling is written as castling: a king's two-square step written as a king move is not read.
    if (chosen[0].castle) return refuseMove(written, number, 'is not legal here (castling is written O-O or O-O-O)');
    move = chosen[0];
  }
  const text = writeSan(position, move, sameTo);
  position.play(move);
  const uci = move.promotion
    ? `${uciOf(move.from, move.to)}${kindLetter(move.promotion).toLowerCase()}`
    : uciOf(move.from, move.to);
  return { move, san: `${text}${position.checkSign()}`, uci };
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

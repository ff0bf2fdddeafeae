/**
 * The question the viewer asks, and its home in the URL's query string, so a link reproduces it
 * and the browser's back and forward buttons step through earlier questions. Pure: no DOM.
 *
 * `?piece=KING&board=8x8&from=e4&to=a1,h8&blocked=d5&fen=...&avoid=1`, and for a fairy piece
 * `?piece=FAIRY&betza=NN&board=8x8&from=a1&to=h8` (the Betza text goes only with piece FAIRY).
 */

import { MAX_BOARD_SIDE } from '@chess-paths/engine';
import { FAIRY_LETTER } from './glyphs.js';

/** The pieces the API knows (`Piece`); FAIRY moves as the question's Betza text says. */
export const PIECES = ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'KNIGHT', 'WHITE_PAWN', 'BLACK_PAWN', 'FAIRY'] as const;
/** One of `PIECES`. */
export type Piece = (typeof PIECES)[number];

/** A piece in words: `king`, `white pawn`, `fairy piece`. */
export function pieceLabel(piece: Piece): string {
  return piece === 'FAIRY' ? 'fairy piece' : piece.toLowerCase().replace('_', ' ');
}

/** What a click on a square does. */
export type Mode = 'source' | 'target' | 'obstacle';

/** One question: a piece on a board, its sources, targets and obstacles, or a position and one of its pieces. */
export interface Question {
  piece: Piece;
  files: number;
  ranks: number;
  from: string[];
  to: string[];
  /** Obstacles (ignored with a FEN: the position's pieces block). */
  blocked: string[];
  /** A position; empty for none. With one, `from` holds the square of the piece to move. */
  fen: string;
  avoidAttacked: boolean;
  /** The Betza text of a FAIRY piece as typed (empty for none; kept, but not asked, for other pieces). */
  betza: string;
}

/** The question a fresh page opens on: the seed example's board. */
export function emptyQuestion(): Question {
  return { piece: 'KING', files: 8, ranks: 8, from: [], to: [], blocked: [], fen: '', avoidAttacked: false, betza: '' };
}

/** The seed example (the playground's too): a king from e4 to a1 and h8, what a first visit shows answered. */
export function seedQuestion(): Question {
  return { ...emptyQuestion(), from: ['e4'], to: ['a1', 'h8'] };
}

/** The URL parameters that make up a question; a query string with none of them asks nothing. */
const QUESTION_KEYS = ['piece', 'board', 'from', 'to', 'blocked', 'fen', 'avoid', 'betza'];

/** True when a query string asks no question (a first visit to `/`): the page shows the seed example. */
export function isBlankSearch(search: string): boolean {
  const params = new URLSearchParams(search);
  return !QUESTION_KEYS.some((key) => params.has(key));
}

/** The question a page's query string shows: the seed example when it asks none, else `questionFromSearch`. */
export function questionFromUrl(search: string): Question {
  return isBlankSearch(search) ? seedQuestion() : questionFromSearch(search);
}

/** Splits a comma list, dropping empty names and duplicates. */
function list(value: string | null): string[] {
  if (!value) return [];
  return [...new Set(value.split(',').map((s) => s.trim().toLowerCase()))].filter((s) => s !== '');
}

/**
 * Reads a board side from the URL, 8 when absent or not a side the engine takes (1 to 256): a side
 * over the server's own limit (MAX_BOARD_SIDE) is asked all the same, and its refusal shown.
 */
function side(value: string | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= MAX_BOARD_SIDE ? n : 8;
}

/** The question a query string asks (missing parts take the defaults). */
export function questionFromSearch(search: string): Question {
  const params = new URLSearchParams(search);
  const q = emptyQuestion();
  const piece = (params.get('piece') ?? '').toUpperCase();
  if ((PIECES as readonly string[]).includes(piece)) q.piece = piece as Piece;
  const [files, ranks] = (params.get('board') ?? '8x8').toLowerCase().split('x');
  q.files = side(files);
  q.ranks = side(ranks ?? files);
  q.from = list(params.get('from'));
  q.to = list(params.get('to'));
  q.blocked = list(params.get('blocked'));
  q.fen = (params.get('fen') ?? '').trim();
  q.avoidAttacked = params.get('avoid') === '1';
  q.betza = (params.get('betza') ?? '').trim();
  return q;
}

/** The query string of a question (`?...`), with only the parts that differ from the defaults. */
export function searchFromQuestion(q: Question): string {
  const params = new URLSearchParams();
  if (q.fen) params.set('fen', q.fen);
  else params.set('piece', q.piece);
  if (asksBetza(q)) params.set('betza', q.betza);
  params.set('board', `${q.files}x${q.ranks}`);
  if (q.from.length) params.set('from', q.from.join(','));
  if (q.to.length) params.set('to', q.to.join(','));
  if (!q.fen && q.blocked.length) params.set('blocked', q.blocked.join(','));
  if (q.fen && q.avoidAttacked) params.set('avoid', '1');
  return `?${params.toString().replace(/%2C/g, ',')}`;
}

/** Toggles `name` in the list `mode` edits; a square is in at most one list (one source with a FEN). */
export function toggleSquare(q: Question, mode: Mode, name: string): Question {
  const next: Question = { ...q, from: [...q.from], to: [...q.to], blocked: [...q.blocked] };
  const key = mode === 'source' ? 'from' : mode === 'target' ? 'to' : 'blocked';
  const had = next[key].includes(name);
  next.from = next.from.filter((s) => s !== name);
  next.to = next.to.filter((s) => s !== name);
  next.blocked = next.blocked.filter((s) => s !== name);
  if (!had) {
    if (key === 'from' && q.fen) next.from = [name];
    else next[key].push(name);
  }
  return next;
}

/** True when the question moves a fairy piece, so its Betza text goes with it (not with a FEN). */
export function isFairy(q: Question): boolean {
  return q.piece === 'FAIRY' && !q.fen;
}

/** True when the Betza text is part of the question: a fairy piece with a text. */
export function asksBetza(q: Question): boolean {
  return isFairy(q) && q.betza !== '';
}

/** True when the question can be asked: at least one source and one target (and a fairy piece's text). */
export function isComplete(q: Question): boolean {
  return q.from.length > 0 && q.to.length > 0 && (!isFairy(q) || q.betza !== '');
}

/** The letter drawn on the sources for the piece that moves (`*` for a fairy piece). */
export function moverLetter(piece: Piece): string {
  return MOVER[piece];
}

const MOVER: Record<Piece, string> = {
  KING: 'K',
  QUEEN: 'Q',
  ROOK: 'R',
  BISHOP: 'B',
  KNIGHT: 'N',
  WHITE_PAWN: 'P',
  BLACK_PAWN: 'p',
  FAIRY: FAIRY_LETTER,
};

/** What to do next to ask `q`, in words ('' once it is complete). */
export function nextStep(q: Question, complete: boolean): string {
  if (complete) return '';
  if (isFairy(q) && q.betza === '') return 'Type a Betza text, or pick a named piece.';
  if (q.fen) return q.from.length === 0 ? 'Click a piece of the position as the source.' : 'Now click the targets.';
  return q.from.length === 0 ? 'Click the source squares.' : 'Now pick “target” and click the targets.';
}

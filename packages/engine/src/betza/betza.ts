/**
 * Fairy pieces in the contract's Betza subset: `readBetza` turns a text into the rays a flood
 * fill needs and the canonical text that names the piece (its cache key). The work is split by
 * concern: betza-parse.ts reads the letters (and owns every refusal), betza-moves.ts defines the
 * moves a ray allows, betza-canonical.ts derives one form per move set, betza-prefixes.ts writes
 * direction letters. This file only joins them and names the orthodox pieces.
 *
 * The rays handed out are the canonical ones, not the text's: equal pieces get equal rays, and
 * no ray is there that the others make redundant (`RnD` has the rook's four rays, not eight).
 * An orthodox piece (its moves are exactly the king's, queen's, rook's, bishop's or knight's,
 * however written) is named by its letter, which the contract asks for its cache key.
 */

import type { InputPath } from '../errors.js';
import { heldBytes, keptTables } from '../util/memory.js';
import { canonicalForm } from './betza-canonical.js';
import { hopForm } from './betza-hops.js';
import type { FairyRay } from './betza-moves.js';
import { parseBetza } from './betza-parse.js';

export type { HopRay } from './betza-hops.js';
export type { FairyRay } from './betza-moves.js';

import type { HopRay } from './betza-hops.js';

/** The orthodox pieces a Betza text may turn out to be. */
export type OrthodoxPiece = 'KING' | 'QUEEN' | 'ROOK' | 'BISHOP' | 'KNIGHT';

/** A fairy piece: its canonical text, its rays, and the orthodox piece it is, if any. */
export interface FairyPiece {
  /** The canonical text: one per set of moves, itself a text of the subset. */
  readonly betza: string;
  /** The canonical rays; a move is a landing of any of them. */
  readonly rays: FairyRay[];
  /** The hopper rays (`p` and `g` parts), canonical; empty for a piece that never hops. */
  readonly hops: readonly HopRay[];
  /** The orthodox piece with exactly these moves, or null. */
  readonly orthodox: OrthodoxPiece | null;
}

/** The orthodox pieces by the canonical text their atoms get, and the letter that replaces it. */
const ORTHODOX: ReadonlyMap<string, { piece: OrthodoxPiece; letter: string }> = new Map([
  ['WF', { piece: 'KING', letter: 'K' }],
  ['WWFF', { piece: 'QUEEN', letter: 'Q' }],
  ['WW', { piece: 'ROOK', letter: 'R' }],
  ['FF', { piece: 'BISHOP', letter: 'B' }],
  ['N', { piece: 'KNIGHT', letter: 'N' }],
]);

/**
 * Reads a Betza text of the contract's subset; throws `InputError` under `path` naming the first
 * offending character and its 1-based position for anything outside it.
 */
export function readBetza(text: string, path: InputPath = ['betza']): FairyPiece {
  // Reading a rider's moves takes up to a few milliseconds, and a service asks about the same
  // few pieces again and again: what was read is kept (texts that were refused are not).
  const known = typeof text === 'string' ? readPieces.get(text) : undefined;
  if (known !== undefined) {
    // Its canonical text may have gone first (the least recently used goes): kept again with it.
    if (!readPieces.has(known.betza)) keep(known.betza, known);
    return known;
  }
  const parts = parseBetza(text, path);
  const { rays, text: canonical } = canonicalForm(parts.filter((part) => part.hop === null));
  const { hops, text: hopText } = hopForm(parts.filter((part) => part.hop !== null));
  const orthodox = hopText === '' ? ORTHODOX.get(canonical) : undefined;
  const betza = orthodox?.letter ?? withShorthands(canonical) + withShorthands(hopText);
  // The piece of its canonical text, when that is kept: one piece a move set.
  const piece: FairyPiece =
    readPieces.get(betza) ?? Object.freeze({ betza, rays, hops, orthodox: orthodox?.piece ?? null });
  keep(text, piece);
  // The canonical text names the piece from now on (cache rows, worker tasks): kept too, so it
  // is never read a second time.
  if (betza !== text && !readPieces.has(betza)) keep(betza, piece);
  return piece;
}

/** A canonical text's terms: modifiers, an atom, and the same atom again or a number. */
const TERM = /([a-z]*)([A-Z])(\2|\d+)?/g;

/**
 * The canonical text with the shorthands a player writes: plain `WW` as `R`, `FF` as `B`, `R`
 * then `B` as `Q`, a plain `W` then `F` as `K` (`WWN` is written `RN`, `FFN` `BN`, `WWFFN`
 * `QN`). A function of the canonical text, and each shorthand reads back as what it replaces, so
 * the text is still one per move set and reads back as the same piece.
 */
function withShorthands(canonical: string): string {
  const terms = [...canonical.matchAll(TERM)].map((m) => m[0]);
  const out: string[] = [];
  for (const term of terms) {
    // A hopper's term (`pWW`, `gFF`) takes the shorthand too, its `p` or `g` kept (`pR`, `gQ`).
    const hop = /^[pg](WW|FF)$/.test(term) ? term[0] : '';
    const body = term.slice(hop.length);
    const plain = hop + (body === 'WW' ? 'R' : body === 'FF' ? 'B' : body);
    const last = out.at(-1);
    if (last === `${hop}R` && plain === `${hop}B`) out[out.length - 1] = `${hop}Q`;
    else if (last === 'W' && plain === 'F') out[out.length - 1] = 'K';
    else out.push(plain);
  }
  return out.join('');
}

/**
 * Pieces read, by text: the `betza` cache (`memory.ts`), least recently used first. A piece also
 * has tables of its own while it lives (its rays on 8 x 8, its leaps grouped: a few per ray, kept
 * beside it), which its size counts; its tables per board size are in the `boards` cache.
 */
const readPieces = keptTables<FairyPiece>('betza');

/** Estimated bytes of the tables a piece has beside it, per ray. */
const TABLES_PER_RAY = 256;

/** Keeps a piece read under `text`. */
function keep(text: string, piece: FairyPiece): void {
  readPieces.set(
    text,
    piece,
    16 + 2 * text.length + heldBytes(piece) + TABLES_PER_RAY * (piece.rays.length + piece.hops.length),
  );
}

/**
 * Whether `readBetza` has `text` kept, so it answers at once; otherwise reading it may take tens
 * of milliseconds (a text of many long rides), which a server schedules as a piece of work.
 */
export function isBetzaKept(text: string): boolean {
  return readPieces.has(text);
}

/** The canonical Betza text of each orthodox piece (pawns have none: the subset cannot write them). */
export const ORTHODOX_BETZA: Readonly<Record<string, string>> = {
  KING: 'K',
  QUEEN: 'Q',
  ROOK: 'R',
  BISHOP: 'B',
  KNIGHT: 'N',
};

/**
 * Longest canonical text (`FairyPiece.betza`) of any piece: a reader that takes texts this long
 * can read back every answer. Each atom, plain or lame (W and F are never lame), writes at most
 * one term a leap (4, or 8 for N, C and Z): its `n`, its direction letters (at most 2 for W, D
 * and H, 4 for F, A and G, 6 for N, C and Z: betza-prefixes.ts), the atom, and a count under its
 * ride cap (three digits for W, F, D, N and A, two for the three-leapers) or the atom doubled
 * (752); then each atom's hopper terms, `p` and `g`, `p` or `g`, prefix and the doubled atom (126 more).
 */
export const MAX_CANONICAL_BETZA_LENGTH = 878;

/** The canonical text of a Betza text (`readBetza(text, path).betza`). */
export function canonicalBetza(text: string, path: InputPath = ['betza']): string {
  return readBetza(text, path).betza;
}

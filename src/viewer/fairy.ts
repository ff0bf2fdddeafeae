/**
 * Fairy pieces in the viewer: the named pieces offered as presets of the Betza field, and the
 * words for the piece an answer moves (the server's canonical Betza text, `PathResult.betza`,
 * named when it is a preset's, or "this is the king" when the text is an orthodox piece). Pure:
 * no DOM. The subset of Betza's notation is path-semantics.md's "Fairy pieces".
 */
import { type Piece, pieceLabel } from './state.js';

/** A named fairy piece of the preset list. */
export interface Preset {
  name: string;
  /** The text the preset fills the field with. */
  betza: string;
  /** The server's canonical text for it (`PathResult.betza`), how an answer is recognised as this piece. */
  canonical: string;
  /** How it moves, in a few words. */
  moves: string;
}

/** The preset list, in the order offered. */
export const PRESETS: readonly Preset[] = [
  { name: 'nightrider', betza: 'NN', canonical: 'NN', moves: 'knight leaps repeated in one direction' },
  { name: 'chancellor', betza: 'RN', canonical: 'RN', moves: 'rook and knight' },
  { name: 'archbishop', betza: 'BN', canonical: 'BN', moves: 'bishop and knight' },
  { name: 'amazon', betza: 'QN', canonical: 'QN', moves: 'queen and knight' },
  { name: 'centaur', betza: 'KN', canonical: 'KN', moves: 'king and knight' },
  { name: 'camel', betza: 'C', canonical: 'C', moves: 'a (3,1) leap' },
  { name: 'zebra', betza: 'Z', canonical: 'Z', moves: 'a (3,2) leap' },
  { name: 'Xiangqi horse', betza: 'nN', canonical: 'nN', moves: 'a knight that cannot jump' },
  { name: 'Xiangqi elephant', betza: 'nA', canonical: 'nA', moves: 'two diagonal steps, not jumping' },
  { name: 'Janggi elephant', betza: 'nZ', canonical: 'nZ', moves: 'a zebra that cannot jump' },
  { name: 'forward step', betza: 'fmWfcF', canonical: 'fW', moves: 'a one-way pawn-like step' },
  { name: 'grasshopper', betza: 'gQ', canonical: 'gQ', moves: 'along a queen line, landing just past the first piece' },
  {
    name: 'cannon',
    betza: 'pR',
    canonical: 'pR',
    moves: "along a rook line over exactly one piece, as Janggi's cannon moves",
  },
  {
    name: 'nightrider-hopper',
    betza: 'pNN',
    canonical: 'pNN',
    moves: 'knight leaps in one direction over exactly one piece',
  },
];

/** The preset whose text is exactly `text`, if any (what the preset list shows as chosen). */
export function presetByText(text: string): Preset | undefined {
  return PRESETS.find((p) => p.betza === text);
}

/** The preset a canonical text is, if any (`N0` answers `NN`: the nightrider). */
export function presetByCanonical(canonical: string): Preset | undefined {
  return PRESETS.find((p) => p.canonical === canonical);
}

/** A preset's entry in the list: `nightrider (NN)`. */
export function presetLabel(p: Preset): string {
  return `${p.name} (${p.betza})`;
}

/**
 * The piece an answer to a fairy question moves, in words: `nightrider, Betza NN`, `Betza W3`, or,
 * when the server answers as an orthodox piece, `This is the king: K`. Null without a text.
 */
export function pieceReading(piece: Piece, canonical: string | null | undefined): string | null {
  if (!canonical) return null;
  if (piece !== 'FAIRY') return `This is the ${pieceLabel(piece)}: ${canonical}`;
  const preset = presetByCanonical(canonical);
  return preset ? `${preset.name}, Betza ${canonical}` : `Betza ${canonical}`;
}

/** A piece an answer moves, in a word or two: `king`, `nightrider`, `fairy piece` (not a preset). */
export function pieceName(piece: Piece, canonical: string | null | undefined): string {
  if (piece !== 'FAIRY') return pieceLabel(piece);
  return (canonical && presetByCanonical(canonical)?.name) || 'fairy piece';
}

/** A saved analysis's title words for a fairy answer's piece: its name and text (`nightrider NN`). */
export function fairyTitle(piece: Piece, canonical: string): string {
  return `${pieceName(piece, canonical)} ${canonical}`;
}

/**
 * The pieces on the viewer's board, drawn with the SVG diagrams' own glyphs (the engine's
 * `pieceGlyph` and `fairyMark`, one source for both pictures): each glyph is parsed once into an
 * inline `<svg>` and cloned for every square that shows it. A piece is named by its FEN letter
 * (upper case white, lower case black); `*` is a fairy piece, drawn with the diagrams' fairy mark.
 */

import { type Color, fairyMark, pieceGlyph, type Role } from '@chess-paths/engine';

/** The letter that names the fairy mark. */
export const FAIRY_LETTER = '*';

const ROLES: Record<string, Role> = { K: 'KING', Q: 'QUEEN', R: 'ROOK', B: 'BISHOP', N: 'KNIGHT', P: 'PAWN' };

/** The role and colour of a FEN letter, or null for `*` and anything else. */
export function pieceOfLetter(letter: string): { role: Role; color: Color } | null {
  const role = ROLES[letter.toUpperCase()];
  if (!role) return null;
  return { role, color: letter === letter.toUpperCase() ? 'WHITE' : 'BLACK' };
}

/** A piece in words: `white knight`, `black pawn`, `fairy piece`. */
export function pieceWords(letter: string): string {
  const piece = pieceOfLetter(letter);
  return piece ? `${piece.color.toLowerCase()} ${piece.role.toLowerCase()}` : 'fairy piece';
}

const parsed = new Map<string, SVGSVGElement>();

/** A fresh `<svg>` of a piece (FEN letter, or `*`), its 100 x 100 box scaled to the element's. */
export function glyph(letter: string): SVGSVGElement {
  let svg = parsed.get(letter);
  if (!svg) {
    const piece = pieceOfLetter(letter);
    const body = piece ? pieceGlyph(piece.role, piece.color, '0', '0', '1') : fairyMark('0', '0', '1');
    const markup = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" aria-hidden="true" focusable="false">${body}</svg>`;
    svg = new DOMParser().parseFromString(markup, 'image/svg+xml').documentElement as unknown as SVGSVGElement;
    parsed.set(letter, svg);
  }
  return document.importNode(svg, true);
}

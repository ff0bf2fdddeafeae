/**
 * Piece glyphs of the SVG diagram, drawn for this project (no third-party set): plain geometric
 * silhouettes in a 100 x 100 box, the base along the bottom. White pieces are light with a dark
 * outline, black pieces dark with a darker outline and light inner details, so both read on
 * light and dark squares. A fairy piece (a Betza text) has no silhouette: its mark is a star in a
 * circle (`fairyMark`), drawn in the same 100 x 100 box.
 */

import type { Color, Role } from '../types.js';

/** Shared base of every piece. */
const BASE = 'M22 90 H78 V83 Q78 76 71 76 H29 Q22 76 22 83 Z';

/** Silhouette paths (filled) and detail strokes (drawn in the contrasting colour) of each role. */
const GLYPHS: Record<Role, { body: string; detail?: string }> = {
  PAWN: {
    body: `${BASE} M38 76 Q40 54 46 46 H54 Q60 54 62 76 Z M62 32 A12 12 0 1 1 38 32 A12 12 0 1 1 62 32 Z`,
  },
  ROOK: {
    body: `${BASE} M30 76 L33 40 H67 L70 76 Z M27 40 V16 H37 V24 H45 V16 H55 V24 H63 V16 H73 V40 Z`,
    detail: 'M33 40 H67 M31 66 H69',
  },
  KNIGHT: {
    body: `${BASE} M32 76 Q30 58 44 46 Q36 46 30 52 Q20 48 25 38 L44 20 L46 10 L53 19 Q74 26 72 52 L70 76 Z`,
    detail: 'M38 31 L42 30',
  },
  BISHOP: {
    body: `${BASE} M36 76 Q38 60 44 54 H56 Q62 60 64 76 Z M50 16 Q68 32 60 54 H40 Q32 32 50 16 Z M54 12 A4 4 0 1 1 46 12 A4 4 0 1 1 54 12 Z`,
    detail: 'M54 28 L47 39 M40 54 H60',
  },
  QUEEN: {
    body: `${BASE} M29 76 L19 34 L32 54 L35 24 L44 52 L50 18 L56 52 L65 24 L68 54 L81 34 L71 76 Z M23 31 A4 4 0 1 1 15 31 A4 4 0 1 1 23 31 Z M39 21 A4 4 0 1 1 31 21 A4 4 0 1 1 39 21 Z M54 15 A4 4 0 1 1 46 15 A4 4 0 1 1 54 15 Z M69 21 A4 4 0 1 1 61 21 A4 4 0 1 1 69 21 Z M85 31 A4 4 0 1 1 77 31 A4 4 0 1 1 85 31 Z`,
    detail: 'M30 66 H70',
  },
  KING: {
    body: `${BASE} M29 76 Q20 52 33 44 Q42 39 50 48 Q58 39 67 44 Q80 52 71 76 Z M46 6 H54 V14 H62 V22 H54 V42 H46 V22 H38 V14 H46 Z`,
    detail: 'M30 66 H70',
  },
};

const INK = { WHITE: '#fafafa', BLACK: '#262626' } as const;
const OUTLINE = { WHITE: '#1a1a1a', BLACK: '#000000' } as const;
const DETAIL = { WHITE: '#1a1a1a', BLACK: '#e6e6e6' } as const;

/**
 * One piece as an SVG group filling the `size` square whose top-left corner is (x, y); the
 * numbers are given already rounded by the caller.
 */
export function pieceGlyph(role: Role, color: Color, x: string, y: string, scale: string): string {
  const glyph = GLYPHS[role];
  const detail =
    glyph.detail === undefined
      ? ''
      : `<path d="${glyph.detail}" fill="none" stroke="${DETAIL[color]}" stroke-width="3" stroke-linecap="round"/>`;
  return (
    `<g class="piece ${color.toLowerCase()} ${role.toLowerCase()}" transform="translate(${x} ${y}) scale(${scale})">` +
    `<path d="${glyph.body}" fill="${INK[color]}" stroke="${OUTLINE[color]}" stroke-width="3" stroke-linejoin="round"/>` +
    `${detail}</g>`
  );
}

/** The fairy mark's star: five points of radius 36 around (50, 52), inner radius 15. */
const STAR = '50,16 59,40 84,41 64,57 71,81 50,67 29,81 36,57 16,41 41,40';

/**
 * The mark of a fairy piece (a piece given in Betza notation): a gold star in a pale circle, as an
 * SVG group filling the 100 x 100 box scaled by `scale` whose top-left corner is (x, y); the
 * numbers are given already rounded by the caller.
 */
export function fairyMark(x: string, y: string, scale: string): string {
  return (
    `<g class="fairy-mark" transform="translate(${x} ${y}) scale(${scale})">` +
    '<circle cx="50" cy="50" r="46" fill="#fefcbf" stroke="#975a16" stroke-width="6"/>' +
    `<polygon points="${STAR}" fill="#b7791f" stroke="#975a16" stroke-width="3" stroke-linejoin="round"/></g>`
  );
}

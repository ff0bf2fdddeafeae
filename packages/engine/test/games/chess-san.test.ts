import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSan } from '../../src/games/chess-san.js';

/** The regular expression the hand-written reader replaces: the oracle. */
const SAN_PARTS = /^([KQRBN])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([QRBNKqrbnk]))?$/;

function byExpression(san: string) {
  const m = SAN_PARTS.exec(san);
  if (!m) return null;
  const kind = (letter: string) => ' PNBRQK'.indexOf(letter.toUpperCase());
  return {
    kind: m[1] ? kind(m[1]) : 1,
    fromFile: m[2] ? m[2].charCodeAt(0) - 97 : -1,
    fromRank: m[3] ? Number(m[3]) - 1 : -1,
    to: (m[4].charCodeAt(1) - 49) * 8 + (m[4].charCodeAt(0) - 97),
    promotion: m[5] ? kind(m[5]) : 0,
  };
}

describe('readSan', () => {
  it('reads the parts of common moves', () => {
    expect(readSan('Nbd2')).toEqual({ kind: 2, fromFile: 1, fromRank: -1, to: 11, promotion: 0 });
    expect(readSan('exd5')).toEqual({ kind: 1, fromFile: 4, fromRank: -1, to: 35, promotion: 0 });
    expect(readSan('e8=Q')).toEqual({ kind: 1, fromFile: -1, fromRank: -1, to: 60, promotion: 5 });
    expect(readSan('bxa1n')).toEqual({ kind: 1, fromFile: 1, fromRank: -1, to: 0, promotion: 2 });
    expect(readSan('Qh4e1')).toEqual({ kind: 5, fromFile: 7, fromRank: 3, to: 4, promotion: 0 });
    expect(readSan('e8=K')?.promotion).toBe(6);
  });

  it('refuses what is no move', () => {
    for (const text of ['', 'e9', 'i4', 'Pe4', 'e8=P', 'e8=', 'Nf3+', 'O-O', 'N', 'e4x']) {
      expect(readSan(text), text).toBeNull();
    }
  });

  it('reads exactly what the regular expression of SAN matches', () => {
    const alphabet = fc.constantFrom(...'KQRBNPkqrbnpabcdefghix0123456789=+#O- '.split(''));
    const token = fc.array(alphabet, { minLength: 0, maxLength: 8 }).map((cs) => cs.join(''));
    // Shaped like a move, so that most draws are close to the edge of what is read.
    const shaped = fc
      .tuple(
        fc.constantFrom('', 'K', 'Q', 'R', 'B', 'N', 'P'),
        fc.constantFrom('', ...'abcdefghi'.split('')),
        fc.constantFrom('', ...'0123456789'.split('')),
        fc.constantFrom('', 'x'),
        fc.constantFrom(...'abhi'.split('')),
        fc.constantFrom(...'0189'.split('')),
        fc.constantFrom('', '=Q', 'Q', 'q', '=k', 'K', '=', '=P', 'p', '=b', '==Q'),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(token, shaped), (san) => {
        expect(readSan(san)).toEqual(byExpression(san));
      }),
      { numRuns: 20_000 },
    );
  });
});

/**
 * Hand-checked tests of src/betza/betza.ts (and its siblings betza-parse, betza-moves,
 * betza-canonical, betza-prefixes): each atom, shorthand, direction letter and group on tiny
 * cases, the contract's two-at-a-time reading, lame leaps blocked at each square they pass over,
 * limited rides and their caps, `m` and `c`, every refusal with its exact message, and the
 * contract's equivalences (one canonical text each). Random texts against the reference are in
 * betza.property.test.ts.
 */

import { describe, expect, it } from 'vitest';
import { isBetzaKept, MAX_CANONICAL_BETZA_LENGTH, readBetza } from '../../src/betza/betza.js';
import { atomLeaps, BETZA_ATOMS, canBeLame, directionMask, rideCap } from '../../src/betza/betza-parse.js';
import { directionPrefixes } from '../../src/betza/betza-prefixes.js';
import { InputError } from '../../src/errors.js';

/** The rays as `dx,dy` (with `xmax` when riding, `n` first when lame), sorted. */
const rays = (text: string): string[] =>
  readBetza(text)
    .rays.map(({ dx, dy, max, lame }) => `${lame.length > 0 ? 'n' : ''}${dx},${dy}${max === 1 ? '' : `x${max}`}`)
    .sort();

/** The landings (as `file,rank`) of the rays from (file, rank) on a board with some squares blocked. */
function landings(
  text: string,
  files: number,
  ranks: number,
  file: number,
  rank: number,
  blocked: string[] = [],
): string[] {
  const open = (f: number, r: number) => f >= 0 && f < files && r >= 0 && r < ranks && !blocked.includes(`${f},${r}`);
  const out = new Set<string>();
  for (const { dx, dy, max, lame } of readBetza(text).rays) {
    for (let j = 1; j <= max; j++) {
      const needs: [number, number][] = [];
      for (let i = 1; i < j; i++) needs.push([i * dx, i * dy]);
      for (let i = 0; i < j; i++) for (const [px, py] of lame) needs.push([i * dx + px, i * dy + py]);
      if (open(file + j * dx, rank + j * dy) && needs.every(([x, y]) => open(file + x, rank + y))) {
        out.add(`${file + j * dx},${rank + j * dy}`);
      }
    }
  }
  return [...out].sort();
}

/** The reason of the `InputError` reading `text` throws. */
function refusal(text: string): string {
  try {
    readBetza(text);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).reason;
  }
  throw new Error(`${text} was read`);
}

describe('atoms and shorthands', () => {
  it('gives each atom its leap with all mirror images', () => {
    expect(rays('W')).toEqual(['-1,0', '0,-1', '0,1', '1,0']);
    expect(rays('F')).toEqual(['-1,-1', '-1,1', '1,-1', '1,1']);
    expect(rays('D')).toEqual(['-2,0', '0,-2', '0,2', '2,0']);
    expect(rays('N')).toEqual(['-1,-2', '-1,2', '-2,-1', '-2,1', '1,-2', '1,2', '2,-1', '2,1']);
    expect(rays('A')).toEqual(['-2,-2', '-2,2', '2,-2', '2,2']);
    expect(rays('H')).toEqual(['-3,0', '0,-3', '0,3', '3,0']);
    expect(rays('C')).toEqual(['-1,-3', '-1,3', '-3,-1', '-3,1', '1,-3', '1,3', '3,-1', '3,1']);
    expect(rays('Z')).toEqual(['-2,-3', '-2,3', '-3,-2', '-3,2', '2,-3', '2,3', '3,-2', '3,2']);
    expect(rays('G')).toEqual(['-3,-3', '-3,3', '3,-3', '3,3']);
    for (const atom of BETZA_ATOMS)
      for (const [x, y] of atomLeaps(atom)) expect(Object.is(x, -0) || Object.is(y, -0)).toBe(false);
  });

  it('reads K, R, B and Q as their atoms and names the orthodox pieces', () => {
    expect(readBetza('K')).toMatchObject({ betza: 'K', orthodox: 'KING' });
    expect(readBetza('WWFF')).toMatchObject({ betza: 'Q', orthodox: 'QUEEN' });
    expect(readBetza('WW')).toMatchObject({ betza: 'R', orthodox: 'ROOK' });
    expect(readBetza('FF')).toMatchObject({ betza: 'B', orthodox: 'BISHOP' });
    expect(readBetza('NnN1')).toMatchObject({ betza: 'N', orthodox: 'KNIGHT' });
    expect(rays('R')).toEqual(['-1,0x255', '0,-1x255', '0,1x255', '1,0x255']);
    expect(rays('B')).toEqual(['-1,-1x255', '-1,1x255', '1,-1x255', '1,1x255']);
    expect(readBetza('W').orthodox).toBeNull();
    // Compounds are written with the shorthands a player writes, whatever the text said.
    expect(readBetza('RN')).toMatchObject({ betza: 'RN', orthodox: null });
    expect(readBetza('WWN').betza).toBe('RN');
    expect(readBetza('BN').betza).toBe('BN');
    expect(readBetza('NFF').betza).toBe('BN');
    expect(readBetza('QN').betza).toBe('QN');
    expect(readBetza('WWFFN').betza).toBe('QN');
    expect(readBetza('KN').betza).toBe('KN');
    expect(readBetza('WFN').betza).toBe('KN');
    expect(readBetza('WFF').betza).toBe('WB');
    expect(readBetza('WWF').betza).toBe('RF');
    // Only plain terms are shortened: a prefix or a number keeps the atoms.
    expect(readBetza('fRfB').betza).toBe('fWWfFF');
    expect(readBetza('WF2').betza).toBe('WF2');
  });
});

describe('direction letters and groups', () => {
  it.each([
    ['fN', ['-1,2', '-2,1', '1,2', '2,1']],
    ['bN', ['-1,-2', '-2,-1', '1,-2', '2,-1']],
    ['rN', ['1,-2', '1,2', '2,-1', '2,1']],
    ['lN', ['-1,-2', '-1,2', '-2,-1', '-2,1']],
    ['vN', ['-1,-2', '-1,2', '1,-2', '1,2']],
    ['sN', ['-2,-1', '-2,1', '2,-1', '2,1']],
    ['flN', ['-1,2', '-2,1']],
    ['frN', ['1,2', '2,1']],
    ['blN', ['-1,-2', '-2,-1']],
    ['brN', ['1,-2', '2,-1']],
    ['ffN', ['-1,2', '1,2']],
    ['bbN', ['-1,-2', '1,-2']],
    ['fsN', ['-2,1', '2,1']],
    ['bsN', ['-2,-1', '2,-1']],
    ['rrN', ['2,-1', '2,1']],
    ['llN', ['-2,-1', '-2,1']],
    ['rvN', ['1,-2', '1,2']],
    ['lvN', ['-1,-2', '-1,2']],
    ['frrN', ['1,-2', '1,2', '2,-1', '2,1']],
    ['ffrN', ['-1,2', '1,-2', '1,2', '2,-1', '2,1']],
    ['lfN', ['-1,-2', '-1,2', '-2,-1', '-2,1', '1,2', '2,1']],
    ['frflN', ['-1,2', '-2,1', '1,2', '2,1']],
    ['fW', ['0,1']],
    ['bW', ['0,-1']],
    ['rW', ['1,0']],
    ['lW', ['-1,0']],
    ['vW', ['0,-1', '0,1']],
    ['sW', ['-1,0', '1,0']],
    ['fbW', ['0,-1', '0,1']],
    ['ffW', ['0,1']],
    ['rrW', ['1,0']],
    ['fF', ['-1,1', '1,1']],
    ['frF', ['1,1']],
    ['blF', ['-1,-1']],
    ['rF', ['1,-1', '1,1']],
  ])('%s keeps %j', (text, expected) => {
    expect(rays(text)).toEqual(expected);
  });

  it('skips n, m and c between direction letters (fnrN = nfrN)', () => {
    expect(readBetza('fnrN')).toEqual(readBetza('nfrN'));
    expect(rays('fnrN')).toEqual(['n1,2', 'n2,1']);
    expect(readBetza('fmrN').betza).toBe(readBetza('frN').betza);
    expect(readBetza('fbW').betza).toBe('vW');
  });

  it('applies a prefix to each atom of a shorthand', () => {
    expect(readBetza('fR').betza).toBe('fWW');
    expect(rays('fK')).toEqual(['-1,1', '0,1', '1,1']);
    expect(rays('fQ')).toEqual(['-1,1x255', '0,1x255', '1,1x255']);
  });

  it('has a direction prefix for every set of leaps the groups can make, reading back as it', () => {
    for (const atom of ['W', 'F', 'N'] as const) {
      const groups = [
        'f',
        'b',
        'r',
        'l',
        'v',
        's',
        'fl',
        'fr',
        'bl',
        'br',
        'ff',
        'bb',
        'fs',
        'bs',
        'rr',
        'll',
        'rv',
        'lv',
      ];
      const writable = new Set<number>([(1 << atomLeaps(atom).length) - 1]);
      for (const group of groups.map((letters) => directionMask(atom, letters)).filter((mask) => mask !== 0)) {
        for (const mask of [...writable]) writable.add(mask | group);
        writable.add(group);
      }
      const table = directionPrefixes(atom);
      expect(new Set(table.map(({ mask }) => mask))).toEqual(writable);
      for (const { mask, letters } of table) expect(directionMask(atom, letters)).toBe(mask);
    }
  });
});

describe('lame leaps', () => {
  it('lists the squares one lame leap passes over', () => {
    const lameOf = (text: string, dx: number, dy: number) =>
      readBetza(text).rays.find((ray) => ray.dx === dx && ray.dy === dy)?.lame;
    expect(lameOf('nN', 1, 2)).toEqual([[0, 1]]);
    expect(lameOf('nN', -2, 1)).toEqual([[-1, 0]]);
    expect(lameOf('nA', 2, -2)).toEqual([[1, -1]]);
    expect(lameOf('nD', 0, -2)).toEqual([[0, -1]]);
    expect(lameOf('nZ', 3, 2)).toEqual([
      [1, 0],
      [2, 1],
    ]);
    expect(lameOf('nC', -1, 3)).toEqual([
      [0, 1],
      [0, 2],
    ]);
    expect(lameOf('nG', 3, 3)).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(readBetza('nW')).toEqual(readBetza('W'));
    expect(readBetza('nF')).toEqual(readBetza('F'));
  });

  it('blocks the Xiangqi horse (nN) at each square it passes over, two leaps per square', () => {
    const all = landings('nN', 5, 5, 2, 2);
    expect(all).toHaveLength(8);
    expect(landings('nN', 5, 5, 2, 2, ['2,3'])).toEqual(all.filter((s) => s !== '1,4' && s !== '3,4'));
    expect(landings('nN', 5, 5, 2, 2, ['2,1'])).toEqual(all.filter((s) => s !== '1,0' && s !== '3,0'));
    expect(landings('nN', 5, 5, 2, 2, ['3,2'])).toEqual(all.filter((s) => s !== '4,1' && s !== '4,3'));
    expect(landings('nN', 5, 5, 2, 2, ['1,2'])).toEqual(all.filter((s) => s !== '0,1' && s !== '0,3'));
    expect(landings('nN', 5, 5, 2, 2, ['3,3', '1,1', '3,1', '1,3'])).toEqual(all);
    expect(landings('N', 5, 5, 2, 2, ['2,3', '2,1', '3,2', '1,2'])).toEqual(all);
  });

  it('blocks nA diagonally, nD orthogonally and nZ at either passed square', () => {
    expect(landings('nA', 5, 5, 2, 2, ['3,3'])).toEqual(['0,0', '0,4', '4,0']);
    expect(landings('nD', 5, 5, 2, 2, ['2,3'])).toEqual(['0,2', '2,0', '4,2']);
    expect(landings('nZ', 7, 7, 3, 3, ['4,3'])).toEqual(['0,1', '0,5', '1,0', '1,6', '5,0', '5,6']);
    expect(landings('nZ', 7, 7, 3, 3, ['5,4'])).toEqual(['0,1', '0,5', '1,0', '1,6', '5,0', '5,6', '6,1']);
  });

  it('makes a lame rider lame on every leap', () => {
    expect(landings('nNN', 8, 8, 0, 0)).toEqual(['1,2', '2,1', '2,4', '3,6', '4,2', '6,3']);
    expect(landings('nNN', 8, 8, 0, 0, ['1,3'])).toEqual(['1,2', '2,1', '4,2', '6,3']);
    expect(landings('NN', 8, 8, 0, 0, ['1,3'])).toEqual(['1,2', '2,1', '2,4', '3,6', '4,2', '6,3']);
  });
});

describe('limited rides, m and c', () => {
  it('rides at most n leaps, capped where no board of 256 fits more', () => {
    expect(rays('W3')).toEqual(['-1,0x3', '0,-1x3', '0,1x3', '1,0x3']);
    expect(landings('W3', 8, 8, 0, 0, ['2,0'])).toEqual(['0,1', '0,2', '0,3', '1,0']);
    expect(readBetza('N1').betza).toBe('N');
    expect(readBetza('R4').betza).toBe('W4');
    expect(readBetza('R4')).toEqual(readBetza('W4'));
    expect(readBetza('W254').betza).toBe('W254');
    expect(readBetza('W255').betza).toBe('R');
    expect(readBetza('N128').rays.every(({ max }) => max === 127)).toBe(true);
    expect(readBetza('H256').rays.every(({ max }) => max === 85)).toBe(true);
    expect(readBetza('WWW').betza).toBe('R');
    expect(readBetza('fWWW').betza).toBe('fWWW');
    expect(rays('fWWW')).toEqual(['-1,0', '0,-1', '0,1x255', '1,0']);
  });

  it('changes nothing for m and drops the atom for c', () => {
    expect(readBetza('mW')).toEqual(readBetza('W'));
    expect(readBetza('cWN')).toEqual(readBetza('N'));
    expect(readBetza('mcWF').betza).toBe('F');
    expect(readBetza('cmKN').betza).toBe('N');
  });
});

describe('refusals', () => {
  it.each([
    ['pN', "'p' at 1 is a hopper before the leaper N: it needs an unlimited rider"],
    ['gR4', "'4' at 3 limits the hopper 'g' at 1: a hopper rides without a number (or with 0)"],
    ['WjN', "'j' at 2 (modifiers outside the subset) is not supported"],
    ['aW', "'a' at 1 (modifiers outside the subset) is not supported"],
    ['w', "'w' at 1 (lower-case atoms) is not supported"],
    ['Nd', "'d' at 2 (lower-case atoms) is not supported"],
    ['W[F]', "'[' at 2 (brackets and XBetza's multi-leg moves) is not supported"],
    ['(W)', "'(' at 1 (brackets and XBetza's multi-leg moves) is not supported"],
    ['WX', "'X' at 2 (not an atom of the subset) is not supported"],
    ['W F', "' ' at 2 (not a letter of Betza's notation) is not supported"],
    ['K2', "'2' at 2 is a number after K, which takes none"],
    ['WW3', "'3' at 3 is a number after the doubled atom WW, which takes none"],
    ['NN0', "'0' at 3 is a number after the doubled atom NN, which takes none"],
    ['KK', "'K' at 2 doubles the shorthand K, which the subset refuses"],
    ['RR', "'R' at 2 doubles the shorthand R, which the subset refuses"],
    ['fQQ', "'Q' at 3 doubles the shorthand Q, which the subset refuses"],
    ['N01', "'0' at 2 starts a number with a leading zero"],
    ['W00', "'0' at 2 starts a number with a leading zero"],
    ['N257', "'257' at 2 is a number over 256"],
    ['W1000', "'1000' at 2 is a number over 256"],
    ['3W', "'3' at 1 is a number with no atom before it"],
    ['Wf', "'f' at 2 is a modifier with no atom after it"],
    ['frK', "'K' at 3 keeps no leap of its W: its directions 'fr' allow none"],
    ['vK', "'K' at 2 keeps no leap of its F: its directions 'v' allow none"],
    ['vF', "'F' at 2 keeps no leap: its directions 'v' allow none"],
    ['ffA', "'A' at 3 keeps no leap: its directions 'ff' allow none"],
    ['cW', "'c' at 1 leaves no move: capture-only atoms are dropped"],
    ['mcW', "'c' at 2 leaves no move: capture-only atoms are dropped"],
    ['cWcmF', "'c' at 1 leaves no move: capture-only atoms are dropped"],
    ['', 'is empty: a piece needs at least one atom'],
  ])('%j is refused: %s', (text, reason) => {
    expect(refusal(text)).toBe(reason);
  });

  it('places the message under the given path, with the text as its value', () => {
    expect(() => readBetza('pN', ['queries', 2, 'betza'])).toThrow(
      `queries[2].betza: "pN" 'p' at 1 is a hopper before the leaper N: it needs an unlimited rider`,
    );
    expect(() => readBetza('')).toThrow(`betza: "" is empty: a piece needs at least one atom`);
    expect(refusal('Wé')).toBe("'é' at 2 (not a letter of Betza's notation) is not supported");
    expect(refusal('W😀F')).toBe("'😀' at 2 (not a letter of Betza's notation) is not supported");
    expect(refusal('W\nF')).toBe("'\\n' at 2 (not a letter of Betza's notation) is not supported");
  });
});

describe("the contract's equivalences", () => {
  it.each([
    [['WF', 'K', 'FW'], 'K'],
    [['NN', 'N0', 'N256', 'N127'], 'NN'],
    [['WW', 'R', 'W0', 'WR', 'RnD'], 'R'],
    [['W2D', 'WD'], 'WD'],
    [['vWsW', 'W'], 'W'],
    [['NnN', 'N'], 'N'],
    [['fbW', 'vW'], 'vW'],
    [['Q', 'RB', 'WWFF', 'BR', 'QnDnA', 'KQ'], 'Q'],
    [['R4', 'W4', 'W4nD2'], 'W4'],
  ])('%j all read as %s', (texts, canonical) => {
    for (const text of texts) expect(readBetza(text).betza, text).toBe(canonical);
    for (const text of texts) expect(readBetza(text).rays).toEqual(readBetza(canonical).rays);
  });

  it('writes lame leaps, limited rides and one-sided pieces canonically', () => {
    expect(readBetza('nN').betza).toBe('nN');
    expect(readBetza('fnrN').betza).toBe('nfrN');
    expect(readBetza('NnNN').betza).toBe('NnNN');
    expect(readBetza('nNNN').betza).toBe('NnNN');
    expect(readBetza('W2nD').betza).toBe('W2');
    expect(readBetza('WWDDHH').betza).toBe('RDDHH');
    expect(readBetza('ffnN3frN5').betza).toBe('frN5nffN3');
    expect(readBetza('frN5nffN3').betza).toBe('frN5nffN3');
    expect(readBetza('flFrW').betza).toBe('rWflF');
  });
});

describe('the length of a canonical text', () => {
  it('is bounded by MAX_CANONICAL_BETZA_LENGTH, as the prefix tables and the ride caps make it', () => {
    // One term a leap, plain and (where the atom can be lame) lame: `n`, the longest prefix of
    // the atom's class, the atom, and its longest count (doubled atom or three digits).
    let longest = 0;
    for (const atom of BETZA_ATOMS) {
      const prefix = Math.max(...directionPrefixes(atom).map(({ letters }) => letters.length));
      const count = Math.max(2, String(rideCap(atom) - 1).length);
      const term = prefix + 1 + count;
      longest += atomLeaps(atom).length * (term + (canBeLame(atom) ? term + 1 : 0));
      // Its hopper terms, `p` and `g`: the letter, a prefix and the doubled atom.
      longest += 2 * (1 + prefix + 2);
    }
    expect(longest).toBe(MAX_CANONICAL_BETZA_LENGTH);
  });

  it('is kept as read with the text asked: reading it next reads nothing', () => {
    // A text no other test reads (kept texts live as long as the module, 256 of them).
    const asked = 'W2F3nD4W5';
    expect(isBetzaKept(asked)).toBe(false);
    const piece = readBetza(asked);
    expect(piece.betza).not.toBe(asked);
    expect(isBetzaKept(asked)).toBe(true);
    expect(isBetzaKept(piece.betza)).toBe(true);
    expect(readBetza(piece.betza)).toBe(piece);
  });

  it('keeps the canonical text again when a kept text is read and its canonical one has gone', () => {
    // The canonical text read first, as itself; then a text that names the same piece.
    const canonical = 'W7F6';
    expect(readBetza(canonical).betza).toBe(canonical);
    const asked = 'F6W7';
    expect(readBetza(asked).betza).toBe(canonical);
    // The oldest kept go first: new texts, each its own canonical text (one kept a read), push
    // the canonical one out; the text asked, kept after it, stays.
    for (let n = 0; isBetzaKept(canonical) && n < 1000; n++) {
      const text = `${'fbrl'[n % 4]}W${2 + (n >> 2)}`;
      expect(readBetza(text).betza).toBe(text);
    }
    expect(isBetzaKept(canonical)).toBe(false);
    expect(isBetzaKept(asked)).toBe(true);
    readBetza(asked);
    expect(isBetzaKept(canonical)).toBe(true);
  });

  it('can be longer than the text asked, and reads back as itself', () => {
    const asked = 'fQ163ffZ32brN40brA68flA96lQ143ffC64bQ15rrN68flC18rrZ60lvN30flN39';
    const { betza } = readBetza(asked);
    expect(betza.length).toBeGreaterThan(asked.length);
    expect(readBetza(betza).betza).toBe(betza);
    expect(readBetza(betza).rays).toEqual(readBetza(asked).rays);
  });
});

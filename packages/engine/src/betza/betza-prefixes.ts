/**
 * Writing a set of an atom's leaps as direction letters. Not every set can be written (a single
 * knight leap cannot: every group keeps two of them), and a set can be written many ways, so the
 * canonical writer asks for the cheapest prefix whose set lies between what it must keep and what
 * it may keep (extra leaps that the piece allows anyway are free).
 *
 * The table of prefixes is built once per class of atoms (orthogonal W D H, diagonal F A G,
 * oblique N C Z share their direction masks, leap for leap) by trying every combination of up to
 * four of the contract's letters and groups: groups first, then single letters in the first order
 * that reads back as the same set through the reader's own `directionMask`, so that no two
 * adjacent letters accidentally form a group (`lf` is l and f; `fl` would be the group). Each set
 * keeps its shortest text, ties broken by plain string order; the table is sorted the same way,
 * so "the first entry that fits" is a fixed choice. Four tokens cover every set the groups can
 * make (the tests check it against the closure of the groups under union).
 */

import { atomLeaps, type BetzaAtom, directionMask } from './betza-parse.js';

/** The contract's single letters and two-letter groups, in a fixed order. */
const TOKENS = ['f', 'b', 'r', 'l', 'v', 's', 'fl', 'fr', 'bl', 'br', 'ff', 'bb', 'fs', 'bs', 'rr', 'll', 'rv', 'lv'];

/** One way to write a set of leaps: the set as a bit mask and its direction letters. */
export interface DirectionPrefix {
  readonly mask: number;
  readonly letters: string;
}

/** The representative atom of each atom's class. */
function classOf(atom: BetzaAtom): BetzaAtom {
  if (atom === 'W' || atom === 'D' || atom === 'H') return 'W';
  if (atom === 'F' || atom === 'A' || atom === 'G') return 'F';
  return 'N';
}

/** Every permutation of `items`, in lexicographic order of positions. */
function* permutations<T>(items: readonly T[]): Generator<T[]> {
  if (items.length <= 1) {
    yield [...items];
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const tail of permutations(rest)) yield [items[i], ...tail];
  }
}

/** The text of a combination of tokens that reads back as `mask`, or null when no order does. */
function writeCombination(atom: BetzaAtom, tokens: readonly string[], mask: number): string | null {
  const groups = tokens.filter((token) => token.length === 2).join('');
  for (const singles of permutations(tokens.filter((token) => token.length === 1))) {
    const letters = groups + singles.join('');
    if (directionMask(atom, letters) === mask) return letters;
  }
  return null;
}

/** The order of prefixes: fewer letters first, then plain string order. */
function cheaper(letters: string, than: string): boolean {
  return letters.length < than.length || (letters.length === than.length && letters < than);
}

/** Builds the class's table: every writable set once, with its cheapest text, cheapest first. */
function buildTable(atom: BetzaAtom): DirectionPrefix[] {
  const all = (1 << atomLeaps(atom).length) - 1;
  const best = new Map<number, string>([[all, '']]);
  const usable = TOKENS.map((token) => ({ token, mask: directionMask(atom, token) })).filter(({ mask }) => mask !== 0);
  const chosen: { token: string; mask: number }[] = [];
  const visit = (from: number) => {
    if (chosen.length > 0) {
      const mask = chosen.reduce((union, { mask: part }) => union | part, 0);
      const letters = writeCombination(
        atom,
        chosen.map(({ token }) => token),
        mask,
      );
      const known = best.get(mask);
      if (letters !== null && (known === undefined || cheaper(letters, known))) best.set(mask, letters);
    }
    if (chosen.length === 4) return;
    for (let i = from; i < usable.length; i++) {
      chosen.push(usable[i]);
      visit(i + 1);
      chosen.pop();
    }
  };
  visit(0);
  return [...best]
    .map(([mask, letters]) => ({ mask, letters }))
    .sort(
      (a, b) => a.letters.length - b.letters.length || (a.letters < b.letters ? -1 : a.letters > b.letters ? 1 : 0),
    );
}

/** Bounded by construction: one table per class of atoms (the tables are built when the server starts). */
const tables = new Map<BetzaAtom, readonly DirectionPrefix[]>();

/** Every set of the atom's leaps that direction letters can write, each with its cheapest text. */
export function directionPrefixes(atom: BetzaAtom): readonly DirectionPrefix[] {
  const representative = classOf(atom);
  let table = tables.get(representative);
  if (table === undefined) {
    table = buildTable(representative);
    tables.set(representative, table);
  }
  return table;
}

/**
 * The cheapest direction letters keeping every leap of `required` and none outside `allowed`
 * (bit masks over `atomLeaps(atom)`); '' when that is every leap. Null when no prefix fits.
 */
export function cheapestPrefix(atom: BetzaAtom, required: number, allowed: number): string | null {
  for (const { mask, letters } of directionPrefixes(atom)) {
    if ((mask & required) === required && (mask & ~allowed) === 0) return letters;
  }
  return null;
}

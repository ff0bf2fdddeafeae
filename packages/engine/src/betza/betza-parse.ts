/**
 * Reading a Betza text of the contract's subset into parts: one atom each, with the leaps its
 * direction letters keep, how many leaps it may ride, and whether it is lame. Nothing here
 * decides which texts are equal; that is betza-canonical.ts's work on the moves these parts allow.
 *
 * The reader is a single left-to-right pass over code points, so every refusal can name the first
 * offending character and its 1-based position, and nothing outside the subset is ever read as
 * something else: a character is either understood where it stands or refused there. Direction
 * letters are read as the contract says, two at a time whenever the two form a group, else one,
 * with `n`, `m`, `c`, `p` and `g` skipped; each letter and group is a predicate on the leap (x, y), and the
 * prefix keeps the union of what its groups keep (all leaps when it has no direction letter).
 * Leaps are kept as bit masks over the atom's leaps in a fixed clockwise order (`atomLeaps`),
 * which the canonical writer shares, so one table of direction prefixes serves every atom of a
 * class (orthogonal W D H, diagonal F A G, oblique N C Z).
 */

import { InputError, type InputPath } from '../errors.js';

/** A leap (file offset, rank offset): +x toward later files, +y toward higher ranks. */
export type Leap = readonly [dx: number, dy: number];

/** The subset's atoms, in the fixed order the canonical text writes them. */
export const BETZA_ATOMS = ['W', 'F', 'D', 'N', 'A', 'H', 'C', 'Z', 'G'] as const;

/** One of the subset's atoms. */
export type BetzaAtom = (typeof BETZA_ATOMS)[number];

/** Each atom's basic leap (x >= y >= 0). */
const ATOM_LEAP: Readonly<Record<BetzaAtom, Leap>> = {
  W: [1, 0],
  F: [1, 1],
  D: [2, 0],
  N: [2, 1],
  A: [2, 2],
  H: [3, 0],
  C: [3, 1],
  Z: [3, 2],
  G: [3, 3],
};

/** What each upper-case letter of a text stands for: its atoms, and whether it rides by itself. */
const LETTERS: Readonly<Record<string, { atoms: readonly BetzaAtom[]; rider: boolean; shorthand: boolean }>> = {
  ...Object.fromEntries(BETZA_ATOMS.map((atom) => [atom, { atoms: [atom], rider: false, shorthand: false }])),
  K: { atoms: ['W', 'F'], rider: false, shorthand: true },
  R: { atoms: ['W'], rider: true, shorthand: true },
  B: { atoms: ['F'], rider: true, shorthand: true },
  Q: { atoms: ['W', 'F'], rider: true, shorthand: true },
};

/** A direction letter or group as a predicate on a leap (x, y). */
type Keeps = (x: number, y: number) => boolean;

/** The six direction letters, from the contract's definitions. */
const LETTER_KEEPS: Readonly<Record<string, Keeps>> = {
  f: (_x, y) => y > 0,
  b: (_x, y) => y < 0,
  r: (x) => x > 0,
  l: (x) => x < 0,
  v: (x, y) => Math.abs(y) > Math.abs(x),
  s: (x, y) => Math.abs(x) > Math.abs(y),
};

/** The contract's two-letter groups: each keeps what both its meanings keep. */
const GROUP_MEANINGS: Readonly<Record<string, string>> = {
  fl: 'fl',
  fr: 'fr',
  bl: 'bl',
  br: 'br',
  ff: 'fv',
  bb: 'bv',
  fs: 'fs',
  bs: 'bs',
  rr: 'rs',
  ll: 'ls',
  rv: 'rv',
  lv: 'lv',
};

/** The direction letters (the characters a prefix's direction part is made of). */
export const DIRECTION_LETTERS = 'fbrlvs';

/** Direction letters -> their groups, read two at a time whenever the two form a group, else one. */
export function directionGroups(letters: string): string[] {
  const groups: string[] = [];
  for (let i = 0; i < letters.length; ) {
    const pair = letters.slice(i, i + 2);
    const width = pair.length === 2 && Object.hasOwn(GROUP_MEANINGS, pair) ? 2 : 1;
    groups.push(letters.slice(i, i + width));
    i += width;
  }
  return groups;
}

/** Each atom's leaps: bounded by construction, one entry per atom of the subset. */
const leapCache = new Map<BetzaAtom, readonly Leap[]>();

/** The atom's leaps: every mirror image once, clockwise from the first forward one. */
export function atomLeaps(atom: BetzaAtom): readonly Leap[] {
  const cached = leapCache.get(atom);
  if (cached !== undefined) return cached;
  const [a, b] = ATOM_LEAP[atom];
  const images: Leap[] = [
    [b, a],
    [a, b],
    [a, -b],
    [b, -a],
    [-b, -a],
    [-a, -b],
    [-a, b],
    [-b, a],
  ];
  // `+ 0` turns -0 into 0, so a leap is never told apart from itself by Object.is.
  const leaps = images
    .filter(([x, y], index) => images.findIndex(([ox, oy]) => ox === x && oy === y) === index)
    .map(([x, y]): Leap => [x + 0, y + 0]);
  leapCache.set(atom, leaps);
  return leaps;
}

/** The most leaps a ride of `atom` can make on a side of 256 squares: floor(255 / longer leg). */
export function rideCap(atom: BetzaAtom): number {
  return Math.floor(255 / ATOM_LEAP[atom][0]);
}

/** Whether `n` makes the atom's leaps lame at all (not for W and F, which pass over nothing). */
export function canBeLame(atom: BetzaAtom): boolean {
  return atom !== 'W' && atom !== 'F';
}

/** The leaps (a bit mask over `atomLeaps(atom)`) that direction letters keep; all when none. */
export function directionMask(atom: BetzaAtom, letters: string): number {
  const leaps = atomLeaps(atom);
  if (letters === '') return (1 << leaps.length) - 1;
  const groups = directionGroups(letters).map((group) =>
    [...(GROUP_MEANINGS[group] ?? group)].map((letter) => LETTER_KEEPS[letter]),
  );
  let mask = 0;
  leaps.forEach(([x, y], index) => {
    if (groups.some((meanings) => meanings.every((keeps) => keeps(x, y)))) mask |= 1 << index;
  });
  return mask;
}

/** One atom of a read text: the leaps it keeps, its leaps per move at most, and lameness. */
export interface BetzaPart {
  readonly atom: BetzaAtom;
  /** Bit mask over `atomLeaps(atom)`, never 0. */
  readonly leaps: number;
  /** 1 for a leaper; capped at `rideCap(atom)`. */
  readonly max: number;
  /** Only ever true for atoms that `canBeLame`. */
  readonly lame: boolean;
  /** `p` (cannon) or `g` (grasshopper) for a hopper part (an unlimited rider, never lame), else null. */
  readonly hop: HopKind | null;
}

/** A hopper's kind: `p` stops anywhere after its hurdle, `g` just after it. */
export type HopKind = 'p' | 'g';

/** Why a character the subset does not have is refused. */
function unsupported(char: string, position: number): string {
  if (/^[0-9]$/.test(char)) return `'${char}' at ${position} is a number with no atom before it`;
  // Control characters and quotes as JSON escapes them, so the message stays one readable line.
  const shown = /^[\x21-\x7e]$/.test(char) ? char : JSON.stringify(char).slice(1, -1);
  let why: string;
  if ('ajioqzteuyx'.includes(char)) why = 'modifiers outside the subset';
  else if ('dhkw'.includes(char)) why = 'lower-case atoms';
  else if ('[](){}'.includes(char)) why = "brackets and XBetza's multi-leg moves";
  else if (/^[A-Z]$/.test(char)) why = 'not an atom of the subset';
  else why = "not a letter of Betza's notation";
  return `'${shown}' at ${position} (${why}) is not supported`;
}

/**
 * Reads a text of the subset into its parts, `c` atoms dropped; throws `InputError` (under
 * `path`, with the text as its value) naming the first offending character and its position.
 */
export function parseBetza(text: string, path: InputPath): BetzaPart[] {
  const chars = Array.from(text);
  const fail = (reason: string): InputError => new InputError(path, text, reason);
  if (chars.length === 0) throw fail('is empty: a piece needs at least one atom');
  const parts: BetzaPart[] = [];
  let firstDrop = -1;
  let i = 0;
  while (i < chars.length) {
    const prefixStart = i;
    let directions = '';
    let lame = false;
    let dropAt = -1;
    let lameAt = -1;
    let hop: HopKind | null = null;
    let hopAt = -1;
    for (; i < chars.length && /^[a-z]$/.test(chars[i]); i++) {
      const char = chars[i];
      if (DIRECTION_LETTERS.includes(char)) directions += char;
      else if (char === 'n') {
        if (hop !== null)
          throw fail(`'n' at ${i + 1} makes the hopper '${hop}' at ${hopAt + 1} lame, which the subset refuses`);
        lame = true;
        lameAt = lameAt < 0 ? i : lameAt;
      } else if (char === 'p' || char === 'g') {
        if (hop !== null)
          throw fail(`'${char}' at ${i + 1} follows the hopper '${hop}' at ${hopAt + 1}: a part hops one way`);
        if (lame)
          throw fail(`'${char}' at ${i + 1} makes the lame 'n' at ${lameAt + 1} a hopper, which the subset refuses`);
        hop = char;
        hopAt = i;
      } else if (char === 'c') dropAt = dropAt < 0 ? i : dropAt;
      else if (char !== 'm') throw fail(unsupported(char, i + 1));
    }
    if (i === chars.length)
      throw fail(`'${chars[prefixStart]}' at ${prefixStart + 1} is a modifier with no atom after it`);
    const letter = chars[i];
    const meaning = Object.hasOwn(LETTERS, letter) ? LETTERS[letter] : undefined;
    if (meaning === undefined) throw fail(unsupported(letter, i + 1));
    const letterAt = i++;

    let doubled = false;
    if (chars[i] === letter) {
      if (meaning.shorthand)
        throw fail(`'${letter}' at ${i + 1} doubles the shorthand ${letter}, which the subset refuses`);
      doubled = true;
      i++;
    }
    let count = meaning.rider || doubled ? Number.POSITIVE_INFINITY : 1;
    if (i < chars.length && /^[0-9]$/.test(chars[i])) {
      const numberAt = i;
      while (i < chars.length && /^[0-9]$/.test(chars[i])) i++;
      const digits = chars.slice(numberAt, i).join('');
      // A number is named whole, but a runaway one is cut: the message never echoes megabytes.
      const where = `'${digits.length > 12 ? `${digits.slice(0, 9)}...` : digits}' at ${numberAt + 1}`;
      if (letter === 'K') throw fail(`${where} is a number after K, which takes none`);
      if (doubled) throw fail(`${where} is a number after the doubled atom ${letter}${letter}, which takes none`);
      if (digits.length > 1 && digits[0] === '0')
        throw fail(`'0' at ${numberAt + 1} starts a number with a leading zero`);
      if (digits.length > 3 || Number(digits) > 256) throw fail(`${where} is a number over 256`);
      count = digits === '0' ? Number.POSITIVE_INFINITY : Number(digits);
      if (hop !== null && digits !== '0')
        throw fail(`${where} limits the hopper '${hop}' at ${hopAt + 1}: a hopper rides without a number (or with 0)`);
    }
    if (hop !== null && count !== Number.POSITIVE_INFINITY)
      throw fail(`'${hop}' at ${hopAt + 1} is a hopper before the leaper ${letter}: it needs an unlimited rider`);

    for (const atom of meaning.atoms) {
      const leaps = directionMask(atom, directions);
      if (leaps === 0) {
        const of = meaning.shorthand ? ` of its ${atom}` : '';
        throw fail(`'${letter}' at ${letterAt + 1} keeps no leap${of}: its directions '${directions}' allow none`);
      }
      if (dropAt >= 0) firstDrop = firstDrop < 0 ? dropAt : firstDrop;
      else parts.push({ atom, leaps, max: Math.min(count, rideCap(atom)), lame: lame && canBeLame(atom), hop });
    }
  }
  if (parts.length === 0) throw fail(`'c' at ${firstDrop + 1} leaves no move: capture-only atoms are dropped`);
  return parts;
}

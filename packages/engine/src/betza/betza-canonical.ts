/**
 * The canonical form of a fairy piece, built from its moves rather than its letters, so that
 * texts allowing the same moves on every board of up to 256 x 256 get the same rays and the same
 * text (`WF`, `K` and `FW`; `W2D` and `WD`; `RnD` and `WW`; `NnN` and `N`).
 *
 * 1. The piece's moves: every ray the text gives, each at its most leaps (MoveSet).
 * 2. Every ray the moves contain: for each atom, leap and lameness, the most leaps j such that
 *    each of its moves 1..j is allowed by some move of the piece (same landing, needing a subset).
 *    These rays together allow exactly the piece's moves, and depend on nothing but those moves.
 * 3. Shortening, in a fixed order (lame rays first, as they are the ones other rays cover, then
 *    the rest; atoms in BETZA_ATOMS order, leaps in `atomLeaps` order): each ray loses its last
 *    leaps while the rays still standing allow those moves, down to none (`W2D` keeps W1; `RnD`
 *    drops the lame D); an unlimited ride is only ever dropped whole, never cut to a number
 *    (`WWDDHH` keeps `WW`, not `W253`, though DD and HH allow its last two moves). A move dropped
 *    is always allowed by one still standing at that time, and so, by transitivity, by one
 *    standing at the end: the moves stay the same.
 * 4. Writing: atoms in BETZA_ATOMS order, plain before lame (`n` first), then by leaps per move,
 *    most first: for each count k one term, its directions the cheapest prefix keeping every leap
 *    whose ray now has k leaps and nothing outside the rays of step 2 that reach k leaps (a knight
 *    leap alone cannot be written; its neighbour may be added when the piece allows it anyway).
 *    k is written as the doubled atom when it is the atom's cap (an unlimited ride), as the bare
 *    atom when 1, else as the atom and k. Higher counts come first, so a term never ends in a bare
 *    atom letter that the next term's atom would double (`WWW3` is `WW` then `W3`).
 * Steps 2 to 4 are functions of the moves alone, so the text is one per move set; reading it back
 * gives rays that allow the same moves (each written ray lies within step 2's), hence the same text.
 */

import { type FairyRay, lameSquares, MoveSet, RayTrace } from './betza-moves.js';
import { atomLeaps, BETZA_ATOMS, type BetzaAtom, type BetzaPart, canBeLame, rideCap } from './betza-parse.js';
import { cheapestPrefix } from './betza-prefixes.js';

/** The ray of one leap of an atom, plain or lame, with `max` leaps at most. */
export function atomRay(atom: BetzaAtom, leap: number, lame: boolean, max: number): FairyRay {
  const [dx, dy] = atomLeaps(atom)[leap];
  return { dx, dy, max, lame: lame ? lameSquares(dx, dy) : [] };
}

/** A ray's identity: its atom, which of the atom's leaps, and lameness. */
function rayKey(atom: BetzaAtom, leap: number, lame: boolean): string {
  return `${atom}${leap}${lame ? 'n' : ''}`;
}

/** A ray the piece's moves contain (step 2), and how many leaps it keeps after step 3. */
interface Candidate {
  readonly atom: BetzaAtom;
  readonly leap: number;
  readonly lame: boolean;
  /** Its moves, traced up to `most`. */
  readonly trace: RayTrace;
  /** The most leaps j such that the piece allows its moves of 1..j leaps. */
  readonly most: number;
  count: number;
}

/** A piece's canonical rays (atoms in order, plain before lame, leaps in order) and text. */
export interface CanonicalForm {
  readonly rays: FairyRay[];
  readonly text: string;
}

/** The rays of step 2: every (atom, leap, lameness) whose first moves the piece allows. */
function containedRays(moves: MoveSet, given: ReadonlyMap<string, FairyRay>): Candidate[] {
  const candidates: Candidate[] = [];
  for (const atom of BETZA_ATOMS) {
    for (const lame of canBeLame(atom) ? [false, true] : [false]) {
      atomLeaps(atom).forEach((_, leap) => {
        const trace = new RayTrace(atomRay(atom, leap, lame, rideCap(atom)));
        // A ray of the text allows its own moves: no need to ask (it saves a queen most of its time).
        let most = given.get(rayKey(atom, leap, lame))?.max ?? 0;
        trace.reach(most);
        while (trace.reach(most + 1) && moves.dominates(trace, most + 1)) most++;
        if (most > 0) candidates.push({ atom, leap, lame, trace, most, count: most });
      });
    }
  }
  return candidates;
}

/** Step 3: each ray in turn gives up the last leaps that the other rays standing allow. */
function shorten(candidates: readonly Candidate[]): void {
  const byLanding = new Map<number, { owner: Candidate; leaps: number }[]>();
  for (const owner of candidates) {
    for (let leaps = 1; leaps <= owner.most; leaps++) {
      const landing = owner.trace.landings[leaps - 1];
      const list = byLanding.get(landing) ?? [];
      list.push({ owner, leaps });
      byLanding.set(landing, list);
    }
  }
  const coveredByOthers = (owner: Candidate, leaps: number): boolean =>
    (byLanding.get(owner.trace.landings[leaps - 1]) ?? []).some(
      (other) =>
        other.owner !== owner &&
        other.leaps <= other.owner.count &&
        owner.trace.contains(leaps, other.owner.trace, other.leaps),
    );
  const order = [...candidates.filter(({ lame }) => lame), ...candidates.filter(({ lame }) => !lame)];
  for (const candidate of order) {
    // The ray keeps up to its last move the others do not allow (asked in increasing leaps, which
    // `RayTrace.contains` answers in one pass).
    let count = 0;
    for (let leaps = 1; leaps <= candidate.count; leaps++) if (!coveredByOthers(candidate, leaps)) count = leaps;
    // An unlimited ride stays unlimited unless it goes altogether: `WW` beside `DDHH` is no `W253`.
    if (count === 0 || candidate.count < rideCap(candidate.atom)) candidate.count = count;
  }
}

/** An atom with k leaps per move at most, as text. */
function countText(atom: BetzaAtom, count: number): string {
  if (count === rideCap(atom)) return atom + atom;
  return count === 1 ? atom : `${atom}${count}`;
}

/** Step 4 for one atom, plain or lame: one term per count, most leaps first. */
function writeTerms(atom: BetzaAtom, lame: boolean, candidates: readonly Candidate[]): string {
  const counts = [...new Set(candidates.map(({ count }) => count).filter((count) => count > 0))].sort((a, b) => b - a);
  let text = '';
  for (const count of counts) {
    let required = 0;
    let allowed = 0;
    for (const candidate of candidates) {
      if (candidate.count === count) required |= 1 << candidate.leap;
      if (candidate.most >= count) allowed |= 1 << candidate.leap;
    }
    const letters = cheapestPrefix(atom, required, allowed);
    if (letters === null) throw new Error(`betza: no direction prefix writes leaps ${required} of ${atom}`);
    text += (lame ? 'n' : '') + letters + countText(atom, count);
  }
  return text;
}

/** The canonical rays and text of the piece that the parts of a read text make. */
export function canonicalForm(parts: readonly BetzaPart[]): CanonicalForm {
  const given = new Map<string, FairyRay>();
  for (const { atom, leaps, max, lame } of parts) {
    atomLeaps(atom).forEach((_, leap) => {
      if ((leaps & (1 << leap)) === 0) return;
      const key = rayKey(atom, leap, lame);
      if ((given.get(key)?.max ?? 0) < max) given.set(key, atomRay(atom, leap, lame, max));
    });
  }
  const moves = new MoveSet();
  for (const ray of given.values()) moves.addRay(ray);
  const candidates = containedRays(moves, given);
  shorten(candidates);

  const rays: FairyRay[] = [];
  let text = '';
  for (const atom of BETZA_ATOMS) {
    for (const lame of [false, true]) {
      const own = candidates.filter((candidate) => candidate.atom === atom && candidate.lame === lame);
      text += writeTerms(atom, lame, own);
      for (const { leap, count } of own) if (count > 0) rays.push(atomRay(atom, leap, lame, count));
    }
  }
  return { rays, text };
}

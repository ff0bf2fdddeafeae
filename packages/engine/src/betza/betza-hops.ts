/**
 * Hopper parts of a Betza text (`p` cannon, `g` grasshopper before an unlimited rider): their
 * rays and canonical text. A hopper's moves depend only on which directions of which atom hop
 * and how, so unlike ordinary rides (betza-canonical.ts) no move set is traced: the canonical
 * form is, per kind (`p` then `g`) and atom (BETZA_ATOMS order), the union of the leaps its parts
 * keep, written as one term (`p` or `g`, the cheapest direction prefix, the atom doubled). Hopper
 * and ordinary parts never make each other redundant (a hop needs a hurdle, a ride forbids one),
 * so `RpR` keeps both; two hoppers of different atoms or kinds never land alike on every board.
 */

import { atomLeaps, BETZA_ATOMS, type BetzaPart, type HopKind } from './betza-parse.js';
import { cheapestPrefix } from './betza-prefixes.js';

export type { HopKind } from './betza-parse.js';

/** One direction of a hopper: hops along (dx, dy) over the first hurdle, as `hop` says. */
export interface HopRay {
  /** File offset of one leap, +dx toward later files. */
  readonly dx: number;
  /** Rank offset of one leap, +dy toward higher ranks. */
  readonly dy: number;
  /** `p`: any passable landing after the hurdle up to the next one; `g`: the landing just after. */
  readonly hop: HopKind;
}

/** The canonical hopper rays and their text (no shorthands: `betza.ts` writes those). */
export function hopForm(parts: readonly BetzaPart[]): { hops: HopRay[]; text: string } {
  const hops: HopRay[] = [];
  let text = '';
  for (const hop of ['p', 'g'] as const) {
    for (const atom of BETZA_ATOMS) {
      let mask = 0;
      for (const part of parts) if (part.hop === hop && part.atom === atom) mask |= part.leaps;
      if (mask === 0) continue;
      const letters = cheapestPrefix(atom, mask, mask);
      if (letters === null) throw new Error(`betza: no direction prefix writes hopper leaps ${mask} of ${atom}`);
      text += hop + letters + atom + atom;
      atomLeaps(atom).forEach(([dx, dy], leap) => {
        if ((mask & (1 << leap)) !== 0) hops.push({ dx, dy, hop });
      });
    }
  }
  return { hops, text };
}

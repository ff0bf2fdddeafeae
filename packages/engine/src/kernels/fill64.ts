/**
 * The 8 x 8 fast path: Westcott's routine on a 64-square board held as two 32-bit halves
 * (lo = a1..h4, hi = a5..h8). No BigInt and no allocation in the loops: every value stays a
 * 32-bit integer.
 *
 * Each piece has a loop of its own. The leapers' and pawns' moves are small pure functions,
 * one per half (`kingLo`, `kingHi`, ...), which the compiler inlines, so a whole solve runs in
 * registers; the sliders' rays (`rays64.ts`) are too long to inline twice and hand back their
 * result in a two-word scratch array. East/west shifts never cross the halves (bit 31 is h4 and
 * bit 32 is a5, both removed by the edge masks first).
 */
import { bishopRays, rays, rookRays } from './rays64.js';

/**
 * Room for the layers of any 8 x 8 answer: each step reaches at least one new square, so D is at
 * most 63 and there are at most 64 layers (one more to spare). The WebAssembly kernel's buffer
 * (`wasm/fill64.ts`) has the same size.
 */
export const MAX_LAYERS_64 = 65;

/** Piece codes of the fast path: each piece's index in `PIECES` (`pieceCode` in `query.ts`). */
export const KING = 0,
  QUEEN = 1,
  ROOK = 2,
  BISHOP = 3,
  KNIGHT = 4,
  WHITE_PAWN = 5,
  BLACK_PAWN = 6;

const NOT_A = 0xfefefefe | 0;
const NOT_H = 0x7f7f7f7f;
const NOT_AB = 0xfcfcfcfc | 0;
const NOT_GH = 0x3f3f3f3f;

/** A rank's squares and their east and west neighbours (the king's move along the rank). */
function rankSpread(x: number): number {
  return x | ((x & NOT_H) << 1) | ((x & NOT_A) >>> 1);
}

/** The low half of the squares a king on (lo, hi) reaches (or stands on). */
function kingLo(lo: number, hi: number): number {
  const rLo = rankSpread(lo);
  return rLo | (rLo << 8) | (rLo >>> 8) | (rankSpread(hi) << 24);
}

/** The high half of the squares a king on (lo, hi) reaches (or stands on). */
function kingHi(lo: number, hi: number): number {
  const rHi = rankSpread(hi);
  return rHi | (rHi << 8) | (rHi >>> 8) | (rankSpread(lo) >>> 24);
}

/** The low half of the squares a knight on (lo, hi) reaches. */
function knightLo(lo: number, hi: number): number {
  const aLo = lo & NOT_A;
  const hLo = lo & NOT_H;
  const abLo = lo & NOT_AB;
  const ghLo = lo & NOT_GH;
  return (
    (hLo << 17) |
    (aLo << 15) |
    (ghLo << 10) |
    (abLo << 6) |
    (aLo >>> 17) |
    ((hi & NOT_A) << 15) |
    (hLo >>> 15) |
    ((hi & NOT_H) << 17) |
    (abLo >>> 10) |
    ((hi & NOT_AB) << 22) |
    (ghLo >>> 6) |
    ((hi & NOT_GH) << 26)
  );
}

/** The high half of the squares a knight on (lo, hi) reaches. */
function knightHi(lo: number, hi: number): number {
  const aHi = hi & NOT_A;
  const hHi = hi & NOT_H;
  const abHi = hi & NOT_AB;
  const ghHi = hi & NOT_GH;
  return (
    (hHi << 17) |
    ((lo & NOT_H) >>> 15) |
    (aHi << 15) |
    ((lo & NOT_A) >>> 17) |
    (ghHi << 10) |
    ((lo & NOT_GH) >>> 22) |
    (abHi << 6) |
    ((lo & NOT_AB) >>> 26) |
    (aHi >>> 17) |
    (hHi >>> 15) |
    (abHi >>> 10) |
    (ghHi >>> 6)
  );
}

/** Frontier storage shared by all solves (two words a layer). */
const frontiers = new Int32Array(2 * MAX_LAYERS_64);

/**
 * Solves one 8 x 8 problem. Sources and targets must already be within the passable set.
 * Returns the distance D and leaves layers L_0..L_D in `layersOut()[0 .. 2D+1]`, or returns -1
 * when no target is reachable.
 */
export function solve64(
  piece: number,
  sLo: number,
  sHi: number,
  tLo: number,
  tHi: number,
  pLo: number,
  pHi: number,
): number {
  if ((sLo | sHi) === 0 || (tLo | tHi) === 0) return -1;
  frontiers[0] = sLo;
  frontiers[1] = sHi;
  switch (piece) {
    case KING:
      return solveKing(sLo, sHi, tLo, tHi, pLo, pHi);
    case KNIGHT:
      return solveKnight(sLo, sHi, tLo, tHi, pLo, pHi);
    case WHITE_PAWN:
      return solveWhitePawn(sLo, sHi, tLo, tHi, pLo, pHi);
    case BLACK_PAWN:
      return solveBlackPawn(sLo, sHi, tLo, tHi, pLo, pHi);
    default:
      return solveSlider(piece, sLo, sHi, tLo, tHi, pLo, pHi);
  }
}

// The five loops below share one shape. Forward: F_{k+1} = moves(F_k) ∩ P minus the visited
// squares, until a frontier meets T'. Backward: L_D = F_D ∩ T', L_{k-1} = F_{k-1} ∩ from(L_k);
// F_{k-1} lies within P already, so the backward moves need no mask.

function solveKing(fLo: number, fHi: number, tLo: number, tHi: number, pLo: number, pHi: number): number {
  const f = frontiers;
  let vLo = fLo;
  let vHi = fHi;
  let k = 0;
  while (((fLo & tLo) | (fHi & tHi)) === 0) {
    const nLo = kingLo(fLo, fHi) & pLo & ~vLo;
    fHi = kingHi(fLo, fHi) & pHi & ~vHi;
    fLo = nLo;
    if ((fLo | fHi) === 0) return -1;
    vLo |= fLo;
    vHi |= fHi;
    k++;
    f[2 * k] = fLo;
    f[2 * k + 1] = fHi;
  }
  let lLo = fLo & tLo;
  let lHi = fHi & tHi;
  f[2 * k] = lLo;
  f[2 * k + 1] = lHi;
  for (let i = k; i > 0; i--) {
    const nLo = f[2 * i - 2] & kingLo(lLo, lHi);
    lHi = f[2 * i - 1] & kingHi(lLo, lHi);
    lLo = nLo;
    f[2 * i - 2] = lLo;
    f[2 * i - 1] = lHi;
  }
  return k;
}

function solveKnight(fLo: number, fHi: number, tLo: number, tHi: number, pLo: number, pHi: number): number {
  const f = frontiers;
  let vLo = fLo;
  let vHi = fHi;
  let k = 0;
  while (((fLo & tLo) | (fHi & tHi)) === 0) {
    const nLo = knightLo(fLo, fHi) & pLo & ~vLo;
    fHi = knightHi(fLo, fHi) & pHi & ~vHi;
    fLo = nLo;
    if ((fLo | fHi) === 0) return -1;
    vLo |= fLo;
    vHi |= fHi;
    k++;
    f[2 * k] = fLo;
    f[2 * k + 1] = fHi;
  }
  let lLo = fLo & tLo;
  let lHi = fHi & tHi;
  f[2 * k] = lLo;
  f[2 * k + 1] = lHi;
  for (let i = k; i > 0; i--) {
    const nLo = f[2 * i - 2] & knightLo(lLo, lHi);
    lHi = f[2 * i - 1] & knightHi(lLo, lHi);
    lLo = nLo;
    f[2 * i - 2] = lLo;
    f[2 * i - 1] = lHi;
  }
  return k;
}

/** White pawns: one rank up, or two from rank 2 over a passable rank 3 (all in `lo`). */
function solveWhitePawn(fLo: number, fHi: number, tLo: number, tHi: number, pLo: number, pHi: number): number {
  const f = frontiers;
  let vLo = fLo;
  let vHi = fHi;
  let k = 0;
  while (((fLo & tLo) | (fHi & tHi)) === 0) {
    const single = (fLo << 8) & pLo;
    const nLo = (single | ((single & 0xff0000) << 8)) & pLo & ~vLo;
    fHi = ((fHi << 8) | (fLo >>> 24)) & pHi & ~vHi;
    fLo = nLo;
    if ((fLo | fHi) === 0) return -1;
    vLo |= fLo;
    vHi |= fHi;
    k++;
    f[2 * k] = fLo;
    f[2 * k + 1] = fHi;
  }
  let lLo = fLo & tLo;
  let lHi = fHi & tHi;
  f[2 * k] = lLo;
  f[2 * k + 1] = lHi;
  for (let i = k; i > 0; i--) {
    // One rank down, or two from rank 4 over a passable rank 3 to rank 2.
    const nLo = f[2 * i - 2] & ((lLo >>> 8) | (lHi << 24) | ((((lLo & 0xff000000) >>> 8) & pLo) >>> 8));
    lHi = f[2 * i - 1] & (lHi >>> 8);
    lLo = nLo;
    f[2 * i - 2] = lLo;
    f[2 * i - 1] = lHi;
  }
  return k;
}

/** Black pawns: one rank down, or two from rank 7 over a passable rank 6 (all in `hi`). */
function solveBlackPawn(fLo: number, fHi: number, tLo: number, tHi: number, pLo: number, pHi: number): number {
  const f = frontiers;
  let vLo = fLo;
  let vHi = fHi;
  let k = 0;
  while (((fLo & tLo) | (fHi & tHi)) === 0) {
    const single = (fHi >>> 8) & pHi;
    const nHi = (single | ((single & 0xff00) >>> 8)) & pHi & ~vHi;
    fLo = ((fLo >>> 8) | (fHi << 24)) & pLo & ~vLo;
    fHi = nHi;
    if ((fLo | fHi) === 0) return -1;
    vLo |= fLo;
    vHi |= fHi;
    k++;
    f[2 * k] = fLo;
    f[2 * k + 1] = fHi;
  }
  let lLo = fLo & tLo;
  let lHi = fHi & tHi;
  f[2 * k] = lLo;
  f[2 * k + 1] = lHi;
  for (let i = k; i > 0; i--) {
    // One rank up, or two from rank 5 over a passable rank 6 to rank 7.
    const nHi = f[2 * i - 1] & ((lHi << 8) | (lLo >>> 24) | ((((lHi & 0xff) << 8) & pHi) << 8));
    lLo = f[2 * i - 2] & (lLo << 8);
    lHi = nHi;
    f[2 * i - 2] = lLo;
    f[2 * i - 1] = lHi;
  }
  return k;
}

/** Rook, bishop and queen: the rays of `rays64.ts`, symmetric, so both passes use them. */
function solveSlider(
  piece: number,
  fLo: number,
  fHi: number,
  tLo: number,
  tHi: number,
  pLo: number,
  pHi: number,
): number {
  const f = frontiers;
  const out = rays;
  let vLo = fLo;
  let vHi = fHi;
  let k = 0;
  while (((fLo & tLo) | (fHi & tHi)) === 0) {
    out[0] = 0;
    out[1] = 0;
    if (piece !== BISHOP) rookRays(fLo, fHi, pLo, pHi);
    if (piece !== ROOK) bishopRays(fLo, fHi, pLo, pHi);
    fLo = out[0] & ~vLo;
    fHi = out[1] & ~vHi;
    if ((fLo | fHi) === 0) return -1;
    vLo |= fLo;
    vHi |= fHi;
    k++;
    f[2 * k] = fLo;
    f[2 * k + 1] = fHi;
  }
  f[2 * k] = fLo & tLo;
  f[2 * k + 1] = fHi & tHi;
  for (let i = k; i > 0; i--) {
    out[0] = 0;
    out[1] = 0;
    if (piece !== BISHOP) rookRays(f[2 * i], f[2 * i + 1], pLo, pHi);
    if (piece !== ROOK) bishopRays(f[2 * i], f[2 * i + 1], pLo, pHi);
    f[2 * i - 2] &= out[0];
    f[2 * i - 1] &= out[1];
  }
  return k;
}

/** The layers left by the last `solve64`: L_k is words 2k and 2k+1. */
export function layersOut(): Int32Array {
  return frontiers;
}

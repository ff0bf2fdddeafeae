/**
 * The 8 x 8 fast path: Westcott's routine on a 64-square board held as two 32-bit halves
 * (lo = a1..h4, hi = a5..h8). No BigInt and no allocation in the loops: every value stays a
 * 32-bit integer, and the step functions hand back their result in two module-level
 * registers (`outLo`, `outHi`) rather than in an object. East/west shifts never cross the
 * halves (bit 31 is h4 and bit 32 is a5, both removed by the edge masks first).
 */

/** Piece codes of the fast path (the order of `PIECE_CODES`). */
export const KING = 0, QUEEN = 1, ROOK = 2, BISHOP = 3, KNIGHT = 4, WHITE_PAWN = 5, BLACK_PAWN = 6;

const NOT_A = 0xfefefefe | 0;
const NOT_H = 0x7f7f7f7f;
const NOT_AB = 0xfcfcfcfc | 0;
const NOT_GH = 0x3f3f3f3f;

let outLo = 0;
let outHi = 0;

function kingStep(lo: number, hi: number): void {
  const rLo = lo | ((lo & NOT_H) << 1) | ((lo & NOT_A) >>> 1);
  const rHi = hi | ((hi & NOT_H) << 1) | ((hi & NOT_A) >>> 1);
  outLo = rLo | (rLo << 8) | (rLo >>> 8) | (rHi << 24);
  outHi = rHi | (rHi << 8) | (rHi >>> 8) | (rLo >>> 24);
}

function knightStep(lo: number, hi: number): void {
  const aLo = lo & NOT_A, aHi = hi & NOT_A;
  const hLo = lo & NOT_H, hHi = hi & NOT_H;
  const abLo = lo & NOT_AB, abHi = hi & NOT_AB;
  const ghLo = lo & NOT_GH, ghHi = hi & NOT_GH;
  outLo = (hLo << 17) | (aLo << 15) | (ghLo << 10) | (abLo << 6)
    | (aLo >>> 17) | (aHi << 15) | (hLo >>> 15) | (hHi << 17)
    | (abLo >>> 10) | (abHi << 22) | (ghLo >>> 6) | (ghHi << 26);
  outHi = (hHi << 17) | (hLo >>> 15) | (aHi << 15) | (aLo >>> 17)
    | (ghHi << 10) | (ghLo >>> 22) | (abHi << 6) | (abLo >>> 26)
    | (aHi >>> 17) | (hHi >>> 15) | (abHi >>> 10) | (ghHi >>> 6);
}

// Slider rays: repeat a one-square shift through passable squares until the ray set is empty,
// ORing every landing square into (outLo, outHi).

function rookRays(lo: number, hi: number, pLo: number, pHi: number): void {
  let aLo = 0, aHi = 0;
  let gLo = lo, gHi = hi; // north
  for (;;) {
    const nLo = (gLo << 8) & pLo;
    const nHi = ((gHi << 8) | (gLo >>> 24)) & pHi;
    if ((nLo | nHi) === 0) break;
    aLo |= nLo; aHi |= nHi; gLo = nLo; gHi = nHi;
  }
  gLo = lo; gHi = hi; // south
  for (;;) {
    const nLo = ((gLo >>> 8) | (gHi << 24)) & pLo;
    const nHi = (gHi >>> 8) & pHi;
    if ((nLo | nHi) === 0) break;
    aLo |= nLo; aHi |= nHi; gLo = nLo; gHi = nHi;
  }
  gLo = lo; gHi = hi; // east
  for (;;) {
    const nLo = ((gLo & NOT_H) << 1) & pLo;
    const nHi = ((gHi & NOT_H) << 1) & pHi;
    if ((nLo | nHi) === 0) break;
    aLo |= nLo; aHi |= nHi; gLo = nLo; gHi = nHi;
  }
  gLo = lo; gHi = hi; // west
  for (;;) {
    const nLo = ((gLo & NOT_A) >>> 1) & pLo;
    const nHi = ((gHi & NOT_A) >>> 1) & pHi;
    if ((nLo | nHi) === 0) break;
    aLo |= nLo; aHi |= nHi; gLo = nLo; gHi = nHi;
  }
  outLo |= aLo;
  outHi |= aHi;
}

function bishopRays(lo: number, hi: number, pLo: number, pHi: number): void {
  let aLo = 0, aHi = 0;
  let gLo = lo, gHi = hi; // north-east (+9)
  for (;;) {
    const xLo = gLo & NOT_H, xHi = gHi & NOT_H;
    const nLo = (xLo << 9) & pLo;
    const nHi = ((xHi << 9) | (xLo >>> 23)) & pHi;
    if ((nLo | nHi) === 0) break;
    aLo |= nLo; aHi |= nHi; gLo = nLo; gHi = nHi;
  }
  gLo = lo; gHi = hi; // north-west (+7)
  for (;;) {
    const xLo = gLo & NOT_A, xHi = gHi & NOT_A;
    const nLo = (xLo << 7) & pLo;
    const nHi = ((xHi << 7) | (xLo >>> 25)) & pHi;
    if ((nLo | nHi) === 0) break;
    aLo |= nLo; aHi |= nHi; gLo = nLo; gHi = nHi;
  }
  gLo = lo; gHi = hi; // south-east (-7)
  for (;;) {
    const xLo = gLo & NOT_H, xHi = gHi & NOT_H;
    const nLo = ((xLo >>> 7) | (xHi << 25)) & pLo;
    const nHi = (xHi >>> 7) & pHi;
    if ((nLo | nHi) === 0) break;
    aLo |= nLo; aHi |= nHi; gLo = nLo; gHi = nHi;
  }
  gLo = lo; gHi = hi; // south-west (-9)
  for (;;) {
    const xLo = gLo & NOT_A, xHi = gHi & NOT_A;
    const nLo = ((xLo >>> 9) | (xHi << 23)) & pLo;
    const nHi = (xHi >>> 9) & pHi;
    if ((nLo | nHi) === 0) break;
    aLo |= nLo; aHi |= nHi; gLo = nLo; gHi = nHi;
  }
  outLo |= aLo;
  outHi |= aHi;
}

/** White pawn moves (or, reversed, the squares a white pawn comes from). */
function whitePawnStep(lo: number, hi: number, pLo: number, pHi: number, reverse: boolean): void {
  if (!reverse) {
    outLo = (lo << 8) & pLo;
    outHi = ((hi << 8) | (lo >>> 24)) & pHi;
    // Double step from rank 2 (lo bits 8..15) over rank 3 to rank 4, all in `lo`.
    outLo |= ((((lo & 0xff00) << 8) & pLo) << 8) & pLo;
  } else {
    outLo = ((lo >>> 8) | (hi << 24)) & pLo;
    outHi = (hi >>> 8) & pHi;
    // Back from rank 4 (lo bits 24..31) over rank 3 to rank 2.
    outLo |= ((((lo & 0xff000000) >>> 8) & pLo) >>> 8) & pLo;
  }
}

/** Black pawn moves (or, reversed, the squares a black pawn comes from). */
function blackPawnStep(lo: number, hi: number, pLo: number, pHi: number, reverse: boolean): void {
  if (!reverse) {
    outLo = ((lo >>> 8) | (hi << 24)) & pLo;
    outHi = (hi >>> 8) & pHi;
    // Double step from rank 7 (hi bits 16..23) over rank 6 to rank 5, all in `hi`.
    outHi |= ((((hi & 0xff0000) >>> 8) & pHi) >>> 8) & pHi;
  } else {
    outLo = (lo << 8) & pLo;
    outHi = ((hi << 8) | (lo >>> 24)) & pHi;
    // Back from rank 5 (hi bits 0..7) over rank 6 to rank 7.
    outHi |= ((((hi & 0xff) << 8) & pHi) << 8) & pHi;
  }
}

/** One move of `piece` from (lo, hi) through passable (pLo, pHi), into (outLo, outHi). */
function step(piece: number, lo: number, hi: number, pLo: number, pHi: number, reverse: boolean): void {
  switch (piece) {
    case KING: kingStep(lo, hi); break;
    case KNIGHT: knightStep(lo, hi); break;
    case ROOK: outLo = 0; outHi = 0; rookRays(lo, hi, pLo, pHi); break;
    case BISHOP: outLo = 0; outHi = 0; bishopRays(lo, hi, pLo, pHi); break;
    case QUEEN: outLo = 0; outHi = 0; rookRays(lo, hi, pLo, pHi); bishopRays(lo, hi, pLo, pHi); break;
    case WHITE_PAWN: whitePawnStep(lo, hi, pLo, pHi, reverse); break;
    default: blackPawnStep(lo, hi, pLo, pHi, reverse); break;
  }
}

/** Frontier storage shared by all solves (two words a step, at most 64 steps). */
const frontiers = new Int32Array(2 * 65);

/**
 * Solves one 8 x 8 problem. Sources and targets must already be within the passable set.
 * Returns the distance D and leaves layers L_0..L_D in `layersOut()[0 .. 2D+1]`, or returns -1
 * when no target is reachable.
 */
export function solve64(piece: number, sLo: number, sHi: number, tLo: number, tHi: number, pLo: number, pHi: number): number {
  if ((sLo | sHi) === 0 || (tLo | tHi) === 0) return -1;
  const f = frontiers;
  let fLo = sLo, fHi = sHi, vLo = sLo, vHi = sHi;
  f[0] = sLo;
  f[1] = sHi;
  let k = 0;
  while (((fLo & tLo) | (fHi & tHi)) === 0) {
    step(piece, fLo, fHi, pLo, pHi, false);
    fLo = outLo & pLo & ~vLo;
    fHi = outHi & pHi & ~vHi;
    if ((fLo | fHi) === 0) return -1;
    vLo |= fLo;
    vHi |= fHi;
    k++;
    f[2 * k] = fLo;
    f[2 * k + 1] = fHi;
  }
  f[2 * k] &= tLo;
  f[2 * k + 1] &= tHi;
  for (let i = k; i > 0; i--) {
    step(piece, f[2 * i], f[2 * i + 1], pLo, pHi, true);
    f[2 * i - 2] &= outLo;
    f[2 * i - 1] &= outHi;
  }
  return k;
}

/** The layers left by the last `solve64`: L_k is words 2k and 2k+1. */
export function layersOut(): Int32Array {
  return frontiers;
}

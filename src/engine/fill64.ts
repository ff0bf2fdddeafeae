/**
 * The 8 x 8 fast path: Westcott's routine on a 64-square board held as two 32-bit halves
 * (lo = a1..h4, hi = a5..h8). No BigInt and no allocation in the loops: every value stays a
 * 32-bit integer, and the step functions hand back their result in two module-level
 * registers (`outLo`, `outHi`) rather than in an object. East/west shifts never cross the
 * halves (bit 31 is h4 and bit 32 is a5, both removed by the edge masks first).
 */

/** Piece codes of the fast path (`solve.ts` maps each `Piece` to one in `FAST_CODES`). */
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

let outLo = 0;
let outHi = 0;

function kingStep(lo: number, hi: number): void {
  const rLo = lo | ((lo & NOT_H) << 1) | ((lo & NOT_A) >>> 1);
  const rHi = hi | ((hi & NOT_H) << 1) | ((hi & NOT_A) >>> 1);
  outLo = rLo | (rLo << 8) | (rLo >>> 8) | (rHi << 24);
  outHi = rHi | (rHi << 8) | (rHi >>> 8) | (rLo >>> 24);
}

function knightStep(lo: number, hi: number): void {
  const aLo = lo & NOT_A,
    aHi = hi & NOT_A;
  const hLo = lo & NOT_H,
    hHi = hi & NOT_H;
  const abLo = lo & NOT_AB,
    abHi = hi & NOT_AB;
  const ghLo = lo & NOT_GH,
    ghHi = hi & NOT_GH;
  outLo =
    (hLo << 17) |
    (aLo << 15) |
    (ghLo << 10) |
    (abLo << 6) |
    (aLo >>> 17) |
    (aHi << 15) |
    (hLo >>> 15) |
    (hHi << 17) |
    (abLo >>> 10) |
    (abHi << 22) |
    (ghLo >>> 6) |
    (ghHi << 26);
  outHi =
    (hHi << 17) |
    (hLo >>> 15) |
    (aHi << 15) |
    (aLo >>> 17) |
    (ghHi << 10) |
    (ghLo >>> 22) |
    (abHi << 6) |
    (abLo >>> 26) |
    (aHi >>> 17) |
    (hHi >>> 15) |
    (abHi >>> 10) |
    (ghHi >>> 6);
}

// Slider rays by Kogge-Stone occluded fills: per direction, three doubling shifts spread the
// sources through passable squares (`p` tracks runs of passable squares), then one more shift
// gives the landing squares. Branch-free, so its cost does not depend on the ray lengths.

function rookRays(lo: number, hi: number, pLo: number, pHi: number): void {
  // East and west never cross the halves: each half is filled on its own.
  let gLo = lo,
    gHi = hi;
  let qLo = pLo & NOT_A,
    qHi = pHi & NOT_A;
  gLo |= qLo & (gLo << 1);
  gHi |= qHi & (gHi << 1);
  qLo &= qLo << 1;
  qHi &= qHi << 1;
  gLo |= qLo & (gLo << 2);
  gHi |= qHi & (gHi << 2);
  qLo &= qLo << 2;
  qHi &= qHi << 2;
  gLo |= qLo & (gLo << 4);
  gHi |= qHi & (gHi << 4);
  let aLo = ((gLo & NOT_H) << 1) & pLo,
    aHi = ((gHi & NOT_H) << 1) & pHi;
  gLo = lo;
  gHi = hi;
  qLo = pLo & NOT_H;
  qHi = pHi & NOT_H;
  gLo |= qLo & (gLo >>> 1);
  gHi |= qHi & (gHi >>> 1);
  qLo &= qLo >>> 1;
  qHi &= qHi >>> 1;
  gLo |= qLo & (gLo >>> 2);
  gHi |= qHi & (gHi >>> 2);
  qLo &= qLo >>> 2;
  qHi &= qHi >>> 2;
  gLo |= qLo & (gLo >>> 4);
  gHi |= qHi & (gHi >>> 4);
  aLo |= ((gLo & NOT_A) >>> 1) & pLo;
  aHi |= ((gHi & NOT_A) >>> 1) & pHi;
  // North: shifts by 8, 16 and 32 squares across the halves.
  gLo = lo;
  gHi = hi;
  qLo = pLo;
  qHi = pHi;
  gHi |= qHi & ((gHi << 8) | (gLo >>> 24));
  gLo |= qLo & (gLo << 8);
  qHi &= (qHi << 8) | (qLo >>> 24);
  qLo &= qLo << 8;
  gHi |= qHi & ((gHi << 16) | (gLo >>> 16));
  gLo |= qLo & (gLo << 16);
  qHi &= (qHi << 16) | (qLo >>> 16);
  gHi |= qHi & gLo;
  aLo |= (gLo << 8) & pLo;
  aHi |= ((gHi << 8) | (gLo >>> 24)) & pHi;
  // South.
  gLo = lo;
  gHi = hi;
  qLo = pLo;
  qHi = pHi;
  gLo |= qLo & ((gLo >>> 8) | (gHi << 24));
  gHi |= qHi & (gHi >>> 8);
  qLo &= (qLo >>> 8) | (qHi << 24);
  qHi &= qHi >>> 8;
  gLo |= qLo & ((gLo >>> 16) | (gHi << 16));
  gHi |= qHi & (gHi >>> 16);
  qLo &= (qLo >>> 16) | (qHi << 16);
  gLo |= qLo & gHi;
  aLo |= ((gLo >>> 8) | (gHi << 24)) & pLo;
  aHi |= (gHi >>> 8) & pHi;
  outLo |= aLo;
  outHi |= aHi;
}

function bishopRays(lo: number, hi: number, pLo: number, pHi: number): void {
  // North-east (+9, +18, +36).
  let gLo = lo,
    gHi = hi;
  let qLo = pLo & NOT_A,
    qHi = pHi & NOT_A;
  gHi |= qHi & ((gHi << 9) | (gLo >>> 23));
  gLo |= qLo & (gLo << 9);
  qHi &= (qHi << 9) | (qLo >>> 23);
  qLo &= qLo << 9;
  gHi |= qHi & ((gHi << 18) | (gLo >>> 14));
  gLo |= qLo & (gLo << 18);
  qHi &= (qHi << 18) | (qLo >>> 14);
  gHi |= qHi & (gLo << 4);
  let xLo = gLo & NOT_H,
    xHi = gHi & NOT_H;
  let aLo = (xLo << 9) & pLo,
    aHi = ((xHi << 9) | (xLo >>> 23)) & pHi;
  // North-west (+7, +14, +28).
  gLo = lo;
  gHi = hi;
  qLo = pLo & NOT_H;
  qHi = pHi & NOT_H;
  gHi |= qHi & ((gHi << 7) | (gLo >>> 25));
  gLo |= qLo & (gLo << 7);
  qHi &= (qHi << 7) | (qLo >>> 25);
  qLo &= qLo << 7;
  gHi |= qHi & ((gHi << 14) | (gLo >>> 18));
  gLo |= qLo & (gLo << 14);
  qHi &= (qHi << 14) | (qLo >>> 18);
  qLo &= qLo << 14;
  gHi |= qHi & ((gHi << 28) | (gLo >>> 4));
  gLo |= qLo & (gLo << 28);
  xLo = gLo & NOT_A;
  xHi = gHi & NOT_A;
  aLo |= (xLo << 7) & pLo;
  aHi |= ((xHi << 7) | (xLo >>> 25)) & pHi;
  // South-east (-7, -14, -28).
  gLo = lo;
  gHi = hi;
  qLo = pLo & NOT_A;
  qHi = pHi & NOT_A;
  gLo |= qLo & ((gLo >>> 7) | (gHi << 25));
  gHi |= qHi & (gHi >>> 7);
  qLo &= (qLo >>> 7) | (qHi << 25);
  qHi &= qHi >>> 7;
  gLo |= qLo & ((gLo >>> 14) | (gHi << 18));
  gHi |= qHi & (gHi >>> 14);
  qLo &= (qLo >>> 14) | (qHi << 18);
  qHi &= qHi >>> 14;
  gLo |= qLo & ((gLo >>> 28) | (gHi << 4));
  gHi |= qHi & (gHi >>> 28);
  xLo = gLo & NOT_H;
  xHi = gHi & NOT_H;
  aLo |= ((xLo >>> 7) | (xHi << 25)) & pLo;
  aHi |= (xHi >>> 7) & pHi;
  // South-west (-9, -18, -36).
  gLo = lo;
  gHi = hi;
  qLo = pLo & NOT_H;
  qHi = pHi & NOT_H;
  gLo |= qLo & ((gLo >>> 9) | (gHi << 23));
  gHi |= qHi & (gHi >>> 9);
  qLo &= (qLo >>> 9) | (qHi << 23);
  qHi &= qHi >>> 9;
  gLo |= qLo & ((gLo >>> 18) | (gHi << 14));
  gHi |= qHi & (gHi >>> 18);
  qLo &= (qLo >>> 18) | (qHi << 14);
  gLo |= qLo & (gHi >>> 4);
  xLo = gLo & NOT_A;
  xHi = gHi & NOT_A;
  aLo |= ((xLo >>> 9) | (xHi << 23)) & pLo;
  aHi |= (xHi >>> 9) & pHi;
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
    case KING:
      kingStep(lo, hi);
      break;
    case KNIGHT:
      knightStep(lo, hi);
      break;
    case ROOK:
      outLo = 0;
      outHi = 0;
      rookRays(lo, hi, pLo, pHi);
      break;
    case BISHOP:
      outLo = 0;
      outHi = 0;
      bishopRays(lo, hi, pLo, pHi);
      break;
    case QUEEN:
      outLo = 0;
      outHi = 0;
      rookRays(lo, hi, pLo, pHi);
      bishopRays(lo, hi, pLo, pHi);
      break;
    case WHITE_PAWN:
      whitePawnStep(lo, hi, pLo, pHi, reverse);
      break;
    default:
      blackPawnStep(lo, hi, pLo, pHi, reverse);
      break;
  }
}

/** Frontier storage shared by all solves (two words a step, at most 64 steps). */
const frontiers = new Int32Array(2 * 65);

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
  const f = frontiers;
  let fLo = sLo,
    fHi = sHi,
    vLo = sLo,
    vHi = sHi;
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

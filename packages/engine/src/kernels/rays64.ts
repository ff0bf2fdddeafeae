/**
 * Slider moves on the 8 x 8 board (two 32-bit halves, lo = a1..h4, hi = a5..h8) by
 * Kogge-Stone occluded fills: per direction, three doubling shifts spread the sources through
 * passable squares (`q` tracks runs of passable squares), then one more shift gives the
 * landing squares. Branch-free, so its cost does not depend on the ray lengths. A ray is
 * symmetric (u reaches v over passable squares iff v reaches u), so the same fill serves the
 * forward and the backward pass.
 */

const NOT_A = 0xfefefefe | 0;
const NOT_H = 0x7f7f7f7f;

/**
 * Where the rays land: the fills OR their result into words 0 (lo) and 1 (hi), so the caller
 * zeroes it first. A typed array rather than two returned values: no allocation a step.
 */
export const rays = new Int32Array(2);

/** ORs into `rays` every square a rook on (lo, hi) reaches through passable (pLo, pHi). */
export function rookRays(lo: number, hi: number, pLo: number, pHi: number): void {
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
  rays[0] |= aLo;
  rays[1] |= aHi;
}

/** ORs into `rays` every square a bishop on (lo, hi) reaches through passable (pLo, pHi). */
export function bishopRays(lo: number, hi: number, pLo: number, pHi: number): void {
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
  rays[0] |= aLo;
  rays[1] |= aHi;
}

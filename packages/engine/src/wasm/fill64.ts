/**
 * The 8 x 8 fill in AssemblyScript, compiled to WebAssembly by `npm run build`
 * (`scripts/build-wasm.mjs`, which writes the bytes into `src/generated/`). This is not
 * TypeScript: `u64` is a real 64-bit integer, `@inline` asks the compiler to inline, and
 * `load`/`store` address the module's own memory. `kernel64.ts` loads it.
 *
 * Why it exists: JavaScript has no 64-bit integer that is fast, so `fill64.ts` works on two
 * 32-bit halves, and a slider step costs it about two and a half times the operations of one
 * 64-bit Kogge-Stone step. Here every set is one `u64`, as in Westcott's routine; the call from
 * JavaScript costs a few nanoseconds, far less than the slider steps it saves.
 *
 * Same contract as `solve64` in `fill64.ts`: sources and targets are already within the passable
 * set; `solve` returns D and leaves L_0 .. L_D in the layer buffer (8 bytes each, low word
 * first) and their square counts in the count buffer, or returns -1 when no target is reachable.
 */

const NOT_A: u64 = 0xfefefefefefefefe;
const NOT_H: u64 = 0x7f7f7f7f7f7f7f7f;
const NOT_AB: u64 = 0xfcfcfcfcfcfcfcfc;
const NOT_GH: u64 = 0x3f3f3f3f3f3f3f3f;
const RANK_3: u64 = 0xff << 16;
const RANK_4: u64 = 0xff << 24;
const RANK_5: u64 = 0xff << 32;
const RANK_6: u64 = 0xff << 40;

// Piece codes: each piece's index in `PIECES`, as in `fill64.ts`.
const KING = 0;
const QUEEN = 1;
const ROOK = 2;
const BISHOP = 3;
const KNIGHT = 4;
const WHITE_PAWN = 5;
const BLACK_PAWN = 6;

/** Layers L_0 .. L_64, 8 bytes each (MAX_LAYERS_64 of `fill64.ts`): a static buffer of the module's memory. */
const LAYERS: usize = memory.data(65 * 8, 8);

/** The squares of each layer, 4 bytes each: `popcnt` is one instruction here, a dozen in JavaScript. */
const COUNTS: usize = memory.data(65 * 4, 4);

/** Where the layers of the last `solve` are, as a byte offset into the memory. */
export function layers(): usize {
  return LAYERS;
}

/** Where the layers' square counts of the last `solve` are, as a byte offset into the memory. */
export function counts(): usize {
  return COUNTS;
}

// @ts-ignore: decorator
@inline
function king(b: u64): u64 {
  const h = b | ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
  return h | (h << 8) | (h >> 8);
}

// @ts-ignore: decorator
@inline
function knight(b: u64): u64 {
  const one = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
  const two = ((b << 2) & NOT_AB) | ((b >> 2) & NOT_GH);
  return (one << 16) | (one >> 16) | (two << 8) | (two >> 8);
}

/** Landing squares of slides toward higher indices by `s`, through passable `p1` (Kogge-Stone). */
// @ts-ignore: decorator
@inline
function slideUp(g: u64, p1: u64, s: u64): u64 {
  let p = p1;
  g |= p & (g << s);
  p &= p << s;
  g |= p & (g << (s << 1));
  p &= p << (s << 1);
  g |= p & (g << (s << 2));
  return (g << s) & p1;
}

/** Landing squares of slides toward lower indices by `s`, through passable `p1`. */
// @ts-ignore: decorator
@inline
function slideDown(g: u64, p1: u64, s: u64): u64 {
  let p = p1;
  g |= p & (g >> s);
  p &= p >> s;
  g |= p & (g >> (s << 1));
  p &= p >> (s << 1);
  g |= p & (g >> (s << 2));
  return (g >> s) & p1;
}

// @ts-ignore: decorator
@inline
function rook(g: u64, pass: u64): u64 {
  return slideUp(g, pass, 8) | slideDown(g, pass, 8) | slideUp(g, pass & NOT_A, 1) | slideDown(g, pass & NOT_H, 1);
}

// @ts-ignore: decorator
@inline
function bishop(g: u64, pass: u64): u64 {
  return (
    slideUp(g, pass & NOT_A, 9) | slideUp(g, pass & NOT_H, 7) | slideDown(g, pass & NOT_A, 7) | slideDown(g, pass & NOT_H, 9)
  );
}

/** Squares one move from `b`, within the passable set. Sliders are symmetric: forward = backward. */
// @ts-ignore: decorator
@inline
function forward(piece: i32, b: u64, pass: u64): u64 {
  switch (piece) {
    case KING:
      return king(b) & pass;
    case KNIGHT:
      return knight(b) & pass;
    case QUEEN:
      return rook(b, pass) | bishop(b, pass);
    case ROOK:
      return rook(b, pass);
    case BISHOP:
      return bishop(b, pass);
    case WHITE_PAWN: {
      const single = (b << 8) & pass;
      return single | (((single & RANK_3) << 8) & pass);
    }
    default: {
      // BLACK_PAWN
      const single = (b >> 8) & pass;
      return single | (((single & RANK_6) >> 8) & pass);
    }
  }
}

/** Squares from which one move reaches `b` (the caller intersects with a frontier, within P). */
// @ts-ignore: decorator
@inline
function backward(piece: i32, b: u64, pass: u64): u64 {
  switch (piece) {
    case KING:
      return king(b);
    case KNIGHT:
      return knight(b);
    case WHITE_PAWN:
      return (b >> 8) | ((((b & RANK_4) >> 8) & pass) >> 8);
    case BLACK_PAWN:
      return (b << 8) | ((((b & RANK_5) << 8) & pass) << 8);
    default:
      return forward(piece, b, pass);
  }
}

/**
 * Westcott's routine for one piece (inlined once per piece, so each has a loop of its own).
 * Forward: F_{k+1} = forward(F_k) minus the visited squares, until a frontier meets T. Backward:
 * L_D = F_D ∩ T, L_{k-1} = F_{k-1} ∩ backward(L_k).
 */
// @ts-ignore: decorator
@inline
function fill(piece: i32, sources: u64, targets: u64, pass: u64): i32 {
  let frontier = sources;
  let visited = sources;
  let k = 0;
  store<u64>(LAYERS, sources);
  while ((frontier & targets) == 0) {
    frontier = forward(piece, frontier, pass) & ~visited;
    if (frontier == 0) return -1;
    visited |= frontier;
    k++;
    store<u64>(LAYERS + (<usize>k << 3), frontier);
  }
  let layer = frontier & targets;
  store<u64>(LAYERS + (<usize>k << 3), layer);
  store<i32>(COUNTS + (<usize>k << 2), <i32>popcnt(layer));
  for (let i = k - 1; i >= 0; i--) {
    const at = LAYERS + (<usize>i << 3);
    layer = load<u64>(at) & backward(piece, layer, pass);
    store<u64>(at, layer);
    store<i32>(COUNTS + (<usize>i << 2), <i32>popcnt(layer));
  }
  return k;
}

/** Solves one 8 x 8 problem given as (low, high) word pairs; see the header. */
export function solve(piece: i32, sLo: u32, sHi: u32, tLo: u32, tHi: u32, pLo: u32, pHi: u32): i32 {
  const sources = (<u64>sLo) | ((<u64>sHi) << 32);
  const targets = (<u64>tLo) | ((<u64>tHi) << 32);
  const pass = (<u64>pLo) | ((<u64>pHi) << 32);
  if (sources == 0 || targets == 0) return -1;
  switch (piece) {
    case KING:
      return fill(KING, sources, targets, pass);
    case QUEEN:
      return fill(QUEEN, sources, targets, pass);
    case ROOK:
      return fill(ROOK, sources, targets, pass);
    case BISHOP:
      return fill(BISHOP, sources, targets, pass);
    case KNIGHT:
      return fill(KNIGHT, sources, targets, pass);
    case WHITE_PAWN:
      return fill(WHITE_PAWN, sources, targets, pass);
    default:
      return fill(BLACK_PAWN, sources, targets, pass);
  }
}

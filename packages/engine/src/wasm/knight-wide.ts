/**
 * The king's and the knight's fill for boards whose ranks are whole 64-bit units (64 x 64 to
 * 256 x 256), in AssemblyScript, compiled by `npm run build` (`scripts/build-wasm.mjs`) and
 * loaded by `knight-wide-wasm.ts`: the algorithm of `knight-wide.ts` and the king of
 * `leapers.ts`, with a unit one `u64` instead of two 32-bit halves. Frontiers are sparse lists
 * of units, so a step costs in proportion to the frontier (a maze king's is a dozen units).
 * A step is pushed (each frontier unit ORs its moves into `out`, listing the units it touches,
 * then filtered) or pulled (the frontier scattered into `dense`, every unit of the window it can
 * reach gathers its moves from there in order: no list, no second pass). A knight's step pulls
 * when its window is at most `DENSE_RATIO` times its frontier (its ring on 64 x 64 fills nearly
 * every rank of the window); a king's always pushes (pulled, the 256 x 256 maze ran slower), and
 * so does the backward pass (L_{k+1} is a few units; pulling costs per unit of F_k). The layers
 * are written out as the backward pass finds them. Memory layout: `knight-wide-memory.ts`.
 */

import {
  dense,
  east1,
  east2,
  i32At,
  open,
  out,
  pad,
  rank,
  setI32,
  setU64,
  sources,
  targets,
  touched,
  u64At,
  units,
  west1,
  west2,
} from './knight-wide-memory';
import {
  finishLayers,
  firstLayer,
  keep,
  poolBits,
  poolUnit,
  starts,
} from './layers';

export { words } from './layers';
export { layout, offset, padding } from './knight-wide-memory';

/** The piece of the solve under way: the king when true, else the knight. */
let king = false;
/** Units the moves reach beyond a frontier's first and last unit. */
let reach: i32 = 0;
/** Lowest and highest unit of the frontier last made (padded indices). */
let lo: i32 = 0;
let hi: i32 = 0;
/** 0: each step pushes or pulls, whichever is cheaper; 1: push always; 2: pull always (tests). */
let mode: i32 = 0;
/** A knight's step pulls when its window has at most this many units per frontier unit. */
const DENSE_RATIO: i32 = 3;

/** Sets how steps go: 0 the cheaper way, 1 always pushed, 2 always pulled (for the tests). */
export function setMode(m: i32): void {
  mode = m;
}

/** ORs non-zero `v` into `out` at unit `u`, listing `u` when it was zero; returns the new count. */
// @ts-ignore: decorator
@inline
function emit(n: i32, u: i32, v: u64): i32 {
  const old = u64At(out, u);
  setU64(out, u, old | v);
  if (old == 0) setI32(touched, n++, u);
  return n;
}

/** Emits a knight's moves from unit `u`: `one` (one file over) two ranks up and down, `two` one rank. */
// @ts-ignore: decorator
@inline
function knightAt(n: i32, u: i32, one: u64, two: u64): i32 {
  n = emit(n, u + 2 * rank, one);
  n = emit(n, u - 2 * rank, one);
  n = emit(n, u + rank, two);
  return emit(n, u - rank, two);
}

/** `knightAt` for the bits carried into a neighbouring unit (rare: compiled once, called). */
function knightCarry(n: i32, u: i32, one: u64, two: u64): i32 {
  // `emit` lists a unit on any first write: no zero is written, so none is listed twice.
  if (one != 0) n = emit(emit(n, u + 2 * rank, one), u - 2 * rank, one);
  if (two != 0) n = emit(emit(n, u + rank, two), u - rank, two);
  return n;
}

/** Emits `h` on unit `u`'s rank and the ranks above and below (a king's moves). */
// @ts-ignore: decorator
@inline
function kingAt(n: i32, u: i32, h: u64): i32 {
  n = emit(n, u + rank, h);
  n = emit(n, u, h);
  return emit(n, u - rank, h);
}

/** `kingAt` for the bits carried into a neighbouring unit (rare: compiled once, called). */
function kingCarry(n: i32, u: i32, h: u64): i32 {
  return kingAt(n, u, h);
}

/**
 * Emits the knight moves of pool entries `from .. to`; returns the number of touched units.
 * Within a unit no mask is needed (a bit shifted past either end leaves it); the bits carried
 * into the neighbouring units of the rank are masked at the rank's ends (none on 64 files).
 */
function stepKnight(from: i32, to: i32): i32 {
  let n = 0;
  for (let e = from; e < to; e++) {
    const x = u64At(poolBits, e);
    if (x == 0) continue;
    const u = i32At(poolUnit, e);
    // One file east or west lands two ranks up or down; two files, one rank.
    n = knightAt(n, u, (x << 1) | (x >> 1), (x << 2) | (x >> 2));
    if (rank == 1) continue;
    const oneEast = (x & u64At(east1, u)) >> 63;
    const twoEast = (x & u64At(east2, u)) >> 62;
    if ((oneEast | twoEast) != 0) n = knightCarry(n, u + 1, oneEast, twoEast);
    const oneWest = (x & u64At(west1, u)) << 63;
    const twoWest = (x & u64At(west2, u)) << 62;
    if ((oneWest | twoWest) != 0) n = knightCarry(n, u - 1, oneWest, twoWest);
  }
  return n;
}

/**
 * Emits the king moves of pool entries `from .. to`; returns the number of touched units. The
 * unit spreads one file east and west inside itself and lands on its own rank and the ranks
 * above and below; the edge bits carry into the neighbouring units of the same three ranks.
 */
function stepKing(from: i32, to: i32): i32 {
  let n = 0;
  for (let e = from; e < to; e++) {
    const x = u64At(poolBits, e);
    if (x == 0) continue;
    const u = i32At(poolUnit, e);
    const east = x & u64At(east1, u);
    const west = x & u64At(west1, u);
    n = kingAt(n, u, x | (east << 1) | (west >> 1));
    if (east >> 63 != 0) n = kingCarry(n, u + 1, east >> 63);
    if (west << 63 != 0) n = kingCarry(n, u - 1, west << 63);
  }
  return n;
}

/** Emits the moves of the piece under way (see `king`); returns the number of touched units. */
function step(from: i32, to: i32): i32 {
  return king ? stepKing(from, to) : stepKnight(from, to);
}

/**
 * The moves into unit `u` from the squares scattered in `dense`: the squares of `u` a move
 * reaches from them, or (both pieces being symmetric) the squares of `u` a move reaches them
 * from. A file mask is the same on every rank, so a source's mask is read at the unit of its
 * file; the bits carried across units come from the units east and west (none on 64 files).
 */
// @ts-ignore: decorator
@inline
function pull(u: i32): u64 {
  let m: u64 = 0;
  if (king) {
    const a = u64At(dense, u - rank) | u64At(dense, u) | u64At(dense, u + rank);
    m = a | (a << 1) | (a >> 1);
    if (rank > 1) {
      const b = u64At(dense, u - 1 - rank) | u64At(dense, u - 1) | u64At(dense, u - 1 + rank);
      const c = u64At(dense, u + 1 - rank) | u64At(dense, u + 1) | u64At(dense, u + 1 + rank);
      m |= ((b & u64At(east1, u - 1)) >> 63) | ((c & u64At(west1, u + 1)) << 63);
    }
    return m;
  }
  const r2 = 2 * rank;
  const a = u64At(dense, u - r2) | u64At(dense, u + r2);
  const b = u64At(dense, u - rank) | u64At(dense, u + rank);
  m = (a << 1) | (a >> 1) | (b << 2) | (b >> 2);
  if (rank > 1) {
    const ae = u64At(dense, u - 1 - r2) | u64At(dense, u - 1 + r2);
    const be = u64At(dense, u - 1 - rank) | u64At(dense, u - 1 + rank);
    const aw = u64At(dense, u + 1 - r2) | u64At(dense, u + 1 + r2);
    const bw = u64At(dense, u + 1 - rank) | u64At(dense, u + 1 + rank);
    m |= ((ae & u64At(east1, u - 1)) >> 63) | ((be & u64At(east2, u - 1)) >> 62);
    m |= ((aw & u64At(west1, u + 1)) << 63) | ((bw & u64At(west2, u + 1)) << 62);
  }
  return m;
}

/** Writes the bits of pool entries `from .. to` into `dense` (or zeros when `clear`). */
function scatter(from: i32, to: i32, clear: bool): void {
  for (let e = from; e < to; e++) setU64(dense, i32At(poolUnit, e), clear ? 0 : u64At(poolBits, e));
}

/** Targets met by the step last made. */
let hit: u64 = 0;

/**
 * Makes the next frontier from pool entries `from .. to` by pulling: every unit of the window
 * `first .. last` in order (so the new frontier is sorted). Returns the end of the new frontier.
 */
function pullStep(from: i32, to: i32, first: i32, last: i32): i32 {
  scatter(from, to, false);
  let at = to;
  for (let u = first; u <= last; u++) {
    const o = u64At(open, u);
    const v = pull(u) & o;
    if (v == 0) continue;
    setU64(open, u, o & ~v);
    setI32(poolUnit, at, u);
    setU64(poolBits, at++, v);
    hit |= v & u64At(targets, u);
    lo = min(lo, u);
    hi = u;
  }
  scatter(from, to, true);
  return at;
}

/** Makes the next frontier from pool entries `from .. to` by pushing; returns its end. */
// @ts-ignore: decorator
@inline
function pushStep(from: i32, to: i32): i32 {
  const n = step(from, to);
  let at = to;
  let met: u64 = 0;
  for (let i = 0; i < n; i++) {
    const u = i32At(touched, i);
    const o = u64At(open, u);
    const v = u64At(out, u) & o;
    setU64(out, u, 0);
    if (v != 0) {
      setU64(open, u, o & ~v);
      setI32(poolUnit, at, u);
      setU64(poolBits, at++, v);
      met |= v & u64At(targets, u);
      if (king) continue; // never pulled but in the tests' mode 2, where it never pushes
      lo = min(lo, u);
      hi = max(hi, u);
    }
  }
  hit = met;
  return at;
}

/** Frontiers made by the last forward fill (F_0 .. F_(frontiers - 1)). */
let frontiers: i32 = 0;

/** Forward fill until a frontier meets the targets; returns its step, or -1. */
function forward(): i32 {
  for (let k = 0; k <= units << 6; k++) {
    frontiers = k + 1;
    const from = i32At(starts, k);
    const to = i32At(starts, k + 1);
    const first = max(lo - reach, pad);
    const last = min(hi + reach, pad + units - 1);
    hit = 0;
    lo = 0x7fffffff;
    hi = -1;
    const pulled = mode == 2 || (mode == 0 && !king && last - first + 1 <= DENSE_RATIO * (to - from));
    const at = pulled ? pullStep(from, to, first, last) : pushStep(from, to);
    if (at == to) return -1;
    setI32(starts, k + 2, at);
    if (hit != 0) return k + 1;
  }
  return -1; // not reached: every step reaches a square not reached before
}

/**
 * Turns frontiers 0..D into layers: L_D = F_D ∩ T', L_k = F_k ∩ moves(L_{k+1}), and writes
 * them out as they are found, only their non-zero words (a maze's frontiers hold several times
 * the squares of its layers: writing out every frontier word cost a sixth of the solve), from
 * the top of the layer words down; then moves the words to the bottom (`SparseLayers`' form).
 */
function backward(distance: i32): void {
  firstLayer(distance, targets);
  // Pushed from L_{k+1}, a few units of a frontier (the shortest paths' squares only): both
  // pieces move symmetrically, so the squares a move comes from are the squares it reaches.
  for (let k = distance; k > 0; k--) {
    const n = step(i32At(starts, k), i32At(starts, k + 1));
    keep(k - 1, out);
    for (let i = 0; i < n; i++) setU64(out, i32At(touched, i), 0);
  }
  finishLayers(distance);
}

/**
 * Solves the problem whose passable set, targets and sources the caller wrote into `open`,
 * `targets` and `sources` (sources and targets within the passable set), for the king
 * (`piece` 1) or the knight (0). Returns D and leaves the layers at `layerStart`, `layerIdx`
 * and `layerVal`, or returns -1 when no target is reachable (including no source or no target).
 */
export function solve(piece: i32): i32 {
  const met = begin(piece);
  if (i32At(starts, 1) == 0) return -1;
  const distance = met != 0 ? 0 : forward();
  if (distance < 0) return -1;
  backward(distance);
  return distance;
}

/**
 * Fills from the sources until no square is left to reach (the caller wrote no targets);
 * returns the number of frontiers, left at `starts`, `poolUnit` and `poolBits` (units padded):
 * F_0 .. F_(n-1), each square's distance its frontier's index.
 */
export function spread(piece: i32): i32 {
  begin(piece);
  if (i32At(starts, 1) == 0) return 0;
  forward();
  return frontiers;
}

/** Makes F_0 of the sources for the king (`piece` 1) or the knight (0); returns the targets it meets. */
function begin(piece: i32): u64 {
  king = piece == 1;
  reach = king ? rank + 1 : 2 * rank + 1;
  lo = 0x7fffffff;
  hi = -1;
  let n = 0;
  let met: u64 = 0;
  for (let w = 0; w < units; w++) {
    const x = u64At(sources, w);
    if (x == 0) continue;
    const u = w + pad;
    setI32(poolUnit, n, u);
    setU64(poolBits, n++, x);
    setU64(open, u, u64At(open, u) & ~x);
    met |= x & u64At(targets, u);
    lo = min(lo, u);
    hi = u;
  }
  setI32(starts, 0, 0);
  setI32(starts, 1, n);
  frontiers = 1;
  return met;
}

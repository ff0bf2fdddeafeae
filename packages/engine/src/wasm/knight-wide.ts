/**
 * The king's and the knight's fill for boards whose ranks are whole 64-bit units (64 x 64,
 * 128 x 128, 256 x 256, ...), in AssemblyScript, compiled to WebAssembly by `npm run build`
 * (`scripts/build-wasm.mjs`). The same algorithm as `knight-wide.ts` and the king of
 * `leapers.ts`, where a unit is two 32-bit halves (or a rank of 256 files eight words) and every
 * shift and carry is done twice; here a unit is one `u64`. `knight-wide-wasm.ts` loads it.
 * Frontiers stay sparse lists of units: a maze king's frontier is a dozen words a step, so a
 * step costs in proportion to the frontier, never to the board.
 *
 * Memory, laid out by `layout` for one board size from the module's heap base (all unit arrays
 * padded with `pad` zero units on both sides, so moves off the board need no bounds check):
 * the four file masks, the passable squares not yet reached (`open`), the targets, the emitted
 * moves (`out`, all zero between steps), the touched units, the sources (unpadded), the pool of
 * frontier entries (unit, bits), the frontier starts, and the layers as 32-bit words
 * (`layerStart`, `layerIdx`, `layerVal`) in the form of `SparseLayers`.
 */

let units: i32 = 0;
let rank: i32 = 0;
let pad: i32 = 0;
let east1: usize = 0;
let east2: usize = 0;
let west1: usize = 0;
let west2: usize = 0;
let open: usize = 0;
let targets: usize = 0;
let out: usize = 0;
let touched: usize = 0;
let sources: usize = 0;
let poolUnit: usize = 0;
let poolBits: usize = 0;
let starts: usize = 0;
let layerStart: usize = 0;
let layerIdx: usize = 0;
let layerVal: usize = 0;
let layerWords: i32 = 0;
/** The piece of the solve under way: the king when true, else the knight. */
let king = false;

// @ts-ignore: decorator
@inline
function u64At(base: usize, i: i32): u64 {
  return load<u64>(base + (<usize>i << 3));
}

// @ts-ignore: decorator
@inline
function setU64(base: usize, i: i32, v: u64): void {
  store<u64>(base + (<usize>i << 3), v);
}

// @ts-ignore: decorator
@inline
function i32At(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}

// @ts-ignore: decorator
@inline
function setI32(base: usize, i: i32, v: i32): void {
  store<i32>(base + (<usize>i << 2), v);
}

/** Lays the arrays out for a board of `units_` units, `rank_` a rank; returns the bytes it needs. */
export function layout(units_: i32, rank_: i32, squares: i32): usize {
  units = units_;
  rank = rank_;
  pad = 2 * rank + 2;
  const padded = <usize>(units + 2 * pad) << 3;
  // A unit joins a frontier only with a square not reached before: at most 64 times, plus once
  // as a source.
  const entries = <usize>(65 * units);
  let at = (__heap_base + 7) & ~7;
  east1 = at;
  east2 = east1 + padded;
  west1 = east2 + padded;
  west2 = west1 + padded;
  open = west2 + padded;
  targets = open + padded;
  out = targets + padded;
  sources = out + padded;
  poolBits = sources + (<usize>units << 3);
  poolUnit = poolBits + (entries << 3);
  touched = poolUnit + (entries << 2);
  starts = touched + (padded >> 1);
  layerStart = starts + (<usize>(squares + 2) << 2);
  layerIdx = layerStart + (<usize>(squares + 2) << 2);
  layerVal = layerIdx + (entries << 3);
  return layerVal + (entries << 3);
}

/** Byte offset of an array `layout` placed: 0-3 the masks, 4 open, 5 targets, 6 sources, 7-9 the layers. */
export function offset(which: i32): usize {
  switch (which) {
    case 0:
      return east1;
    case 1:
      return east2;
    case 2:
      return west1;
    case 3:
      return west2;
    case 4:
      return open;
    case 5:
      return targets;
    case 6:
      return sources;
    case 7:
      return layerStart;
    case 8:
      return layerIdx;
    default:
      return layerVal;
  }
}

/** Padding, in units (the masks, open and targets start with it). */
export function padding(): i32 {
  return pad;
}

/** Words in the layers of the last `solve`. */
export function words(): i32 {
  return layerWords;
}

/** ORs `v` into `out` at unit `u`, listing `u` when it turns non-zero; returns the new count. */
// @ts-ignore: decorator
@inline
function emit(n: i32, u: i32, v: u64): i32 {
  const old = u64At(out, u);
  setU64(out, u, old | v);
  if (old == 0 && v != 0) setI32(touched, n++, u);
  return n;
}

/** Emits the knight moves of pool entries `from .. to`; returns the number of touched units. */
function stepKnight(from: i32, to: i32): i32 {
  const r2 = 2 * rank;
  let n = 0;
  for (let e = from; e < to; e++) {
    const x = u64At(poolBits, e);
    if (x == 0) continue;
    const u = i32At(poolUnit, e);
    const e1 = x & u64At(east1, u);
    const w1 = x & u64At(west1, u);
    const e2 = x & u64At(east2, u);
    const w2 = x & u64At(west2, u);
    // One file east or west lands two ranks up or down; two files, one rank.
    const one = (e1 << 1) | (w1 >> 1);
    const two = (e2 << 2) | (w2 >> 2);
    n = emit(n, u + r2, one);
    n = emit(n, u - r2, one);
    n = emit(n, u + rank, two);
    n = emit(n, u - rank, two);
    // Carries into the neighbouring units of the rank: the top bits east, the bottom bits west.
    const oneEast = e1 >> 63;
    const twoEast = e2 >> 62;
    if ((oneEast | twoEast) != 0) {
      n = emit(n, u + 1 + r2, oneEast);
      n = emit(n, u + 1 - r2, oneEast);
      n = emit(n, u + 1 + rank, twoEast);
      n = emit(n, u + 1 - rank, twoEast);
    }
    const oneWest = w1 << 63;
    const twoWest = w2 << 62;
    if ((oneWest | twoWest) != 0) {
      n = emit(n, u - 1 + r2, oneWest);
      n = emit(n, u - 1 - r2, oneWest);
      n = emit(n, u - 1 + rank, twoWest);
      n = emit(n, u - 1 - rank, twoWest);
    }
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
    const h = x | (east << 1) | (west >> 1);
    n = emit(n, u + rank, h);
    n = emit(n, u, h);
    n = emit(n, u - rank, h);
    const carryEast = east >> 63;
    if (carryEast != 0) {
      n = emit(n, u + 1 + rank, carryEast);
      n = emit(n, u + 1, carryEast);
      n = emit(n, u + 1 - rank, carryEast);
    }
    const carryWest = west << 63;
    if (carryWest != 0) {
      n = emit(n, u - 1 + rank, carryWest);
      n = emit(n, u - 1, carryWest);
      n = emit(n, u - 1 - rank, carryWest);
    }
  }
  return n;
}

/** Emits the moves of the piece under way (see `king`); returns the number of touched units. */
function step(from: i32, to: i32): i32 {
  return king ? stepKing(from, to) : stepKnight(from, to);
}

/** Forward fill until a frontier meets the targets; returns its step, or -1. */
function forward(): i32 {
  for (let k = 0; k <= units << 6; k++) {
    const to = i32At(starts, k + 1);
    const n = step(i32At(starts, k), to);
    let at = to;
    let hit: u64 = 0;
    for (let i = 0; i < n; i++) {
      const u = i32At(touched, i);
      const v = u64At(out, u) & u64At(open, u);
      setU64(out, u, 0);
      if (v != 0) {
        setU64(open, u, u64At(open, u) & ~v);
        setI32(poolUnit, at, u);
        setU64(poolBits, at++, v);
        hit |= v & u64At(targets, u);
      }
    }
    if (at == to) return -1;
    setI32(starts, k + 2, at);
    if (hit != 0) return k + 1;
  }
  return -1; // not reached: every step reaches a square not reached before
}

/** Turns frontiers 0..D into layers in place: L_D = F_D ∩ T', L_k = F_k ∩ moves(L_{k+1}). */
function backward(distance: i32): void {
  for (let e = i32At(starts, distance); e < i32At(starts, distance + 1); e++) {
    setU64(poolBits, e, u64At(poolBits, e) & u64At(targets, i32At(poolUnit, e)));
  }
  // Both pieces move symmetrically: the squares a move comes from are the squares it reaches.
  for (let k = distance; k > 0; k--) {
    const n = step(i32At(starts, k), i32At(starts, k + 1));
    for (let e = i32At(starts, k - 1); e < i32At(starts, k); e++) {
      setU64(poolBits, e, u64At(poolBits, e) & u64At(out, i32At(poolUnit, e)));
    }
    for (let i = 0; i < n; i++) setU64(out, i32At(touched, i), 0);
  }
}

/** Layers 0..D as 32-bit words with unpadded indices; a zero word is written, then overwritten. */
function layersOut(distance: i32): void {
  let at = 0;
  for (let k = 0; k <= distance; k++) {
    setI32(layerStart, k, at);
    for (let e = i32At(starts, k); e < i32At(starts, k + 1); e++) {
      const w = (i32At(poolUnit, e) - pad) << 1;
      const x = u64At(poolBits, e);
      setI32(layerIdx, at, w);
      setI32(layerVal, at, <i32>x);
      at += <i32>(<u32>x != 0);
      setI32(layerIdx, at, w + 1);
      setI32(layerVal, at, <i32>(x >> 32));
      at += <i32>((x >> 32) != 0);
    }
  }
  setI32(layerStart, distance + 1, at);
  layerWords = at;
}

/**
 * Solves the problem whose passable set, targets and sources the caller wrote into `open`,
 * `targets` and `sources` (sources and targets within the passable set), for the king
 * (`piece` 1) or the knight (0). Returns D and leaves the layers at `layerStart`, `layerIdx`
 * and `layerVal`, or returns -1 when no target is reachable (including no source or no target).
 */
export function solve(piece: i32): i32 {
  king = piece == 1;
  let n = 0;
  let hit: u64 = 0;
  for (let w = 0; w < units; w++) {
    const x = u64At(sources, w);
    if (x == 0) continue;
    const u = w + pad;
    setI32(poolUnit, n, u);
    setU64(poolBits, n++, x);
    setU64(open, u, u64At(open, u) & ~x);
    hit |= x & u64At(targets, u);
  }
  setI32(starts, 0, 0);
  setI32(starts, 1, n);
  if (n == 0) return -1;
  const distance = hit != 0 ? 0 : forward();
  if (distance < 0) return -1;
  backward(distance);
  layersOut(distance);
  return distance;
}

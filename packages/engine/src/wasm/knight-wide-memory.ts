/**
 * The memory of the wide king and knight kernel (`knight-wide.ts`, which re-exports `layout`,
 * `offset` and `padding`): where each array lives, laid out by `layout` for one board size
 * from the module's heap base, and the loads and stores of units and words. A file of its own
 * so that the kernel's steps stay readable; AssemblyScript compiles both into one module.
 *
 * Every unit array is padded with `pad` zero units on both sides, so moves off the board need no
 * bounds check: the four file masks, the passable squares not yet reached (`open`), the
 * targets, the emitted moves (`out`, all zero between steps), the sources (unpadded), the
 * touched units, the pool of frontier entries (unit, bits), the frontier starts, the layers as
 * 32-bit words (`layerStart`, `layerIdx`, `layerVal`) in the form of `SparseLayers`, the
 * scattered frontier of a pulled step (`dense`, all zero between steps), and the squares in each
 * layer (`layerCount`).
 */

/** Units of the board, units a rank, and the padding (units) on either side of each array. */
export let units: i32 = 0;
export let rank: i32 = 0;
export let pad: i32 = 0;
/** Byte offsets of the arrays. */
export let east1: usize = 0;
export let east2: usize = 0;
export let west1: usize = 0;
export let west2: usize = 0;
export let open: usize = 0;
export let targets: usize = 0;
export let out: usize = 0;
export let dense: usize = 0;
export let touched: usize = 0;
export let sources: usize = 0;
export let poolUnit: usize = 0;
export let poolBits: usize = 0;
export let starts: usize = 0;
export let layerStart: usize = 0;
export let layerIdx: usize = 0;
export let layerVal: usize = 0;
export let layerCount: usize = 0;
/** Words `layerIdx` and `layerVal` hold. */
export let layerCap: i32 = 0;

// @ts-ignore: decorator
@inline
export function u64At(base: usize, i: i32): u64 {
  return load<u64>(base + (<usize>i << 3));
}

// @ts-ignore: decorator
@inline
export function setU64(base: usize, i: i32, v: u64): void {
  store<u64>(base + (<usize>i << 3), v);
}

// @ts-ignore: decorator
@inline
export function i32At(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}

// @ts-ignore: decorator
@inline
export function setI32(base: usize, i: i32, v: i32): void {
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
  layerCap = <i32>entries * 2;
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
  dense = layerVal + (entries << 3);
  layerCount = dense + padded;
  return layerCount + (<usize>(squares + 2) << 2);
}

/**
 * Byte offset of an array `layout` placed: 0-3 the masks, 4 open, 5 targets, 6 sources, 7-10
 * the layers, 11-13 the frontiers (starts, units, bits).
 */
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
    case 9:
      return layerVal;
    case 10:
      return layerCount;
    case 11:
      return starts;
    case 12:
      return poolUnit;
    default:
      return poolBits;
  }
}

/** Padding, in units (the masks, open and targets start with it). */
export function padding(): i32 {
  return pad;
}


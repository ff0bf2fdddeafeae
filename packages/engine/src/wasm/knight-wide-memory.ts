/**
 * The memory of the wide king and knight kernel (`knight-wide.ts`, which re-exports `layout`,
 * `offset` and `padding`): where each array lives, laid out by `layout` for one board size
 * from the module's heap base (the loads and stores of units and words: `units.ts`). A file
 * of its own so that the kernel's steps stay readable; AssemblyScript compiles both into one
 * module.
 *
 * Every unit array is padded with `pad` zero units on both sides, so moves off the board need no
 * bounds check: the four file masks, the passable squares not yet reached (`open`), the
 * targets, the emitted moves (`out`, all zero between steps), the scattered frontier of a pulled
 * step (`dense`, all zero between steps); then unpadded: the sources, the touched units, and the
 * pool, the frontier starts and the layers (`layers.ts`).
 */

import { layersOffset, layOutLayers } from './layers';

export { i32At, setI32, setU64, u64At } from './units';

/** Units of the board, units a rank, and the padding (units) on either side of each array. */
export let units: i32 = 0;
export let rank: i32 = 0;
export let pad: i32 = 0;
/** Byte offsets of the arrays (the pool, the frontier starts and the layers: `layers.ts`). */
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

/** Lays the arrays out for a board of `units_` units, `rank_` a rank; returns the bytes it needs. */
export function layout(units_: i32, rank_: i32, squares: i32): usize {
  units = units_;
  rank = rank_;
  pad = 2 * rank + 2;
  const padded = <usize>(units + 2 * pad) << 3;
  east1 = (__heap_base + 7) & ~7;
  east2 = east1 + padded;
  west1 = east2 + padded;
  west2 = west1 + padded;
  open = west2 + padded;
  targets = open + padded;
  out = targets + padded;
  dense = out + padded;
  sources = dense + padded;
  touched = sources + (<usize>units << 3);
  // A unit joins a frontier only with a square not reached before: at most 64 times, plus once
  // as a source.
  return layOutLayers(touched + (padded >> 1), <usize>(65 * units), squares, pad);
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
    default:
      return layersOffset(which - 7);
  }
}

/** Padding, in units (the masks, open and targets start with it). */
export function padding(): i32 {
  return pad;
}


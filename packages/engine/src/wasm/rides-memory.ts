/**
 * The memory of the rides kernel (`rides.ts`, which re-exports `layout`, `offset` and
 * `padding`): where each array lives, laid out by `layout` for one board size from the module's
 * heap base (the loads and stores of units and words: `units.ts`). A file of its own so that
 * the kernel's rides stay readable; AssemblyScript compiles both into one module.
 *
 * A unit is 64 squares of the board in its square order (square i in unit i >> 6, bit i & 63),
 * which is the engine's 32-bit words taken in pairs, low word first. Every unit array is padded
 * with `pad` zero units on both sides, more than a move's longest shift in units, so a ride
 * reads past the board's ends without a bounds check: the guards (the squares a move may start
 * from, those it does not carry off the board's side, less a lame leap's blocked starts, one
 * array a slot), the passable squares, those not yet reached (`open`), the targets, the squares
 * a ride starts from (`src`, all zero between rides), a ride's squares that may go on (`chain`,
 * all zero between rides), the moves of a step (`out`, all zero between steps), the landings
 * of a limited ride's leaps (`leapA`, `leapB`, by turns, all zero between rides); then
 * unpadded: the sources, the moves (`moves`: delta, guard slot, and 0 for a ride to the edge
 * or the most leaps, 1 for a leap; forward moves first), and the pool, the frontier starts and the layers (`layers.ts`).
 */

import { layersOffset, layOutLayers } from './layers';

export { i32At, setI32, setU64, u64At } from './units';

/** Units of the board, and the padding (units) on either side of each array. */
export let units: i32 = 0;
export let pad: i32 = 0;
/** Guard arrays the layout holds (a move's guard is one of them; moves may share one). */
export const GUARDS: i32 = 32;
/** Moves (forward and backward together) the layout holds. */
export const MOVES: i32 = 64;
/** Byte offsets of the arrays; the guards are `GUARDS` arrays from `guards` on, `padded` bytes apart. */
export let guards: usize = 0;
export let padded: usize = 0;
export let passable: usize = 0;
export let open: usize = 0;
export let targets: usize = 0;
export let src: usize = 0;
export let chain: usize = 0;
export let out: usize = 0;
export let leapA: usize = 0;
export let leapB: usize = 0;
export let sources: usize = 0;
export let moves: usize = 0;

/**
 * Lays the arrays out for a board of `units_` units whose longest move shifts by `reach`
 * squares; returns the bytes it needs.
 */
export function layout(units_: i32, reach: i32, squares: i32): usize {
  units = units_;
  pad = (reach >> 6) + 2;
  padded = <usize>(units + 2 * pad) << 3;
  guards = (__heap_base + 7) & ~7;
  passable = guards + <usize>GUARDS * padded;
  open = passable + padded;
  targets = open + padded;
  src = targets + padded;
  chain = src + padded;
  out = chain + padded;
  leapA = out + padded;
  leapB = leapA + padded;
  sources = leapB + padded;
  moves = sources + (<usize>units << 3);
  // A unit joins a frontier only with a square not reached before: at most 64 times, plus once
  // as a source.
  return layOutLayers(moves + (<usize>MOVES * 3 << 2), <usize>(65 * units), squares, pad);
}

/**
 * Byte offset of an array `layout` placed: 0 the guards, 1 passable, 2 targets, 3 sources,
 * 4 the moves, 5-8 the layers (start, idx, val, count), 9-11 the frontiers (starts, units, bits).
 */
export function offset(which: i32): usize {
  switch (which) {
    case 0:
      return guards;
    case 1:
      return passable;
    case 2:
      return targets;
    case 3:
      return sources;
    case 4:
      return moves;
    default:
      return layersOffset(which - 5);
  }
}

/** Padding, in units (the guards, passable and targets start with it). */
export function padding(): i32 {
  return pad;
}

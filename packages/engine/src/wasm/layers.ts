/**
 * The frontiers and the layers of the kernels whose frontiers are pools of 64-bit unit entries
 * (`knight-wide.ts`, `rides.ts`; AssemblyScript compiles a copy into each module): where they
 * lie (laid out by `layOutLayers` from each kernel's layout), and the backward pass's output.
 *
 * F_k is pool entries `starts[k] .. starts[k + 1]`, each a unit (padded index) and its bits. The
 * layers are written as the backward pass finds them, L_D first, only their non-zero 32-bit
 * words, from the top of the layer words down, then moved to the bottom: the form of
 * `SparseLayers` (`layerStart`, `layerIdx`, `layerVal`), with each layer's squares counted
 * (`layerCount`).
 */

import { i32At, setI32, setU64, u64At } from './units';

/** Byte offsets of the pool, the frontier starts and the layers. */
export let poolBits: usize = 0;
export let poolUnit: usize = 0;
export let starts: usize = 0;
export let layerStart: usize = 0;
export let layerIdx: usize = 0;
export let layerVal: usize = 0;
export let layerCount: usize = 0;
/** Words `layerIdx` and `layerVal` hold. */
export let layerCap: i32 = 0;
/** The padding of the units' indices, in units. */
let unitPad: i32 = 0;
/** The next free layer word is below this one. */
let at: i32 = 0;
/** Words in the layers of the last solve. */
let layerWords: i32 = 0;

/**
 * Places the pool (`entries` entries), the frontier starts and the layers of a board of
 * `squares` squares from byte `base`, for units padded by `pad`; returns the end.
 */
export function layOutLayers(base: usize, entries: usize, squares: i32, pad: i32): usize {
  unitPad = pad;
  layerCap = <i32>entries * 2;
  poolBits = base;
  poolUnit = poolBits + (entries << 3);
  starts = poolUnit + (entries << 2);
  layerStart = starts + (<usize>(squares + 2) << 2);
  layerIdx = layerStart + (<usize>(squares + 2) << 2);
  layerVal = layerIdx + (entries << 3);
  layerCount = layerVal + (entries << 3);
  return layerCount + (<usize>(squares + 2) << 2);
}

/**
 * Byte offset of the arrays placed here, for a kernel's `offset`: 0-3 the layers (start, idx,
 * val, count), 4-6 the frontiers (starts, units, bits).
 */
export function layersOffset(which: i32): usize {
  switch (which) {
    case 0:
      return layerStart;
    case 1:
      return layerIdx;
    case 2:
      return layerVal;
    case 3:
      return layerCount;
    case 4:
      return starts;
    case 5:
      return poolUnit;
    default:
      return poolBits;
  }
}

/** Words in the layers of the last solve. */
export function words(): i32 {
  return layerWords;
}

/** Starts the layers of a solve at distance D: L_D = F_D ∩ `mask` (the targets). */
export function firstLayer(distance: i32, mask: usize): void {
  setI32(layerStart, distance + 1, layerCap);
  at = layerCap;
  keep(distance, mask);
}

/**
 * Keeps of F_k (pool entries) the squares in `mask`, and writes the non-zero words of what is
 * kept into the layer words below the last written; layer k's squares are counted.
 */
export function keep(k: i32, mask: usize): void {
  let count: u64 = 0;
  let next = at;
  for (let e = i32At(starts, k); e < i32At(starts, k + 1); e++) {
    const u = i32At(poolUnit, e);
    const x = u64At(poolBits, e) & u64At(mask, u);
    setU64(poolBits, e, x);
    if (x == 0) continue;
    count += popcnt(x);
    const w = (u - unitPad) << 1;
    // Both halves written into the free word below `next`, each kept only when non-zero (at
    // worst word -1 is written, the last of `layerStart`, which holds no layer's start).
    setI32(layerIdx, next - 1, w + 1);
    setI32(layerVal, next - 1, <i32>(x >> 32));
    next -= <i32>((x >> 32) != 0);
    setI32(layerIdx, next - 1, w);
    setI32(layerVal, next - 1, <i32>x);
    next -= <i32>(<u32>x != 0);
  }
  setI32(layerCount, k, <i32>count);
  setI32(layerStart, k, next);
  at = next;
}

/** Moves layers 0 .. D, written from the top down, to the bottom of the layer words. */
export function finishLayers(distance: i32): void {
  layerWords = layerCap - at;
  memory.copy(layerIdx, layerIdx + (<usize>at << 2), <usize>layerWords << 2);
  memory.copy(layerVal, layerVal + (<usize>at << 2), <usize>layerWords << 2);
  for (let k = 0; k <= distance + 1; k++) setI32(layerStart, k, i32At(layerStart, k) - at);
}

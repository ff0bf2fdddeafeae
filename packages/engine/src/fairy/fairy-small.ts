/**
 * Fairy pieces on small boards other than 8 x 8 (up to `SMALL_WORDS` words, 256 squares: the
 * Xiangqi board, 10 x 10, 13 x 11, ...): the fill on dense word arrays. On a board of a few words
 * the general fill's sparse lists, accumulators and per-layer arrays cost several times the fill
 * itself, as on 8 x 8 (`fairy64.ts`); here a frontier is its few words and a leap is one shift
 * and one AND a word.
 *
 * A ray's landings from a set X are `pro ∩ (X + d)`, pro made once per solve from P; the sets a
 * step shifts are padded so that a shift needs no bounds check (`fairy-small-rays.ts`). Hoppers
 * hop set-wise (`fairy-small-hops.ts`).
 *
 * With a single target, the squares one move before it are found first (one backward step from
 * one square): none, and the target is out of reach (unless a source); else a frontier that meets
 * them ends the forward fill a step early, and they are the first backward step. Frontiers F_0 .. F_D and then the layers live in one module array, layer k
 * at words `k * words ..`, which `smallLayerWords` copies out.
 */
import type { FairyPiece } from '../betza/betza.js';
import { SMALL_WORDS } from '../board/board.js';
import type { Geometry } from '../board/geometry.js';
import { heldBytes, keptTables } from '../util/memory.js';
import { rideDense } from './fairy-rides.js';
import { hopSmall as hopSmallBound, type SmallHops, smallHops } from './fairy-small-hops.js';
import {
  makePro,
  PAD as PADBound,
  paddedSet,
  type RayTable,
  rayTable,
  shiftedAt as shiftedAtBound,
} from './fairy-small-rays.js';

// Imports the inner loops use, copied once: a loader that rewrites modules (tsx, in the bench)
// may read an imported binding through a getter at every use.
const PAD = PADBound;
const shiftedAt = shiftedAtBound;
const hopSmall = hopSmallBound;

/** Frontiers, then layers: word `k * words + w` is word w of step k (grown as needed, up to 256 steps). */
let steps: Int32Array = new Int32Array(64 * SMALL_WORDS);
/** Padded sets (words PAD ..): a step's source, a ride's last leap, P. */
const front = paddedSet();
const rideFront = paddedSet();
const openPad = paddedSet();
/** P as it is (the words of `openPad`). */
const open = openPad.subarray(PAD);

/** Counts solves: a table's pro made in another solve is stale. */
let solveCount = 0;

/** A piece on one board: its tables and the scratch of its size. */
interface SmallPiece {
  readonly words: number;
  readonly forward: RayTable;
  readonly reverse: RayTable;
  readonly visited: Int32Array;
  readonly moved: Int32Array;
  readonly leap: Int32Array;
  readonly gen: Int32Array;
  /** The source of a step unpadded, for the rides by doubling. */
  readonly plain: Int32Array;
  /** With a single target, the squares one move before it. */
  readonly before: Int32Array;
  /** A hopper's hops, forward and reversed, or null; the squares its forward rides go over. */
  readonly hops: { forward: SmallHops; reverse: SmallHops; through: Int32Array } | null;
}

/** Per piece and board, in the `boards` cache (`memory.ts`): by canonical text (equal rays) and size. */
const pieces = keptTables<SmallPiece>('boards', 'small');

/** The tables and scratch of `piece` on `geo`, made on first use and kept while they fit. */
function smallPiece(geo: Geometry, piece: FairyPiece): SmallPiece {
  const id = `${piece.betza}@${geo.files}x${geo.ranks}`;
  let small = pieces.get(id);
  if (small === undefined) {
    const words = geo.words;
    const reversed = piece.rays.map(({ dx, dy, max, lame }) => ({
      dx: -dx,
      dy: -dy,
      max,
      lame: lame.map(([px, py]) => [px - dx, py - dy] as const),
    }));
    small = {
      words,
      forward: rayTable(geo, piece.rays),
      reverse: rayTable(geo, reversed),
      visited: new Int32Array(words),
      moved: new Int32Array(words),
      leap: new Int32Array(words),
      gen: new Int32Array(words),
      plain: new Int32Array(words),
      before: new Int32Array(words),
      hops:
        piece.hops.length > 0
          ? {
              forward: smallHops(geo, piece.hops, false),
              reverse: smallHops(geo, piece.hops, true),
              through: new Int32Array(words),
            }
          : null,
    };
    pieces.set(id, small, heldBytes(small));
  }
  return small;
}

/** Sets `small.moved` to every square one move along `table` from the set at `src[at]`. */
function step(small: SmallPiece, table: RayTable, src: ArrayLike<number>, at: number): void {
  const { moved, leap, words } = small;
  if (table.epoch !== solveCount) makePro(table, words, openPad, solveCount);
  for (let w = 0; w < words; w++) {
    front[PAD + w] = src[at + w];
    moved[w] = 0;
  }
  const { pro, q, t, max, chains, stride } = table;
  // Up to 4 words, the leaps' landings gather in four locals, each ray unrolled (a loop of 3
  // words costs as much again as its body); pro is zero past the board's words.
  const unrolled = words <= 4;
  let m0 = 0;
  let m1 = 0;
  let m2 = 0;
  let m3 = 0;
  for (let i = 0; i < table.count; i++) {
    const chain = chains[i];
    if (chain !== null) {
      for (let w = 0; w < words; w++) small.plain[w] = front[PAD + w];
      rideDense(small.plain, table.delta[i], chain, small.gen, moved);
      continue;
    }
    const base = i * stride;
    const a = PAD - q[i];
    const ti = t[i];
    const ui = 31 - ti;
    const up = table.delta[i] >= 0;
    if (max[i] === 1 && unrolled) {
      if (up) {
        const c = (front[a - 1] >>> ui) >>> 1;
        const f0 = front[a];
        const f1 = front[a + 1];
        const f2 = front[a + 2];
        const f3 = front[a + 3];
        m0 |= pro[base] & ((f0 << ti) | c);
        m1 |= pro[base + 1] & ((f1 << ti) | ((f0 >>> ui) >>> 1));
        m2 |= pro[base + 2] & ((f2 << ti) | ((f1 >>> ui) >>> 1));
        m3 |= pro[base + 3] & ((f3 << ti) | ((f2 >>> ui) >>> 1));
      } else {
        const f0 = front[a];
        const f1 = front[a + 1];
        const f2 = front[a + 2];
        const f3 = front[a + 3];
        const f4 = front[a + 4];
        m0 |= pro[base] & ((f0 >>> ti) | ((f1 << ui) << 1));
        m1 |= pro[base + 1] & ((f1 >>> ti) | ((f2 << ui) << 1));
        m2 |= pro[base + 2] & ((f2 >>> ti) | ((f3 << ui) << 1));
        m3 |= pro[base + 3] & ((f3 >>> ti) | ((f4 << ui) << 1));
      }
      continue;
    }
    // A leap on a larger board, or a ride short of the board's edge leap by leap.
    let from = front;
    for (let j = 0; j < max[i]; j++) {
      let any = 0;
      for (let w = 0; w < words; w++) {
        const v = pro[base + w] & shiftedAt(from, w, q[i], ti, up);
        leap[w] = v;
        moved[w] |= v;
        any |= v;
      }
      if (any === 0) break;
      // The next leap reads these landings padded (never the array it writes).
      for (let w = 0; w < words; w++) rideFront[PAD + w] = leap[w];
      from = rideFront;
    }
  }
  if (unrolled) {
    moved[0] |= m0;
    if (words > 1) moved[1] |= m1;
    if (words > 2) moved[2] |= m2;
    if (words > 3) moved[3] |= m3;
  }
  const hops = small.hops;
  if (hops === null) return;
  if (table === small.reverse) hopSmall(hops.reverse, front, openPad, open, words, false, moved);
  else {
    // Forward, the rides before a hurdle skip earlier frontiers: visited less this one.
    const { through } = hops;
    const { visited } = small;
    for (let w = 0; w < words; w++) through[w] = openPad[PAD + w] & ~(visited[w] & ~front[PAD + w]);
    hopSmall(hops.forward, front, openPad, through, words, true, moved);
  }
}

/**
 * Solves a fairy question on a small board (P, S' and T' as `words` words at `data[0]`,
 * `data[words]`, `data[2 * words]`). Returns D and leaves L_0 .. L_D for `smallLayerWords`, or
 * returns -1 when no target is reachable.
 */
export function solveFairySmall(geo: Geometry, piece: FairyPiece, data: ArrayLike<number>): number {
  const words = geo.words;
  const t = 2 * words;
  let targetWords = 0;
  let target = 0;
  let source = 0;
  for (let w = 0; w < words; w++) {
    if (data[t + w] !== 0) targetWords++;
    target |= data[t + w];
    source |= data[words + w];
  }
  if (targetWords === 0 || source === 0) return -1; // S' or T' empty: nothing to fill
  const small = smallPiece(geo, piece);
  solveCount++;
  for (let w = 0; w < words; w++) openPad[PAD + w] = data[w];
  const { visited, moved, before } = small;
  const single = targetWords === 1 && (target & (target - 1)) === 0;
  if (single) {
    step(small, small.reverse, data, t);
    before.set(moved);
    let any = 0;
    for (let w = 0; w < words; w++) any |= moved[w] | (data[words + w] & data[t + w]);
    if (any === 0) return -1; // no square moves to the target, which no source is
  }
  if (small.hops !== null) small.hops.forward.seen.fill(0);
  let early = false;
  for (let w = 0; w < words; w++) {
    steps[w] = data[words + w];
    visited[w] = data[words + w];
  }
  let k = 0;
  for (;;) {
    const at = k * words;
    let hit = 0;
    let any = 0;
    let near = 0;
    for (let w = 0; w < words; w++) {
      hit |= steps[at + w] & data[t + w];
      any |= steps[at + w];
      near |= steps[at + w] & before[w];
    }
    if (hit !== 0) break;
    if (any === 0) return -1;
    if (at + 2 * words > steps.length) steps = grown(steps);
    k++;
    if (single && near !== 0) {
      // F_k ∩ T' is the target: the rest of F_k is never read.
      for (let w = 0; w < words; w++) steps[at + words + w] = data[t + w];
      early = true;
      break;
    }
    step(small, small.forward, steps, at);
    for (let w = 0; w < words; w++) {
      const v = moved[w] & ~visited[w];
      steps[at + words + w] = v;
      visited[w] |= v;
    }
  }
  const distance = k;
  for (let w = 0; w < words; w++) steps[distance * words + w] &= data[t + w];
  for (k = distance; k > 0; k--) {
    const moves = early && k === distance ? before : moved;
    if (moves === moved) step(small, small.reverse, steps, k * words);
    for (let w = 0; w < words; w++) steps[(k - 1) * words + w] &= moves[w];
  }
  return distance;
}

function grown(old: Int32Array): Int32Array {
  const out = new Int32Array(old.length * 2);
  out.set(old);
  return out;
}

/**
 * The layers the last `solveFairySmall` left (D = `distance`), copied out as L_0 .. L_D of
 * `words` words each: a plain array, which costs less to make than a typed one of a few words.
 */
export function smallLayerWords(distance: number, words: number): number[] {
  const size = (distance + 1) * words;
  const copy: number[] = [];
  for (let i = 0; i < size; i++) copy.push(steps[i]);
  return copy;
}
